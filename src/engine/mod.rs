//! The built-in player: alpha-beta with iterative deepening, quiescence on
//! captures, a transposition table on the position's Zobrist hash, and move
//! ordering (hash move, captures by value, killers, history). Its evaluation
//! is material from the variant file's piece values; nothing is specific to
//! any game.

mod eval;
mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Bitboard, MAX_SQUARES};
use crate::position::{AnyPosition, Move, Position};
use crate::rules::MAX_ROLES;
use crate::with_position;

pub use eval::evaluate;
use tt::{Bound, Table};

/// A score in centipawn-like units of the variant's piece values.
pub type Score = i32;

/// Mate found: scores above this are mates, nearer is higher.
pub const MATE: Score = 1_000_000;
const INFINITY: Score = 2 * MATE;
const MAX_PLY: usize = 128;

/// When to stop thinking.
#[derive(Copy, Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this depth.
    pub depth: Option<u32>,
    /// Stop after about this long.
    pub time: Option<Duration>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
}

/// What a finished iteration found, for `info` lines.
#[derive(Clone, Debug)]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// Score from the side to move's view.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
}

impl Info {
    /// Moves to mate (positive: the side to move mates), if the score is a mate.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score.abs() > MATE - MAX_PLY as i32 {
            let plies = MATE - self.score.abs();
            let moves = (plies + 1) / 2;
            Some(if self.score > 0 { moves } else { -moves })
        } else {
            None
        }
    }
}

/// A searcher that keeps its table between moves of a game.
pub struct Engine {
    table: Table,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Vec<i32>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(16)
    }
}

struct Run<'a> {
    start: Instant,
    limits: Limits,
    stop: &'a AtomicBool,
    nodes: u64,
    stopped: bool,
}

impl Run<'_> {
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 {
            let time_up = self.limits.time.is_some_and(|t| self.start.elapsed() >= t);
            let nodes_up = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if time_up || nodes_up || self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
        self.stopped
    }
}

impl Engine {
    /// An engine with a transposition table of about `megabytes` MiB.
    pub fn new(megabytes: usize) -> Engine {
        Engine {
            table: Table::new(megabytes),
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; HISTORY_SIZE],
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.killers = [[None; 2]; MAX_PLY];
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Searches the position and returns the best move found (None when the
    /// game is over) with the last completed iteration's information.
    /// `report` is called after each completed depth.
    pub fn think<B: Bitboard>(
        &mut self,
        pos: &mut Position<B>,
        limits: Limits,
        stop: &AtomicBool,
        mut report: impl FnMut(&Info),
    ) -> (Option<Move>, Option<Info>) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return (None, None);
        }
        let mut run = Run {
            start: Instant::now(),
            limits,
            stop,
            nodes: 0,
            stopped: false,
        };
        let mut best = legal[0];
        let mut last = None;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        for depth in 1..=max_depth {
            let score = self.negamax(pos, &mut run, depth as i32, 0, -INFINITY, INFINITY);
            if run.stopped && depth > 1 {
                break;
            }
            let pv = self.pv(pos, depth as usize);
            if let Some(&m) = pv.first() {
                best = m;
            }
            let info = Info {
                depth,
                score,
                nodes: run.nodes,
                elapsed: run.start.elapsed(),
                pv,
            };
            report(&info);
            let mate = info.mate_in().is_some();
            last = Some(info);
            if run.stopped || (mate && depth > 2) {
                break;
            }
            // Not enough time for another, longer iteration.
            if limits.time.is_some_and(|t| run.start.elapsed() * 3 > t) {
                break;
            }
        }
        (Some(best), last)
    }

    /// [`Engine::think`] on a position of any width.
    pub fn think_any(
        &mut self,
        pos: &mut AnyPosition,
        limits: Limits,
        stop: &AtomicBool,
        report: impl FnMut(&Info),
    ) -> (Option<Move>, Option<Info>) {
        with_position!(pos, p => self.think(p, limits, stop, report))
    }

    fn pv<B: Bitboard>(&self, pos: &mut Position<B>, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        while pv.len() < max {
            let Some(m) = self.table.probe(pos.hash()).and_then(|e| e.best) else {
                break;
            };
            if !pos.legal_moves().contains(&m) {
                break;
            }
            pos.play_unchecked(m);
            pv.push(m);
            if pos.repetitions() > 1 {
                break;
            }
        }
        for _ in 0..pv.len() {
            pos.undo();
        }
        pv
    }

