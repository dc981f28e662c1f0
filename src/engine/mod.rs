//! The built-in player: principal-variation search with iterative deepening
//! and aspiration windows, a transposition table on the position's Zobrist
//! hash, null-move pruning (with a material condition and a verification
//! search), check extensions, late-move reductions, futility pruning,
//! razoring and mate-distance pruning; quiescence on captures with static
//! exchange evaluation; move ordering by hash move, exchange value, killers
//! and history. Its evaluation (see [`Params`]) reads the variant's tables and
//! values; nothing is specific to any game.

mod eval;
mod mate;
mod search;
mod see;
mod time;
mod tt;
mod tune;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::Bitboard;
use crate::position::{AnyPosition, Move, Position};
use crate::with_position;

pub use eval::{Params, evaluate, evaluate_with};
pub use mate::{MATE_MAX_PLIES, MateAnswer, find_mate, find_mate_any};
pub use time::{Budget, Clock, MOVE_OVERHEAD};
use tt::Table;
pub use tune::{Fit, fit};

/// A score in centipawn-like units of the variant's piece values.
pub type Score = i32;

/// Mate found: scores above this are mates, nearer is higher.
pub const MATE: Score = 1_000_000;
const INFINITY: Score = 2 * MATE;
const MAX_PLY: usize = 128;
/// Scores beyond this are mates.
const MATE_BOUND: Score = MATE - MAX_PLY as Score;

/// When to stop thinking.
#[derive(Copy, Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this depth.
    pub depth: Option<u32>,
    /// Stop at this time, in the middle of an iteration if need be (the
    /// best move found so far is played).
    pub time: Option<Duration>,
    /// Start no new iteration after this time (a clock's aim; `time` stays
    /// the limit).
    pub optimum: Option<Duration>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Lines to report at each depth (MultiPV): the best move, then the best
    /// of the others, and so on; 0 or 1: one.
    pub lines: u32,
}

impl Limits {
    /// The limits of a clock's budget ([`Clock::budget`]).
    pub fn from_budget(budget: Budget) -> Limits {
        Limits {
            time: Some(budget.maximum),
            optimum: budget.optimum,
            ..Limits::default()
        }
    }
}

/// What a finished iteration found, for `info` lines.
#[derive(Clone, Debug)]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// The deepest ply reached (quiescence and extensions included).
    pub seldepth: u32,
    /// Score from the side to move's view.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Which line this is, from 1 (the best), when several are asked for.
    pub multipv: u32,
}

impl Info {
    /// Moves to mate (positive: the side to move mates), if the score is a mate.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score.abs() > MATE_BOUND {
            let plies = MATE - self.score.abs();
            let moves = (plies + 1) / 2;
            Some(if self.score > 0 { moves } else { -moves })
        } else {
            None
        }
    }
}

/// Side-to-move-indexed history of quiet moves: one slot per (from, to,
/// promotion) and per (dropped role, to).
const HISTORY_SLOTS: usize = 2 * crate::board::MAX_SQUARES * crate::board::MAX_SQUARES
    + crate::rules::MAX_ROLES * crate::board::MAX_SQUARES;

/// A searcher that keeps its table (and its move-ordering statistics)
/// between moves of a game.
pub struct Engine {
    table: Table,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    params: Params,
    /// Late-move reductions by depth and move number.
    reductions: Vec<[i32; 64]>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(16)
    }
}

