//! koma's HTTP/1.1 over `std::net` (why, and what is bounded: the module doc
//! of `server`): the accept loop, the table of open connections, and each
//! connection's requests, read in full (head, then body) on the
//! connection's own thread before one of [`Config::workers`] answers them.

use std::collections::HashMap;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use super::{Config, Failure, too_large};

/// A request's method: the two routed, and any other by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Method {
    Get,
    Post,
    Other(String),
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Method::Get => f.write_str("GET"),
            Method::Post => f.write_str("POST"),
            Method::Other(m) => f.write_str(m),
        }
    }
}

/// A request read in full, answered once: [`Request::respond`] or
/// [`Request::into_stream`]. One dropped unanswered gets a 500.
pub(super) struct Request<'a> {
    method: Method,
    url: String,
    body: Vec<u8>,
    /// The connection may stay open after the answer.
    keep_alive: bool,
    stream: &'a TcpStream,
    sent: &'a mut Sent,
}

/// What the answer left of its connection.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sent {
    Nothing,
    Open,
    Closed,
}

impl<'a> Request<'a> {
    pub(super) fn method(&self) -> &Method {
        &self.method
    }

    /// The request target: path and query.
    pub(super) fn url(&self) -> &str {
        &self.url
    }

    /// The body (already read, within [`Config::max_body`]).
    pub(super) fn take_body(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.body)
    }

    /// Sends a full answer.
    pub(super) fn respond(self, response: Response) {
        let written = write_response(self.stream, &response, self.keep_alive).is_ok();
        *self.sent = if written && self.keep_alive {
            Sent::Open
        } else {
            Sent::Closed
        };
    }

    /// Starts a `200` answer whose body is sent in chunks as it is made;
    /// the connection closes after it.
    pub(super) fn into_stream(self, content_type: &str) -> io::Result<Stream<'a>> {
        *self.sent = Sent::Closed;
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nCache-Control: no-store\r\n\
             Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        );
        let mut out = self.stream;
        out.write_all(head.as_bytes())?;
        out.flush()?;
        Ok(Stream { out })
    }
}

/// An answer being sent in chunks (each write held to
/// [`Config::write_timeout`], so a reader that stops reading ends it).
pub(super) struct Stream<'a> {
    out: &'a TcpStream,
}

impl Stream<'_> {
    /// Sends `bytes` as one chunk, at once.
    pub(super) fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        let mut chunk = format!("{:x}\r\n", bytes.len()).into_bytes();
        chunk.extend_from_slice(bytes);
        chunk.extend_from_slice(b"\r\n");
        self.out.write_all(&chunk)?;
        self.out.flush()
    }

    /// Ends the answer.
    pub(super) fn finish(mut self) -> io::Result<()> {
        self.out.write_all(b"0\r\n\r\n")?;
        self.out.flush()
    }
}

/// A full answer: status, headers, body.
pub(super) struct Response {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

impl Response {
    pub(super) fn new(status: u16, content_type: &str, body: Vec<u8>) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body,
        }
        .header("Content-Type", content_type)
    }

    /// Adds a header; a line break in the value would end the head early,
    /// so control characters become spaces.
    pub(super) fn header(mut self, name: &'static str, value: &str) -> Response {
        let value = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self.headers.push((name, value));
        self
    }

    /// An error as the API writes them: `{"error": message}`.
    fn error(f: &Failure) -> Response {
        let body = json!({"error": f.message}).to_string().into_bytes();
        Response::new(f.status, "application/json", body).header("Cache-Control", "no-store")
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

fn write_response(stream: &TcpStream, r: &Response, keep_alive: bool) -> io::Result<()> {
    let mut head = format!("HTTP/1.1 {} {}\r\n", r.status, reason(r.status));
    for (name, value) in &r.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let connection = if keep_alive { "keep-alive" } else { "close" };
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: {connection}\r\n\r\n",
        r.body.len()
    ));
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(&r.body);
    let mut out = stream;
    out.write_all(&bytes)?;
    out.flush()
}

