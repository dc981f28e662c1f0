//! `go` and what follows it: the search thread, `go mate`, `go ponder` with
//! `ponderhit`, `stop`, and the `info` and `bestmove` lines.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::{Dialect, Session, say};
use crate::board::Color;
use crate::engine::{Clock, Info, Limits, MateAnswer, find_mate_any};
use crate::notation::Notation;
use crate::position::AnyPosition;

impl Session {
    pub(super) fn go(&mut self, words: &[&str]) {
        self.wait();
        self.pondering = None;
        let Some(position) = self.position.clone() else {
            say(
                &self.out,
                "info string error: the last position was refused; send a valid position first",
            );
            // The answer a GUI waits for: `checkmate` to `go mate`.
            let mate = self.dialect == Dialect::Usi && words.first() == Some(&"mate");
            let answer = if mate {
                "checkmate nomate".to_string()
            } else {
                format!("bestmove {}", self.dialect.no_move())
            };
            return say(&self.out, &answer);
        };
        self.stop.store(false, Ordering::Relaxed);
        self.silent.store(false, Ordering::Relaxed);
        if self.dialect == Dialect::Usi && words.first() == Some(&"mate") {
            return self.go_mate(position, words.get(1).copied());
        }
        // The impasse rule: a side that may declare wins by saying so.
        if self.dialect == Dialect::Usi && position.may_declare() {
            return say(&self.out, "bestmove win");
        }
        let ponder = words.contains(&"ponder");
        if ponder {
            // On `ponderhit` the same `go` is searched again for real.
            self.pondering = Some(
                words
                    .iter()
                    .filter(|w| **w != "ponder")
                    .map(|w| w.to_string())
                    .collect(),
            );
        }
        let value = |key: &str| -> Option<u64> {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
                .and_then(|v| v.parse().ok())
        };
        // UCI's `go mate N`: search until a mate in at most N moves is
        // found (then answer at once) or `stop`, within any other limit given.
        let mate_in = match self.dialect {
            Dialect::Uci => value("mate").map(|n| n.clamp(1, 500) as i32),
            Dialect::Usi => None,
        };
        let infinite = words.contains(&"infinite") || ponder;
        self.endless = infinite;
        let dialect = self.dialect;
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
        // Neither a clock nor a depth nor nodes (nor a mate to find): two seconds.
        let clock = if clock.budget().is_none()
            && depth.is_none()
            && value("nodes").is_none()
            && mate_in.is_none()
        {
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
        // Thinking on the opponent's time too, a clock lasts longer: aim a
        // quarter further (the hard limit stays).
        if self.ponder_option
            && let (Some(opt), Some(max)) = (limits.optimum, limits.time)
        {
            limits.optimum = Some((opt * 5 / 4).min(max));
        }
        limits.depth = depth;
        limits.nodes = nodes;
        limits.lines = self.multipv;
        let multipv = self.multipv > 1;
        let (engine, stop, out) = (self.engine.clone(), self.stop.clone(), self.out.clone());
        let silent = self.silent.clone();
        self.search = Some(std::thread::spawn(move || {
            let Ok(mut engine) = engine.lock() else {
                return;
            };
            let notation = dialect.notation();
            let root = position.clone();
            let mut pos = position;
            let (best, last) = engine.think_any(&mut pos, limits, &stop, |info| {
                say(&out, &info_line(info, &root, notation, multipv));
                if let (Some(n), Some(k)) = (mate_in, info.mate_in())
                    && (1..=n).contains(&k)
                {
                    stop.store(true, Ordering::Relaxed);
                }
            });
            // An endless search (or a ponder search) answers only when told.
            while infinite && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
            if silent.load(Ordering::Relaxed) {
                return;
            }
            let Some(best) = best else {
                return say(&out, &format!("bestmove {}", dialect.no_move()));
            };
            let mut text = format!("bestmove {}", root.format_move(best, notation));
            // The reply expected, from the line the move came from.
            if let Some(info) = last
                && info.pv.first() == Some(&best)
                && let Some(&reply) = info.pv.get(1)
            {
                let mut after = root.clone();
                if after.try_play(best).is_ok() {
                    text.push_str(&format!(" ponder {}", after.format_move(reply, notation)));
                }
            }
            say(&out, &text);
        }));
    }

    /// USI's `go mate TIME|infinite`: answers `checkmate MOVES`,
    /// `checkmate nomate` or `checkmate timeout`.
    fn go_mate(&mut self, position: AnyPosition, time: Option<&str>) {
        let time = match time {
            None | Some("infinite") => None,
            Some(t) => match t.parse::<u64>() {
                Ok(ms) => Some(Duration::from_millis(ms)),
                Err(_) => {
                    say(
                        &self.out,
                        &format!(
                            "info string error: 'go mate {t}': expected a time in ms or 'infinite'"
                        ),
                    );
                    return say(&self.out, "checkmate timeout");
                }
            },
        };
        let (stop, out) = (self.stop.clone(), self.out.clone());
        let max_nodes = self.caps.max_nodes;
        self.endless = time.is_none();
        self.search = Some(std::thread::spawn(move || {
            let root = position.clone();
            let mut pos = position;
            let answer = match find_mate_any(&mut pos, time, max_nodes, &stop) {
                MateAnswer::Mate(line) => {
                    let mut p = root.clone();
                    let mut words = Vec::new();
                    for m in line {
                        words.push(p.format_move(m, Notation::Usi));
                        if p.try_play(m).is_err() {
                            break;
                        }
                    }
                    words.join(" ")
                }
                MateAnswer::NoMate => "nomate".to_string(),
                MateAnswer::Timeout => "timeout".to_string(),
            };
            say(&out, &format!("checkmate {answer}"));
        }));
    }

    /// `ponderhit`: the move pondered on was played; the search is done again
    /// within the limits its `go` gave (the table keeps what it learnt).
    pub(super) fn ponderhit(&mut self) {
        let Some(words) = self.pondering.take() else {
            return;
        };
        self.silent.store(true, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
        self.wait();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        self.go(&words);
    }

    pub(super) fn halt(&mut self) {
        self.pondering = None;
        self.stop.store(true, Ordering::Relaxed);
        self.wait();
    }

    /// Waits for the running search to answer; an endless one (`infinite`,
    /// `ponder`, `go mate infinite`) only ends on `stop`, which a peer that
    /// sends another command instead is taken to mean.
    pub(super) fn wait(&mut self) {
        if std::mem::take(&mut self.endless) {
            self.stop.store(true, Ordering::Relaxed);
        }
        if let Some(h) = self.search.take()
            && let Err(panic) = h.join()
        {
            // A bug in the search must not pass for a search without a reply.
            std::panic::resume_unwind(panic);
        }
    }
}

/// An `info` line: depth, score, nodes, time, the line (its number with MultiPV).
fn info_line(info: &Info, root: &AnyPosition, notation: Notation, multipv: bool) -> String {
    let score = match info.mate_in() {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", info.score),
    };
    let mut p = root.clone();
    let mut pv = Vec::new();
    for &m in &info.pv {
        pv.push(p.format_move(m, notation));
        if p.try_play(m).is_err() {
            break;
        }
    }
    let line = if multipv {
        format!(" multipv {}", info.multipv)
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {}{line} score {score} nodes {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.elapsed.as_millis(),
        pv.join(" ")
    )
}