    fn order<B: Bitboard>(
        &self,
        pos: &Position<B>,
        moves: &mut [Move],
        hash_move: Option<Move>,
        ply: usize,
    ) {
        let rules = pos.rules();
        let key = |m: &Move| -> i32 {
            if Some(*m) == hash_move {
                return i32::MAX;
            }
            match *m {
                Move::Normal { from, to, promote } => {
                    let victim = pos.piece_at(to).map_or(0, |p| rules.role(p.role).value);
                    let attacker = pos.piece_at(from).map_or(0, |p| rules.role(p.role).value);
                    let promo = if promote { 50 } else { 0 };
                    if victim > 0 {
                        1_000_000 + victim * 16 - attacker / 16 + promo
                    } else if ply < MAX_PLY && self.killers[ply].contains(&Some(*m)) {
                        900_000 + promo
                    } else {
                        self.history[history_index(*m)] + promo
                    }
                }
                Move::MultiLeg { from, via, to, .. } => {
                    let value = |sq| pos.piece_at(sq).map_or(0, |p| rules.role(p.role).value);
                    let victims = value(via) + if to == from { 0 } else { value(to) };
                    if victims > 0 {
                        1_000_000 + victims * 16 - value(from) / 16
                    } else {
                        self.history[history_index(*m)]
                    }
                }
                Move::Drop { .. } => self.history[history_index(*m)],
            }
        };
        moves.sort_by_cached_key(|m| std::cmp::Reverse(key(m)));
    }

    fn negamax<B: Bitboard>(
        &mut self,
        pos: &mut Position<B>,
        run: &mut Run<'_>,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        run.nodes += 1;
        if ply > 0 && (run.should_stop() || pos.repetitions() > 1) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        let in_check = pos.in_check();
        let depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiesce(pos, run, ply, alpha, beta);
        }
        let hash = pos.hash();
        let entry = self.table.probe(hash);
        let hash_move = entry.and_then(|e| e.best);
        if let Some(e) = entry
            && ply > 0
            && e.depth >= depth
        {
            let s = tt::from_table(e.score, ply);
            match e.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            // No move: the side to move has lost (mate, stalemate, or game over).
            return -(MATE - ply as Score);
        }
        self.order(pos, &mut moves, hash_move, ply);
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for (i, &m) in moves.iter().enumerate() {
            let quiet = matches!(m, Move::Normal { to, .. } if pos.piece_at(to).is_none())
                || matches!(m, Move::Drop { .. });
            pos.play_unchecked(m);
            let mut score;
            if i == 0 {
                score = -self.negamax(pos, run, depth - 1, ply + 1, -beta, -alpha);
            } else {
                // Late quiet moves are searched shallower first.
                let reduction = if depth >= 3 && i >= 4 && quiet && !in_check {
                    1
                } else {
                    0
                };
                score = -self.negamax(pos, run, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
                if score > alpha && (reduction > 0 || score < beta) {
                    score = -self.negamax(pos, run, depth - 1, ply + 1, -beta, -alpha);
                }
            }
            pos.undo();
            if run.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if quiet && ply < MAX_PLY {
                    let k = &mut self.killers[ply];
                    if k[0] != Some(m) {
                        k[1] = k[0];
                        k[0] = Some(m);
                    }
                    let h = &mut self.history[history_index(m)];
                    *h = (*h + depth * depth).min(800_000);
                }
                break;
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table
            .store(hash, depth, tt::to_table(best_score, ply), bound, best_move);
        best_score
    }

    fn quiesce<B: Bitboard>(
        &mut self,
        pos: &mut Position<B>,
        run: &mut Run<'_>,
        ply: usize,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        run.nodes += 1;
        if run.should_stop() {
            return 0;
        }
        let in_check = pos.in_check();
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return -(MATE - ply as Score);
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        if !in_check {
            let stand = evaluate(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            moves.retain(|m| match *m {
                Move::Normal { to, .. } => pos.piece_at(to).is_some(),
                Move::MultiLeg { via, .. } => pos.piece_at(via).is_some(),
                Move::Drop { .. } => false,
            });
        }
        self.order(pos, &mut moves, None, MAX_PLY);
        let mut best = if in_check { -INFINITY } else { alpha };
        for m in moves {
            pos.play_unchecked(m);
            let score = -self.quiesce(pos, run, ply + 1, -beta, -alpha);
            pos.undo();
            if run.stopped {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }
}

/// One history entry per (from, to, promotion) of a board move, then one per
/// (role, to) of a drop, on the largest board.
const HISTORY_SIZE: usize = 2 * MAX_SQUARES * MAX_SQUARES + MAX_ROLES * MAX_SQUARES;

fn history_index(m: Move) -> usize {
    match m {
        // A two-leg move shares the entry of the plain move between its ends.
        Move::Normal { from, to, promote }
        | Move::MultiLeg {
            from, to, promote, ..
        } => (from.index() * MAX_SQUARES + to.index()) * 2 + promote as usize,
        Move::Drop { role, to } => {
            2 * MAX_SQUARES * MAX_SQUARES + role.index() * MAX_SQUARES + to.index()
        }
    }
}