/// Serves `listener` until `stop` is set (and the listener woken by a
/// connection), each request given to `handler`. Returns once every
/// connection is closed.
pub(super) fn serve<H>(listener: &TcpListener, config: &Config, stop: &AtomicBool, handler: H)
where
    H: Fn(Request<'_>) + Sync,
{
    let layer = Layer {
        config,
        table: Table::default(),
        workers: Workers::new(config.workers.max(1)),
        bodies: AtomicUsize::new(0),
        stop,
    };
    std::thread::scope(|scope| {
        let mut backoff = Duration::ZERO;
        for next in listener.incoming() {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let stream = match next {
                Ok(stream) => {
                    backoff = Duration::ZERO;
                    Arc::new(stream)
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::ConnectionAborted | ErrorKind::Interrupted
                    ) =>
                {
                    continue;
                }
                Err(e) => {
                    // Out of file descriptors (or memory): free the
                    // connection that has waited longest on its client,
                    // wait a little, and go on.
                    backoff =
                        (backoff * 2).clamp(Duration::from_millis(10), Duration::from_secs(1));
                    let freed = layer.table.evict_longest_waiting();
                    eprintln!(
                        "koma: serve: cannot accept a connection ({e}); {}retrying in {} ms",
                        if freed {
                            "closed the longest-waiting one, "
                        } else {
                            ""
                        },
                        backoff.as_millis()
                    );
                    std::thread::sleep(backoff);
                    continue;
                }
            };
            let Some(id) = layer.table.admit(&stream, config.max_connections) else {
                // Every open connection is being answered.
                let f = Failure::new(
                    503,
                    "the server is answering too many requests; try again in a moment",
                );
                let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
                let _ = write_response(&stream, &Response::error(&f), false);
                continue;
            };
            let (layer, handler) = (&layer, &handler);
            let spawned = std::thread::Builder::new()
                .name("koma-http".into())
                .spawn_scoped(scope, move || layer.connection(id, &stream, handler));
            if let Err(e) = spawned {
                layer.table.remove(id);
                eprintln!("koma: serve: cannot start a thread for a connection ({e})");
            }
        }
        layer.table.close_waiting();
    });
}

/// What the connections share.
struct Layer<'a> {
    config: &'a Config,
    table: Table,
    workers: Workers,
    /// Bytes of request bodies held now.
    bodies: AtomicUsize,
    stop: &'a AtomicBool,
}

/// A request's head, parsed and copied out of the buffer.
struct Head {
    method: Method,
    url: String,
    keep_alive: bool,
    length: usize,
    chunked: bool,
    expect_continue: bool,
}

/// Why a connection ends before its request is answered.
enum Halt {
    /// The client went, or never spoke: nothing to say.
    Quiet,
    /// An error to answer with before closing.
    Answer(Failure),
}

