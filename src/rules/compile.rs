//! From the typed `engine:` section to [`Rules`]: every check collected,
//! every movement compiled to tables once.

use std::collections::HashMap;

use thiserror::Error;

use super::{MAX_ROLES, PromotionRule, Repetition, RepetitionResult, Ride, Role, RoleInfo, Rules};
use crate::board::{Bitboard, Color, MAX_SIDE, MAX_SQUARES, Square, Topology};
use crate::dsl::{self, Mode, Step};
use crate::position::Setup;
use crate::variant::{Problem, Variant, schema};

/// Everything wrong with a variant's engine section, all at once.
#[derive(Debug, Error)]
#[error("{origin}: {}", problems.iter().map(|p| p.message.as_str()).collect::<Vec<_>>().join("; "))]
pub struct RulesError {
    /// The file.
    pub origin: String,
    /// Each problem, with the path of its key.
    pub problems: Vec<Problem>,
}

/// Each message below starts with the dotted path of the key it concerns.
fn located(origin: &str, messages: Vec<String>) -> RulesError {
    let problems = messages
        .into_iter()
        .map(|m| {
            let path = m
                .split(':')
                .next()
                .filter(|p| p.starts_with("engine"))
                .unwrap_or("engine")
                .to_string();
            Problem::value(&path, m)
        })
        .collect();
    RulesError {
        origin: origin.to_string(),
        problems,
    }
}

