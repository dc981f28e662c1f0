//! The tree search: principal-variation alpha-beta with its pruning and
//! reductions, and the quiescence search on captures.

use std::sync::atomic::Ordering;

use crate::board::{Bitboard, Color};
use crate::position::{Move, Outcome, Position};
use crate::rules::Rules;

use super::eval::{Evaluator, Params};
use super::iterate::Shared;
use super::order::{HISTORY_MAX, KILLER, counter_index, order_next};
use super::see::{see, taken};
use super::tt::{self, Bound};
use super::{EVAL_CACHE, INFINITY, Limits, MATE, MATE_BOUND, MAX_PLY, Score, Worker};

/// One search: its limits, counters, evaluation and per-ply buffers.
pub(super) struct Run<'a, B: Bitboard> {
    limits: Limits,
    shared: Shared<'a>,
    pub nodes: u64,
    /// Of `nodes`, those added to the shared count.
    published: u64,
    pub stopped: bool,
    pub seldepth: usize,
    pub eval: Evaluator<B>,
    root_depth: i32,
    /// The best root move of the current iteration, once one beat alpha.
    pub root_best: Option<(Move, Score)>,
    /// Root moves not to search (the lines already found, for MultiPV).
    pub excluded: Vec<Move>,
    moves: Vec<Vec<Move>>,
    keys: Vec<Vec<(i32, Move)>>,
    quiets: Vec<Vec<Move>>,
    evals: Vec<Score>,
    /// The side to move at the root, whom a draw costs the contempt.
    root_turn: Color,
    /// Mixed into the table's keys: the scores of a search hold the
    /// contempt for its root side, so that searches for the other side
    /// (with contempt) do not read them.
    pub salt: u64,
}

/// The key salt of searches with contempt for the second player.
const CONTEMPT_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

impl<'a, B: Bitboard> Run<'a, B> {
    /// A search from `pos` as its root.
    pub fn new(
        pos: &Position<B>,
        params: &Params,
        limits: Limits,
        shared: Shared<'a>,
    ) -> Run<'a, B> {
        let rules: &Rules<B> = pos.rules();
        let eval = Evaluator::new(rules, params);
        let root_turn = pos.turn();
        let salt = if eval.contempt != 0 && root_turn == Color::Gote {
            CONTEMPT_SALT
        } else {
            0
        };
        Run {
            limits,
            shared,
            nodes: 0,
            published: 0,
            stopped: false,
            seldepth: 0,
            eval,
            root_depth: 1,
            root_best: None,
            excluded: Vec::new(),
            moves: vec![Vec::new(); MAX_PLY + 1],
            keys: vec![Vec::new(); MAX_PLY + 1],
            quiets: vec![Vec::new(); MAX_PLY + 1],
            evals: vec![0; MAX_PLY + 1],
            root_turn,
            salt,
        }
    }

    /// What a draw is worth to the side to move in `pos`: the contempt's
    /// cost for the root's side, its gain for the other.
    #[inline]
    fn draw_score(&self, pos: &Position<B>) -> Score {
        if pos.turn() == self.root_turn {
            -self.eval.contempt
        } else {
            self.eval.contempt
        }
    }

    /// Scores draws as 0 (for an evaluation of the position alone).
    pub fn without_contempt(mut self) -> Self {
        self.eval.contempt = 0;
        self.salt = 0;
        self
    }

    pub fn begin_iteration(&mut self, depth: i32) {
        self.root_depth = depth;
        self.root_best = None;
    }

    /// The nodes of every thread of the search, this one's all counted.
    pub fn all_nodes(&mut self) -> u64 {
        self.publish();
        self.shared.nodes.load(Ordering::Relaxed)
    }

    fn publish(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.published, Ordering::Relaxed);
        self.published = self.nodes;
    }

    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            let others = self.shared.nodes.load(Ordering::Relaxed) - self.published;
            if self.nodes + others >= n {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & 255 == 0 {
            self.publish();
            let time_up = self
                .limits
                .time
                .is_some_and(|t| self.shared.start.elapsed() >= t);
            if time_up || self.shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
        self.stopped
    }
}