impl<'a> Layer<'a> {
    /// One connection's requests, until it closes, errs, idles or is evicted.
    fn connection<H: Fn(Request<'_>)>(&self, id: u64, stream: &TcpStream, handler: &H) {
        let _gone = Gone(&self.table, id);
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(self.config.write_timeout));
        let mut buf = Vec::new();
        let mut first = true;
        loop {
            let read = self
                .read_head(stream, &mut buf, first)
                .and_then(|head| self.read_body(stream, &mut buf, &head).map(|b| (head, b)));
            first = false;
            let (head, (body, held)) = match read {
                Ok(request) => request,
                Err(Halt::Quiet) => return,
                Err(Halt::Answer(f)) => return refuse(stream, &f),
            };
            if !self.table.set_waiting(id, false) {
                return; // evicted while its body came
            }
            let mut sent = Sent::Nothing;
            {
                let _worker = self.workers.take();
                let request = Request {
                    method: head.method,
                    url: head.url,
                    body,
                    keep_alive: head.keep_alive && !self.stop.load(Ordering::SeqCst),
                    stream,
                    sent: &mut sent,
                };
                // A bug answering one request costs that request a 500,
                // not the server.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(request)));
            }
            drop(held);
            match sent {
                Sent::Open => {}
                Sent::Closed => return,
                Sent::Nothing => {
                    let f = Failure::new(500, "the server failed answering this request");
                    let _ = write_response(stream, &Response::error(&f), false);
                    return;
                }
            }
            if !self.table.set_waiting(id, true) {
                return;
            }
        }
    }

    /// Reads the next request's head: within [`Config::head_timeout`] of
    /// the connection's start or of the request's first byte, at most
    /// [`Config::max_head`] bytes and [`Config::max_headers`] fields.
    fn read_head(&self, stream: &TcpStream, buf: &mut Vec<u8>, first: bool) -> Result<Head, Halt> {
        let c = self.config;
        if buf.is_empty() && !first {
            // Between requests: the next one's first byte within the idle time.
            match read_some(stream, buf, Instant::now() + c.idle_timeout) {
                Ok(n) if n > 0 => {}
                _ => return Err(Halt::Quiet),
            }
        }
        let deadline = Instant::now() + c.head_timeout;
        loop {
            if !buf.is_empty() {
                match parse_head(buf, c.max_headers) {
                    Ok(Some((head, n))) if n <= c.max_head => {
                        buf.drain(..n);
                        return Ok(head);
                    }
                    Ok(None) if buf.len() < c.max_head => {}
                    Ok(_) => {
                        let f = format!(
                            "the request head is larger than {} bytes, the limit",
                            c.max_head
                        );
                        return Err(Halt::Answer(Failure::new(431, f)));
                    }
                    Err(f) => return Err(Halt::Answer(f)),
                }
            }
            match read_some(stream, buf, deadline) {
                Ok(0) => return Err(Halt::Quiet),
                Ok(_) => {}
                Err(e) if timed_out(&e) && !buf.is_empty() => {
                    let f = format!(
                        "the request head did not come within {} s",
                        c.head_timeout.as_secs_f64()
                    );
                    return Err(Halt::Answer(Failure::new(408, f)));
                }
                Err(_) => return Err(Halt::Quiet),
            }
        }
    }

    /// Reads the body the head announces: a `Content-Length` within
    /// [`Config::max_body`] (and room among [`Config::max_bodies`]), all of
    /// it within [`Config::body_timeout`].
    fn read_body(
        &self,
        stream: &TcpStream,
        buf: &mut Vec<u8>,
        head: &Head,
    ) -> Result<(Vec<u8>, Held<'_>), Halt> {
        let c = self.config;
        if head.chunked {
            let f = Failure::new(
                411,
                "send the body with a Content-Length (chunked bodies are not read)",
            );
            return Err(Halt::Answer(f));
        }
        let n = head.length;
        if n > c.max_body {
            return Err(Halt::Answer(too_large(c.max_body)));
        }
        let held = self.hold(n).ok_or_else(|| {
            Halt::Answer(Failure::new(
                503,
                "the server holds too many request bodies; try again in a moment",
            ))
        })?;
        if head.expect_continue && buf.len() < n {
            let mut out = stream;
            out.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .map_err(|_| Halt::Quiet)?;
        }
        let mut body: Vec<u8> = buf.drain(..n.min(buf.len())).collect();
        let deadline = Instant::now() + c.body_timeout;
        while body.len() < n {
            match read_some(stream, &mut body, deadline) {
                Ok(0) => return Err(Halt::Quiet),
                Ok(_) => {}
                Err(e) if timed_out(&e) => {
                    let f = format!(
                        "the request body did not come within {} s",
                        c.body_timeout.as_secs_f64()
                    );
                    return Err(Halt::Answer(Failure::new(408, f)));
                }
                Err(_) => return Err(Halt::Quiet),
            }
        }
        // Bytes past the body begin the next request.
        *buf = body.split_off(n);
        Ok((body, held))
    }

    /// Room for a body of `n` bytes among [`Config::max_bodies`].
    fn hold(&self, n: usize) -> Option<Held<'_>> {
        let max = self.config.max_bodies;
        self.bodies
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |held| {
                (held + n <= max).then_some(held + n)
            })
            .ok()
            .map(|_| Held(&self.bodies, n))
    }
}

/// Bytes of a body counted in [`Layer::bodies`], given back when dropped.
struct Held<'a>(&'a AtomicUsize, usize);

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(self.1, Ordering::SeqCst);
    }
}

/// Parses a head: `Ok(None)` while incomplete, else the head and its length.
fn parse_head(buf: &[u8], max_headers: usize) -> Result<Option<(Head, usize)>, Failure> {
    let mut fields = vec![httparse::EMPTY_HEADER; max_headers];
    let mut req = httparse::Request::new(&mut fields);
    let n = match req.parse(buf) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            let f = format!("the request has more than {max_headers} header fields, the limit");
            return Err(Failure::new(431, f));
        }
        Err(e) => return Err(Failure::bad(format!("malformed request: {e}"))),
    };
    let method = match req.method.unwrap_or_default() {
        "GET" => Method::Get,
        "POST" => Method::Post,
        m => Method::Other(m.to_string()),
    };
    let mut head = Head {
        method,
        url: req.path.unwrap_or_default().to_string(),
        keep_alive: req.version == Some(1),
        length: 0,
        chunked: false,
        expect_continue: false,
    };
    let mut length = None;
    for field in req.headers.iter() {
        let value = String::from_utf8_lossy(field.value);
        let value = value.trim();
        let name = field.name;
        if name.eq_ignore_ascii_case("content-length") {
            let n = value
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| value.parse::<usize>().ok())
                .flatten()
                .ok_or_else(|| Failure::bad(format!("Content-Length '{value}' is not a number")))?;
            if length.is_some_and(|m| m != n) {
                return Err(Failure::bad(
                    "the request has two different Content-Lengths",
                ));
            }
            length = Some(n);
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            head.chunked = true;
        } else if name.eq_ignore_ascii_case("connection") {
            if value
                .split(',')
                .any(|t| t.trim().eq_ignore_ascii_case("close"))
            {
                head.keep_alive = false;
            }
        } else if name.eq_ignore_ascii_case("expect") {
            head.expect_continue = value.eq_ignore_ascii_case("100-continue");
        }
    }
    head.length = length.unwrap_or(0);
    Ok(Some((head, n)))
}

