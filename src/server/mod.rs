//! `koma serve`: play, analyse and write variants in the browser.
//!
//! The HTTP stack is [tiny_http]: a small synchronous HTTP/1.1 server (four
//! crates in all, no async runtime, MIT/Apache). koma's work is CPU-bound
//! search and move generation on plain threads, and the server answers one
//! person or a few on the local machine, so a fixed pool of worker threads
//! pulling requests from tiny_http is all the concurrency it needs; an async
//! stack (axum on tokio) would add some sixty crates and minutes of build on
//! small machines for nothing this server does. tiny_http reads each
//! connection's headers on its own thread, so a slow client does not stall
//! the workers; bodies are read by a worker and cut at [`Config::max_body`].
//!
//! What is bounded, and how ([`Config`]): request bodies (413 past the
//! limit), sessions (the least recently used is dropped when full, any left
//! unused past the expiry goes), engine searches and perft runs at once (503
//! when all slots are busy), each search's time and depth, perft's depth
//! (and a depth is begun only if it should end within the search time). A
//! panic answering a request costs that request a 500, not a worker.
//!
//! What tiny_http leaves open, and why it is accepted here: it sets no read
//! timeout, so a client that sends its headers and then stalls its body
//! holds one of the workers until it goes; it starts a thread per open
//! connection; and a failing `accept` (out of file descriptors) stops its
//! listening thread. For a server that listens on the loopback address by
//! default these are a local user's own doing; serving a network would want
//! a proxy in front or an async stack with timeouts.
//!
//! The API (JSON unless said; errors are `{"error": "..."}` with a 4xx/5xx
//! status):
//!
//! | route | what |
//! | --- | --- |
//! | `GET /` | the page (HTML, CSS and JS embedded in the binary) |
//! | `GET /api/variants` | the catalogue: slug, title, files, ranks |
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
mod records;
mod session;

use std::io::Read;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
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
    /// Threads answering requests.
    pub workers: usize,
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
        }
    }
}

/// A bound server, ready to [`run`](Server::run).
pub struct Server {
    http: Arc<tiny_http::Server>,
    shared: Arc<Shared>,
    addr: SocketAddr,
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
        let http = tiny_http::Server::from_listener(listener, None)
            .map_err(|e| Error::Usage(format!("cannot serve on {addr}: {e}")))?;
        Ok(Server {
            http: Arc::new(http),
            shared: Arc::new(Shared {
                sessions: Sessions::new(config.max_sessions, config.session_ttl),
                config,
                searches: AtomicUsize::new(0),
                games: Default::default(),
                engines: Default::default(),
            }),
            addr,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Answers requests until [`Server::stop`] is called.
    pub fn run(&self) {
        let workers: Vec<_> = (0..self.shared.config.workers.max(1))
            .map(|_| {
                let http = Arc::clone(&self.http);
                let shared = Arc::clone(&self.shared);
                std::thread::spawn(move || {
                    while let Ok(req) = http.recv() {
                        // A bug answering one request must not take a
                        // worker away: the request dropped unanswered gets
                        // tiny_http's 500.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            api::handle(&shared, req)
                        }));
                    }
                })
            })
            .collect();
        for w in workers {
            let _ = w.join();
        }
    }

    /// Makes [`Server::run`] return once the requests in hand are answered.
    pub fn stop(&self) {
        for _ in 0..self.shared.config.workers.max(1) {
            self.http.unblock();
        }
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

/// Reads a request body, at most `max` bytes.
fn read_body(req: &mut tiny_http::Request, max: usize) -> Result<Vec<u8>, Failure> {
    if req.body_length().is_some_and(|n| n > max) {
        return Err(too_large(max));
    }
    let mut body = Vec::new();
    req.as_reader()
        .take(max as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| Failure::bad(format!("cannot read the request body: {e}")))?;
    if body.len() > max {
        return Err(too_large(max));
    }
    Ok(body)
}

fn too_large(max: usize) -> Failure {
    Failure::new(
        413,
        format!("the request body is larger than {max} bytes, the limit"),
    )
}

/// The body as a JSON object.
fn read_json(req: &mut tiny_http::Request, max: usize) -> Result<Value, Failure> {
    let body = read_body(req, max)?;
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
