//! The HTTP layer of `koma serve` against clients that stall, send too
//! much or send no HTTP at all: raw bytes over sockets. No assertion on a
//! time beyond "answered (or closed) before the client's own generous
//! timeout".

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use super::{small, start};
use koma::server::Config;

/// How long a client here waits for an answer before calling it lost.
const PATIENCE: Duration = Duration::from_secs(30);

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    s
}

/// Sends `raw` and reads until the server closes: the whole answer, or a
/// panic if it neither answers nor closes within [`PATIENCE`].
fn exchange(addr: SocketAddr, raw: &[u8]) -> String {
    let mut s = connect(addr);
    s.write_all(raw).unwrap();
    until_closed(&mut s)
}

fn until_closed(s: &mut TcpStream) -> String {
    let mut out = Vec::new();
    if let Err(e) = s.read_to_end(&mut out) {
        panic!(
            "neither answered nor closed within {PATIENCE:?} ({e}); had {:?}",
            String::from_utf8_lossy(&out)
        );
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn status(answer: &str) -> u16 {
    answer
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer:?}"))
}

/// Reads one answer off a kept-alive connection: status, head, body.
fn read_answer(r: &mut BufReader<TcpStream>) -> (u16, String, String) {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        let n = r.read_line(&mut line).expect("an answer in time");
        assert!(n > 0, "closed before the answer's head ended: {head:?}");
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no Content-Length in {head:?}"));
    let mut body = vec![0; length];
    r.read_exact(&mut body).unwrap();
    (
        status(&head),
        head,
        String::from_utf8_lossy(&body).into_owned(),
    )
}

const VARIANTS: &[u8] = b"GET /api/variants HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

#[test]
fn clients_that_stall_do_not_keep_others_from_being_answered() {
    let config = Config {
        workers: 2,
        max_connections: 8,
        // Longer than any client here waits: only making room frees a slot.
        head_timeout: Duration::from_secs(300),
        body_timeout: Duration::from_secs(300),
        idle_timeout: Duration::from_secs(300),
        ..small()
    };
    let addr = start(config);
    // Twelve stalled clients for eight connections and two workers: half a
    // request line, half a head, and (last, so that they stay open) heads
    // whose bodies never come, more of them than there are workers.
    let stalls: [&[u8]; 3] = [
        b"GET /api/vari",
        b"GET /api/variants HTTP/1.1\r\nHost: x\r\nAcc",
        b"POST /api/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"text",
    ];
    let mut stalled: Vec<TcpStream> = Vec::new();
    for stall in stalls {
        for _ in 0..4 {
            let mut s = connect(addr);
            s.write_all(stall).unwrap();
            stalled.push(s);
        }
    }
    for i in 0..5 {
        let a = exchange(addr, VARIANTS);
        assert_eq!(status(&a), 200, "request {i}: {a}");
        assert!(a.contains("\"slug\""), "{a}");
    }
    // Those that waited longest were closed to make room, without an answer.
    let first = until_closed(&mut stalled[0]);
    assert_eq!(first, "", "a half request line gets no answer");
    // A kept-alive connection: two requests one after the other, then two
    // sent at once, answered in order.
    let s = connect(addr);
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut w = s;
    for _ in 0..2 {
        w.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        let (code, head, body) = read_answer(&mut r);
        assert_eq!(code, 200, "{head}");
        assert!(head.contains("Connection: keep-alive"), "{head}");
        assert!(body.contains("\"slug\""), "{body}");
    }
    w.write_all(b"GET /nothing HTTP/1.1\r\nHost: x\r\n\r\nGET /app.js HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    assert_eq!(read_answer(&mut r).0, 404);
    let (code, _, body) = read_answer(&mut r);
    assert_eq!(code, 200);
    assert!(body.contains("/api/games"), "the script: {body}");
}

#[test]
fn requests_that_stall_are_dropped_after_their_time() {
    let addr = start(Config {
        head_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(1),
        ..small()
    });
    let a = exchange(
        addr,
        b"POST /api/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"text",
    );
    assert_eq!(status(&a), 408, "{a}");
    assert!(
        a.contains("the request body did not come within 1 s"),
        "{a}"
    );
    let a = exchange(addr, b"GET /api/variants HTTP/1.1\r\nHost: x\r\n");
    assert_eq!(status(&a), 408, "{a}");
    assert!(
        a.contains("the request head did not come within 1 s"),
        "{a}"
    );
    // A connection that says nothing, and one kept alive after its answer
    // with nothing more to ask, are closed without a word.
    assert_eq!(exchange(addr, b""), "");
    let s = connect(addr);
    let mut r = BufReader::new(s.try_clone().unwrap());
    (&s).write_all(b"GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    assert_eq!(read_answer(&mut r).0, 200);
    let mut rest = String::new();
    r.read_to_string(&mut rest)
        .expect("closed before the client's timeout");
    assert_eq!(rest, "");
    assert_eq!(status(&exchange(addr, VARIANTS)), 200);
}

#[test]
fn heads_too_large_or_not_http_are_refused() {
    let addr = start(small());
    let big = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(20_000)
    );
    let a = exchange(addr, big.as_bytes());
    assert_eq!(status(&a), 431, "{a}");
    assert!(a.contains("larger than 16384 bytes"), "{a}");
    let many: String = (0..100).map(|i| format!("X-{i}: {i}\r\n")).collect();
    let a = exchange(addr, format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes());
    assert_eq!(status(&a), 431, "{a}");
    assert!(a.contains("more than 64 header fields"), "{a}");

    for bad in [
        &b"GARBAGE\r\n\r\n"[..],
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET / FTP/1.1\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
        b"GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
    ] {
        let a = exchange(addr, bad);
        assert_eq!(status(&a), 400, "{:?}: {a}", String::from_utf8_lossy(bad));
        assert!(a.contains("malformed request"), "{a}");
    }
    let a = exchange(
        addr,
        b"POST /api/validate HTTP/1.1\r\nContent-Length: ten\r\n\r\n",
    );
    assert_eq!(status(&a), 400, "{a}");
    assert!(a.contains("not a number"), "{a}");
    let a = exchange(
        addr,
        b"POST /api/validate HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    );
    assert_eq!(status(&a), 400, "{a}");
    let a = exchange(
        addr,
        b"POST /api/validate HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    );
    assert_eq!(status(&a), 411, "{a}");

    // A client that waits for "100 Continue" before its body gets it.
    let body = br#"{"text": "not a variant"}"#;
    let mut s = connect(addr);
    write!(
        s,
        "POST /api/validate HTTP/1.1\r\nHost: x\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    let mut interim = [0u8; 25];
    s.read_exact(&mut interim).unwrap();
    assert_eq!(&interim, b"HTTP/1.1 100 Continue\r\n\r\n");
    s.write_all(body).unwrap();
    let a = until_closed(&mut s);
    assert_eq!(status(&a), 200, "{a}");
    assert!(a.contains("\"ok\":false"), "{a}");

    assert_eq!(status(&exchange(addr, VARIANTS)), 200);

    // Bodies held at once are bounded too: one larger than what is left of
    // the room for them waits for nothing and is refused.
    let tight = start(Config {
        max_bodies: 100,
        ..small()
    });
    let body = format!(r#"{{"text": "{}"}}"#, "x".repeat(200));
    let head = format!(
        "POST /api/validate HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let a = exchange(tight, format!("{head}{body}").as_bytes());
    assert_eq!(status(&a), 503, "{a}");
    assert!(a.contains("too many request bodies"), "{a}");
    let a = exchange(
        tight,
        b"POST /api/validate HTTP/1.1\r\nConnection: close\r\nContent-Length: 13\r\n\r\n{\"text\": \"x\"}",
    );
    assert_eq!(status(&a), 200, "{a}");
}

/// `koma serve` with few file descriptors, flooded with connections that
/// say nothing: `accept` fails, and the server goes on.
#[test]
fn a_failing_accept_does_not_stop_the_server() {
    let mut command = std::process::Command::new("sh");
    command.args([
        "-c",
        r#"ulimit -n 40 && exec "$0" serve --addr 127.0.0.1:0"#,
        env!("CARGO_BIN_EXE_koma"),
    ]);
    let (child, _, port) = super::start_serving(command);
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let flood: Vec<TcpStream> = (0..80).map(|_| connect(addr)).collect();
    let a = exchange(addr, VARIANTS);
    drop(flood);
    let again = exchange(addr, VARIANTS);
    let err = super::stop_serving(child);
    assert_eq!(status(&a), 200, "{a}\n{err}");
    assert_eq!(status(&again), 200, "{again}\n{err}");
    assert!(err.contains("cannot accept a connection"), "{err}");
}

/// `Server::stop` ends `run`, closing a connection kept open between
/// requests rather than waiting for it.
#[test]
fn stop_ends_the_server_with_idle_connections_open() {
    let server = std::sync::Arc::new(
        koma::server::Server::bind(
            "127.0.0.1:0",
            Config {
                idle_timeout: Duration::from_secs(300),
                ..small()
            },
        )
        .expect("a free port"),
    );
    let addr = server.addr();
    let (done, ended) = std::sync::mpsc::channel();
    let running = std::sync::Arc::clone(&server);
    std::thread::spawn(move || {
        running.run();
        let _ = done.send(());
    });
    let s = connect(addr);
    let mut r = BufReader::new(s.try_clone().unwrap());
    (&s).write_all(b"GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    assert_eq!(read_answer(&mut r).0, 200);
    server.stop();
    ended
        .recv_timeout(PATIENCE)
        .expect("run returned after stop");
    let mut rest = String::new();
    r.read_to_string(&mut rest)
        .expect("the idle connection closed");
    assert_eq!(rest, "");
}
