//! Move ordering: the keys that decide which move the search tries first
//! (the table's move, captures by exchange value, promotions, killers, the
//! counter-move of the last move, then history) and the statistics that a
//! move refuting a position updates.

use crate::board::{Bitboard, MAX_SQUARES};
use crate::position::{Move, Position};
use crate::rules::MAX_ROLES;

use super::eval::Evaluator;
use super::see::see;
use super::{MAX_PLY, Worker, history_index};

/// History scores stay within ± this.
pub(super) const HISTORY_MAX: i32 = 1 << 14;

// Move-ordering bands, best first.
const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const PROMOTION: i32 = 1 << 27;
pub(super) const KILLER: i32 = 1 << 26;
const BAD_CAPTURE: i32 = -(1 << 27);

/// Brings the move to try `i`-th to place `i` of `moves` (key, move):
/// the best first by a scan (it often refutes alone), then the rest sorted
/// once, best first.
#[inline]
pub(super) fn order_next(moves: &mut [(i32, Move)], i: usize) {
    if i == 0 {
        let mut best = 0;
        for j in 1..moves.len() {
            if moves[j].0 > moves[best].0 {
                best = j;
            }
        }
        moves.swap(0, best);
    } else if i == 1 {
        moves[1..].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
    }
}

/// Counter-move slots: one for each side, role and square of the move refuted.
pub(super) const COUNTER_SLOTS: usize = 2 * MAX_ROLES * MAX_SQUARES;

/// The counter-move slot of the last move played (None after a pass).
pub(super) fn counter_index<B: Bitboard>(pos: &Position<B>) -> Option<usize> {
    let to = pos.last_move()?.to();
    let p = pos.piece_at(to)?;
    Some((p.color.index() * MAX_ROLES + p.role.index()) * MAX_SQUARES + to.index())
}

impl Worker {
    /// Ordering keys of `moves` into `keys`.
    pub(super) fn score_moves<B: Bitboard>(
        &self,
        pos: &Position<B>,
        ev: &Evaluator<B>,
        moves: &[Move],
        keys: &mut Vec<(i32, Move)>,
        hash_move: Option<Move>,
        ply: usize,
    ) {
        keys.clear();
        let turn = pos.turn();
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let counter = counter_index(pos).and_then(|i| self.counter[i]);
        for &m in moves {
            let key = if Some(m) == hash_move {
                HASH_MOVE
            } else if let Move::Normal { from, to, promote } = m
                && let Some(victim) = pos.piece_at(to)
            {
                let attacker = pos.piece_at(from).map_or(0, |p| ev.capture[p.role.index()]);
                let gain = ev.capture[victim.role.index()];
                let exchange = if attacker <= gain {
                    gain - attacker
                } else {
                    see(pos, m, ev)
                };
                let mvv = gain * 8 - attacker / 64 + promote as i32;
                if exchange >= 0 {
                    GOOD_CAPTURE + mvv
                } else {
                    BAD_CAPTURE + mvv
                }
            } else if let Move::Normal {
                promote: true,
                from,
                ..
            } = m
            {
                let role = pos.piece_at(from).map_or(0, |p| p.role.index());
                PROMOTION + ev.promotion_gain[role]
            } else if killers[0] == Some(m) {
                KILLER + 1
            } else if killers[1] == Some(m) {
                KILLER
            } else if counter == Some(m) {
                KILLER - 1
            } else {
                self.history[history_index(turn, m)]
            };
            keys.push((key, m));
        }
    }

    pub(super) fn reward(
        &mut self,
        turn: crate::board::Color,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
    ) {
        if ply < MAX_PLY {
            let k = &mut self.killers[ply];
            if k[0] != Some(best) {
                k[1] = k[0];
                k[0] = Some(best);
            }
        }
        let bonus = (depth * depth).min(400);
        let h = &mut self.history[history_index(turn, best)];
        *h += bonus - *h * bonus / HISTORY_MAX;
        for &m in tried {
            if m != best {
                let h = &mut self.history[history_index(turn, m)];
                *h -= bonus + *h * bonus / HISTORY_MAX;
            }
        }
    }
}