/// The score of a position whose game is over, for the side to move (a
/// side with no legal move has lost, unless the game was already won); a
/// draw is worth `draw`.
fn game_over<B: Bitboard>(pos: &Position<B>, ply: usize, draw: Score) -> Option<Score> {
    pos.terminal().map(|o| outcome_score(pos, &o, ply, draw))
}

/// An outcome as a score for the side to move, `ply` plies from the root.
fn outcome_score<B: Bitboard>(pos: &Position<B>, o: &Outcome, ply: usize, draw: Score) -> Score {
    match o {
        Outcome::Win { winner, .. } if *winner == pos.turn() => MATE - ply as Score,
        Outcome::Win { .. } => -(MATE - ply as Score),
        Outcome::Draw { .. } => draw,
    }
}

fn no_move<B: Bitboard>(pos: &Position<B>, ply: usize, draw: Score) -> Score {
    game_over(pos, ply, draw).unwrap_or(-(MATE - ply as Score))
}

/// The score a table entry decides in the window `alpha..beta`: an exact
/// score, or a bound on the window's far side.
fn table_cut(e: tt::Entry, ply: usize, alpha: Score, beta: Score) -> Option<Score> {
    let s = tt::from_table(e.score, ply);
    match e.bound {
        Bound::Exact => Some(s),
        Bound::Lower if s >= beta => Some(s),
        Bound::Upper if s <= alpha => Some(s),
        _ => None,
    }
}

/// Whether the side to move may pass in a null-move search: it has a piece
/// in hand or two pieces besides its royals on the board, so that passing
/// is rarely the best it has (zugzwang).
fn may_pass<B: Bitboard>(pos: &Position<B>) -> bool {
    let us = pos.turn();
    let rules = pos.rules();
    if rules.all_roles().any(|r| pos.hand(us, r) > 0) {
        return true;
    }
    (pos.color_pieces(us) & !pos.royals(us)).count() >= 2
}

/// Whether the move attacks the opponent's single royal with the piece
/// moved or dropped (a discovered check is not seen): for pruning before
/// the move is played.
fn checks_directly<B: Bitboard>(pos: &Position<B>, m: Move) -> bool {
    let us = pos.turn();
    let Some(k) = pos.royal_square(us.opposite()) else {
        return false;
    };
    let rules = pos.rules();
    let (role, to, occ) = match m {
        Move::Normal { from, to, promote }
        | Move::MultiLeg {
            from, to, promote, ..
        } => {
            let Some(p) = pos.piece_at(from) else {
                return false;
            };
            let role = match rules.role(p.role).other_side {
                Some(other) if promote => other,
                _ => p.role,
            };
            (
                role,
                to,
                (pos.occupied() ^ B::from_square(from)) | B::from_square(to),
            )
        }
        Move::Drop { role, to } => (role, to, pos.occupied() | B::from_square(to)),
    };
    rules.attacks_all(us, role, to, occ).contains(k)
}

