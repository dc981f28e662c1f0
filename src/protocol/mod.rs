//! The USI and UCI loops, so that shogi GUIs and match runners can use koma.
//!
//! USI: `usi`, `isready`, `usinewgame`, `setoption name USI_Variant value V`,
//! `position startpos|sfen S [moves ...]`, `go [btime wtime byoyomi binc winc
//! movetime depth nodes infinite]`, `stop`, `quit`; moves in USI notation.
//! UCI (Fairy-Stockfish's convention): the same with `uci`, `ucinewgame`,
//! `UCI_Variant`, `position startpos|fen F`, and Fairy-Stockfish notation.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::board::Color;
use crate::engine::{Clock, Engine, Info, Limits, Params};
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
}

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
                "gameover" | "ponderhit" | "debug" | "register" => {}
                other => say(
                    &self.out,
                    &format!("info string unknown command '{}'", shortened(other)),
                ),
            }
        }
        // The input has ended: a search with limits may finish, an endless one is stopped.
        if self.endless {
            self.halt();
        }
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
        // The evaluation's weights (koma::engine::Params), for tuning.
        let params = Params::default();
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
            "Hash" | "USI_Hash" => {
                if let Ok(mb) = value.parse::<usize>() {
                    self.wait();
                    let params = self.engine.lock().map(|e| e.params().clone()).ok();
                    let mut engine = Engine::new(mb.clamp(1, self.caps.max_hash_mb.max(1)));
                    if let Some(p) = params {
                        engine.set_params(p);
                    }
                    self.engine = Arc::new(Mutex::new(engine));
                }
            }
            _ => {
                if let (Some(_), Ok(v)) = (Params::default().get(name), value.parse::<i32>()) {
                    self.wait();
                    if let Ok(mut e) = self.engine.lock() {
                        let mut p = e.params().clone();
                        p.set(name, v.clamp(-PARAM_LIMIT, PARAM_LIMIT));
                        if name == "king_divisor" && p.king_divisor <= 0 {
                            return say(
                                &self.out,
                                "info string error: king_divisor must be positive",
                            );
                        }
                        e.set_params(p);
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

    fn go(&mut self, words: &[&str]) {
        self.wait();
        let Some(position) = self.position.clone() else {
            say(
                &self.out,
                "info string error: the last position was refused; send a valid position first",
            );
            return say(&self.out, &format!("bestmove {}", self.dialect.no_move()));
        };
        self.stop.store(false, Ordering::Relaxed);
        let value = |key: &str| -> Option<u64> {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
                .and_then(|v| v.parse().ok())
        };
        let infinite = words.contains(&"infinite");
        self.endless = infinite;
        let dialect = self.dialect;
        let (engine, stop, out) = (self.engine.clone(), self.stop.clone(), self.out.clone());
        let turn = position.turn();
        // Sente's clock: USI calls it btime (black), UCI wtime (white moves first there).
        let (ours, inc) = match (dialect, turn) {
            (Dialect::Usi, Color::Sente) | (Dialect::Uci, Color::Gote) => {
                (value("btime"), value("binc"))
            }
            _ => (value("wtime"), value("winc")),
        };
        let ms = Duration::from_millis;
        let clock = Clock {
            movetime: value("movetime").map(ms),
            remaining: ours.map(ms),
            increment: ms(inc.unwrap_or(0)),
            byoyomi: ms(value("byoyomi").unwrap_or(0)),
            moves_to_go: value("movestogo").map(|n| n.min(u32::MAX as u64) as u32),
        };
        let nodes = match (value("nodes"), self.caps.max_nodes) {
            (Some(n), Some(cap)) => Some(n.min(cap)),
            (n, cap) => n.or(cap),
        };
        let depth = value("depth").map(|d| d.min(u32::MAX as u64) as u32);
        // Neither a clock nor a depth nor nodes: two seconds.
        let clock = if clock.budget().is_none() && depth.is_none() && value("nodes").is_none() {
            Clock {
                movetime: Some(ms(2000)),
                ..clock
            }
        } else {
            clock
        };
        let mut limits = match clock.budget() {
            Some(b) if !infinite => Limits::from_budget(b),
            _ => Limits::default(),
        };
        limits.depth = depth;
        limits.nodes = nodes;
        self.search = Some(std::thread::spawn(move || {
            let Ok(mut engine) = engine.lock() else {
                return;
            };
            let notation = if dialect == Dialect::Usi {
                Notation::Usi
            } else {
                Notation::Fairy
            };
            let root = position.clone();
            let mut pos = position;
            let (best, _) = engine.think_any(&mut pos, limits, &stop, |info| {
                let mut p = root.clone();
                let mut pv = Vec::new();
                for &m in &info.pv {
                    pv.push(p.format_move(m, notation));
                    if p.try_play(m).is_err() {
                        break;
                    }
                }
                say(&out, &format!("{} pv {}", info_line(info), pv.join(" ")));
            });
            let text = best.map_or(dialect.no_move().to_string(), |m| {
                root.format_move(m, notation)
            });
            say(&out, &format!("bestmove {text}"));
        }));
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.wait();
    }

    fn wait(&mut self) {
        if let Some(h) = self.search.take()
            && let Err(panic) = h.join()
        {
            // A bug in the search must not pass for a search without a reply.
            std::panic::resume_unwind(panic);
        }
    }
}

fn info_line(info: &Info) -> String {
    let score = match info.mate_in() {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", info.score),
    };
    format!(
        "info depth {} seldepth {} score {score} nodes {} time {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.elapsed.as_millis()
    )
}

/// At most 40 characters of what a peer sent, to quote it back.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}
