//! Material evaluation, from the variant file's values.

use crate::board::{Bitboard, Color};
use crate::position::Position;

use super::Score;

/// The material balance from the side to move's point of view: each piece on
/// the board at its `value`, each piece in hand at its `hand_value`.
pub fn evaluate<B: Bitboard>(pos: &Position<B>) -> Score {
    let rules = pos.rules();
    let mut score = [0; 2];
    for color in Color::ALL {
        for role in rules.all_roles() {
            let info = rules.role(role);
            score[color.index()] += pos.pieces(color, role).count() as Score * info.value
                + pos.hand(color, role) as Score * info.hand_value;
        }
    }
    let us = pos.turn().index();
    score[us] - score[1 - us]
}