/// Compiles a loaded variant for a bitboard width that must hold its board.
pub fn compile<B: Bitboard>(variant: &Variant) -> Result<Rules<B>, RulesError> {
    let spec = &variant.engine;
    let mut problems = Vec::new();
    let t = &spec.topology;
    if t.kind != "grid" {
        problems.push(format!(
            "engine.topology.type: '{}' is not known (only 'grid')",
            t.kind
        ));
    }
    let side = 1..=MAX_SIDE as u32;
    if !side.contains(&t.rows) || !side.contains(&t.cols) {
        problems.push(format!(
            "engine.topology: {}×{} is out of range (1 to {MAX_SIDE} ranks and files)",
            t.rows, t.cols
        ));
    } else if (t.rows * t.cols) as usize > MAX_SQUARES {
        problems.push(format!(
            "engine.topology: {}×{} = {} squares, more than the {MAX_SQUARES} koma supports",
            t.rows,
            t.cols,
            t.rows * t.cols,
        ));
    } else if (t.rows * t.cols) as usize > B::CAPACITY {
        // Only a caller choosing the width itself gets here (`Game` does not).
        problems.push(format!(
            "engine.topology: {}×{} = {} squares, more than the {} of this bitboard width",
            t.rows,
            t.cols,
            t.rows * t.cols,
            B::CAPACITY
        ));
    }
    if !problems.is_empty() {
        return Err(located(&variant.origin, problems));
    }
    let topology = Topology {
        rows: t.rows as u8,
        cols: t.cols as u8,
    };
    let rules_spec = &spec.rules;
    if rules_spec.promotion_zone > t.rows {
        problems.push(format!(
            "engine.rules.promotion_zone: {} ranks is deeper than the board's {}",
            rules_spec.promotion_zone, t.rows
        ));
    }
    if rules_spec.repetition.count < 2 {
        problems.push("engine.rules.repetition.count: must be at least 2".into());
    }

    let pieces = match schema::pieces(&spec.pieces) {
        Ok(p) => p,
        Err(e) => {
            problems.push(e);
            Vec::new()
        }
    };
    if pieces.is_empty() && problems.is_empty() {
        problems.push("engine.pieces: no piece is declared".into());
    }

    // Roles: each declared piece, followed by its promoted side.
    let mut roles: Vec<RoleInfo> = Vec::new();
    let mut steps: Vec<Vec<Step>> = Vec::new();
    let mut letters: HashMap<char, String> = HashMap::new();
    for (name, p) in &pieces {
        let mut chars = p.letter.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
            _ => {
                problems.push(format!(
                    "engine.pieces.{name}.letter: '{}' must be one ASCII letter",
                    p.letter
                ));
                continue;
            }
        };
        if let Some(other) = letters.insert(letter, name.clone()) {
            problems.push(format!(
                "engine.pieces.{name}.letter: '{letter}' is already the letter of {other}"
            ));
        }
        let base = Role(roles.len() as u8);
        let base_steps = compile_betza(&mut problems, name, &p.betza);
        let mut info = RoleInfo {
            name: name.clone(),
            letter,
            promoted: false,
            promotion: None,
            base,
            other_side: None,
            wins_on_last_rank: p.wins_on_last_rank,
            royal: p.royal,
            max_per_file: p.max_per_file.map(|m| m.min(255) as u8),
            drop_mate_illegal: p.drop_mate_illegal,
            kanji: p.kanji.clone(),
            betza: p.betza.clone(),
            value: p.value.unwrap_or(100),
            hand_value: p.hand_value.unwrap_or(p.value.unwrap_or(100) * 115 / 100),
            rides: base_steps.iter().any(|s| s.max != 1),
        };
        if p.max_per_file == Some(0) {
            problems.push(format!(
                "engine.pieces.{name}.max_per_file: 0 would forbid the piece; omit it for no limit"
            ));
        }
        match &p.promotion {
            None => {
                roles.push(info);
                steps.push(base_steps);
            }
            Some(pr) => {
                let promoted_steps =
                    compile_betza(&mut problems, &format!("{name}.promotion"), &pr.betza);
                info.promotion = Some(Role(base.0 + 1));
                info.other_side = Some(Role(base.0 + 1));
                roles.push(info);
                steps.push(base_steps);
                roles.push(RoleInfo {
                    name: pr.name.clone(),
                    letter,
                    promoted: true,
                    promotion: None,
                    base,
                    other_side: Some(base),
                    wins_on_last_rank: p.wins_on_last_rank,
                    royal: pr.royal,
                    max_per_file: None,
                    drop_mate_illegal: false,
                    kanji: pr.kanji.clone(),
                    betza: pr.betza.clone(),
                    value: pr.value.unwrap_or(100),
                    hand_value: 0,
                    rides: promoted_steps.iter().any(|s| s.max != 1),
                });
                steps.push(promoted_steps);
            }
        }
    }
    if roles.len() > MAX_ROLES {
        problems.push(format!(
            "engine.pieces: {} piece kinds (promoted included), more than {MAX_ROLES}",
            roles.len()
        ));
    }

    let start = match Setup::parse(&spec.setup) {
        Ok(s) => Some(s),
        Err(e) => {
            problems.push(format!("engine.setup: '{}': {e}", spec.setup));
            None
        }
    };
    if !problems.is_empty() {
        return Err(located(&variant.origin, problems));
    }
    let mut rules = tables::<B>(variant, topology, roles, &steps);
    rules.start = start.unwrap_or_default();
    rules.drops = rules_spec.drops;
    rules.cell_size = spec.render.as_ref().and_then(|r| r.cell_size);
    rules.promotion = rules_spec.promotion;
    rules.immobile_drops = rules_spec.immobile_drops;
    rules.drop_promoted = rules_spec.drop_promoted;
    rules.check = rules_spec.check;
    rules.has_tries = rules.roles.iter().any(|r| r.wins_on_last_rank);
    for row in rules.start.ranks.iter() {
        for p in row.iter().flatten() {
            if rules.role_by_letter(p.letter, p.promoted).is_some_and(|r| {
                let info = rules.role(r);
                info.royal || info.promotion.is_some_and(|q| rules.role(q).royal)
            }) {
                rules.start_royals[p.color.index()] += 1;
            }
        }
    }
    // The start itself: each side needs its royal piece, exactly one where
    // the check rule guards it (a second may only come by promotion).
    if rules.roles.iter().any(|r| r.royal) {
        for color in Color::ALL {
            let royals = rules
                .start
                .ranks
                .iter()
                .flatten()
                .flatten()
                .filter(|p| {
                    p.color == color
                        && rules
                            .role_by_letter(p.letter, p.promoted)
                            .is_some_and(|r| rules.role(r).royal)
                })
                .count();
            let need_one = rules.check;
            if royals == 0 || (need_one && royals > 1) {
                return Err(located(
                    &variant.origin,
                    vec![format!(
                        "engine.setup: {} has {royals} royal pieces; the rules need {}",
                        color.name(),
                        if need_one {
                            "exactly one"
                        } else {
                            "at least one"
                        }
                    )],
                ));
            }
        }
    }
    rules.repetition = Repetition {
        count: rules_spec.repetition.count,
        perpetual_check_loses: rules_spec.repetition.perpetual_check_loses,
        result: rules_spec.repetition.result,
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
    if let Err(e) = crate::position::Position::new(&rules, &rules.start) {
        return Err(located(
            &variant.origin,
            vec![format!("engine.setup: '{}': {e}", spec.setup)],
        ));
    }
    Ok(rules)
}

