//! The built-in player: principal-variation search with iterative deepening
//! and aspiration windows, a transposition table on the position's Zobrist
//! hash, null-move pruning (with a material condition and a verification
//! search), check extensions, late-move reductions, futility pruning,
//! razoring and mate-distance pruning; quiescence on captures with static
//! exchange evaluation; move ordering by hash move, exchange value, killers,
//! the counter-move of the last move and history. Its evaluation (see [`Params`]) reads the
//! variant's tables and values; nothing is specific to any game.

mod eval;
mod iterate;
mod mate;
mod order;
mod search;
mod see;
mod time;
mod tt;
mod tune;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::board::Bitboard;
use crate::position::{AnyPosition, Move, Position};
use crate::rules::Rules;
use crate::with_position;

pub use eval::{Params, evaluate, evaluate_with};
use iterate::Shared;
pub use mate::{MATE_MAX_PLIES, MateAnswer, find_mate, find_mate_any};
pub use time::{Budget, Clock, MOVE_OVERHEAD};
use tt::Table;
pub use tune::{
    Fit, SelfPlay, SelfPlayGame, Spsa, Versus, fit, fit_results, self_play, spsa, versus,
};

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

/// The most slots of one side's history: every move of a board up to 256
/// cells has a slot of its own; on a larger board the moves' slots fold
/// onto these (an ordering statistic may be shared, never lost), so that
/// the table stays 1 MiB a side however large the board is.
const HISTORY_SLOTS: usize = 1 << 18;

/// The moves that have a history slot each on a board of `squares` cells:
/// one per (from, to, promotion) and per (dropped role, to).
const fn history_moves(squares: usize) -> usize {
    2 * squares * squares + crate::rules::MAX_ROLES * squares
}

// Boards of up to 256 cells (every game of one-byte squares) fold nothing.
const _: () = assert!(history_moves(256) <= HISTORY_SLOTS);

/// Slots of one side's history on a board of `squares` cells.
fn history_slots(squares: usize) -> usize {
    history_moves(squares).min(HISTORY_SLOTS)
}

/// Late-move reductions by depth and move number.
type Reductions = [[i32; 64]; 64];

/// One search thread's statistics of move ordering, with the table that
/// all threads share.
pub(super) struct Worker {
    table: Arc<Table>,
    reductions: Arc<Reductions>,
    killers: Vec<[Option<Move>; 2]>,
    /// Cells of the board `history` and `counter` are sized for (0 before
    /// the first search): they are made again for a board of another size.
    squares: usize,
    history: Vec<i32>,
    /// The quiet move that last refuted a move, by its side, role and square.
    counter: Vec<Option<Move>>,
    /// Evaluations of the current search by position key (a slot a key's
    /// low bits; emptied when a search starts, as its weights may differ).
    eval_cache: Vec<(u64, Score)>,
}

/// Slots of a worker's evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 16;

impl Worker {
    fn new(table: Arc<Table>, reductions: Arc<Reductions>) -> Worker {
        Worker {
            table,
            reductions,
            killers: vec![[None; 2]; MAX_PLY],
            squares: 0,
            history: Vec::new(),
            counter: Vec::new(),
            eval_cache: vec![(0, 0); EVAL_CACHE],
        }
    }

    /// Sizes the statistics for a board of `squares` cells, emptied if
    /// they were kept for another size.
    fn fit(&mut self, squares: usize) {
        if self.squares != squares {
            self.squares = squares;
            self.history = vec![0; 2 * history_slots(squares)];
            self.counter = vec![None; order::counter_slots(squares)];
        }
    }

    /// The history slot of a quiet move of the side `turn`.
    fn history_index(&self, turn: crate::board::Color, m: Move) -> usize {
        let n = self.squares;
        let slot = match m {
            // A two-leg move shares the entry of the plain move between its ends.
            Move::Normal { from, to, promote }
            | Move::MultiLeg {
                from, to, promote, ..
            } => (from.index() * n + to.index()) * 2 + promote as usize,
            Move::Drop { role, to } => 2 * n * n + role.index() * n + to.index(),
        };
        turn.index() * history_slots(n) + slot % HISTORY_SLOTS
    }

    fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.counter.iter_mut().for_each(|c| *c = None);
    }
}

/// The most search threads an engine runs.
pub const MAX_THREADS: usize = 64;

/// A searcher that keeps its table (and its move-ordering statistics)
/// between moves of a game. With more than one thread it searches as
/// "lazy SMP" does: every thread runs the same iterative deepening on its
/// own copy of the position, half of the helpers one ply deeper, all
/// sharing the transposition table, so that each finds the others' results
/// there; the first thread's answer is the engine's.
///
/// Its evaluation's weights are the variant's ([`Params::for_rules`]: the
/// defaults with the variant file's `engine.eval` over them), each weight
/// set on the engine ([`Engine::set_param`], the USI/UCI options) replacing
/// the variant's, for every variant it plays.
pub struct Engine {
    table: Arc<Table>,
    workers: Vec<Worker>,
    /// The weights set on the engine, over the variant's.
    set: Vec<(&'static str, i32)>,
    /// The weights of the last search, whose scores the table holds.
    last: Option<Params>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(16)
    }
}

