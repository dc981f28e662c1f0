//! `koma serve` over real sockets: a server bound to 127.0.0.1:0 in this
//! process, spoken to with a small HTTP/1.1 client written here.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use koma::position::AnyPosition;
use koma::server::{Config, Server};

use crate::common::{game, tests_dir};

mod http;
mod records;

fn start(config: Config) -> SocketAddr {
    let server = Server::bind("127.0.0.1:0", config).expect("a free port");
    let addr = server.addr();
    std::thread::spawn(move || server.run());
    addr
}

struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
    fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}

/// Decodes a chunked body.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = raw.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = std::str::from_utf8(&raw[..end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.trim(), 16).ok())
            .expect("a chunk size");
        raw = &raw[end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[..size]);
        raw = &raw[size + 2..];
    }
}

/// Sends one request (the connection closed after it) and reads the answer.
fn request(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> Answer {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) before reading all of a large body.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    Answer {
        status,
        head,
        body: String::from_utf8_lossy(&body).to_string(),
    }
}

fn post(addr: SocketAddr, path: &str, body: serde_json::Value) -> Answer {
    request(addr, "POST", path, body.to_string().as_bytes())
}

fn games() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(tests_dir().join("server/games.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (v, moves) = l.split_once('\t').expect("variant<TAB>moves");
            (
                v.to_string(),
                moves.split_whitespace().map(str::to_string).collect(),
            )
        })
        .collect()
}

fn small() -> Config {
    Config {
        max_body: 1024,
        max_sessions: 100,
        max_searches: 2,
        max_search_time: Duration::from_secs(2),
        ..Config::default()
    }
}

#[test]
fn bad_requests_get_a_status_and_a_message() {
    let addr = start(small());
    let big = vec![b' '; 2048];
    let a = request(addr, "POST", "/api/validate", &big);
    assert_eq!(a.status, 413, "{}", a.body);
    assert!(a.error().contains("1024 bytes"), "{}", a.body);

    let a = request(addr, "POST", "/api/games", b"{\"variant\": ");
    assert_eq!(a.status, 400);
    assert!(a.error().contains("not valid JSON"), "{}", a.body);
    let a = request(addr, "POST", "/api/games", b"[1, 2]");
    assert_eq!(a.status, 400);
    assert!(a.error().contains("JSON object"), "{}", a.body);

    let a = request(addr, "GET", "/no/such/page", b"");
    assert_eq!(a.status, 404);
    assert!(a.error().contains("/no/such/page"), "{}", a.body);
    let a = request(addr, "DELETE", "/api/games", b"");
    assert_eq!(a.status, 405, "{}", a.body);

    // Only embedded variants by name: never a file of this machine.
    let a = post(
        addr,
        "/api/games",
        serde_json::json!({"variant": "Cargo.toml"}),
    );
    assert_eq!(a.status, 404, "{}", a.body);
    assert!(a.error().contains("unknown variant"), "{}", a.body);
    let a = post(addr, "/api/games", serde_json::json!({"variant": 7}));
    assert_eq!(a.status, 400, "{}", a.body);

    let (variant, _) = &games()[0];
    let a = post(
        addr,
        "/api/games",
        serde_json::json!({"variant": variant, "sfen": "not an sfen"}),
    );
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(a.error().contains("SFEN"), "{}", a.body);
    let id = post(addr, "/api/games", serde_json::json!({"variant": variant})).json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let a = post(
        addr,
        &format!("/api/games/{id}/move"),
        serde_json::json!({"move": "1a1a"}),
    );
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(a.error().contains("1a1a"), "{}", a.body);
    let a = post(
        addr,
        &format!("/api/games/{id}/undo"),
        serde_json::json!({}),
    );
    assert_eq!(a.status, 409, "{}", a.body);
    let a = request(addr, "GET", "/api/games/nosuchgame", b"");
    assert_eq!(a.status, 404, "{}", a.body);
    let a = request(
        addr,
        "GET",
        &format!("/api/games/{id}/think?time=soon"),
        b"",
    );
    assert_eq!(a.status, 400, "{}", a.body);
    let a = post(
        addr,
        "/api/perft",
        serde_json::json!({"variant": variant, "depth": 9}),
    );
    assert_eq!(a.status, 400, "{}", a.body);
}

