//! From a validated variant to [`Rules`]: every movement, compiled to steps
//! once by the validator, becomes tables. The input is valid (see
//! [`mod@crate::variant::validate`]). One check is left: the bitboard
//! width asked for must hold the board; the start position is checked
//! against the compiled rules where positions are made (`position::Game`, a layer above).

use thiserror::Error;

use super::tables::tables;
use super::{
    BareRoyal, Declaration, PromotionRule, Repetition, Role, RoleInfo, Rules, TradeLimits,
};
use crate::board::{AnyRoles, Bitboard, Color, RoleSet, Topology};
use crate::dsl::{Mode, Moves};
use crate::variant::{PieceDef, Problem, Variant};

/// What the compiled rules refuse in a variant the validator accepted.
#[derive(Debug, Error)]
#[error("{origin}: {}", problems.iter().map(|p| p.message.as_str()).collect::<Vec<_>>().join("; "))]
pub struct RulesError {
    /// The file.
    pub origin: String,
    /// Each problem, with the path of its key.
    pub problems: Vec<Problem>,
}

impl RulesError {
    fn at(variant: &Variant, problem: Problem) -> RulesError {
        RulesError {
            origin: variant.origin.clone(),
            problems: vec![problem],
        }
    }
}

/// Compiles a loaded variant for a bitboard width that must hold its board.
pub fn compile<B: Bitboard>(variant: &Variant) -> Result<Rules<B>, RulesError> {
    let spec = &variant.engine;
    let t = &spec.topology;
    // The validator holds boards to the widest bitboard; this one may be
    // narrower. Only a caller choosing the width itself gets here (`Game` does not).
    if (t.rows * t.cols) as usize > B::CAPACITY {
        return Err(RulesError::at(
            variant,
            Problem::value(
                "engine.topology.cols",
                format!(
                    "engine.topology: {}×{} = {} squares, more than the {} of this bitboard width",
                    t.rows,
                    t.cols,
                    t.rows * t.cols,
                    B::CAPACITY
                ),
            ),
        ));
    }
    let role_count = variant.role_count();
    if role_count > <B::Roles as RoleSet>::CAPACITY {
        return Err(RulesError::at(
            variant,
            Problem::value(
                "engine.pieces",
                format!(
                    "engine.pieces: {role_count} piece kinds (promoted included), more than the {} of this bitboard width",
                    <B::Roles as RoleSet>::CAPACITY
                ),
            ),
        ));
    }
    // The setup's holes (`*`) are cells of the rectangle that are not on the board.
    let topology = variant.start.holes.iter().fold(
        Topology::rectangle(t.rows as u8, t.cols as u8),
        |topology, &(rank, file)| topology.with_hole(file as i32, t.rows as i32 - 1 - rank as i32),
    );
    let rules_spec = &spec.rules;
    let (roles, steps) = roles(&variant.pieces, rules_spec.promotion);
    let mut rules = tables::<B>(variant, topology, roles, &steps);
    rules.start = variant.start.clone();
    rules.drops = rules_spec.drops;
    rules.cell_size = spec.render.as_ref().and_then(|r| r.cell_size);
    let records = spec.records.clone().unwrap_or_default();
    rules.kif_handicap = records.kif_handicap;
    rules.pgn_variant = records.pgn_variant;
    rules.eval = spec.eval.clone().unwrap_or_default();
    rules.promotion = rules_spec.promotion;
    rules.immobile_drops = rules_spec.immobile_drops;
    rules.drop_promoted = rules_spec.drop_promoted;
    rules.check = rules_spec.check;
    rules.check_wins = rules_spec.check_wins;
    rules.has_tries = rules.roles.iter().any(|r| r.wins_on_last_rank);
    rules.has_two_legs = rules.roles.iter().any(|r| r.two_legs);
    rules.has_hoppers = rules.roles.iter().any(|r| r.hops);
    let mask = |f: fn(&RoleInfo) -> bool| {
        (rules.roles.iter().enumerate())
            .filter(|(_, r)| f(r))
            .map(|(i, _)| i)
            .collect()
    };
    rules.hand_roles = mask(|r| !r.promoted);
    rules.rider_roles = mask(|r| r.rides);
    rules.promoting_roles = mask(|r| r.promotion.is_some());
    rules.two_sided_roles = mask(|r| r.other_side.is_some());
    rules.mode_leap_roles = (0..rules.roles.len())
        .filter(|&i| {
            Color::ALL.into_iter().any(|color| {
                let cr = color.index() * rules.roles.len() + i;
                let squares = &rules.leaps[cr * rules.squares..(cr + 1) * rules.squares];
                squares.iter().any(|l| l[1].any() || l[2].any())
            })
        })
        .collect();
    // Under `entering` no promotion is forced unless the file says so.
    rules.immobile_moves = rules_spec
        .immobile_moves
        .unwrap_or(rules.promotion == PromotionRule::Entering);
    rules.promotes_where_immobile = rules_spec.promotes_where_immobile.unwrap_or(true);
    if let Some(at) = rules_spec.move_as_friend_at {
        // Seen from each owner's side: gote's forward is sente's back, its
        // right sente's left.
        for color in Color::ALL {
            let sign = if color == Color::Sente { 1 } else { -1 };
            for sq in topology.squares() {
                let lender = topology.square(
                    i32::from(topology.file(sq)) + sign * at.right,
                    i32::from(topology.rank(sq)) + sign * at.forward,
                );
                rules.lenders.push(lender);
            }
        }
    }
    rules.by_trial = rules.has_two_legs || rules.has_hoppers || rules.borrows();
    // A piece that borrows moves as any of its friends may: it keeps its
    // file only if every role does.
    if rules.borrows() && rules.roles.iter().any(|r| !r.keeps_file) {
        for r in &mut rules.roles {
            r.keeps_file = false;
        }
    }
    // The most royal pieces a side can come to have: its royals of the
    // start and the pieces (on the board or in hand) that may promote to a
    // royal one; where captured pieces are dropped again and a side may
    // lose a royal (it has two), every royal and every such piece of the
    // game, as either side may capture and drop them, but one: under the
    // check rule the opponent's last royal piece is never captured.
    let mut royal = [0u32; 2];
    let mut may_become = [0u32; 2];
    for (color, r, count) in rules.start_pieces() {
        let info = rules.role(r);
        if info.royal {
            royal[color.index()] += count;
        } else if info.promotion.is_some_and(|q| rules.role(q).royal) {
            may_become[color.index()] += count;
        }
    }
    let all = royal[0] + royal[1] + may_become[0] + may_become[1];
    let capturable = (0..2).any(|c| royal[c] + may_become[c] > 1);
    for color in Color::ALL {
        let us = color.index();
        rules.start_royals[us] = if rules.drops && capturable {
            if rules.check {
                // Each side starts with a royal piece (the validator
                // requires one a side where a piece is royal): `all` is 2
                // or more.
                all - 1
            } else {
                all
            }
        } else {
            royal[us] + may_become[us]
        };
    }
    rules.repetition = Repetition {
        count: rules_spec.repetition.count,
        perpetual_check_loses: rules_spec.repetition.perpetual_check_loses,
        result: rules_spec.repetition.result,
        counterstrike_distinguishes: rules_spec.repetition.counterstrike_distinguishes,
    };
    let zone = rules_spec.promotion_zone as u8;
    for sq in topology.squares() {
        let rank = topology.rank(sq);
        if rank >= topology.rows - zone {
            rules.zone[0] |= B::from_square(sq);
        }
        if rank < zone {
            rules.zone[1] |= B::from_square(sq);
        }
        if rank == topology.rows - 1 {
            rules.last_rank[0] |= B::from_square(sq);
        }
        if rank == 0 {
            rules.last_rank[1] |= B::from_square(sq);
        }
    }
    rules.declaration = rules_spec.declaration.as_ref().map(|d| {
        let depth = d.zone.unwrap_or(rules_spec.promotion_zone) as u8;
        let mut camp = [B::EMPTY; 2];
        for sq in topology.squares() {
            let rank = topology.rank(sq);
            if rank >= topology.rows.saturating_sub(depth) {
                camp[0] |= B::from_square(sq);
            }
            if rank < depth {
                camp[1] |= B::from_square(sq);
            }
        }
        Declaration {
            camp,
            pieces: d.pieces,
            points: [d.sente_points, d.gote_points],
        }
    });
    rules.arrive = arrivals(&rules);
    rules.zone_masks = zone_masks(&rules);
    (rules.reach, rules.xray, rules.lines) = reaches(&rules);
    rules.near = near_royal(&rules);
    (rules.watch, rules.watch_index, rules.watch_lines) = trial_watch(&rules);
    (rules.shifts, rules.shift_roles) = super::shifts::shifts(&rules);
    let mask = |pick: &dyn Fn(&RoleInfo) -> bool| {
        rules
            .roles
            .iter()
            .enumerate()
            .filter(|(_, r)| pick(r))
            .map(|(i, _)| i)
            .collect::<AnyRoles>()
    };
    let bare_royal = rules_spec.bare_royal.as_ref().map(|b| BareRoyal {
        loses: b.loses,
        uncounted: b
            .uncounted
            .as_ref()
            .map_or(AnyRoles::EMPTY, |names| mask(&|r| names.contains(&r.name))),
        both_draw: b.both_draw,
    });
    let trade = rules_spec.trade_limits.as_ref().map(|t| TradeLimits {
        limited: mask(&|r| r.trade_limited),
        distant_protected: t.distant_protected,
        bridge_except: t
            .bridge_except
            .as_ref()
            .map(|names| mask(&|r| names.contains(&r.name))),
        counterstrike: t.counterstrike,
    });
    rules.trade = trade;
    rules.bare_royal = bare_royal;
    Ok(rules)
}

