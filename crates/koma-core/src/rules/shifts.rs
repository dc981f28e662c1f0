//! Leapers as translations. A role whose leaps from every square are the
//! squares at a fixed set of offsets (those of them on the board) moves all
//! its pieces of a colour at once: one shift of their bitboard per offset,
//! as hand-written shogi generators move their pawns. Found from the
//! compiled leap tables, and kept only where the shifts give those tables
//! back exactly, square by square.

use crate::board::{Bitboard, Color, RoleSet, Square};
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
pub(super) fn shifts<B: Bitboard>(rules: &Rules<B>) -> (ShiftTable<B>, [B::Roles; 2]) {
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
    let mut mask = [B::Roles::EMPTY; 2];
    for color in Color::ALL {
        for role in rules.all_roles() {
            let most = most[role.index()];
            let shifts = (zone_rule && most >= 2)
                .then(|| translations(rules, color, role))
                .flatten()
                .filter(|s| 2 * (s.len() as u32) < most);
            if shifts.is_some() {
                mask[color.index()].insert(role.index());
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

#[cfg(test)]
mod tests {
    use crate::board::{Bitboard, Bitboard256, Color, Square};
    use crate::rules::{Rules, compile};
    use crate::variant;

    fn rules(slug: &str) -> Rules<Bitboard256> {
        compile(&variant::load(slug).expect("loads")).expect("compiles")
    }

    /// The names of the roles of `color` that move by shifts.
    fn shifting(rules: &Rules<Bitboard256>, color: Color) -> Vec<String> {
        (rules.all_roles())
            .filter(|&r| rules.shifts(color, r).is_some())
            .map(|r| rules.role(r).name.clone())
            .collect()
    }

    /// Where a role moves by shifts, its shifts give its leap tables back,
    /// square by square and mode by mode, in every embedded game.
    #[test]
    fn shifts_give_the_leap_tables_back() {
        let mut shifted = 0;
        for slug in variant::catalogue() {
            let rules = rules(slug);
            let n = rules.squares;
            for color in Color::ALL {
                for role in rules.all_roles() {
                    let Some(shifts) = rules.shifts(color, role) else {
                        continue;
                    };
                    shifted += 1;
                    for sq in rules.topology.squares() {
                        let mut got = [Bitboard256::EMPTY; 3];
                        for s in shifts.iter().filter(|s| s.from.contains(sq)) {
                            let k = super::MODES
                                .iter()
                                .position(|&m| m == s.mode)
                                .expect("a mode");
                            let to = Square::new((sq.index() as i32 + s.delta) as u16);
                            got[k] |= Bitboard256::from_square(to);
                        }
                        let leaps = rules.leaps[rules.cr(color, role) * n + sq.index()];
                        assert_eq!(got, leaps, "{slug}: {color:?} {role:?} from {sq:?}");
                    }
                }
            }
        }
        assert!(
            shifted > 0,
            "no game has a role that shifts: nothing was tested"
        );
    }

    /// Shogi's pawns (18 in the game) and tokins (as many: each pawn's other
    /// side) move by shifts, more pieces than twice their offsets; its four
    /// golds (six offsets) do not, nor Judkins' two pawns; micro shogi, whose
    /// pieces turn over on capturing, never does. The mask agrees.
    #[test]
    fn roles_with_more_pieces_than_twice_their_offsets_shift() {
        let shogi = rules("shogi");
        for color in Color::ALL {
            assert_eq!(shifting(&shogi, color), ["pawn", "tokin"], "{color:?}");
            let mask = (shogi.all_roles())
                .filter(|&r| shogi.shifts(color, r).is_some())
                .map(|r| r.index())
                .collect();
            assert_eq!(shogi.shift_roles[color.index()], mask);
        }
        for slug in ["judkins-shogi", "micro-shogi"] {
            let rules = rules(slug);
            assert_eq!(
                shifting(&rules, Color::Sente),
                Vec::<String>::new(),
                "{slug}"
            );
            assert!(rules.shift_roles.iter().all(|m| m.is_empty()), "{slug}");
        }
    }
}