#[test]
fn fifty_games_at_once_get_the_right_answers() {
    let addr = start(Config::default());
    let (variant, moves) = games().remove(0);
    let threads: Vec<_> = (0..50)
        .map(|i| {
            let (variant, moves) = (variant.clone(), moves.clone());
            std::thread::spawn(move || {
                let g = game(&variant);
                let mut pos = AnyPosition::start(&g);
                let a = post(addr, "/api/games", serde_json::json!({"variant": variant}));
                assert_eq!(a.status, 200, "{}", a.body);
                let state = a.json();
                let id = state["id"].as_str().unwrap().to_string();
                assert_eq!(state["sfen"], pos.sfen());
                // Each game stops at a different ply, so the answers differ.
                let n = 1 + i % moves.len();
                for mv in &moves[..n] {
                    let a = post(
                        addr,
                        &format!("/api/games/{id}/move"),
                        serde_json::json!({"move": mv}),
                    );
                    assert_eq!(a.status, 200, "{mv}: {}", a.body);
                    pos.try_play(pos.parse_move(mv).unwrap()).unwrap();
                    let state = a.json();
                    assert_eq!(state["sfen"], pos.sfen(), "after {mv}");
                    let want = if pos.outcome().is_some() {
                        0
                    } else {
                        pos.legal_moves().len()
                    };
                    assert_eq!(state["moves"].as_array().unwrap().len(), want);
                }
                let state = request(addr, "GET", &format!("/api/games/{id}"), b"").json();
                assert_eq!(state["history"].as_array().unwrap().len(), n);
                if n == moves.len() {
                    assert_eq!(state["outcome"]["reason"], "checkmate");
                    assert_eq!(state["outcome"]["winner"], "sente");
                } else {
                    assert!(state["outcome"].is_null());
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a game thread");
    }
}

#[test]
fn searches_are_bounded_in_number_and_time() {
    let addr = start(small());
    let (variant, _) = &games()[0];
    let ids: Vec<String> = (0..3)
        .map(|_| {
            post(addr, "/api/games", serde_json::json!({"variant": variant})).json()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    // Two long searches (asked for a minute, held to two seconds), each
    // known to hold its slot once its answer's head has come.
    let started = Instant::now();
    let long: Vec<_> = ids[..2]
        .iter()
        .map(|id| {
            let mut s = TcpStream::connect(addr).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
            write!(
                s,
                "GET /api/games/{id}/think?time=60000&play=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            .unwrap();
            let mut head = Vec::new();
            let mut byte = [0u8];
            while !head.ends_with(b"\r\n\r\n") {
                s.read_exact(&mut byte).expect("the head of the stream");
                head.push(byte[0]);
            }
            let head = String::from_utf8(head).unwrap();
            assert!(head.starts_with("HTTP/1.1 200"), "{head}");
            assert!(head.contains("text/event-stream"), "{head}");
            std::thread::spawn(move || {
                let mut rest = Vec::new();
                let _ = s.read_to_end(&mut rest);
                String::from_utf8(dechunk(&rest)).unwrap()
            })
        })
        .collect();
    let third = request(
        addr,
        "GET",
        &format!("/api/games/{}/think?time=100", ids[2]),
        b"",
    );
    assert_eq!(third.status, 503, "{}", third.body);
    assert!(third.error().contains("busy"), "{}", third.body);
    for t in long {
        let body = t.join().unwrap();
        assert!(body.contains("event: info"), "{body}");
        assert!(body.contains("event: bestmove"), "{body}");
        assert!(body.contains("event: state"), "{body}");
        assert!(body.ends_with("event: done\ndata: {}\n\n"), "{body}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    // The searches played their moves; the slots are free again.
    let state = request(addr, "GET", &format!("/api/games/{}", ids[0]), b"").json();
    assert_eq!(state["history"].as_array().unwrap().len(), 1);
    let again = request(
        addr,
        "GET",
        &format!("/api/games/{}/think?depth=2", ids[2]),
        b"",
    );
    assert_eq!(again.status, 200, "{}", again.body);
    let state = request(addr, "GET", &format!("/api/games/{}", ids[2]), b"").json();
    assert_eq!(
        state["history"].as_array().unwrap().len(),
        0,
        "play=0 plays nothing"
    );
}

#[test]
fn sessions_are_bounded_in_number() {
    let addr = start(Config {
        max_sessions: 3,
        ..small()
    });
    let (variant, _) = &games()[0];
    let ids: Vec<String> = (0..4)
        .map(|_| {
            post(addr, "/api/games", serde_json::json!({"variant": variant})).json()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        request(addr, "GET", &format!("/api/games/{}", ids[0]), b"").status,
        404
    );
    for id in &ids[1..] {
        assert_eq!(
            request(addr, "GET", &format!("/api/games/{id}"), b"").status,
            200
        );
    }
    let expiring = start(Config {
        session_ttl: Duration::from_millis(300),
        ..small()
    });
    let id = post(
        expiring,
        "/api/games",
        serde_json::json!({"variant": variant}),
    )
    .json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        request(expiring, "GET", &format!("/api/games/{id}"), b"").status,
        404
    );
}

#[test]
fn variant_text_is_checked_drawn_and_counted() {
    let addr = start(Config::default());
    let (variant, _) = &games()[0];
    let text = request(addr, "GET", &format!("/api/variants/{variant}"), b"").body;
    let a = post(addr, "/api/validate", serde_json::json!({"text": text}));
    assert_eq!(a.json()["ok"], true, "{}", a.body);
    let roles = a.json()["roles"].as_array().unwrap().clone();

    // Give the board too many ranks: the message is placed on that line,
    // under the value.
    let (n, old) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start().starts_with("rows:"))
        .expect("a rows: line");
    let indent = old.len() - old.trim_start().len();
    let broken = text.replacen(old, &format!("{}rows: 99", " ".repeat(indent)), 1);
    let a = post(addr, "/api/validate", serde_json::json!({"text": broken}));
    let r = a.json();
    assert_eq!(r["ok"], false, "{}", a.body);
    let d = &r["diagnostics"][0];
    assert_eq!(d["line"].as_u64().unwrap() as usize, n + 1, "{}", a.body);
    assert_eq!(
        d["column"].as_u64().unwrap() as usize,
        indent + 7,
        "{}",
        a.body
    );
    assert!(d["message"].as_str().unwrap().contains("99"), "{}", a.body);
    let a = post(addr, "/api/diagram", serde_json::json!({"text": broken}));
    assert_eq!(a.status, 422, "{}", a.body);

    let a = post(addr, "/api/diagram", serde_json::json!({"text": text}));
    assert_eq!(a.status, 200);
    assert!(
        a.head.contains("image/svg+xml") && a.body.contains("<svg"),
        "{}",
        a.head
    );
    let name = roles[0]["name"].as_str().unwrap();
    let a = post(
        addr,
        "/api/piece",
        serde_json::json!({"text": text, "piece": name}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(a.body.contains("<svg"));
    let a = post(
        addr,
        "/api/piece",
        serde_json::json!({"variant": variant, "piece": "no such piece"}),
    );
    assert_eq!(a.status, 404, "{}", a.body);
    assert!(a.error().contains(name), "{}", a.body);

    let mut pos = AnyPosition::start(&game(variant));
    let want: Vec<u64> = (1..=3).map(|d| pos.perft(d)).collect();
    let a = post(
        addr,
        "/api/perft",
        serde_json::json!({"text": text, "depth": 3}),
    );
    assert_eq!(a.json()["nodes"], serde_json::json!(want), "{}", a.body);

    // New games from the posted text, and from a FEN or an SFEN of the game.
    let a = post(addr, "/api/games", serde_json::json!({"text": text}));
    assert_eq!(a.json()["variant"]["slug"], variant.as_str(), "{}", a.body);
    let (_, moves) = &games()[0];
    let mut pos = AnyPosition::start(&game(variant));
    for mv in &moves[..4] {
        pos.try_play(pos.parse_move(mv).unwrap()).unwrap();
    }
    for key in ["fen", "sfen"] {
        let setup = if key == "fen" { pos.fen() } else { pos.sfen() };
        let a = post(
            addr,
            "/api/games",
            serde_json::json!({"variant": variant, key: setup, "moves": [&moves[4]]}),
        );
        let state = a.json();
        let mut after = pos.clone();
        after
            .try_play(after.parse_move(&moves[4]).unwrap())
            .unwrap();
        assert_eq!(state["sfen"], after.sfen(), "{key}: {}", a.body);
    }

    let page = request(addr, "GET", "/", b"");
    assert!(page.body.contains("<script src=\"/app.js\">"));
    assert!(
        request(addr, "GET", "/app.js", b"")
            .body
            .contains("/api/games")
    );
}

#[test]
fn perft_stops_before_a_depth_that_would_outlast_the_time_allowed() {
    let addr = start(Config {
        max_search_time: Duration::from_micros(1),
        ..small()
    });
    let (variant, _) = &games()[0];
    let mut pos = AnyPosition::start(&game(variant));
    let a = post(
        addr,
        "/api/perft",
        serde_json::json!({"variant": variant, "depth": 4}),
    );
    let r = a.json();
    // Two depths are always counted (the growth is measured on them).
    assert_eq!(
        r["nodes"],
        serde_json::json!([pos.perft(1), pos.perft(2)]),
        "{}",
        a.body
    );
    assert!(
        r["stopped"]
            .as_str()
            .unwrap()
            .starts_with("depth 3 would take"),
        "{}",
        a.body
    );
}

/// A `koma serve` started by `command` (stdout and stderr piped): the
/// process, the URL it prints on its first line and the URL's port.
fn start_serving(mut command: std::process::Command) -> (std::process::Child, String, u16) {
    use std::io::BufRead;
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("koma serve starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim().rsplit(' ').next().unwrap().to_string();
    let port: u16 = url
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    (child, url, port)
}

/// Stops a server of [`start_serving`]: what it wrote on stderr.
fn stop_serving(mut child: std::process::Child) -> String {
    child.kill().unwrap();
    let _ = child.wait();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    err
}

/// `koma serve` as a user starts it: it prints its URL, answers there, and
/// warns on stderr when the address is not the loopback one.
fn serve(addr: &str) -> (String, String) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_koma"));
    command.args(["serve", "--addr", addr]);
    let (child, url, port) = start_serving(command);
    let page = request(SocketAddr::from(([127, 0, 0, 1], port)), "GET", "/", b"");
    assert_eq!(page.status, 200);
    (url, stop_serving(child))
}

#[test]
fn koma_serve_prints_its_url_and_warns_off_the_loopback() {
    let (url, err) = serve("127.0.0.1:0");
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert!(err.is_empty(), "{err}");
    let (_, err) = serve("0.0.0.0:0");
    assert!(err.contains("warning"), "{err}");
}

#[test]
fn the_catalogue_marks_koma_s_own_game_as_the_one_the_page_opens_on() {
    let addr = start(Config::default());
    let answer = request(addr, "GET", "/api/variants", b"");
    let list = answer.json();
    let marked: Vec<&str> = list
        .as_array()
        .expect("a list of variants")
        .iter()
        .filter(|v| v["default"] == true)
        .map(|v| v["slug"].as_str().expect("a slug"))
        .collect();
    assert_eq!(marked, [koma::variant::DEFAULT_VARIANT], "{}", answer.body);
    assert!(koma::variant::embedded(koma::variant::DEFAULT_VARIANT).is_some());
}
