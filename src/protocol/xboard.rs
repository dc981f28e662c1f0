//! The XBoard / WinBoard protocol (CECP version 2), as HaChu and
//! Fairy-Stockfish speak it to the GUIs of the large shogis.
//!
//! Commands: `xboard`, `protover N` (answered with the features: `usermove`,
//! `setboard`, `ping`, `variants` with every koma variant, `sigint=0`,
//! `sigterm=0`, `done=1`), `new`, `variant NAME`, `force`, `go`,
//! `playother`, `usermove MOVE` (or a bare move), `level MPS BASE INC`,
//! `st SECONDS`, `sd DEPTH`, `time CS`, `otim CS`, `setboard FEN`, `undo`,
//! `remove`, `result ...`, `ping N`, `post`, `nopost`, `?`, `analyze`,
//! `exit`, `quit`; the rest is answered `Error (unknown command): ...` or
//! ignored where the protocol lets an engine ignore it (`hard`, `easy`,
//! `random`, `computer`, `name`, `accepted`, `rejected`, `draw`, `bk`,
//! `hint`, `.`).
//!
//! `variant NAME` of a variant XBoard does not know is answered with its
//! `setup` and `piece` lines ([`super::xboard_setup`]).
//!
//! Moves are written as XBoard writes a board's squares: file letters from
//! the first player's left, rank numbers from the first player's side
//! (Fairy-Stockfish's notation, `e1e2`, `e1a5+`, `P@c3`); a move in two legs
//! names its legs apart, `f1e2,e2d3` (and `f1e2,e2f1` for a capture without
//! moving), as HaChu does, and a pass is the null move `@@@@`. White is
//! sente, who moves first.
//!
//! The engine thinks in a thread of its own while the commands are read:
//! `?` makes it move at once; `new`, `force`, `result`, `analyze` and
//! `exit` stop it without a move (XBoard sends `force` before `undo`,
//! `remove` or `setboard`);
//! `quit` (and the end of the input) lets it finish its move first; other
//! commands wait until it has moved, so that `ping`'s `pong` comes after
//! the move, as the protocol asks. In analyze mode (`analyze` ... `exit`)
//! it searches the position without end, posting each depth, and starts
//! again on the new position after each `usermove`, `undo`, `new` or
//! `setboard`; it never moves.

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{Output, say};
use crate::board::Color;
use crate::engine::{Clock, Engine, Limits};
use crate::notation::Notation;
use crate::position::{AnyPosition, Game, Move, Outcome};
use crate::setup::Setup;
use crate::variant;

/// What the engine may spend on a move: XBoard's `level`, `st` and `sd`.
#[derive(Clone, Copy, Debug, Default)]
struct TimeControl {
    /// Moves per session (0: the whole game), base time, increment.
    level: Option<(u32, Duration, Duration)>,
    /// `st`: exactly this long a move.
    per_move: Option<Duration>,
    /// `sd`: at most this depth.
    depth: Option<u32>,
}

struct XSession {
    game: Game,
    pos: AnyPosition,
    /// Force mode: moves are taken, none is made.
    force: bool,
    /// The side the engine plays.
    engine_side: Option<Color>,
    tc: TimeControl,
    /// `time` and `otim`: the engine's and its opponent's clocks.
    clock: Option<Duration>,
    post: bool,
    engine: Arc<Mutex<Engine>>,
    /// The running search, if any.
    search: Option<Search>,
    /// Numbers the searches: a finished search's move is played only if no
    /// command has stopped it since.
    generation: u64,
    /// Analyze mode.
    analyzing: bool,
    /// Commands read while the engine thinks, handled after its move.
    pending: VecDeque<String>,
    /// `quit` came while the engine thought: leave after its move.
    quitting: bool,
    events: Sender<Event>,
    out: Output,
}

/// What the session loop waits for: a command, the end of the input, or a
/// search that has finished.
enum Event {
    Line(String),
    End,
    Done(u64, Option<Move>),
}