/// For each colour, role and square, every square the role could attack
/// from there on an empty board (its leaps and whole rays): a quick test
/// that a piece cannot attack a square, before its attacks are worked out.
/// With it, the tables of [`Rules::ride_xray`] and [`Rules::ride_lines`].
fn reaches<B: Bitboard>(rules: &Rules<B>) -> (Vec<B>, Vec<B>, Vec<B>) {
    let n = rules.topology.len();
    let mut reach = Vec::with_capacity(2 * rules.role_count() * n);
    let mut xray = Vec::with_capacity(2 * rules.role_count() * n);
    for color in Color::ALL {
        for role in rules.all_roles() {
            for sq in rules.topology.cells() {
                xray.push(rules.ride_xray_from_rays(color, role, sq));
            }
        }
    }
    // Square by square, every role of the square side by side: the
    // attack test reads one square's roles in a row.
    for color in Color::ALL {
        for sq in rules.topology.cells() {
            for role in rules.all_roles() {
                let i = rules.cr(color, role) * n + sq.index();
                reach.push(rules.leaps[i][0] | rules.leaps[i][2] | xray[i]);
            }
        }
    }
    let lines = Color::ALL
        .into_iter()
        .flat_map(|color| {
            let xray = &xray;
            rules.topology.cells().map(move |sq| {
                rules.all_roles().fold(B::EMPTY, |b, role| {
                    b | xray[rules.cr(color, role) * n + sq.index()]
                })
            })
        })
        .collect();
    (reach, xray, lines)
}

