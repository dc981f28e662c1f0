//! The move tables of compiled rules: leaps and rides of each role from each
//! square for each side, the rider lines that join two squares, Zobrist keys.

use std::collections::{BTreeMap, HashMap};

use super::lines::Lines;
use super::{Hop, HopRay, PromotionRule, Repetition, RepetitionResult, Ride, RoleInfo, Rules};
use crate::board::{Bitboard, Color, RoleSet, Topology};
use crate::dsl::{HopKind, Mode, Moves, Step};
use crate::setup::Setup;
use crate::variant::Variant;

fn orient(color: Color, s: &Step) -> (i32, i32) {
    match color {
        Color::Sente => (s.dx as i32, s.dy as i32),
        Color::Gote => (-s.dx as i32, -s.dy as i32),
    }
}

/// Builds every table for the given roles and their compiled steps.
pub(super) fn tables<B: Bitboard>(
    variant: &Variant,
    topology: Topology,
    roles: Vec<RoleInfo>,
    moves: &[Moves],
) -> Rules<B> {
    let n = topology.len();
    let nroles = roles.len();
    let all = topology
        .squares()
        .fold(B::EMPTY, |b, s| b | B::from_square(s));
    let mut leap_both = vec![B::EMPTY; 2 * nroles * n];
    let mut leap_move = leap_both.clone();
    let mut leap_capture = leap_both.clone();
    let mut mobile = vec![B::EMPTY; 2 * nroles];
    let mut rides = vec![Vec::new(); 2 * nroles];
    let mut rays: Vec<B> = Vec::new();
    let mut ray_ids: HashMap<(i32, i32, u8, bool), u32> = HashMap::new();
    let mut directions: Vec<(i32, i32)> = Vec::new();

    // A ray runs over squares and stops before a hole; a hopper's line
    // (`over_holes`) runs over every cell of the rectangle, holes too, which
    // it may hop over as over a piece. One table a cell, holes included.
    let mut ray_table = |dx: i32, dy: i32, max: u8, over_holes: bool, rays: &mut Vec<B>| -> u32 {
        *ray_ids.entry((dx, dy, max, over_holes)).or_insert_with(|| {
            let id = (rays.len() / n) as u32;
            let step = |sq, k| {
                if over_holes {
                    topology.step_cell(sq, dx, dy, k)
                } else {
                    topology.step(sq, dx, dy, k)
                }
            };
            for sq in topology.cells() {
                let mut b = B::EMPTY;
                if topology.is_hole(sq) && !over_holes {
                    rays.push(b);
                    continue;
                }
                let mut k = 1;
                while let Some(to) = step(sq, k) {
                    if max != 0 && k > max as i32 {
                        break;
                    }
                    b |= B::from_square(to);
                    k += 1;
                }
                rays.push(b);
            }
            id
        })
    };

    for color in Color::ALL {
        for (role, role_moves) in moves.iter().enumerate() {
            let cr = color.index() * nroles + role;
            for s in &role_moves.steps {
                let (dx, dy) = orient(color, s);
                if s.max == 1 {
                    for sq in topology.squares() {
                        if let Some(to) = topology.step(sq, dx, dy, 1) {
                            let table = match s.mode {
                                Mode::Both => &mut leap_both,
                                Mode::MoveOnly => &mut leap_move,
                                Mode::CaptureOnly => &mut leap_capture,
                            };
                            table[cr * n + sq.index()] |= B::from_square(to);
                            mobile[cr] |= B::from_square(sq);
                        }
                    }
                } else {
                    let ray = ray_table(dx, dy, s.max, false, &mut rays);
                    let full = ray_table(dx, dy, 0, false, &mut rays);
                    if !directions.contains(&(dx, dy)) {
                        directions.push((dx, dy));
                    }
                    let positive = topology.ascending(dx, dy);
                    rides[cr].push(Ride {
                        ray,
                        full,
                        positive,
                        mode: s.mode,
                    });
                    for sq in topology.squares() {
                        if rays[ray as usize * n + sq.index()].any() {
                            mobile[cr] |= B::from_square(sq);
                        }
                    }
                }
            }
        }
    }

    // Hoppers: each line with its range; a hopper can move from a square
    // where its line has room for a screen and a square beyond it.
    let mut hoppers = vec![Vec::new(); 2 * nroles];
    for color in Color::ALL {
        for (role, role_moves) in moves.iter().enumerate() {
            let cr = color.index() * nroles + role;
            for h in &role_moves.hoppers {
                let sign = if color == Color::Sente { 1 } else { -1 };
                let (dx, dy) = (h.dx as i32 * sign, h.dy as i32 * sign);
                let full = ray_table(dx, dy, 0, true, &mut rays);
                let reach = ray_table(dx, dy, h.max, true, &mut rays);
                hoppers[cr].push(HopRay {
                    full,
                    reach,
                    positive: topology.ascending(dx, dy),
                    mode: h.mode,
                    next: h.kind == HopKind::Next,
                });
                // Room for a screen (a piece or a hole) and a square beyond it.
                for sq in topology.squares() {
                    let line = rays[reach as usize * n + sq.index()];
                    if line.is_empty() {
                        continue;
                    }
                    let first = if topology.ascending(dx, dy) {
                        line.lsb()
                    } else {
                        line.msb()
                    };
                    if (line & all & !B::from_square(first)).any() {
                        mobile[cr] |= B::from_square(sq);
                    }
                }
            }
        }
    }

    // Where a hopper could capture from, by `(colour, role)` then target:
    // the squares whose lines of capturing hops pass through the target.
    // A hop lands beyond its screen on the line it started along, so the
    // whole line from its square bounds every occupancy's landing squares.
    let mut hop_sources = Vec::new();
    if hoppers.iter().any(|h| !h.is_empty()) {
        hop_sources = vec![B::EMPTY; 2 * nroles * n];
        for (cr, lines) in hoppers.iter().enumerate() {
            for from in topology.squares() {
                let line = lines
                    .iter()
                    .filter(|h| h.mode != Mode::MoveOnly)
                    .fold(B::EMPTY, |b, h| {
                        b | rays[h.full as usize * n + from.index()]
                    });
                for sq in line.squares() {
                    hop_sources[cr * n + sq.index()] |= B::from_square(from);
                }
            }
        }
    }

    // Two-leg moves: from each square, the first legs grouped by where they
    // end and what that square must hold, lowest square first.
    let mut hop_index = Vec::with_capacity(2 * nroles * n);
    let mut hops = Vec::new();
    for color in Color::ALL {
        for (role, role_moves) in moves.iter().enumerate() {
            let cr = color.index() * nroles + role;
            // One entry a cell; a hole's has no moves.
            for sq in topology.cells() {
                let mut by_mid: BTreeMap<(u16, Mode), [B; 3]> = BTreeMap::new();
                if topology.is_hole(sq) {
                    hop_index.push((hops.len() as u32, hops.len() as u32));
                    continue;
                }
                for l in &role_moves.two_legs {
                    let sign = if color == Color::Sente { 1 } else { -1 };
                    let (dx, dy) = (l.first.dx as i32 * sign, l.first.dy as i32 * sign);
                    let Some(mid) = topology.step(sq, dx, dy, 1) else {
                        continue;
                    };
                    let (ex, ey) = (l.second.dx as i32 * sign, l.second.dy as i32 * sign);
                    let Some(to) = topology.step(mid, ex, ey, 1) else {
                        continue;
                    };
                    let slot = match l.second.mode {
                        Mode::Both => 0,
                        Mode::MoveOnly => 1,
                        Mode::CaptureOnly => 2,
                    };
                    by_mid
                        .entry((mid.index() as u16, l.first.mode))
                        .or_insert([B::EMPTY; 3])[slot] |= B::from_square(to);
                    mobile[cr] |= B::from_square(sq);
                }
                let start = hops.len() as u32;
                for ((mid, first), second) in by_mid {
                    hops.push(Hop {
                        mid: crate::board::Square::new(mid),
                        first,
                        second,
                    });
                }
                hop_index.push((start, hops.len() as u32));
            }
        }
    }

    let rider_lines = Lines::new(topology, &directions, |dx, dy| {
        ray_ids[&(dx, dy, 0, false)] * n as u32
    });

    let mut rng = SplitMix(0x6b6f_6d61_2d7a_6f62);
    let z_board = (0..nroles * 2 * n).map(|_| rng.next()).collect();
    let z_hand = (0..nroles * 2).map(|_| rng.next()).collect();
    let z_turn = rng.next();
    let z_strike = (0..n).map(|_| rng.next()).collect();
    let files = (0..topology.cols)
        .map(|f| {
            topology
                .file_squares(f)
                .fold(B::EMPTY, |b, sq| b | B::from_square(sq))
        })
        .collect();

    Rules {
        slug: variant.slug.clone(),
        title: variant.title.clone(),
        topology,
        roles,
        start: Setup::default(),
        cell_size: None,
        kif_handicap: None,
        pgn_variant: None,
        eval: Default::default(),
        drops: true,
        promotion: PromotionRule::Optional,
        immobile_drops: false,
        immobile_moves: false,
        promotes_where_immobile: true,
        drop_promoted: false,
        check: true,
        check_wins: false,
        start_royals: [0; 2],
        has_tries: false,
        has_two_legs: false,
        has_hoppers: false,
        lenders: Vec::new(),
        by_trial: false,
        last_rank: [B::EMPTY; 2],
        repetition: Repetition {
            count: 4,
            perpetual_check_loses: true,
            result: RepetitionResult::Draw,
            counterstrike_distinguishes: true,
        },
        trade: None,
        bare_royal: None,
        declaration: None,
        all,
        holes: topology
            .holes()
            .fold(B::EMPTY, |b, s| b | B::from_square(s)),
        zone: [B::EMPTY; 2],
        files,
        leaps: leap_both
            .iter()
            .zip(&leap_move)
            .zip(&leap_capture)
            .map(|((&b, &m), &c)| [b, m, c])
            .collect(),
        rides,
        hoppers,
        hop_sources,
        hop_index,
        hops,
        rays,
        rider_lines,
        mobile,
        arrive: Vec::new(),
        zone_masks: Vec::new(),
        shifts: Vec::new(),
        xray: Vec::new(),
        lines: Vec::new(),
        near: Vec::new(),
        watch: Vec::new(),
        watch_index: Vec::new(),
        watch_lines: Vec::new(),
        shift_roles: [B::Roles::EMPTY; 2],
        hand_roles: B::Roles::EMPTY,
        rider_roles: B::Roles::EMPTY,
        promoting_roles: B::Roles::EMPTY,
        mode_leap_roles: B::Roles::EMPTY,
        two_sided_roles: B::Roles::EMPTY,
        squares: n,
        reach: Vec::new(),
        z_board,
        z_hand,
        z_turn,
        z_strike,
    }
}

/// A small deterministic generator for Zobrist keys (SplitMix64).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix;

    /// The Zobrist keys come from SplitMix64 as published (Steele, Lea and
    /// Flood 2014; Vigna's splitmix64.c): from the seed 1234567 its first
    /// three outputs are the reference values.
    #[test]
    fn zobrist_keys_come_from_splitmix64() {
        let mut r = SplitMix(1_234_567);
        assert_eq!(
            [r.next(), r.next(), r.next()],
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
    }
}
