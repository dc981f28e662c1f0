//! Move ordering: the keys that decide which move the search tries first
//! (the table's move, captures by exchange value, promotions, killers, the
//! counter-move of the last move, then history) and the statistics that a
//! move refuting a position updates.

use crate::board::Bitboard;
use crate::position::{Move, Position};
use crate::rules::MAX_ROLES;

use super::eval::Evaluator;
use super::see::{see, taken};
use super::{MAX_PLY, Worker};

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

/// Counter-move slots on a board of `squares` cells: one for each side,
/// role and square of the move refuted.
pub(super) fn counter_slots(squares: usize) -> usize {
    2 * MAX_ROLES * squares
}

/// The counter-move slot of the last move played (None after a pass).
pub(super) fn counter_index<B: Bitboard>(pos: &Position<B>) -> Option<usize> {
    let to = pos.last_move()?.to();
    let p = pos.piece_at(to)?;
    let n = pos.rules().topology.len();
    Some((p.color.index() * MAX_ROLES + p.role.index()) * n + to.index())
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
            } else if let Some(from) = m.from()
                && pos.is_capture(m)
            {
                let attacker = pos.piece_at(from).map_or(0, |p| ev.capture[p.role.index()]);
                let gain = taken(pos, m, ev);
                let exchange = if attacker <= gain {
                    gain - attacker
                } else {
                    see(pos, m, ev)
                };
                let mvv = gain * 8 - attacker / 64 + m.promotes() as i32;
                if exchange >= 0 {
                    GOOD_CAPTURE + mvv
                } else {
                    BAD_CAPTURE + mvv
                }
            } else if let Some(from) = m.from()
                && m.promotes()
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
                self.history[self.history_index(turn, m)]
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
        let i = self.history_index(turn, best);
        let h = &mut self.history[i];
        *h += bonus - *h * bonus / HISTORY_MAX;
        for &m in tried {
            if m != best {
                let i = self.history_index(turn, m);
                let h = &mut self.history[i];
                *h -= bonus + *h * bonus / HISTORY_MAX;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::{BAD_CAPTURE, GOOD_CAPTURE, KILLER};
    use crate::board::{Bitboard, Square};
    use crate::engine::eval::{Evaluator, Params};
    use crate::engine::tt::Table;
    use crate::engine::{Reductions, Worker};
    use crate::position::{Move, Position};
    use crate::rules::Rules;
    use crate::setup::Setup;
    use crate::{Game, with_rules};

    /// The ordering key of each legal move of `fen`.
    fn keys<B: Bitboard>(rules: &Arc<Rules<B>>, fen: &str) -> Vec<(i32, Move)> {
        let pos = Position::new(rules, &Setup::parse_fen(fen).expect("FEN")).expect("position");
        let ev = Evaluator::new(rules, &Params::default());
        let mut worker = Worker::new(
            Arc::new(Table::new(1)),
            Arc::new([[0; 64]; 64] as Reductions),
        );
        worker.fit(rules.topology.len());
        let mut keys = Vec::new();
        worker.score_moves(&pos, &ev, &pos.legal_moves(), &mut keys, None, 0);
        keys
    }

    /// Every history slot of `squares` cells' moves, both sides, in order.
    fn history_slots(worker: &Worker, squares: u16) -> Vec<usize> {
        use crate::board::Color;
        use crate::rules::{MAX_ROLES, Role};
        let cells = (0..squares).map(Square::new);
        let mut slots = Vec::new();
        for turn in [Color::Sente, Color::Gote] {
            for from in cells.clone() {
                for to in cells.clone() {
                    for promote in [false, true] {
                        slots.push(worker.history_index(turn, Move::Normal { from, to, promote }));
                    }
                }
            }
            for role in 0..MAX_ROLES as u16 {
                for to in cells.clone() {
                    slots.push(worker.history_index(
                        turn,
                        Move::Drop {
                            role: Role(role),
                            to,
                        },
                    ));
                }
            }
        }
        slots
    }

    #[test]
    fn history_has_a_slot_per_move_up_to_256_cells_and_stays_small_past_them() {
        let mut worker = Worker::new(
            Arc::new(Table::new(1)),
            Arc::new([[0; 64]; 64] as Reductions),
        );
        for squares in [81, 256] {
            worker.fit(squares as usize);
            let slots = history_slots(&worker, squares);
            let mut distinct = slots.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(
                distinct.len(),
                slots.len(),
                "{squares} cells: a slot shared"
            );
            assert!(slots.iter().all(|&i| i < worker.history.len()));
        }
        // 36×36: 6.7 million moves on 2 MiB of history, every slot in the table.
        worker.fit(1296);
        assert_eq!(worker.history.len(), 2 * super::super::HISTORY_SLOTS);
        assert_eq!(worker.history.len() * 4, 2 << 20);
        let slots = history_slots(&worker, 1296);
        assert!(slots.iter().all(|&i| i < worker.history.len()));
        // Sente's moves stay in Sente's half.
        assert!(
            slots[..slots.len() / 2]
                .iter()
                .all(|&i| i < super::super::HISTORY_SLOTS)
        );
    }

    #[test]
    fn two_leg_captures_are_ordered_as_captures() {
        // A lion (N) on f6 before two pawns on f7 and f8 of a 12×12 board.
        let game = Game::load("chu-shogi").expect("chu loads");
        with_rules!(&game, rules => {
            let fen = "k11/12/12/12/5p6/5p6/5N6/12/12/12/12/11K w - - 0 1";
            let sq = |file: u16, rank: u16| Square::new(rank * 12 + file);
            let (lion, near, far) = (sq(5, 5), sq(5, 6), sq(5, 7));
            let keys = keys(rules, fen);
            let key = |m: Move| keys.iter().find(|&&(_, k)| k == m).expect("legal").0;
            let two = |to| Move::MultiLeg { from: lion, via: near, to, promote: false };
            // Both pawns, and the near one without moving (igui): neither
            // can be taken back, so both are good captures, the double one first.
            let double = key(two(far));
            let igui = key(two(lion));
            assert!(igui >= GOOD_CAPTURE, "igui {igui}");
            assert!(double > igui, "double {double}, igui {igui}");
            // A pass takes nothing: it is ordered with the quiet moves.
            let pass = keys
                .iter()
                .find(|&&(_, m)| matches!(m, Move::MultiLeg { from, to, .. } if from == lion && to == lion && m != two(lion)))
                .expect("a pass")
                .0;
            assert!(pass < KILLER && pass > BAD_CAPTURE, "pass {pass}");
        });
    }
}