fn compile_betza(problems: &mut Vec<String>, what: &str, text: &str) -> Vec<Step> {
    match dsl::steps(text) {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                problems.push(format!("engine.pieces.{what}.betza: '{text}': {e}"));
            }
            Vec::new()
        }
    }
}

fn orient(color: Color, s: &Step) -> (i32, i32) {
    match color {
        Color::Sente => (s.dx as i32, s.dy as i32),
        Color::Gote => (-s.dx as i32, -s.dy as i32),
    }
}

/// Builds every table for the given roles and their compiled steps.
fn tables<B: Bitboard>(
    variant: &Variant,
    topology: Topology,
    roles: Vec<RoleInfo>,
    steps: &[Vec<Step>],
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
    let mut ray_ids: HashMap<(i32, i32, u8), u32> = HashMap::new();
    let mut directions: Vec<(i32, i32)> = Vec::new();

    let mut ray_table = |dx: i32, dy: i32, max: u8, rays: &mut Vec<B>| -> u32 {
        *ray_ids.entry((dx, dy, max)).or_insert_with(|| {
            let id = (rays.len() / n) as u32;
            for sq in topology.squares() {
                let (f, r) = (topology.file(sq) as i32, topology.rank(sq) as i32);
                let mut b = B::EMPTY;
                let mut k = 1;
                while let Some(to) = topology.square(f + dx * k, r + dy * k) {
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
        for (role, role_steps) in steps.iter().enumerate() {
            let cr = color.index() * nroles + role;
            for s in role_steps {
                let (dx, dy) = orient(color, s);
                if s.max == 1 {
                    for sq in topology.squares() {
                        let (f, r) = (topology.file(sq) as i32, topology.rank(sq) as i32);
                        if let Some(to) = topology.square(f + dx, r + dy) {
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
                    let ray = ray_table(dx, dy, s.max, &mut rays);
                    let full = ray_table(dx, dy, 0, &mut rays);
                    if !directions.contains(&(dx, dy)) {
                        directions.push((dx, dy));
                    }
                    let positive = dy * topology.cols as i32 + dx > 0;
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

    let mut between = vec![B::EMPTY; n * n];
    for a in topology.squares() {
        for &(dx, dy) in &directions {
            let (f, r) = (topology.file(a) as i32, topology.rank(a) as i32);
            let mut path = B::EMPTY;
            let mut k = 1;
            while let Some(b) = topology.square(f + dx * k, r + dy * k) {
                between[a.index() * n + b.index()] = path;
                path |= B::from_square(b);
                k += 1;
            }
        }
    }

    let mut rng = SplitMix(0x6b6f_6d61_2d7a_6f62);
    let z_board = (0..nroles * 2 * n).map(|_| rng.next()).collect();
    let z_hand = (0..nroles * 2).map(|_| rng.next()).collect();
    let z_turn = rng.next();
    let files = (0..topology.cols)
        .map(|f| {
            (0..topology.rows).fold(B::EMPTY, |b, r| {
                b | B::from_square(Square::new(r * topology.cols + f))
            })
        })
        .collect();

    Rules {
        slug: variant.slug.clone(),
        title: variant.title.clone(),
        topology,
        roles,
        start: Setup::default(),
        cell_size: None,
        drops: true,
        promotion: PromotionRule::Optional,
        immobile_drops: false,
        drop_promoted: false,
        check: true,
        start_royals: [0; 2],
        has_tries: false,
        last_rank: [B::EMPTY; 2],
        repetition: Repetition {
            count: 4,
            perpetual_check_loses: true,
            result: RepetitionResult::Draw,
        },
        all,
        zone: [B::EMPTY; 2],
        files,
        leap_both,
        leap_move,
        leap_capture,
        rides,
        rays,
        between,
        mobile,
        z_board,
        z_hand,
        z_turn,
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