impl Engine {
    /// An engine with a transposition table of about `megabytes` MiB.
    pub fn new(megabytes: usize) -> Engine {
        let reductions = (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        *r = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.0) as i32;
                    }
                }
                row
            })
            .collect();
        Engine {
            table: Table::new(megabytes),
            killers: vec![[None; 2]; MAX_PLY],
            history: vec![0; 2 * HISTORY_SLOTS],
            params: Params::default(),
            reductions,
        }
    }

    /// The evaluation's weights.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Evaluates with these weights from now on.
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
        self.table.clear();
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
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
        let start = Instant::now();
        let mut run = search::Run::new(pos.rules(), &self.params, start, limits, stop);
        // Statistics of the last move are a guide, not the truth.
        self.history.iter_mut().for_each(|h| *h /= 2);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        let mut best = legal[0];
        let mut last: Option<Info> = None;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        // With one legal move there is nothing to choose: one iteration, for
        // the information.
        let max_depth = if legal.len() == 1 && limits.time.is_some() {
            1
        } else {
            max_depth
        };
        let mut score = 0;
        for depth in 1..=max_depth {
            run.begin_iteration(depth as i32);
            let s = self.aspiration(pos, &mut run, depth as i32, score);
            if run.stopped {
                // An unfinished iteration: a move it proved better than the
                // last iteration's best is played.
                if let Some((m, _)) = run.root_best {
                    best = m;
                }
                if last.is_some() {
                    break;
                }
            }
            score = s;
            if let Some((m, _)) = run.root_best {
                best = m;
            }
            let mut pv = vec![best];
            self.extend_pv(pos, best, depth as usize, &mut pv);
            let info = Info {
                depth,
                seldepth: run.seldepth as u32,
                score,
                nodes: run.nodes,
                elapsed: start.elapsed(),
                pv,
                multipv: 1,
            };
            if run.stopped {
                // Not a finished depth: keep it only when there is nothing else.
                last = Some(info);
                break;
            }
            let lines = (limits.lines.max(1) as usize).min(legal.len());
            if lines > 1 {
                // The other lines: the root searched again without the moves
                // of the lines above, each with a full window.
                let mut others = Vec::new();
                run.excluded = vec![best];
                for k in 2..=lines {
                    run.begin_iteration(depth as i32);
                    let s = self.negamax(pos, &mut run, depth as i32, 0, -INFINITY, INFINITY, true);
                    let Some((m, _)) = run.root_best.filter(|_| !run.stopped) else {
                        break;
                    };
                    let mut pv = vec![m];
                    self.extend_pv(pos, m, depth as usize, &mut pv);
                    others.push(Info {
                        depth,
                        seldepth: run.seldepth as u32,
                        score: s,
                        nodes: run.nodes,
                        elapsed: start.elapsed(),
                        pv,
                        multipv: k as u32,
                    });
                    run.excluded.push(m);
                }
                run.excluded.clear();
                if run.stopped {
                    // The depth is not finished: line 1 stands, unreported.
                    last = Some(info);
                    break;
                }
                report(&info);
                others.iter().for_each(&mut report);
            } else {
                report(&info);
            }
            let mate_plies = (info.score.abs() > MATE_BOUND).then(|| MATE - info.score.abs());
            last = Some(info);
            // Stopped while the depth was being reported (e.g. by `report`
            // itself, as UCI's `go mate` does when it has its mate).
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            if mate_plies.is_some_and(|p| depth as i32 >= p + 2) {
                break;
            }
            if limits.optimum.is_some_and(|t| start.elapsed() * 10 > t * 6) {
                break;
            }
        }
        (Some(best), last)
    }

    /// The quiescence score of the position for the side to move: its
    /// evaluation once the captures have settled (for tuning and analysis).
    pub fn quiet_score<B: Bitboard>(&mut self, pos: &mut Position<B>) -> Score {
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        let mut run = search::Run::new(pos.rules(), &self.params, Instant::now(), limits, &stop);
        self.quiesce(pos, &mut run, 0, -INFINITY, INFINITY)
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

    /// Follows the table's best moves after `first`, up to `max` moves in all.
    fn extend_pv<B: Bitboard>(
        &self,
        pos: &mut Position<B>,
        first: Move,
        max: usize,
        pv: &mut Vec<Move>,
    ) {
        pos.play_unchecked(first);
        let mut played = 1;
        while pv.len() < max && pos.repetitions() < 2 {
            let Some(m) = self.table.probe(pos.hash()).and_then(|e| e.best) else {
                break;
            };
            if !pos.legal_moves().contains(&m) {
                break;
            }
            pos.play_unchecked(m);
            played += 1;
            pv.push(m);
        }
        for _ in 0..played {
            pos.undo();
        }
    }
}

fn history_index(turn: crate::board::Color, m: Move) -> usize {
    use crate::board::MAX_SQUARES;
    let slot = match m {
        // A two-leg move shares the entry of the plain move between its ends.
        Move::Normal { from, to, promote }
        | Move::MultiLeg {
            from, to, promote, ..
        } => (from.index() * MAX_SQUARES + to.index()) * 2 + promote as usize,
        Move::Drop { role, to } => {
            2 * MAX_SQUARES * MAX_SQUARES + role.index() * MAX_SQUARES + to.index()
        }
    };
    turn.index() * HISTORY_SLOTS + slot
}