impl Engine {
    /// An engine with a transposition table of about `megabytes` MiB and
    /// one search thread.
    pub fn new(megabytes: usize) -> Engine {
        let mut reductions = [[0; 64]; 64];
        for (d, row) in reductions.iter_mut().enumerate() {
            for (m, r) in row.iter_mut().enumerate() {
                if d > 0 && m > 0 {
                    *r = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.0) as i32;
                }
            }
        }
        let table = Arc::new(Table::new(megabytes));
        Engine {
            workers: vec![Worker::new(table.clone(), Arc::new(reductions))],
            table,
            set: Vec::new(),
            last: None,
        }
    }

    /// The weights the engine evaluates with in a variant: the variant's,
    /// with those set on the engine over them.
    pub fn params_for<B: Bitboard>(&self, rules: &Rules<B>) -> Params {
        let mut p = Params::for_rules(rules);
        for &(name, value) in &self.set {
            p.set(name, value);
        }
        p
    }

    /// The weights set on the engine (name and value), over the variant's.
    pub fn weights_set(&self) -> &[(&'static str, i32)] {
        &self.set
    }

    /// Sets the weight of this name for every variant from now on; false
    /// (and nothing set) if there is no such weight.
    pub fn set_param(&mut self, name: &str, value: i32) -> bool {
        let Some(&name) = Params::NAMES.iter().find(|&&n| n == name) else {
            return false;
        };
        self.set.retain(|(n, _)| *n != name);
        self.set.push((name, value));
        true
    }

    /// Evaluates with these weights, all of them, in every variant from now on.
    pub fn set_params(&mut self, params: Params) {
        self.set.clear();
        for name in Params::NAMES {
            self.set_param(name, params.get(name).unwrap_or(0));
        }
    }

    /// The weights for a search of `rules`; a change of weights since the
    /// last search empties the table (its scores are the old weights').
    fn params_now<B: Bitboard>(&mut self, rules: &Rules<B>) -> Params {
        let params = self.params_for(rules);
        if self.last.as_ref() != Some(&params) {
            self.table.clear();
            self.last = Some(params.clone());
        }
        params
    }

    /// How many threads search.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Searches with `n` threads from now on (1 to [`MAX_THREADS`]).
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        let reductions = self.workers[0].reductions.clone();
        self.workers
            .resize_with(n, || Worker::new(self.table.clone(), reductions.clone()));
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.workers.iter_mut().for_each(Worker::clear);
    }

    /// Searches the position and returns the best move found (None when the
    /// game is over) with the last completed iteration's information.
    /// `report` is called after each completed depth. Node counts (and the
    /// `nodes` limit) are those of all threads together.
    pub fn think<B: Bitboard>(
        &mut self,
        pos: &mut Position<B>,
        limits: Limits,
        stop: &AtomicBool,
        report: impl FnMut(&Info),
    ) -> (Option<Move>, Option<Info>) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return (None, None);
        }
        let start = Instant::now();
        let nodes = AtomicU64::new(0);
        let params = &self.params_now(pos.rules());
        for w in &mut self.workers {
            w.fit(pos.rules().topology.len());
        }
        let (main, helpers) = self.workers.split_first_mut().expect("one worker at least");
        // The helpers (none with one thread) stop when the first thread has
        // its answer.
        let done = AtomicBool::new(false);
        let helper_limits = Limits {
            optimum: None,
            lines: 1,
            ..limits
        };
        std::thread::scope(|scope| {
            for (i, worker) in helpers.iter_mut().enumerate() {
                let mut copy = pos.clone();
                let (legal, done, nodes) = (&legal, &done, &nodes);
                scope.spawn(move || {
                    let shared = Shared {
                        start,
                        stop: done,
                        nodes,
                        first_depth: 1 + (i as u32 % 2),
                    };
                    worker.iterate(&mut copy, params, legal, helper_limits, shared, |_| {});
                });
            }
            let shared = Shared {
                start,
                stop,
                nodes: &nodes,
                first_depth: 1,
            };
            let answer = main.iterate(pos, params, &legal, limits, shared, report);
            done.store(true, Ordering::Relaxed);
            answer
        })
    }

    /// The quiescence score of the position for the side to move: its
    /// evaluation once the captures have settled (for tuning and analysis).
    pub fn quiet_score<B: Bitboard>(&mut self, pos: &mut Position<B>) -> Score {
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        let nodes = AtomicU64::new(0);
        let shared = Shared {
            start: Instant::now(),
            stop: &stop,
            nodes: &nodes,
            first_depth: 1,
        };
        let params = self.params_now(pos.rules());
        self.workers[0].fit(pos.rules().topology.len());
        let mut run = search::Run::new(pos, &params, limits, shared).without_contempt();
        self.workers[0].quiesce(pos, &mut run, 0, -INFINITY, INFINITY)
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
}
