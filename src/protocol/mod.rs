//! The USI and UCI loops, so that shogi GUIs and match runners can use koma.
//!
//! USI: `usi`, `isready`, `usinewgame`, `setoption name USI_Variant value V`,
//! `position startpos|sfen S [moves ...]`, `go [btime wtime byoyomi binc winc
//! movetime depth nodes infinite ponder]`, `go mate TIME|infinite` (answered
//! `checkmate MOVES|nomate|timeout`), `ponderhit`, `stop`, `quit`; moves in
//! USI notation; `bestmove M ponder R` offers the reply expected, and
//! `bestmove win` declares a win under the variant's impasse rule.
//! Options: `USI_Variant`, `USI_Hash`/`Hash`, `USI_Ponder`, `MultiPV`,
//! `Threads` (lazy SMP: see [`Engine`]), the evaluation's weights.
//! UCI (Fairy-Stockfish's convention): the same with `uci`, `ucinewgame`,
//! `UCI_Variant`, `Ponder`, `position startpos|fen F`, and Fairy-Stockfish
//! notation, no declaration, and `go mate N` as UCI has it: search until a
//! mate in at most N moves is found (answered with `bestmove` at once) or
//! until `stop` or another limit of the `go`.

mod go;
mod xboard;
mod xboard_setup;

pub use xboard::serve_xboard;

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::engine::{Engine, MAX_THREADS, Params};
use crate::notation::Notation;
use crate::position::{AnyPosition, Game};
use crate::setup::Setup;
use crate::variant;

/// The range of an evaluation weight's option.
const PARAM_LIMIT: i32 = 100_000;

/// Which protocol to speak.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The Universal Shogi Interface.
    Usi,
    /// The Universal Chess Interface, as Fairy-Stockfish speaks it.
    Uci,
}

impl Dialect {
    /// What `bestmove` says when there is no move to play.
    fn no_move(self) -> &'static str {
        match self {
            Dialect::Usi => "resign",
            Dialect::Uci => "(none)",
        }
    }

    /// The move notation.
    fn notation(self) -> Notation {
        match self {
            Dialect::Usi => Notation::Usi,
            Dialect::Uci => Notation::Fairy,
        }
    }
}

/// The most lines `MultiPV` may ask for.
const MAX_MULTIPV: u32 = 64;

/// Where replies go, shared with the search thread.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        // Every line of a message is a protocol line of its own: a located
        // diagnostic spans several, and each must start with `info string`.
        let mut lines = line.lines();
        let first = lines.next().unwrap_or_default();
        let _ = writeln!(w, "{first}");
        if let Some(rest) = first.strip_prefix("info string ").map(|_| lines) {
            for l in rest {
                let _ = writeln!(w, "info string {l}");
            }
        }
        let _ = w.flush();
    }
}

/// Bounds on what a peer may ask for: the defaults suit a GUI; a fuzzer or a
/// shared server sets tighter ones.
#[derive(Copy, Clone, Debug)]
pub struct Caps {
    /// Every search stops after this many nodes, whatever `go` says.
    pub max_nodes: Option<u64>,
    /// The largest hash table `setoption name Hash` may ask for, in MiB.
    pub max_hash_mb: usize,
    /// `setoption ... Variant` takes only the embedded variants, no paths.
    pub embedded_only: bool,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            max_nodes: None,
            max_hash_mb: 4096,
            embedded_only: false,
        }
    }
}

struct Session {
    dialect: Dialect,
    caps: Caps,
    game: Game,
    /// The position of the last `position` command; `None` when it was
    /// refused, so that `go` never plays from an old one.
    position: Option<AnyPosition>,
    /// The running search has no limit of its own (`go infinite`).
    endless: bool,
    engine: Arc<Mutex<Engine>>,
    stop: Arc<AtomicBool>,
    /// The running search is to end without a reply (`ponderhit` restarts it).
    silent: Arc<AtomicBool>,
    /// The `go` words of the running ponder search, for `ponderhit`.
    pondering: Option<Vec<String>>,
    /// `MultiPV`: lines reported.
    multipv: u32,
    /// `USI_Ponder` / `Ponder`: the GUI lets koma think on its opponent's time.
    ponder_option: bool,
    search: Option<JoinHandle<()>>,
    out: Output,
}

