//! Static exchange evaluation: what a capture wins if both sides keep
//! capturing on its square with their least valuable piece while it pays.
//! Written once from `attackers_to` and the rules' values; pins are ignored
//! and only the first move's promotion is counted.

use crate::board::Bitboard;
use crate::position::{Move, Position};

use super::Score;
use super::eval::Evaluator;

/// At most this many captures in one exchange: each removes a piece.
const MAX_EXCHANGE: usize = 64;

/// The material the side to move gains by `mv` and the exchange that may
/// follow on its square, in the values of [`Evaluator::capture`]
/// (hand values included where captures go to hand). A move that is not a
/// capture scores its promotion gain, less what it loses if the square is
/// attacked.
pub(super) fn see<B: Bitboard>(pos: &Position<B>, mv: Move, ev: &Evaluator<B>) -> Score {
    let (from, to, promote) = (mv.from(), mv.to(), mv.promotes());
    let rules = pos.rules();
    let mover = match (from, mv) {
        (Some(f), _) => match pos.piece_at(f) {
            Some(p) => p.role,
            None => return 0,
        },
        (None, Move::Drop { role, .. }) => role,
        (None, _) => return 0,
    };
    let mut gain = [0 as Score; MAX_EXCHANGE];
    // Everything the move takes (a two-leg move: on the way too); the
    // exchange then goes on where it ends.
    gain[0] = taken(pos, mv, ev);
    let mut standing = mover;
    if promote {
        gain[0] += ev.promotion_gain[mover.index()];
        if let Some(p) = rules.role(mover).other_side {
            standing = p;
        }
    }
    let mut occ = pos.occupied();
    for (sq, _) in pos.captures(mv) {
        occ &= !B::from_square(sq);
    }
    if let Some(f) = from {
        occ &= !B::from_square(f);
    }
    occ |= B::from_square(to);
    let mut side = pos.turn().opposite();
    let mut d = 0;
    loop {
        d += 1;
        // If `side` takes the piece standing there, it wins that piece and
        // owes back what it lost before.
        gain[d] = ev.capture[standing.index()] - gain[d - 1];
        let attackers = pos.attackers_to(to, side, occ) & occ;
        if attackers.is_empty() || d + 1 >= MAX_EXCHANGE {
            break;
        }
        let Some((sq, role)) = ev.cheapest_first.iter().find_map(|&r| {
            let b = attackers & pos.pieces(side, r);
            b.any().then(|| (b.lsb(), r))
        }) else {
            break;
        };
        standing = role;
        occ ^= B::from_square(sq);
        side = side.opposite();
    }
    // The last capture had no taker; each side before it takes only if that pays.
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

/// The value of everything `mv` takes, in [`Evaluator::capture`]'s values
/// (0 for a move that takes nothing).
#[inline]
pub(super) fn taken<B: Bitboard>(pos: &Position<B>, mv: Move, ev: &Evaluator<B>) -> Score {
    pos.captures(mv)
        .map(|(_, p)| ev.capture[p.role.index()])
        .sum()
}
