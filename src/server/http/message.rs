//! An HTTP/1.1 message: a request's head parsed with httparse, the request
//! handed to the API, and the answers written back.

use std::io::{self, Write};
use std::net::TcpStream;

use serde_json::json;

use super::super::Failure;

/// A request's method: the two routed, and any other by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Method {
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
pub(crate) struct Request<'a> {
    pub(super) method: Method,
    pub(super) url: String,
    pub(super) body: Vec<u8>,
    /// The connection may stay open after the answer.
    pub(super) keep_alive: bool,
    pub(super) stream: &'a TcpStream,
    pub(super) sent: &'a mut Sent,
}

/// What the answer left of its connection.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Sent {
    Nothing,
    Open,
    Closed,
}

impl<'a> Request<'a> {
    pub(crate) fn method(&self) -> &Method {
        &self.method
    }

    /// The request target: path and query.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The body (already read, within [`Config::max_body`](crate::server::Config::max_body)).
    pub(crate) fn take_body(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.body)
    }

    /// Sends a full answer.
    pub(crate) fn respond(self, response: Response) {
        let written = write_response(self.stream, &response, self.keep_alive).is_ok();
        *self.sent = if written && self.keep_alive {
            Sent::Open
        } else {
            Sent::Closed
        };
    }

    /// Starts a `200` answer whose body is sent in chunks as it is made;
    /// the connection closes after it.
    pub(crate) fn into_stream(self, content_type: &str) -> io::Result<Stream<'a>> {
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
/// [`Config::write_timeout`](crate::server::Config::write_timeout), so a reader that stops reading ends it).
pub(crate) struct Stream<'a> {
    out: &'a TcpStream,
}

impl Stream<'_> {
    /// Sends `bytes` as one chunk, at once.
    pub(crate) fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        let mut chunk = format!("{:x}\r\n", bytes.len()).into_bytes();
        chunk.extend_from_slice(bytes);
        chunk.extend_from_slice(b"\r\n");
        self.out.write_all(&chunk)?;
        self.out.flush()
    }

    /// Ends the answer.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.out.write_all(b"0\r\n\r\n")?;
        self.out.flush()
    }
}

/// A full answer: status, headers, body.
pub(crate) struct Response {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

impl Response {
    pub(crate) fn new(status: u16, content_type: &str, body: Vec<u8>) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body,
        }
        .header("Content-Type", content_type)
    }

    /// Adds a header; a line break in the value would end the head early,
    /// so control characters become spaces.
    pub(crate) fn header(mut self, name: &'static str, value: &str) -> Response {
        let value = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self.headers.push((name, value));
        self
    }

    /// An error as the API writes them: `{"error": message}`.
    pub(super) fn error(f: &Failure) -> Response {
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

pub(super) fn write_response(stream: &TcpStream, r: &Response, keep_alive: bool) -> io::Result<()> {
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

/// A request's head, parsed and copied out of the buffer.
pub(super) struct Head {
    pub(super) method: Method,
    pub(super) url: String,
    pub(super) keep_alive: bool,
    pub(super) length: usize,
    pub(super) chunked: bool,
    pub(super) expect_continue: bool,
}

/// Parses a head: `Ok(None)` while incomplete, else the head and its length.
pub(super) fn parse_head(buf: &[u8], max_headers: usize) -> Result<Option<(Head, usize)>, Failure> {
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