/// Serves the protocol on `input` until `quit` or the end of the input (where
/// a running search is allowed to finish).
pub fn serve(
    dialect: Dialect,
    input: Box<dyn BufRead + Send>,
    out: Output,
    variant: &str,
) -> Result<(), crate::Error> {
    serve_with(dialect, input, out, variant, Caps::default())
}

/// [`serve`] within `caps`.
pub fn serve_with(
    dialect: Dialect,
    input: Box<dyn BufRead + Send>,
    out: Output,
    variant: &str,
    caps: Caps,
) -> Result<(), crate::Error> {
    let game = Game::load(variant)?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        // Lines that are not UTF-8 are read with U+FFFD (and then refused as
        // commands), not taken for the end of the input.
        let mut input = input;
        while let Ok(Some(line)) = crate::text::read_line_lossy(&mut input) {
            let text = line.trim_end_matches(['\n', '\r']).to_string();
            if tx.send(text).is_err() {
                break;
            }
        }
    });
    let position = Some(AnyPosition::start(&game));
    let mut s = Session {
        dialect,
        caps,
        game,
        position,
        endless: false,
        engine: Arc::new(Mutex::new(Engine::new(caps.max_hash_mb.clamp(1, 64)))),
        stop: Arc::new(AtomicBool::new(false)),
        silent: Arc::new(AtomicBool::new(false)),
        pondering: None,
        multipv: 1,
        ponder_option: false,
        search: None,
        out,
    };
    s.run(rx);
    Ok(())
}

