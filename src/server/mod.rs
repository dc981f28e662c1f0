//! `koma serve`: play, analyse and write variants in the browser.
//!
//! The HTTP stack is koma's own small HTTP/1.1 layer over `std::net`
//! (`http.rs`), with requests parsed by [httparse] (the parser hyper uses:
//! no dependencies, MIT/Apache, `no_std`). koma's work is CPU-bound
//! search and move generation on plain threads, and the server answers one
//! person or a few, so threads are all the concurrency it needs; an async
//! stack (axum on tokio) would add some sixty crates and minutes of build on
//! small machines. The synchronous crates looked at leave slow clients
//! open: tiny_http (used before) sets no read timeout, so a client that
//! sends its headers and stalls its body holds a worker for ever, starts a
//! thread per connection with no bound, and stops accepting after one
//! failed `accept`; rouille is built on it. What this layer needs of HTTP
//! is small (`Content-Length` bodies, keep-alive, one chunked stream out),
//! and owning it lets each limit below be one line and one test.
//!
//! How a request goes: the accept loop gives each connection a thread; the
//! thread reads a request's head and then its whole body, each within its
//! time, and only then waits for one of [`Config::workers`], which answers
//! it on the same thread; a client that stalls never holds a worker. At
//! most [`Config::max_connections`] are open: a new one takes the place of
//! the connection that has waited longest on its client (for its head, its
//! body or its next request; one being answered is never closed for
//! another), so clients that open connections and stall push out only each
//! other, and one that sends its request at once is answered. A failing
//! `accept` (out of file descriptors) is logged, closes the longest-waiting
//! connection, and is retried after a short pause.
//!
//! What is bounded, and how ([`Config`]): a request's head (431 past
//! [`Config::max_head`] bytes or [`Config::max_headers`] fields; 400 when it
//! is not HTTP), the time for the head and for the body (408), an idle
//! keep-alive connection's life, each blocked write; request bodies (413
//! past the limit; a chunked body is refused with 411) and the bytes of
//! bodies held at once (503); sessions (the least recently used is dropped
//! when full, any left unused past the expiry goes), engine searches and
//! perft runs at once (503 when all slots are busy), each search's time and
//! depth, perft's depth (and a depth is begun only if it should end within
//! the search time). A panic answering a request costs that request a 500,
//! not the server.
//!
//! The API (JSON unless said; errors are `{"error": "..."}` with a 4xx/5xx
//! status):
//!
//! | route | what |
//! | --- | --- |
//! | `GET /` | the page (HTML, CSS and JS embedded in the binary) |
//! | `GET /api/variants` | the catalogue: slug, title, files, ranks, and `default` (true for the game the page opens on) |
//! | `GET /api/variants/{slug}` | a variant's source text (`text/markdown`) |
//! | `POST /api/games` | new game: `{variant}` or `{text}`, optional `fen`/`sfen`, `moves` |
//! | `GET /api/games/{id}` | the game's state, with its roles |
//! | `POST /api/games/{id}/move` | `{move}` in USI or Fairy notation |
//! | `POST /api/games/{id}/undo` | takes back the last move |
//! | `GET /api/games/{id}/svg` | the position as an SVG diagram |
//! | `GET /api/games/{id}/at?ply=N` | the state after the first N moves, to look at (the game stays) |
//! | `GET /api/games/{id}/record?format=F` | the game as a record file (kif, ki2, csa, pgn, jkf, koma, usi; KIF unless given), an attachment |
//! | `POST /api/records?variant=SLUG` | new game from a record's bytes (any format, UTF-8 or Shift_JIS; `variant` for one that names none) |
//! | `GET /api/games/{id}/think?time=MS&depth=N&play=1` | engine search, server-sent events `info`, `bestmove`, `state`, `done` |
//! | `POST /api/validate` | `{text}` → `{ok, diagnostics: [{line, column, len, message, source_line}]}` |
//! | `POST /api/diagram` | `{text}` → the start diagram (SVG) |
//! | `POST /api/piece` | `{variant}` or `{text}`, `piece` (name or letter) → movement diagram (SVG) |
//! | `POST /api/perft` | `{variant}` or `{text}`, optional `fen`/`sfen`, `depth` → node counts by depth |

mod api;
mod assets;
mod editor;
mod http;
mod records;
mod session;

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use crate::Error;
use session::Sessions;

