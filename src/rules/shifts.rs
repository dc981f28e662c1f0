//! Leapers as translations. A role whose leaps from every square are the
//! squares at a fixed set of offsets (those of them on the board) moves all
//! its pieces of a colour at once: one shift of their bitboard per offset,
//! as hand-written shogi generators move their pawns. Found from the
//! compiled leap tables, and kept only where the shifts give those tables
//! back exactly, square by square.

use crate::board::{Bitboard, Color, Square};
use crate::dsl::Mode;

use super::{PromotionRule, Role, Rules};

/// One offset of a translating leaper.
#[derive(Clone, Debug)]
pub(crate) struct Shift<B> {
    /// Index step from origin to target: rank step × columns + file step.
    pub delta: i32,
    /// Origins whose target is on the board.
    pub from: B,
    /// Whether it goes to empty squares, onto the opponent's pieces, or both.
    pub mode: Mode,
}

/// The shifts by `(colour, role)`: `None` where the role moves piece by piece.
pub(crate) type ShiftTable<B> = Vec<Option<Vec<Shift<B>>>>;

/// The shifts of each `(colour, role)` whose leaps are translations and of
/// which the game has more than twice as many pieces as the role has
/// offsets, with those roles as a mask by colour: where a side has more
/// pieces than offsets, a shift an offset is cheaper than a lookup a piece,
/// and only where this can be common does the test pay for itself (measured:
/// Judkins' and minishogi's two pawns lost 0.4-0.6% to it). The game has as
/// many as the start has of the role and of its other side, on the board and
/// in hand, of both colours (captures change sides). Only under the zone
/// rules (`optional`, `mandatory`), whose promotions the shifts work out;
/// elsewhere generation pays nothing.
pub(super) fn shifts<B: Bitboard>(rules: &Rules<B>) -> (ShiftTable<B>, [u64; 2]) {
    let mut most = vec![0u32; rules.role_count()];
    for (_, r, count) in rules.start_pieces() {
        most[r.index()] += count;
        if let Some(other) = rules.role(r).other_side {
            most[other.index()] += count;
        }
    }
    let zone_rule = matches!(
        rules.promotion,
        PromotionRule::Optional | PromotionRule::Mandatory
    );
    let mut all = Vec::with_capacity(2 * rules.role_count());
    let mut mask = [0; 2];
    for color in Color::ALL {
        for role in rules.all_roles() {
            let most = most[role.index()];
            let shifts = (zone_rule && most >= 2)
                .then(|| translations(rules, color, role))
                .flatten()
                .filter(|s| 2 * (s.len() as u32) < most);
            if shifts.is_some() {
                mask[color.index()] |= 1 << role.index();
            }
            all.push(shifts);
        }
    }
    (all, mask)
}

const MODES: [Mode; 3] = [Mode::Both, Mode::MoveOnly, Mode::CaptureOnly];

fn translations<B: Bitboard>(rules: &Rules<B>, color: Color, role: Role) -> Option<Vec<Shift<B>>> {
    let info = rules.role(role);
    if info.rides || info.hops || info.two_legs || info.royal {
        return None;
    }
    let topo = rules.topology;
    let n = topo.len();
    let cr = rules.cr(color, role);
    let at = |sq: Square| (topo.file(sq) as i32, topo.rank(sq) as i32);
    // The offsets of the square with the most leaps (a square near the
    // middle sees them all); the check below refuses the role if another
    // square has one more.
    let leaps = |sq: Square| rules.leaps[cr * n + sq.index()];
    let widest = topo
        .squares()
        .max_by_key(|&sq| leaps(sq).iter().map(|b| b.count()).sum::<u32>())?;
    let (f, r) = at(widest);
    let mut offsets: Vec<(i32, i32, usize)> = Vec::new();
    for (k, set) in leaps(widest).iter().enumerate() {
        for t in set.squares() {
            let (tf, tr) = at(t);
            offsets.push((tf - f, tr - r, k));
        }
    }
    // One move an offset: none twice (the three sets are disjoint).
    let mut seen = offsets.iter().map(|o| (o.0, o.1)).collect::<Vec<_>>();
    seen.sort_unstable();
    seen.dedup();
    if offsets.is_empty() || seen.len() != offsets.len() {
        return None;
    }
    // The offsets must give every square's leaps back exactly.
    let mut shifts: Vec<Shift<B>> = offsets
        .iter()
        .map(|&(df, dr, k)| Shift {
            delta: dr * topo.cols as i32 + df,
            from: B::EMPTY,
            mode: MODES[k],
        })
        .collect();
    for sq in topo.squares() {
        let (f, r) = at(sq);
        let mut expected = [B::EMPTY; 3];
        for (shift, &(df, dr, k)) in shifts.iter_mut().zip(&offsets) {
            if let Some(t) = topo.square(f + df, r + dr) {
                expected[k] |= B::from_square(t);
                shift.from |= B::from_square(sq);
            }
        }
        if expected != leaps(sq) {
            return None;
        }
    }
    Some(shifts)
}