struct Search {
    analyze: bool,
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// Serves XBoard's protocol on `input` until `quit` or the input's end.
pub fn serve_xboard(
    input: Box<dyn BufRead + Send>,
    out: Output,
    variant: &str,
) -> Result<(), crate::Error> {
    let game = Game::load(variant)?;
    let pos = AnyPosition::start(&game);
    let (tx, rx) = mpsc::channel();
    let reader = tx.clone();
    std::thread::spawn(move || {
        let mut input = input;
        while let Ok(Some(line)) = crate::text::read_line_lossy(&mut input) {
            let line = line.trim_end_matches(['\n', '\r']).trim().to_string();
            if !line.is_empty() && reader.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::End);
    });
    let mut s = XSession {
        game,
        pos,
        force: false,
        engine_side: Some(Color::Gote),
        tc: TimeControl::default(),
        clock: None,
        post: false,
        engine: Arc::new(Mutex::new(Engine::new(64))),
        search: None,
        generation: 0,
        analyzing: false,
        pending: VecDeque::new(),
        quitting: false,
        events: tx,
        out,
    };
    while let Ok(event) = rx.recv() {
        let go_on = match event {
            Event::Line(line) => s.line(line),
            Event::Done(generation, best) => s.finished(generation, best),
            Event::End => s.line("quit".to_string()),
        };
        if !go_on {
            break;
        }
    }
    s.stop_search();
    Ok(())
}

/// XBoard's name of a move: Fairy-Stockfish's, with a two-leg move's legs
/// apart (`f1e2,e2d3`), and a pass as XBoard's null move `@@@@` (the form
/// HaChu takes; it refuses a pass written as a route).
fn xboard_text(pos: &AnyPosition, mv: Move) -> String {
    match mv {
        Move::MultiLeg { from, via, to, .. } if from == to && pos.piece_at(via).is_none() => {
            "@@@@".to_string()
        }
        // Fairy-Stockfish's `f1e2d3+` cut after its first two squares.
        Move::MultiLeg { from, via, .. } => {
            let text = pos.format_move(mv, Notation::Fairy);
            let t = pos.topology();
            let via_len = t.fairy_name(via).len();
            let cut = t.fairy_name(from).len() + via_len;
            format!("{},{}", &text[..cut], &text[cut - via_len..])
        }
        _ => pos.format_move(mv, Notation::Fairy),
    }
}

/// koma's text of a move XBoard writes: legs joined (`f1e2,e2d3` →
/// `f1e2d3`), the second leg starting where the first ends.
fn koma_text(pos: &AnyPosition, text: &str) -> Result<String, String> {
    let Some((first, second)) = text.split_once(',') else {
        return Ok(text.to_string());
    };
    let t = pos.topology();
    let squares = |leg: &str| -> Option<(usize, usize, String)> {
        let (_, rest) = t.read_fairy_cell(leg)?;
        let (_, tail) = t.read_fairy_cell(rest)?;
        Some((
            leg.len() - rest.len(),
            rest.len() - tail.len(),
            tail.to_string(),
        ))
    };
    let bad = || format!("'{text}' is not two legs such as f1e2,e2d3");
    let (a, b, tail1) = squares(first).ok_or_else(bad)?;
    let (c, _, tail2) = squares(second).ok_or_else(bad)?;
    if !tail1.is_empty() || first[a..a + b] != second[..c] {
        return Err(format!(
            "the second leg of '{text}' does not start where the first ends"
        ));
    }
    Ok(format!(
        "{first}{}{tail2}",
        &second[c..second.len() - tail2.len()]
    ))
}

impl XSession {
    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    /// A line read: handled now, or kept until the engine has moved.
    fn line(&mut self, line: String) -> bool {
        let word = line.split_whitespace().next().unwrap_or_default();
        let Some(search) = &self.search else {
            return self.command(&line);
        };
        if search.analyze {
            return match word {
                "." | "?" | "bk" | "hint" => true,
                "post" | "nopost" | "time" | "otim" | "ping" => self.command(&line),
                "quit" => false,
                _ => {
                    // The position or the mode changes: analysis starts
                    // again on what there is afterwards.
                    self.stop_search();
                    let go_on = self.command(&line);
                    if go_on && self.analyzing && self.search.is_none() {
                        self.start_search(true);
                    }
                    go_on
                }
            };
        }
        match word {
            "?" => {
                search.stop.store(true, Ordering::Relaxed);
                true
            }
            "quit" if self.pending.is_empty() => self.quit(),
            "post" | "nopost" | "time" | "otim" | "easy" | "hard" | "." => self.command(&line),
            // XBoard sends `force` before it takes moves back or sets a
            // board, so `undo`, `setboard` and the rest wait for the move.
            // ... unless commands before it already wait for the move.
            "new" | "force" | "result" | "analyze" | "exit" if self.pending.is_empty() => {
                self.stop_search();
                self.command(&line)
            }
            _ => {
                self.pending.push_back(line);
                true
            }
        }
    }

