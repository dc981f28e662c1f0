//! koma's HTTP/1.1 over `std::net` (why, and what is bounded: the module doc
//! of `server`): the accept loop, the table of open connections, and each
//! connection's requests, read in full (head, then body) on the
//! connection's own thread before one of [`Config::workers`] answers them.

mod message;
mod table;

use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::{Config, Failure, too_large};
use message::{Head, Sent, parse_head, write_response};
pub(super) use message::{Method, Request, Response, Stream};
use table::{Gone, Table, Workers};

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
            // Marked waiting first, then the flag read: a stop either
            // finds the connection waiting and closes it, or is seen here.
            if !self.table.set_waiting(id, true) || self.stop.load(Ordering::SeqCst) {
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
        // Bytes read past the body (only when `buf` had less than the
        // body) begin the next request.
        if body.len() > n {
            buf.extend_from_slice(&body[n..]);
            body.truncate(n);
        }
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
