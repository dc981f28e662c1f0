//! The mate search of USI's `go mate`: the side to move checks with every
//! move, the other side answers with every legal move, deepened two plies at
//! a time, so the first mate found is a shortest one; of its defences, the
//! longest within the depth is kept. Positions proved to have no mate within
//! a depth are remembered by hash.
//!
//! What counts as a mate is the variant's: the defender has no legal move
//! (its rules decide, e.g. a pawn-drop mate is no move), or the game is won
//! on the board (a royal captured, a try, a check that wins).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::Bitboard;
use crate::position::{AnyPosition, Move, Outcome, Position};
use crate::with_position;

/// The longest mate looked for, in plies.
pub const MATE_MAX_PLIES: u32 = 63;

/// What a mate search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// A forced mate: the attacker's and the defender's moves, in turn.
    Mate(Vec<Move>),
    /// No mate: proved (every line ran out of checks or defences) or none
    /// within [`MATE_MAX_PLIES`].
    NoMate,
    /// Time ran out, or the search was stopped, before an answer.
    Timeout,
}

/// The table's mark of a position with no mate at any depth.
const PROVED: u32 = u32::MAX;

struct Search<'a> {
    start: Instant,
    time: Option<Duration>,
    stop: &'a AtomicBool,
    max_nodes: Option<u64>,
    nodes: u64,
    timed_out: bool,
    /// Some line was cut by the depth: a failed iteration proves nothing.
    cut: bool,
    /// Attack positions with no mate within this many plies.
    no_mate: HashMap<u64, u32>,
}

impl Search<'_> {
    fn out_of_time(&mut self) -> bool {
        if self.max_nodes.is_some_and(|n| self.nodes >= n) {
            self.timed_out = true;
        } else if !self.timed_out && self.nodes & 1023 == 0 {
            let late = self.time.is_some_and(|t| self.start.elapsed() >= t);
            self.timed_out = late || self.stop.load(Ordering::Relaxed);
        }
        self.timed_out
    }

    /// A mate within `depth` plies for the side to move, checking each move.
    fn attack<B: Bitboard>(&mut self, pos: &mut Position<B>, depth: u32) -> Option<Vec<Move>> {
        self.nodes += 1;
        if self.out_of_time() {
            return None;
        }
        if depth == 0 {
            self.cut = true;
            return None;
        }
        let hash = pos.hash();
        if let Some(&d) = self.no_mate.get(&hash)
            && d >= depth
        {
            // A bound found with lines cut short proves nothing beyond it.
            self.cut |= d != PROVED;
            return None;
        }
        let outer = std::mem::replace(&mut self.cut, false);
        let attacker = pos.turn();
        let mut found = None;
        for m in pos.legal_moves() {
            pos.play_unchecked(m);
            let line = match pos.terminal() {
                Some(Outcome::Win { winner, .. }) if winner == attacker => Some(Vec::new()),
                Some(_) => None,
                // A repeated position is no progress (and a perpetual check
                // loses in the variants that say so); it depends on the path,
                // so it proves nothing.
                None if pos.repetitions() > 1 => {
                    self.cut = true;
                    None
                }
                None if !pos.in_check() => None,
                None => self.defend(pos, depth - 1, attacker),
            };
            pos.undo();
            if let Some(mut line) = line {
                line.insert(0, m);
                found = Some(line);
                break;
            }
            if self.timed_out {
                break;
            }
        }
        if found.is_none() && !self.timed_out {
            self.no_mate
                .insert(hash, if self.cut { depth } else { PROVED });
        }
        self.cut |= outer;
        found
    }

    /// The longest defence of the side to move (in check) against a mate
    /// within `depth` plies, if every defence is mated.
    fn defend<B: Bitboard>(
        &mut self,
        pos: &mut Position<B>,
        depth: u32,
        attacker: crate::board::Color,
    ) -> Option<Vec<Move>> {
        self.nodes += 1;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Some(Vec::new());
        }
        if depth == 0 {
            self.cut = true;
            return None;
        }
        let mut longest: Option<Vec<Move>> = None;
        for m in moves {
            pos.play_unchecked(m);
            let line = match pos.terminal() {
                Some(Outcome::Win { winner, .. }) if winner == attacker => Some(Vec::new()),
                Some(_) => None,
                None => self.attack(pos, depth - 1),
            };
            pos.undo();
            let mut line = line?;
            line.insert(0, m);
            if longest.as_ref().is_none_or(|l| line.len() > l.len()) {
                longest = Some(line);
            }
        }
        longest
    }
}

/// Looks for a forced mate by the side to move, within `time` (none: until
/// `stop`) and `max_nodes` positions, deepening by two plies up to
/// [`MATE_MAX_PLIES`].
pub fn find_mate<B: Bitboard>(
    pos: &mut Position<B>,
    time: Option<Duration>,
    max_nodes: Option<u64>,
    stop: &AtomicBool,
) -> MateAnswer {
    let mut s = Search {
        start: Instant::now(),
        time,
        stop,
        max_nodes,
        nodes: 0,
        timed_out: false,
        cut: false,
        no_mate: HashMap::new(),
    };
    let mut depth = 1;
    while depth <= MATE_MAX_PLIES {
        s.cut = false;
        if let Some(line) = s.attack(pos, depth) {
            return MateAnswer::Mate(line);
        }
        if s.timed_out {
            return MateAnswer::Timeout;
        }
        if !s.cut {
            // No line was cut short: there is no mate at any depth.
            return MateAnswer::NoMate;
        }
        depth += 2;
    }
    MateAnswer::NoMate
}

/// [`find_mate`] on a position of any width.
pub fn find_mate_any(
    pos: &mut AnyPosition,
    time: Option<Duration>,
    max_nodes: Option<u64>,
    stop: &AtomicBool,
) -> MateAnswer {
    with_position!(pos, p => find_mate(p, time, max_nodes, stop))
}