    /// `quit` or the end of the input: a move being thought of is played
    /// first; analysis just stops.
    fn quit(&mut self) -> bool {
        match &self.search {
            Some(s) if !s.analyze => {
                self.quitting = true;
                true
            }
            _ => false,
        }
    }

    /// Handles one line; false ends the session.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let rest = line[words[0].len()..].trim();
        match words[0] {
            "xboard" | "hard" | "easy" | "random" | "computer" | "name" | "accepted"
            | "rejected" | "bk" | "hint" | "." | "draw" | "ics" | "cores" | "memory" => {}
            "analyze" => {
                self.analyzing = true;
                self.start_search(true);
            }
            "exit" => self.analyzing = false,
            "protover" => self.features(),
            "new" => {
                self.pos = AnyPosition::start(&self.game);
                self.force = false;
                self.engine_side = Some(Color::Gote);
                self.tc.depth = None;
                if let Ok(mut e) = self.engine.lock() {
                    e.clear();
                }
            }
            "variant" => match Game::load(rest) {
                Ok(g) => {
                    self.game = g;
                    self.pos = AnyPosition::start(&self.game);
                    // A variant XBoard does not know: its board, pieces and moves.
                    if !super::xboard_setup::XBOARD_KNOWS.contains(&rest) {
                        let lines = crate::with_rules!(&self.game, r => super::xboard_setup::engine_defined(r));
                        match lines {
                            Ok(lines) => lines.iter().for_each(|l| self.say(l)),
                            Err(why) => self.say(&format!(
                                "tellusererror XBoard cannot be told {rest}'s pieces: {why}"
                            )),
                        }
                    }
                }
                Err(e) => self.say(&format!(
                    "Error (unknown variant): {rest}: {}",
                    first_line(&e.to_string())
                )),
            },
            "force" => self.force = true,
            "go" => {
                self.force = false;
                self.engine_side = Some(self.pos.turn());
                self.think();
            }
            "playother" => {
                self.force = false;
                self.engine_side = Some(self.pos.turn().opposite());
            }
            "white" | "black" => {}
            "level" => self.level(&words[1..], line),
            "st" => match rest.parse::<f64>() {
                Ok(s) if s > 0.0 && s.is_finite() => {
                    self.tc.per_move = Some(Duration::from_secs_f64(s.min(1e6)))
                }
                _ => self.say(&format!("Error (bad seconds): {line}")),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d > 0 => self.tc.depth = Some(d),
                _ => self.say(&format!("Error (bad depth): {line}")),
            },
            "time" => match rest.parse::<u64>() {
                Ok(cs) => self.clock = Some(Duration::from_millis(cs.saturating_mul(10))),
                _ => self.say(&format!("Error (bad time): {line}")),
            },
            "otim" => {
                if rest.parse::<u64>().is_err() {
                    self.say(&format!("Error (bad time): {line}"));
                }
            }
            "setboard" => self.setboard(rest),
            "undo" => {
                self.pos.undo();
            }
            "remove" => {
                self.pos.undo();
                self.pos.undo();
            }
            "result" => self.force = true,
            "ping" => self.say(&format!("pong {rest}")),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "?" => {}
            "quit" => return false,
            "usermove" => self.user_move(rest),
            _ if looks_like_move(words[0]) && words.len() == 1 => self.user_move(words[0]),
            _ => self.say(&format!("Error (unknown command): {}", words[0])),
        }
        true
    }

    fn features(&self) {
        // The slugs and their aliases: XBoard draws the games it knows by
        // their names (`shogi`, `chu`).
        let mut names: Vec<String> = variant::catalogue().iter().map(|s| s.to_string()).collect();
        names.extend(variant::aliases().into_iter().map(|(a, _)| a));
        names.sort();
        names.dedup();
        self.say(&format!(
            "feature myname=\"koma {}\" variants=\"{}\" usermove=1 setboard=1 ping=1 sigint=0 sigterm=0 colors=0 analyze=1 time=1 reuse=1 done=1",
            env!("CARGO_PKG_VERSION"),
            names.join(",")
        ));
    }