impl Worker {
    /// The evaluation of `pos` for the side to move, from the cache when
    /// this search evaluated the position before.
    #[inline]
    fn evaluate<B: Bitboard>(&mut self, pos: &Position<B>, run: &Run<'_, B>) -> Score {
        let key = pos.hash();
        let slot = &mut self.eval_cache[key as usize & (EVAL_CACHE - 1)];
        if slot.0 == key && key != 0 {
            debug_assert_eq!(slot.1, run.eval.evaluate(pos), "a cached evaluation");
            return slot.1;
        }
        let s = run.eval.evaluate(pos);
        *slot = (key, s);
        s
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax<B: Bitboard>(
        &mut self,
        pos: &mut Position<B>,
        run: &mut Run<'_, B>,
        mut depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        null_ok: bool,
    ) -> Score {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        if !root {
            if run.should_stop() {
                return 0;
            }
            // A position seen before: the cycle would repeat, so it is scored
            // as the repetition rule ends it (a draw, or a loss for one side).
            if pos.repetitions() > 1 {
                return outcome_score(pos, &pos.cycle_outcome(), ply, run.draw_score(pos));
            }
            if let Some(s) = game_over(pos, ply, run.draw_score(pos)) {
                return s;
            }
            // No mate found later can beat one already nearer the root.
            alpha = alpha.max(-(MATE - ply as Score));
            beta = beta.min(MATE - ply as Score - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 1 {
            return run.eval.evaluate(pos);
        }
        let in_check = pos.in_check();
        if in_check && (ply as i32) < 2 * run.root_depth {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, run, ply, alpha, beta);
        }
        run.nodes += 1;
        run.seldepth = run.seldepth.max(ply);
        let hash = pos.hash() ^ run.salt;
        let entry = self.table.probe(hash);
        let hash_move = entry.and_then(|e| e.best);
        if !pv_node
            && let Some(e) = entry
            && e.depth >= depth
            && let Some(s) = table_cut(e, ply, alpha, beta)
        {
            return s;
        }
        // No move known from an earlier search of this position: a
        // shallower search costs less and will find one (internal
        // iterative reduction).
        if hash_move.is_none() && depth >= 4 {
            depth -= 1;
        }
        let unit = run.eval.unit;
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.evaluate(pos, run)
        };
        run.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > run.evals[ply - 2];

        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta near the leaves.
            if depth <= 6 && static_eval - unit * 8 / 10 * (depth - improving as i32) >= beta {
                return static_eval;
            }
            // Razoring: far below alpha, a capture search decides.
            if depth <= 2 && static_eval + unit * (2 + depth) <= alpha {
                let q = self.quiesce(pos, run, ply, alpha, alpha + 1);
                if q <= alpha {
                    return q;
                }
            }
            // Null move: if passing still holds beta, a move will.
            if null_ok && depth >= 3 && static_eval >= beta && may_pass(pos) {
                let r = 3 + depth / 4 + ((static_eval - beta) / unit).min(3);
                pos.play_null();
                let s = -self.negamax(pos, run, depth - 1 - r, ply + 1, -beta, -beta + 1, false);
                pos.undo_null();
                if run.stopped {
                    return 0;
                }
                if s >= beta {
                    let s = if s >= MATE_BOUND { beta } else { s };
                    // Deep enough to matter: check with a search of our own.
                    if depth < 10
                        || self.negamax(pos, run, depth - 1 - r, ply, beta - 1, beta, false) >= beta
                    {
                        return s;
                    }
                }
            }
        }

        let mut moves = std::mem::take(&mut run.moves[ply]);
        pos.generate(&mut moves);
        if moves.is_empty() {
            run.moves[ply] = moves;
            return no_move(pos, ply, run.draw_score(pos));
        }
        let mut keys = std::mem::take(&mut run.keys[ply]);
        self.score_moves(pos, &run.eval, &moves, &mut keys, hash_move, ply);
        let mut quiets = std::mem::take(&mut run.quiets[ply]);
        quiets.clear();

        let turn = pos.turn();
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut searched = 0usize;
        let lmp_limit = if improving {
            3 + depth * depth
        } else {
            (3 + depth * depth) / 2
        } as usize;
        for i in 0..keys.len() {
            order_next(&mut keys, i);
            let (key, m) = keys[i];
            if root && !run.excluded.is_empty() && run.excluded.contains(&m) {
                continue;
            }
            let capture = pos.is_capture(m);
            let promote = m.promotes();
            let quiet = !capture && !promote;
            let prunable = !root && !pv_node && !in_check && best_score > -MATE_BOUND;
            // Captures that lose material, near the leaves.
            if prunable
                && capture
                && depth <= 4
                && key < KILLER
                && see(pos, m, &run.eval) < -unit * depth
            {
                continue;
            }
            // Late quiet moves near the leaves, and quiet moves that cannot
            // bring the score up to alpha, unless they check.
            if prunable
                && quiet
                && ((depth <= 8 && quiets.len() >= lmp_limit)
                    || (depth <= 6 && static_eval + unit * (1 + depth) <= alpha))
                && !checks_directly(pos, m)
            {
                continue;
            }
            pos.play_unchecked(m);
            let gives_check = pos.in_check();
            searched += 1;
            if quiet {
                quiets.push(m);
            }
            let new_depth = depth - 1;
            let mut score;
            if searched == 1 {
                score = -self.negamax(pos, run, new_depth, ply + 1, -beta, -alpha, true);
            } else {
                let mut r = 0;
                if depth >= 3 && !gives_check && !in_check && quiet && key < KILLER {
                    r = self.reductions[(depth as usize).min(63)][searched.min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    let h = self.history[self.history_index(turn, m)];
                    r -= h / (HISTORY_MAX / 2);
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(pos, run, new_depth - r, ply + 1, -alpha - 1, -alpha, true);
                if score > alpha && r > 0 {
                    score = -self.negamax(pos, run, new_depth, ply + 1, -alpha - 1, -alpha, true);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.negamax(pos, run, new_depth, ply + 1, -beta, -alpha, true);
                }
            }
            pos.undo();
            if run.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if root {
                        run.root_best = Some((m, score));
                    }
                    alpha = score;
                    if alpha >= beta {
                        if quiet {
                            self.reward(turn, m, &quiets, depth, ply);
                            if let Some(i) = counter_index(pos) {
                                self.counter[i] = Some(m);
                            }
                        }
                        break;
                    }
                }
            }
        }
        run.moves[ply] = moves;
        run.keys[ply] = keys;
        run.quiets[ply] = quiets;
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

    pub(super) fn quiesce<B: Bitboard>(
        &mut self,
        pos: &mut Position<B>,
        run: &mut Run<'_, B>,
        ply: usize,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        run.nodes += 1;
        if run.should_stop() {
            return 0;
        }
        if let Some(s) = game_over(pos, ply, run.draw_score(pos)) {
            return s;
        }
        if ply >= MAX_PLY - 1 {
            return run.eval.evaluate(pos);
        }
        run.seldepth = run.seldepth.max(ply);
        // A bound from any search of this position decides here too.
        if beta - alpha == 1
            && let Some(e) = self.table.probe(pos.hash() ^ run.salt)
            && let Some(s) = table_cut(e, ply, alpha, beta)
        {
            return s;
        }
        let in_check = pos.in_check();
        let mut moves = std::mem::take(&mut run.moves[ply]);
        let mut keys = std::mem::take(&mut run.keys[ply]);
        let stand;
        let mut best;
        if in_check {
            pos.generate(&mut moves);
            if moves.is_empty() {
                run.moves[ply] = moves;
                return no_move(pos, ply, run.draw_score(pos));
            }
            stand = -INFINITY;
            best = -INFINITY;
        } else {
            stand = self.evaluate(pos, run);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            pos.generate_captures(&mut moves);
        }
        let ev = &run.eval;
        keys.clear();
        keys.extend(moves.iter().map(|&m| {
            let key = match m.from() {
                Some(from) => {
                    if pos.is_capture(m) {
                        taken(pos, m, ev) * 8
                            - pos.piece_at(from).map_or(0, |p| ev.capture[p.role.index()]) / 64
                            + m.promotes() as i32
                    } else {
                        m.promotes() as i32
                    }
                }
                None => -1,
            };
            (key, m)
        }));
        let margin = 2 * run.eval.unit;
        for i in 0..keys.len() {
            order_next(&mut keys, i);
            let m = keys[i].1;
            if !in_check && let Some(from) = m.from() {
                let ev = &run.eval;
                let victim = taken(pos, m, ev);
                let role = pos.piece_at(from).map_or(0, |p| p.role.index());
                let gain = victim
                    + if m.promotes() {
                        ev.promotion_gain[role]
                    } else {
                        0
                    };
                // Delta pruning: even this gain leaves us below alpha.
                if stand + gain + margin <= alpha {
                    continue;
                }
                if ev.capture[role] > victim && see(pos, m, ev) < 0 {
                    continue;
                }
            }
            pos.play_unchecked(m);
            let s = -self.quiesce(pos, run, ply + 1, -beta, -alpha);
            pos.undo();
            if run.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        run.moves[ply] = moves;
        run.keys[ply] = keys;
        best
    }
}