/// The tables of [`Rules::trial_watch`], where legality is tried by playing
/// each move under the check rule (two-leg moves or hops, no borrowing):
/// by colour then square, the squares always watched, and where the lines
/// through the square are, one ray a direction.
#[allow(clippy::type_complexity)]
fn trial_watch<B: Bitboard>(rules: &Rules<B>) -> (Vec<B>, Vec<(u32, u32)>, Vec<B>) {
    let (mut fixed, mut index, mut lines) = (Vec::new(), Vec::new(), Vec::new());
    if !rules.check || !rules.by_trial || rules.borrows() {
        return (fixed, index, lines);
    }
    let n = rules.squares;
    for color in Color::ALL {
        for sq in rules.topology.cells() {
            fixed.push(B::from_square(sq));
            // The rays from `sq` of this colour's capturing rides and hops:
            // by symmetry, where the other colour's riders and hoppers
            // stand to attack it along them.
            let start = lines.len() as u32;
            for role in rules.all_roles() {
                let cr = rules.cr(color, role);
                let rides = rules.rides[cr].iter().map(|r| (r.full, r.mode));
                let hops = rules.hoppers[cr].iter().map(|h| (h.full, h.mode));
                for (full, mode) in rides.chain(hops) {
                    let ray = rules.rays[full as usize * n + sq.index()];
                    if mode != Mode::MoveOnly
                        && ray.any()
                        && !lines[start as usize..].contains(&ray)
                    {
                        lines.push(ray);
                    }
                }
            }
            index.push((start, lines.len() as u32));
        }
    }
    // A two-leg attack on a square depends on where the piece stands, where
    // its first leg ends and where its second may end (a capture on the way
    // needs a square to go on to).
    for color in Color::ALL {
        let them = color.opposite();
        for role in rules.all_roles().filter(|&r| rules.role(r).two_legs) {
            for from in rules.topology.squares() {
                for hop in rules.hops(them, role, from) {
                    let [both, to_empty, to_capture] = hop.second;
                    let ends = both | to_empty | to_capture;
                    let route = B::from_square(from) | B::from_square(hop.mid) | ends;
                    for sq in (ends | B::from_square(hop.mid)).squares() {
                        fixed[color.index() * n + sq.index()] |= route;
                    }
                }
            }
        }
    }
    (fixed, index, lines)
}