    fn level(&mut self, words: &[&str], line: &str) {
        let parse = || -> Option<(u32, Duration, Duration)> {
            let [mps, base, inc] = words else {
                return None;
            };
            let mps: u32 = mps.parse().ok()?;
            let base = match base.split_once(':') {
                Some((m, s)) => m.parse::<u64>().ok()? * 60 + s.parse::<u64>().ok()?,
                None => base.parse::<u64>().ok()? * 60,
            };
            let inc: f64 = inc
                .parse()
                .ok()
                .filter(|i: &f64| i.is_finite() && *i >= 0.0)?;
            Some((
                mps,
                Duration::from_secs(base),
                Duration::from_secs_f64(inc.min(1e6)),
            ))
        };
        match parse() {
            Some(l) => {
                self.tc.level = Some(l);
                self.tc.per_move = None;
            }
            None => self.say(&format!(
                "Error (bad level: expected 'level MPS BASE INC'): {line}"
            )),
        }
    }

    fn setboard(&mut self, fen: &str) {
        let setup = match Setup::parse_fen(fen) {
            Ok(s) => s,
            Err(e) => return self.say(&format!("tellusererror Illegal position: {e}")),
        };
        match AnyPosition::new(&self.game, &setup) {
            Ok(p) => self.pos = p,
            Err(e) => self.say(&format!(
                "tellusererror Illegal position: {}",
                first_line(&e.to_string())
            )),
        }
    }

    fn user_move(&mut self, text: &str) {
        if self.pos.outcome().is_some() {
            return self.say(&format!("Illegal move (the game is over): {text}"));
        }
        let mv = koma_text(&self.pos, text)
            .and_then(|t| self.pos.parse_move(&t).map_err(|e| e.reason()));
        match mv.map(|m| (m, self.pos.try_play(m))) {
            Ok((_, Ok(()))) => {
                if self.announce() {
                    return;
                }
                if !self.force && !self.analyzing && self.engine_side == Some(self.pos.turn()) {
                    self.think();
                }
            }
            Ok((_, Err(e))) => self.say(&format!("Illegal move ({e}): {text}")),
            Err(reason) => self.say(&format!("Illegal move ({reason}): {text}")),
        }
    }

    /// Says the result if the game is over; true if it is.
    fn announce(&self) -> bool {
        let Some(o) = self.pos.outcome() else {
            return false;
        };
        let score = match &o {
            Outcome::Win {
                winner: Color::Sente,
                ..
            } => "1-0",
            Outcome::Win { .. } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        };
        self.say(&format!("{score} {{{o}}}"));
        true
    }

    fn limits(&self) -> Limits {
        let clock = match (self.tc.per_move, self.tc.level, self.clock) {
            (Some(t), _, _) => Clock {
                movetime: Some(t),
                remaining: None,
                increment: Duration::ZERO,
                byoyomi: Duration::ZERO,
                moves_to_go: None,
            },
            (None, level, remaining) => {
                let (mps, base, inc) =
                    level.unwrap_or((0, Duration::from_secs(60), Duration::ZERO));
                // Moves of this side still to play before its clock is reset.
                let played = self.pos.history().len() as u32 / 2;
                let to_go = (mps > 0).then(|| mps - played % mps);
                Clock {
                    movetime: None,
                    remaining: Some(remaining.unwrap_or(base)),
                    increment: inc,
                    byoyomi: Duration::ZERO,
                    moves_to_go: to_go,
                }
            }
        };
        let mut limits = match clock.budget() {
            Some(b) => Limits::from_budget(b),
            None => Limits::default(),
        };
        limits.depth = self.tc.depth;
        limits
    }

    /// Starts thinking of the engine's move (or says the game is over).
    fn think(&mut self) {
        if self.pos.outcome().is_some() {
            self.announce();
            return;
        }
        self.start_search(false);
    }

    /// Starts a search of the position in its own thread: the engine's move
    /// within the time control, or an analysis without end.
    fn start_search(&mut self, analyze: bool) {
        self.stop_search();
        if analyze && self.pos.outcome().is_some() {
            return;
        }
        let limits = if analyze {
            Limits::default()
        } else {
            self.limits()
        };
        self.generation += 1;
        let generation = self.generation;
        let stop = Arc::new(AtomicBool::new(false));
        let (engine, flag, events) = (self.engine.clone(), stop.clone(), self.events.clone());
        let root = self.pos.clone();
        let (post, out) = (self.post || analyze, self.out.clone());
        let handle = std::thread::spawn(move || {
            let Ok(mut engine) = engine.lock() else {
                let _ = events.send(Event::Done(generation, None));
                return;
            };
            let mut pos = root.clone();
            let start = Instant::now();
            let (best, _) = engine.think_any(&mut pos, limits, &flag, |info| {
                if post {
                    say(&out, &thinking_line(&root, info, start.elapsed()));
                }
            });
            // Analysis goes on until it is stopped.
            while analyze && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = events.send(Event::Done(generation, best));
        });
        self.search = Some(Search {
            analyze,
            stop,
            handle,
        });
    }