/// Each search's transposition table, in MiB.
const ENGINE_MEGABYTES: usize = 16;

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Config {
    /// Largest request body accepted, in bytes (a variant file's limit).
    pub max_body: usize,
    /// Most games kept at once.
    pub max_sessions: usize,
    /// A game unused this long is forgotten.
    pub session_ttl: Duration,
    /// Most engine searches (and perft runs) at once.
    pub max_searches: usize,
    /// Longest a search may think.
    pub max_search_time: Duration,
    /// Deepest perft asked for.
    pub max_perft_depth: u32,
    /// Requests answered at once (each on its connection's thread, once
    /// its head and body are in; the others wait their turn).
    pub workers: usize,
    /// Most connections open at once; past it a new one takes the place of
    /// the one that has waited longest on its client.
    pub max_connections: usize,
    /// Largest request head (request line and header fields), in bytes
    /// (431 past it).
    pub max_head: usize,
    /// Most header fields in a request (431 past it).
    pub max_headers: usize,
    /// Most bytes of request bodies held at once, all connections together
    /// (503 past it).
    pub max_bodies: usize,
    /// Time for a request's head to come, from the connection's start or
    /// the request's first byte (408 past it).
    pub head_timeout: Duration,
    /// Time for a request's whole body to come (408 past it).
    pub body_timeout: Duration,
    /// Longest a write to a client may block (the connection closes).
    pub write_timeout: Duration,
    /// An open connection with no request this long is closed.
    pub idle_timeout: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_body: 4 << 20,
            max_sessions: 512,
            session_ttl: Duration::from_secs(6 * 3600),
            max_searches: 2,
            max_search_time: Duration::from_secs(30),
            max_perft_depth: 4,
            workers: 16,
            max_connections: 64,
            max_head: 16 << 10,
            max_headers: 64,
            max_bodies: 64 << 20,
            head_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(15),
        }
    }
}

/// A bound server, ready to [`run`](Server::run).
pub struct Server {
    listener: TcpListener,
    shared: Shared,
    addr: SocketAddr,
    stop: AtomicBool,
}

/// What the workers share.
struct Shared {
    config: Config,
    sessions: Sessions,
    /// Searches running now.
    searches: AtomicUsize,
    /// The embedded variants compiled so far, by the name asked for: games
    /// of one variant share one set of tables (a few names, so no bound).
    games: std::sync::Mutex<std::collections::HashMap<String, crate::position::Game>>,
    /// Engines between searches, at most one per search slot: each keeps
    /// its transposition table, so memory stays at the slots' tables
    /// whatever the number of searches.
    engines: std::sync::Mutex<Vec<crate::engine::Engine>>,
}

/// A slot among [`Config::max_searches`], given back when dropped.
struct Slot<'a>(&'a AtomicUsize);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Shared {
    /// An engine for a search (holding a slot), cleared for a new game.
    fn engine(&self) -> crate::engine::Engine {
        let kept = self.engines.lock().ok().and_then(|mut e| e.pop());
        match kept {
            Some(mut engine) => {
                engine.clear();
                engine
            }
            None => crate::engine::Engine::new(ENGINE_MEGABYTES),
        }
    }

    /// Gives back an engine after its search.
    fn give_back(&self, engine: crate::engine::Engine) {
        if let Ok(mut e) = self.engines.lock()
            && e.len() < self.config.max_searches
        {
            e.push(engine);
        }
    }

    fn slot(&self) -> Option<Slot<'_>> {
        let max = self.config.max_searches;
        self.searches
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(&self.searches))
    }
}

impl Server {
    /// Binds to `addr` (`127.0.0.1:0` picks a free port).
    pub fn bind(addr: &str, config: Config) -> Result<Server, Error> {
        let listener = TcpListener::bind(addr).map_err(Error::io(format!("listen on {addr}")))?;
        let addr = listener
            .local_addr()
            .map_err(Error::io(format!("listen on {addr}")))?;
        Ok(Server {
            listener,
            shared: Shared {
                sessions: Sessions::new(config.max_sessions, config.session_ttl),
                config,
                searches: AtomicUsize::new(0),
                games: Default::default(),
                engines: Default::default(),
            },
            addr,
            stop: AtomicBool::new(false),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Answers requests until [`Server::stop`] is called.
    pub fn run(&self) {
        let shared = &self.shared;
        http::serve(&self.listener, &shared.config, &self.stop, |req| {
            api::handle(shared, req)
        });
    }

    /// Makes [`Server::run`] return once the requests in hand are answered
    /// (connections waiting on their clients are closed).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop, which then sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

/// A failed request: status and message.
#[derive(Debug)]
struct Failure {
    status: u16,
    message: String,
}

impl Failure {
    fn new(status: u16, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }
    fn bad(message: impl Into<String>) -> Failure {
        Failure::new(400, message)
    }
}

/// A request's body (the HTTP layer read it, within [`Config::max_body`]).
fn read_body(req: &mut http::Request) -> Result<Vec<u8>, Failure> {
    Ok(req.take_body())
}

fn too_large(max: usize) -> Failure {
    Failure::new(
        413,
        format!("the request body is larger than {max} bytes, the limit"),
    )
}

/// The body as a JSON object.
fn read_json(req: &mut http::Request) -> Result<Value, Failure> {
    let body = read_body(req)?;
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let value: Value = serde_json::from_slice(&body)
        .map_err(|e| Failure::bad(format!("the body is not valid JSON: {e}")))?;
    if !value.is_object() {
        return Err(Failure::bad("the body must be a JSON object"));
    }
    Ok(value)
}