/// The table of [`Rules::near_royal`], where royal moves are tested square
/// by square (a guard: the check rule, no move tried by playing it).
fn near_royal<B: Bitboard>(rules: &Rules<B>) -> Vec<B> {
    if !rules.check || rules.by_trial {
        return Vec::new();
    }
    let roles = rules.role_count();
    let mut near = Vec::with_capacity(2 * rules.squares * roles);
    for color in Color::ALL {
        for sq in rules.topology.cells() {
            // Where any royal role of the colour could go from `sq`.
            let steps = rules
                .all_roles()
                .filter(|&r| rules.role(r).royal)
                .fold(B::EMPTY, |b, r| b | rules.reach(color, r, sq));
            for role in rules.all_roles() {
                near.push(
                    steps
                        .squares()
                        .fold(B::EMPTY, |b, t| b | rules.reach(color, role, t)),
                );
            }
        }
    }
    near
}

/// The table of [`Rules::ends_and_promotions`] (empty where pieces turn both ways).
fn zone_masks<B: Bitboard>(rules: &Rules<B>) -> Vec<[B; 2]> {
    if rules.promotion.turns_both_ways() {
        return Vec::new();
    }
    let mut masks = Vec::with_capacity(2 * rules.role_count() * rules.squares);
    for color in Color::ALL {
        let zone = rules.zone[color.index()];
        for role in rules.all_roles() {
            let arrive = rules.arrive[rules.cr(color, role)];
            for from in rules.topology.cells() {
                masks.push(match rules.promotes(role) {
                    false => [arrive, B::EMPTY],
                    true if zone.contains(from) => [rules.all, rules.all],
                    true => [arrive, zone],
                });
            }
        }
    }
    masks
}

/// For each colour and role, the squares a move may end on without the
/// piece promoting there (see [`Rules::arrival`]).
fn arrivals<B: Bitboard>(rules: &Rules<B>) -> Vec<B> {
    let mut arrive = Vec::with_capacity(2 * rules.role_count());
    for color in Color::ALL {
        for role in rules.all_roles() {
            let stay = if rules.immobile_drops || rules.immobile_moves {
                rules.all
            } else {
                rules.mobile(color, role)
            };
            let info = rules.role(role);
            arrive.push(if rules.promotion == PromotionRule::Entering {
                // A piece that promotes may always end where it could never
                // move again (it may promote there); whether it must is
                // `immobile_moves` (in `stays` of the generator).
                if info.promotion.is_some() {
                    rules.all
                } else {
                    stay
                }
            } else if rules.promotion == PromotionRule::Flip {
                if info.other_side.is_some() {
                    rules.all
                } else {
                    stay
                }
            } else if rules.promotion == PromotionRule::Capture {
                // A quiet move never turns it over; the captures that do
                // are added by `Rules::arrival`.
                stay
            } else if info.promotion.is_some() {
                stay | rules.zone[color.index()]
            } else {
                stay
            });
        }
    }
    arrive
}