impl Session {
    fn run(&mut self, rx: Receiver<String>) {
        while let Ok(line) = rx.recv() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some(&command) = words.first() else {
                continue;
            };
            match command {
                "usi" | "uci" => self.hello(),
                "isready" => say(&self.out, "readyok"),
                "usinewgame" | "ucinewgame" => {
                    self.wait();
                    if let Ok(mut e) = self.engine.lock() {
                        e.clear();
                    }
                }
                "setoption" => self.set_option(&words[1..]),
                "position" => self.position(&words[1..]),
                "go" => self.go(&words[1..]),
                "stop" => self.halt(),
                "quit" => {
                    self.halt();
                    return;
                }
                "ponderhit" => self.ponderhit(),
                "gameover" => self.halt(),
                "debug" | "register" => {}
                other => say(
                    &self.out,
                    &format!("info string unknown command '{}'", shortened(other)),
                ),
            }
        }
        // The input has ended: a search with limits may finish, an endless
        // one is stopped (see `wait`).
        self.wait();
    }

    fn hello(&self) {
        let (option, ok) = match self.dialect {
            Dialect::Usi => ("USI_Variant", "usiok"),
            Dialect::Uci => ("UCI_Variant", "uciok"),
        };
        say(
            &self.out,
            &format!("id name koma {}", env!("CARGO_PKG_VERSION")),
        );
        say(&self.out, "id author the koma developers");
        // Every name a GUI may send: the slugs and their aliases (an alias
        // with its own setup is a game of its own, e.g. Fairy-Stockfish's).
        let mut names: Vec<String> = variant::catalogue().iter().map(|s| s.to_string()).collect();
        names.extend(variant::aliases().into_iter().map(|(a, _)| a));
        names.sort();
        names.dedup();
        let current = self.game_slug();
        let vars: String = names.iter().map(|n| format!(" var {n}")).collect();
        say(
            &self.out,
            &format!("option name {option} type combo default {current}{vars}"),
        );
        let max = self.caps.max_hash_mb.max(1);
        say(
            &self.out,
            &format!(
                "option name Hash type spin default {} min 1 max {max}",
                max.min(64)
            ),
        );
        let ponder = match self.dialect {
            Dialect::Usi => "USI_Ponder",
            Dialect::Uci => "Ponder",
        };
        say(
            &self.out,
            &format!("option name {ponder} type check default false"),
        );
        say(
            &self.out,
            &format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        );
        say(
            &self.out,
            &format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        );
        // The evaluation's weights (koma::engine::Params), for tuning: the
        // defaults shown are the current variant's (its file's
        // `engine.eval` over the generic defaults).
        let params = crate::with_rules!(&self.game, rules => Params::for_rules(rules));
        for name in Params::NAMES {
            say(
                &self.out,
                &format!(
                    "option name {name} type spin default {} min {} max {}",
                    params.get(name).unwrap_or(0),
                    -PARAM_LIMIT,
                    PARAM_LIMIT
                ),
            );
        }
        say(&self.out, ok);
    }

    fn game_slug(&self) -> String {
        self.game.slug().to_string()
    }

    fn set_option(&mut self, words: &[&str]) {
        let text = words.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return;
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        match name {
            "USI_Variant" | "UCI_Variant" => {
                self.wait();
                let known = variant::embedded(value).is_some()
                    || variant::aliases().iter().any(|(a, _)| a == value);
                if self.caps.embedded_only && !known {
                    return say(
                        &self.out,
                        &format!("info string error: unknown variant '{value}'"),
                    );
                }
                match Game::load(value) {
                    Ok(g) => {
                        self.position = Some(AnyPosition::start(&g));
                        self.game = g;
                    }
                    Err(e) => say(&self.out, &format!("info string error: {e}")),
                }
            }
            "USI_Ponder" | "Ponder" => match value {
                "true" => self.ponder_option = true,
                "false" => self.ponder_option = false,
                _ => say(
                    &self.out,
                    &format!(
                        "info string error: {name} is true or false, not '{}'",
                        shortened(value)
                    ),
                ),
            },
            "MultiPV" => match value.parse::<u32>() {
                Ok(n) if (1..=MAX_MULTIPV).contains(&n) => {
                    self.wait();
                    self.multipv = n;
                }
                _ => say(
                    &self.out,
                    &format!(
                        "info string error: MultiPV is a number from 1 to {MAX_MULTIPV}, not '{}'",
                        shortened(value)
                    ),
                ),
            },
            "Threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => {
                    self.wait();
                    if let Ok(mut e) = self.engine.lock() {
                        e.set_threads(n);
                    }
                }
                _ => say(
                    &self.out,
                    &format!(
                        "info string error: Threads is a number from 1 to {MAX_THREADS}, not '{}'",
                        shortened(value)
                    ),
                ),
            },
            "Hash" | "USI_Hash" => {
                if let Ok(mb) = value.parse::<usize>() {
                    self.wait();
                    let old = self
                        .engine
                        .lock()
                        .map(|e| (e.weights_set().to_vec(), e.threads()))
                        .ok();
                    let mut engine = Engine::new(mb.clamp(1, self.caps.max_hash_mb.max(1)));
                    if let Some((weights, threads)) = old {
                        for (name, value) in weights {
                            engine.set_param(name, value);
                        }
                        engine.set_threads(threads);
                    }
                    self.engine = Arc::new(Mutex::new(engine));
                }
            }
            _ => {
                if let (Some(_), Ok(v)) = (Params::default().get(name), value.parse::<i32>()) {
                    if name == "king_divisor" && v <= 0 {
                        return say(
                            &self.out,
                            "info string error: king_divisor must be positive",
                        );
                    }
                    self.wait();
                    if let Ok(mut e) = self.engine.lock() {
                        e.set_param(name, v.clamp(-PARAM_LIMIT, PARAM_LIMIT));
                    }
                }
            }
        }
    }

    fn position(&mut self, words: &[&str]) {
        self.position = None;
        let split = words
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(words.len());
        let (setup_words, moves) = words.split_at(split);
        let start = match setup_words.first() {
            Some(&"startpos") => None,
            Some(&"sfen") => match Setup::parse_sfen(&setup_words[1..].join(" ")) {
                Ok(s) => Some(s),
                Err(e) => return say(&self.out, &format!("info string error: bad SFEN: {e}")),
            },
            Some(&"fen") => match Setup::parse_fen(&setup_words[1..].join(" ")) {
                Ok(s) => Some(s),
                Err(e) => return say(&self.out, &format!("info string error: bad FEN: {e}")),
            },
            _ => {
                return say(
                    &self.out,
                    "info string error: expected 'position startpos|sfen ...|fen ...'",
                );
            }
        };
        let start = start.as_ref().unwrap_or(self.game.start_setup());
        match AnyPosition::from_moves(&self.game, start, &moves[moves.len().min(1)..]) {
            Ok(pos) => self.position = Some(pos),
            Err(e) => say(
                &self.out,
                &format!("info string error: {}", crate::Error::from(e)),
            ),
        }
    }
}

/// At most 40 characters of what a peer sent, to quote it back.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}