    /// Stops the running search, if any, without playing its move.
    fn stop_search(&mut self) {
        if let Some(search) = self.search.take() {
            self.generation += 1;
            search.stop.store(true, Ordering::Relaxed);
            let _ = search.handle.join();
        }
    }

    /// A search has finished: the engine's move is played (unless a command
    /// stopped it), then the commands that waited for it are handled.
    fn finished(&mut self, generation: u64, best: Option<Move>) -> bool {
        if generation != self.generation {
            return true;
        }
        let Some(search) = self.search.take() else {
            return true;
        };
        let _ = search.handle.join();
        if !search.analyze {
            match best {
                Some(best) => {
                    let text = xboard_text(&self.pos, best);
                    if self.pos.try_play(best).is_ok() {
                        self.say(&format!("move {text}"));
                        self.announce();
                    } else {
                        self.say("resign");
                    }
                }
                None => self.say("resign"),
            }
        }
        for line in std::mem::take(&mut self.pending) {
            if !self.line(line) {
                return false;
            }
        }
        !(self.quitting && self.search.is_none())
    }
}

/// A thinking line as XBoard reads it: depth, score, time in centiseconds,
/// nodes, the principal variation.
fn thinking_line(root: &AnyPosition, info: &crate::engine::Info, elapsed: Duration) -> String {
    let mut p = root.clone();
    let mut words = Vec::new();
    for &m in &info.pv {
        words.push(xboard_text(&p, m));
        if p.try_play(m).is_err() {
            break;
        }
    }
    format!(
        "{} {} {} {} {}",
        info.depth,
        info.score.clamp(-100_000, 100_000),
        elapsed.as_millis() / 10,
        info.nodes,
        words.join(" ")
    )
}

/// Whether a word is written as a move (not a command): it starts with a
/// square (a letter and a digit), a piece letter and `@`, or holds a comma.
fn looks_like_move(w: &str) -> bool {
    let b = w.as_bytes();
    w.contains('@')
        || w.contains(',')
        || (b.len() >= 4 && b[0].is_ascii_lowercase() && b.get(1).is_some_and(u8::is_ascii_digit))
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_reads_back_from_how_xboard_writes_it() {
        // Chu shogi with lions and a horned falcon in play: two-leg moves
        // of every kind (on, back, pass), promotions, plain moves.
        let game = Game::load("chu-shogi").expect("embedded");
        let mut pos = AnyPosition::start(&game);
        // The game of issue 45: gote's lion on d5 may pass or take the
        // pawn on c4 without moving.
        let game_moves = "f3d2 g10f8 i3i2 j9j8 d2b2 f8h7 j1k2 h7g8 b2d2 g8f7 a4a5 f7g8f7 g3f3 e11d11 d2b2 f7d5 b2d2";
        for m in game_moves.split_whitespace() {
            let mv = pos.parse_move(m).expect("legal");
            pos.try_play(mv).expect("legal");
        }
        let (mut two_legs, mut passes) = (0, 0);
        for mv in pos.legal_moves() {
            let text = xboard_text(&pos, mv);
            if matches!(mv, Move::MultiLeg { .. }) {
                two_legs += 1;
                assert!(text.contains(',') || text == "@@@@", "{text}");
            }
            let back = koma_text(&pos, &text).expect("readable");
            if text == "@@@@" {
                // Every pass leaves the same position; @@@@ reads as one.
                let read = pos.parse_move(&back).expect("a pass");
                assert!(matches!(read, Move::MultiLeg { from, to, .. } if from == to));
                passes += 1;
                continue;
            }
            assert_eq!(pos.parse_move(&back), Ok(mv), "{text} -> {back}");
        }
        assert!(
            two_legs > passes && passes > 0,
            "the position has passes and other two-leg moves"
        );
    }

    #[test]
    fn legs_that_do_not_join_are_refused() {
        let game = Game::load("chu-shogi").expect("embedded");
        let pos = AnyPosition::start(&game);
        assert!(koma_text(&pos, "f1e2,d2d3").is_err());
        assert!(koma_text(&pos, "f1,e2d3").is_err());
        assert_eq!(koma_text(&pos, "f1e2,e2d3+").as_deref(), Ok("f1e2d3+"));
    }
}