/// Whether no move of the movement changes the piece's file.
fn keeps_file(moves: &Moves) -> bool {
    moves.steps.iter().all(|s| s.dx == 0)
        && moves.hoppers.iter().all(|h| h.dx == 0)
        && moves
            .two_legs
            .iter()
            .all(|l| l.first.dx == 0 && l.second.dx == 0)
}

/// The roles of the pieces: each declared piece, followed by its promoted
/// side; with each role's steps.
fn roles(pieces: &[PieceDef], rule: PromotionRule) -> (Vec<RoleInfo>, Vec<Moves>) {
    let mut roles: Vec<RoleInfo> = Vec::new();
    let mut steps: Vec<Moves> = Vec::new();
    // Kanji that more than one role has name none of them in records.
    let kanji: Vec<&str> = pieces
        .iter()
        .flat_map(|p| {
            [
                p.spec.kanji.as_deref(),
                p.spec.promotion.as_ref().and_then(|q| q.kanji.as_deref()),
            ]
        })
        .flatten()
        .collect();
    let shared: Vec<&str> = kanji
        .iter()
        .copied()
        .filter(|k| kanji.iter().filter(|o| o == &k).count() > 1)
        .collect();
    for piece in pieces {
        let p = &piece.spec;
        let base = Role(roles.len() as u16);
        let mut info = RoleInfo {
            name: piece.name.clone(),
            id: piece.id,
            promoted: false,
            promotion: None,
            base,
            other_side: None,
            wins_on_last_rank: p.wins_on_last_rank,
            royal: p.royal,
            max_per_file: p.max_per_file.map(|m| m.min(255) as u8),
            drop_mate_illegal: p.drop_mate_illegal,
            keeps_file: keeps_file(&piece.moves)
                && !(rule.turns_both_ways() && piece.promotion().is_some()),
            kanji: p.kanji.clone(),
            kif: kif_names(&p.kif, &p.kanji, &shared),
            csa: p.csa.clone(),
            betza: p.betza.clone(),
            value: p.value.unwrap_or(100),
            hand_value: p.hand_value.unwrap_or(p.value.unwrap_or(100) * 115 / 100),
            declaration_points: p.declaration_points.unwrap_or(u32::from(!p.royal)),
            rides: piece.moves.steps.iter().any(|s| s.max != 1),
            two_legs: !piece.moves.two_legs.is_empty(),
            trade_limited: p.trade_limited,
            hops: !piece.moves.hoppers.is_empty(),
            promotes_capturing_in_zone: p.promotes_capturing_in_zone.unwrap_or(true),
        };
        match piece.promotion() {
            None => {
                roles.push(info);
                steps.push(piece.moves.clone());
            }
            Some((pr, promoted_steps)) => {
                info.promotion = Some(Role(base.0 + 1));
                info.other_side = Some(Role(base.0 + 1));
                roles.push(info);
                steps.push(piece.moves.clone());
                roles.push(RoleInfo {
                    name: pr.name.clone(),
                    id: piece.id,
                    promoted: true,
                    promotion: None,
                    base,
                    other_side: Some(base),
                    wins_on_last_rank: p.wins_on_last_rank,
                    royal: pr.royal,
                    max_per_file: None,
                    keeps_file: keeps_file(promoted_steps),
                    drop_mate_illegal: false,
                    kanji: pr.kanji.clone(),
                    kif: kif_names(&pr.kif, &pr.kanji, &shared),
                    csa: pr.csa.clone(),
                    betza: pr.betza.clone(),
                    value: pr.value.unwrap_or(100),
                    hand_value: 0,
                    declaration_points: p.declaration_points.unwrap_or(u32::from(!p.royal)),
                    rides: promoted_steps.steps.iter().any(|s| s.max != 1),
                    two_legs: !promoted_steps.two_legs.is_empty(),
                    trade_limited: pr.trade_limited,
                    hops: !promoted_steps.hoppers.is_empty(),
                    promotes_capturing_in_zone: false,
                });
                steps.push(promoted_steps.clone());
            }
        }
    }
    (roles, steps)
}