/// Reads what has come (at least a byte) into `buf`, waiting until `deadline`.
fn read_some(stream: &TcpStream, buf: &mut Vec<u8>, deadline: Instant) -> io::Result<usize> {
    let mut chunk = [0u8; 8192];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        stream.set_read_timeout(Some(left))?;
        let mut input = stream;
        match input.read(&mut chunk) {
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                return Ok(n);
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

fn timed_out(e: &io::Error) -> bool {
    matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
}

/// Answers `f` and closes, first reading (for a moment) what the client
/// still sends, so that closing on unread bytes does not reset the
/// connection before the client has read the answer.
fn refuse(stream: &TcpStream, f: &Failure) {
    if write_response(stream, &Response::error(f), false).is_err() {
        return;
    }
    let _ = stream.shutdown(Shutdown::Write);
    let until = Instant::now() + Duration::from_secs(2);
    let mut sink = Vec::new();
    let mut drained = 0;
    while drained < 1 << 20 {
        sink.clear();
        match read_some(stream, &mut sink, until) {
            Ok(n) if n > 0 => drained += n,
            _ => return,
        }
    }
}

/// The open connections. When [`Config::max_connections`] are open, a new
/// one takes the place of the one that has waited longest on its client
/// (for its head, its body, or its next request); only connections whose
/// requests are being answered are never closed for another.
#[derive(Default)]
struct Table {
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    next: u64,
    conns: HashMap<u64, Conn>,
}

struct Conn {
    stream: Arc<TcpStream>,
    /// Since when it waits on its client; `None` while being answered.
    waiting: Option<Instant>,
}

impl Open {
    fn evict_longest_waiting(&mut self) -> bool {
        let oldest = self
            .conns
            .iter()
            .filter_map(|(id, c)| c.waiting.map(|t| (t, *id)))
            .min();
        let Some((_, id)) = oldest else {
            return false;
        };
        if let Some(c) = self.conns.remove(&id) {
            // Its thread's read returns at once, and the thread ends.
            let _ = c.stream.shutdown(Shutdown::Both);
        }
        true
    }
}

impl Table {
    /// Registers a new connection, making room if `max` are open;
    /// `None` if all of them are being answered.
    fn admit(&self, stream: &Arc<TcpStream>, max: usize) -> Option<u64> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.conns.len() >= max.max(1) && !open.evict_longest_waiting() {
            return None;
        }
        open.next += 1;
        let id = open.next;
        let conn = Conn {
            stream: Arc::clone(stream),
            waiting: Some(Instant::now()),
        };
        open.conns.insert(id, conn);
        Some(id)
    }

    fn evict_longest_waiting(&self) -> bool {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.evict_longest_waiting()
    }

    /// Marks a connection waiting on its client (or not); `false` if it
    /// was closed for another meanwhile.
    fn set_waiting(&self, id: u64, waiting: bool) -> bool {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        match open.conns.get_mut(&id) {
            Some(c) => {
                c.waiting = waiting.then(Instant::now);
                true
            }
            None => false,
        }
    }

    fn remove(&self, id: u64) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.conns.remove(&id);
    }

    /// Closes every connection that waits on its client (when stopping).
    fn close_waiting(&self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        while open.evict_longest_waiting() {}
    }
}

/// Takes a connection out of the table when its thread ends.
struct Gone<'a>(&'a Table, u64);

impl Drop for Gone<'_> {
    fn drop(&mut self) {
        self.0.remove(self.1);
    }
}

/// [`Config::workers`]: how many requests are answered at once.
struct Workers {
    free: Mutex<usize>,
    freed: Condvar,
}

/// A worker's turn, given back when dropped.
struct Turn<'a>(&'a Workers);

impl Workers {
    fn new(n: usize) -> Workers {
        Workers {
            free: Mutex::new(n),
            freed: Condvar::new(),
        }
    }

    fn take(&self) -> Turn<'_> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
        Turn(self)
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut free = self.0.free.lock().unwrap_or_else(|e| e.into_inner());
        *free += 1;
        self.0.freed.notify_one();
    }
}