/// A role's names in KIF and KI2 moves: its `kif` names, then its kanji if
/// that is not among them and no other role has it (`shared`).
fn kif_names(kif: &Option<String>, kanji: &Option<String>, shared: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = kif
        .as_deref()
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if let Some(k) = kanji
        && !names.contains(k)
        && !shared.contains(&k.as_str())
    {
        names.push(k.clone());
    }
    names
}

#[cfg(test)]
mod tests {
    use super::compile;
    use crate::board::{Bitboard, Bitboard256, Color, Square};
    use crate::rules::Rules;
    use crate::variant;

    /// Minishogi with the rook given a (2,0) leap that its ride also
    /// reaches (`RD`), written once plainly and once with the leap named
    /// a second time to capture only (`RDcD`): the same piece.
    const RD: &str = "---\ntitle: RD\nslug: rd\nparent: minishogi\nengine:\n  pieces:\n    rook: { betza: RD }\n---\n";
    const RD_TWICE: &str = "---\ntitle: RDcD\nslug: rdcd\nparent: minishogi\nengine:\n  pieces:\n    rook: { betza: RDcD }\n---\n";
    /// The rook given a (2,0) leap that only captures, which its ride also
    /// reaches (`RcD`): the square is in its capture-only leaps and its rays.
    const R_CD: &str = "---\ntitle: RcD\nslug: rcd\nparent: minishogi\nengine:\n  pieces:\n    rook: { betza: RcD }\n---\n";

    fn compiled(text: &str) -> Rules<Bitboard256> {
        let v = variant::from_text(text, "test.md", None).expect("the test file loads");
        compile(&v).expect("compiles")
    }

    /// Minishogi whose pawn moves only in two legs (`fmafW`, two squares
    /// straight forward through an empty one).
    const TWO_LEGS_ONLY: &str = "---\ntitle: F2\nslug: f2\nparent: minishogi\nengine:\n  pieces:\n    pawn: { betza: fmafW }\n---\n";

    /// Every embedded variant and the three files above, on the widest bitboard.
    fn every_game() -> Vec<Rules<Bitboard256>> {
        let mut games: Vec<_> = variant::catalogue()
            .into_iter()
            .map(|slug| compile(&variant::load(slug).expect("loads")).expect("compiles"))
            .collect();
        games.push(compiled(RD));
        games.push(compiled(RD_TWICE));
        games.push(compiled(R_CD));
        games
    }

    /// The tables built once from the move tables hold what their
    /// definitions say, worked out here the long way: `reach` is what the
    /// role attacks on an empty board; `ride_lines` the squares from which
    /// a rider of the other colour sees the square on an empty board.
    #[test]
    fn the_derived_tables_hold_what_their_definitions_say() {
        for rules in every_game() {
            let t = rules.topology;
            for color in Color::ALL {
                for sq in t.squares() {
                    for role in rules.all_roles() {
                        assert_eq!(
                            rules.reach(color, role, sq),
                            rules.attacks(color, role, sq, Bitboard256::EMPTY),
                            "{}: reach of {color:?} {role:?} from {sq:?}",
                            rules.slug
                        );
                    }
                    let mut lines = Bitboard256::EMPTY;
                    for from in t.squares() {
                        if rules
                            .all_roles()
                            .any(|role| rules.ride_xray(color.opposite(), role, from).contains(sq))
                        {
                            lines |= Bitboard256::from_square(from);
                        }
                    }
                    assert_eq!(
                        rules.ride_lines(color, sq),
                        lines,
                        "{}: ride lines to {sq:?} for {color:?}",
                        rules.slug
                    );
                }
            }
        }
    }

    /// A leap named in two modes (`D` and `cD`) is the same leap: what the
    /// piece attacks and whether a check by it can be blocked do not change.
    #[test]
    fn a_leap_named_twice_attacks_and_checks_as_once() {
        let (once, twice) = (compiled(RD), compiled(RD_TWICE));
        let rook = once.role_by_letter('R', false).expect("a rook");
        assert_eq!(twice.role_by_letter('R', false), Some(rook));
        let t = once.topology;
        for color in Color::ALL {
            for from in t.squares() {
                assert_eq!(
                    once.attacks(color, rook, from, Bitboard256::EMPTY),
                    twice.attacks(color, rook, from, Bitboard256::EMPTY)
                );
                for to in t.squares() {
                    assert_eq!(
                        once.leap_attacks(color, rook, from, to),
                        twice.leap_attacks(color, rook, from, to),
                        "{color:?} rook {from:?} to {to:?}"
                    );
                }
            }
        }
    }

    /// The rules are the same for both sides turned round: the squares a
    /// piece of gote could ever move from are sente's turned by half a turn,
    /// two-leg moves included.
    #[test]
    fn gote_may_move_from_where_sente_may_turned_round() {
        let mut games = every_game();
        games.push(compiled(TWO_LEGS_ONLY));
        for rules in games {
            let last = rules.topology.len() - 1;
            let turned = |b: Bitboard256| {
                b.squares().fold(Bitboard256::EMPTY, |t, sq| {
                    t | Bitboard256::from_square(Square::new((last - sq.index()) as u16))
                })
            };
            for role in rules.all_roles() {
                assert_eq!(
                    rules.mobile(Color::Gote, role),
                    turned(rules.mobile(Color::Sente, role)),
                    "{}: {}",
                    rules.slug,
                    rules.role(role).name
                );
            }
        }
    }

    /// Minishogi with values given to two pieces, a hand value to one.
    const VALUES: &str = "---\ntitle: V\nslug: v\nparent: minishogi\nengine:\n  pieces:\n    gold: { value: 200 }\n    silver: { value: 300, hand_value: 310 }\n---\n";

    /// As variants/README.md has it: a piece in hand is worth its `value`
    /// plus 15% unless the file gives its `hand_value`.
    #[test]
    fn a_piece_in_hand_is_worth_its_value_and_15_percent_unless_the_file_says() {
        let rules = compiled(VALUES);
        let worth = |letter| {
            let info = rules.role(rules.role_by_letter(letter, false).expect("a piece"));
            (info.value, info.hand_value)
        };
        assert_eq!(worth('G'), (200, 230));
        assert_eq!(worth('S'), (300, 310));
    }

    /// A name read in KIF names one role: a kanji that two roles share (chu
    /// shogi's promoted sides and the pieces they move like) names neither.
    #[test]
    fn every_kif_name_names_one_role() {
        let mut shared = 0;
        for rules in every_game() {
            let mut named = std::collections::HashMap::new();
            for role in rules.all_roles() {
                let info = rules.role(role);
                for name in &info.kif {
                    if let Some(other) = named.insert(name.clone(), role) {
                        panic!("{}: {name} names {other:?} and {role:?}", rules.slug);
                    }
                }
                let kanji = info.kanji.as_deref();
                shared += usize::from(
                    kanji.is_some()
                        && rules
                            .all_roles()
                            .any(|r| r != role && rules.role(r).kanji.as_deref() == kanji),
                );
            }
        }
        assert!(
            shared > 0,
            "no game has a kanji two roles share: nothing was tested"
        );
    }

    #[test]
    fn a_bitboard_too_narrow_for_the_board_is_a_problem_at_the_topology() {
        let shogi = variant::load("shogi").expect("shogi loads");
        let e = compile::<u64>(&shogi).expect_err("81 squares do not fit in 64");
        assert_eq!(e.problems.len(), 1);
        assert_eq!(e.problems[0].path, "engine.topology.cols");
        assert_eq!(
            e.problems[0].message,
            "engine.topology: 9×9 = 81 squares, more than the 64 of this bitboard width"
        );
        assert!(compile::<u128>(&shogi).is_ok());
    }
}
