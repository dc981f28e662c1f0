//! Evaluation from the compiled rules, for every variant alike: material
//! (board and hand values from the variant file), mobility and pressure on
//! the opponent's camp from the move tables, promotion potential from the
//! zones and the promoted sides' values, king safety around a side's single
//! royal (attacks on its neighbourhood, its defenders, the opponent's pieces
//! in hand and the checks they could drop), pieces left hanging (attacked,
//! and guarded by no piece but a royal), and a tempo bonus. Nothing here
//! names a variant or a piece: each term reads the tables.

use std::marker::PhantomData;

use crate::board::{Bitboard, Color};
use crate::position::Position;
use crate::rules::{Role, Rules};

use super::Score;

/// The evaluation's weights: generic defaults that suit every variant, and
/// that a small `name = value` file can override ([`Params::parse`]).
///
/// Weights are in hundredths of the variant's *unit*, its smallest positive
/// value of a non-royal role (shogi's pawn: 100), so that one set of
/// defaults fits variants whose files count in other units; `promotion` is
/// a percentage of a promotion's gain in value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Per square a non-royal piece attacks that its own side does not hold.
    pub mobility: i32,
    /// Per square of its promotion zone (the opponent's camp) a piece attacks.
    pub camp_attack: i32,
    /// Percent of the gain in value of promoting that a promotable piece
    /// standing in its zone is worth; divided by one more than the ranks
    /// between it and the zone elsewhere.
    pub promotion: i32,
    /// King danger points per attack of an opponent's piece on a square of
    /// the royal's neighbourhood (the royal's own moves and its square).
    pub king_attack: i32,
    /// Danger per square of the neighbourhood the opponent attacks and no
    /// piece of the side but the royal guards.
    pub king_weak: i32,
    /// Danger taken off per own non-royal piece in the neighbourhood.
    pub king_defender: i32,
    /// Danger per piece in the opponent's hand.
    pub king_hand: i32,
    /// Danger per role in the opponent's hand that could be dropped to give
    /// check on a square the side does not guard.
    pub king_drop_check: i32,
    /// The penalty is danger² / `king_divisor` (in hundredths of the unit).
    pub king_divisor: i32,
    /// ... at most this.
    pub king_max: i32,
    /// Bonus of the side to move.
    pub tempo: i32,
    /// Percent of its `hand_value` that a piece in hand counts for.
    pub hand: i32,
    /// Per piece of the opponent's (not a royal) that the side attacks and
    /// no piece of the opponent's guards (a royal's guard is not counted).
    pub hanging: i32,
    /// What a draw the search scores (repetition or any other) costs the
    /// side to move at the root: such a draw is worth `-contempt` to it and
    /// `+contempt` to its opponent, so that it plays on where it is no
    /// worse. A search parameter, not a term of the evaluation (`koma tune`
    /// leaves it).
    pub contempt: i32,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            mobility: 3,
            camp_attack: 4,
            promotion: 10,
            king_attack: 6,
            king_weak: 8,
            king_defender: 6,
            king_hand: 5,
            king_drop_check: 12,
            king_divisor: 4,
            king_max: 1500,
            tempo: 15,
            hand: 100,
            hanging: 40,
            contempt: 20,
        }
    }
}

impl Params {
    /// The names of the weights, as [`Params::parse`] reads them.
    pub const NAMES: [&'static str; 14] = crate::variant::schema::EVAL_WEIGHTS;

    /// Of [`Params::NAMES`], those the search reads and the evaluation does
    /// not (not fitted by `koma tune`).
    pub const SEARCH_ONLY: [&'static str; 1] = ["contempt"];

    /// The weights a variant plays with: the defaults, with the weights its
    /// file gives (`engine.eval`) over them.
    pub fn for_rules<B: Bitboard>(rules: &Rules<B>) -> Params {
        let mut p = Params::default();
        let e = &rules.eval;
        let given = [
            (&mut p.mobility, e.mobility),
            (&mut p.camp_attack, e.camp_attack),
            (&mut p.promotion, e.promotion),
            (&mut p.king_attack, e.king_attack),
            (&mut p.king_weak, e.king_weak),
            (&mut p.king_defender, e.king_defender),
            (&mut p.king_hand, e.king_hand),
            (&mut p.king_drop_check, e.king_drop_check),
            (&mut p.king_divisor, e.king_divisor),
            (&mut p.king_max, e.king_max),
            (&mut p.tempo, e.tempo),
            (&mut p.hand, e.hand),
            (&mut p.hanging, e.hanging),
            (&mut p.contempt, e.contempt),
        ];
        for (field, value) in given {
            if let Some(v) = value {
                *field = v;
            }
        }
        p
    }

    /// Every weight as `name=value`, in [`Params::NAMES`]' order, on one line.
    pub fn describe(&self) -> String {
        let text: Vec<String> = Params::NAMES
            .iter()
            .map(|n| format!("{n}={}", self.get(n).unwrap_or(0)))
            .collect();
        text.join(" ")
    }

    /// The weight of this name.
    pub fn get(&self, name: &str) -> Option<i32> {
        self.clone().field(name).map(|f| *f)
    }

    /// Sets the weight of this name; false if there is none.
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        match self.field(name) {
            Some(f) => {
                *f = value;
                true
            }
            None => false,
        }
    }

    fn field(&mut self, name: &str) -> Option<&mut i32> {
        Some(match name {
            "mobility" => &mut self.mobility,
            "camp_attack" => &mut self.camp_attack,
            "promotion" => &mut self.promotion,
            "king_attack" => &mut self.king_attack,
            "king_weak" => &mut self.king_weak,
            "king_defender" => &mut self.king_defender,
            "king_hand" => &mut self.king_hand,
            "king_drop_check" => &mut self.king_drop_check,
            "king_divisor" => &mut self.king_divisor,
            "king_max" => &mut self.king_max,
            "tempo" => &mut self.tempo,
            "hand" => &mut self.hand,
            "hanging" => &mut self.hanging,
            "contempt" => &mut self.contempt,
            _ => return None,
        })
    }

    /// The defaults with the weights of `text` over them: one `name = value`
    /// per line, `#` comments and blank lines skipped. An unknown name or a
    /// value that is not an integer is refused with its line number.
    pub fn parse(text: &str) -> Result<Params, String> {
        let mut p = Params::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let Some((name, value)) = line.split_once('=') else {
                return Err(format!("line {}: expected 'name = value'", n + 1));
            };
            let (name, value) = (name.trim(), value.trim());
            let Ok(v) = value.parse::<i32>() else {
                return Err(format!("line {}: '{value}' is not an integer", n + 1));
            };
            match p.field(name) {
                Some(f) => *f = v,
                None => {
                    return Err(format!(
                        "line {}: unknown weight '{name}' (expected one of {})",
                        n + 1,
                        Params::NAMES.join(", ")
                    ));
                }
            }
        }
        if p.king_divisor <= 0 {
            return Err("king_divisor must be positive".to_string());
        }
        Ok(p)
    }
}

/// The evaluation of one set of rules: the weights in the rules' units and
/// the tables derived once from the rules (placement by colour, role and
/// square; values for exchanges).
pub(super) struct Evaluator<B> {
    /// The variant's unit (smallest positive value of a non-royal role).
    pub unit: Score,
    mobility: Score,
    camp_attack: Score,
    king_attack: Score,
    king_weak: Score,
    king_defender: Score,
    king_hand: Score,
    king_drop_check: Score,
    king_divisor: Score,
    king_max: Score,
    tempo: Score,
    hanging: Score,
    /// A draw's cost to the side to move at the root ([`Params::contempt`]).
    pub contempt: Score,
    /// Value of one piece of each role in hand.
    hand_value: Vec<Score>,
    /// Placement bonus by `(colour, role)` then square.
    placement: Vec<Score>,
    squares: usize,
    /// What capturing a piece of each role is worth to the captor: its
    /// value, plus its base's hand value where captures go to hand; a
    /// royal's, more than everything else on the board (so that an exchange
    /// never puts one where it can be taken).
    pub capture: Vec<Score>,
    /// The gain in value of promoting a piece of each role (0 if none).
    pub promotion_gain: Vec<Score>,
    /// Roles by increasing capture value, for an exchange's least valuable attacker.
    pub cheapest_first: Vec<Role>,
    _width: PhantomData<B>,
}

impl<B: Bitboard> Evaluator<B> {
    pub fn new(rules: &Rules<B>, params: &Params) -> Evaluator<B> {
        let unit = rules
            .roles
            .iter()
            .filter(|r| !r.royal && r.value > 0)
            .map(|r| r.value)
            .min()
            .unwrap_or(100)
            .max(1);
        let scale = |w: i32| (w as i64 * unit as i64 / 100) as Score;
        let t = rules.topology;
        let n = t.len();
        let roles = rules.role_count();
        let promotion_gain: Vec<Score> = rules
            .roles
            .iter()
            .map(|r| match r.promotion {
                Some(p) if !r.royal => (rules.role(p).value - r.value).max(0),
                _ => 0,
            })
            .collect();
        let mut placement = vec![0; 2 * roles * n];
        if !rules.promotion.turns_both_ways() {
            for color in Color::ALL {
                let zone_ranks: Vec<i32> = rules.zone[color.index()]
                    .squares()
                    .map(|s| t.rank(s) as i32)
                    .collect();
                if zone_ranks.is_empty() {
                    continue;
                }
                for role in rules.all_roles() {
                    let gain = promotion_gain[role.index()];
                    if gain == 0 {
                        continue;
                    }
                    for sq in t.squares() {
                        // Ranks between the square and the zone (0 inside).
                        let r = t.rank(sq) as i32;
                        let d = zone_ranks.iter().map(|&z| (z - r).abs()).min().unwrap_or(0);
                        placement[rules_cr(roles, color, role) * n + sq.index()] =
                            gain * params.promotion / 100 / (1 + d);
                    }
                }
            }
        }
        let most = rules.roles.iter().map(|r| r.value.abs()).sum::<Score>() + 1;
        let capture: Vec<Score> = rules
            .roles
            .iter()
            .map(|r| {
                if r.royal {
                    4 * most
                } else if rules.drops {
                    r.value + rules.role(r.base).hand_value
                } else {
                    r.value
                }
            })
            .collect();
        let mut cheapest_first: Vec<Role> = rules.all_roles().collect();
        cheapest_first.sort_by_key(|r| capture[r.index()]);
        Evaluator {
            unit,
            mobility: scale(params.mobility),
            camp_attack: scale(params.camp_attack),
            king_attack: params.king_attack,
            king_weak: params.king_weak,
            king_defender: params.king_defender,
            king_hand: params.king_hand,
            king_drop_check: params.king_drop_check,
            king_divisor: params.king_divisor.max(1),
            king_max: params.king_max,
            tempo: scale(params.tempo),
            hanging: scale(params.hanging),
            contempt: scale(params.contempt),
            hand_value: rules
                .roles
                .iter()
                .map(|r| (r.hand_value as i64 * params.hand as i64 / 100) as Score)
                .collect(),
            placement,
            squares: n,
            capture,
            promotion_gain,
            cheapest_first,
            _width: PhantomData,
        }
    }

    /// The score of the position from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position<B>) -> Score {
        let rules = pos.rules();
        let occ = pos.occupied();
        let empty = rules.all & !occ;
        let n = self.squares;
        let roles = rules.role_count();
        // The single royal of each side and its neighbourhood.
        let mut royal = [None; 2];
        let mut ring = [B::EMPTY; 2];
        for c in Color::ALL {
            if let Some(k) = pos.royal_square(c)
                && let Some(p) = pos.piece_at(k)
            {
                royal[c.index()] = Some((k, p.role));
                ring[c.index()] = rules.attacks(c, p.role, k, occ) | B::from_square(k);
            }
        }
        let mut score = [0 as Score; 2];
        let mut attacked = [B::EMPTY; 2];
        let mut ring_hits = [0 as Score; 2];
        let mut in_hand = [0 as Score; 2];
        for c in Color::ALL {
            let ci = c.index();
            let own = pos.color_pieces(c);
            let far = ring[c.opposite().index()];
            for role in rules.all_roles() {
                let info = rules.role(role);
                let h = pos.hand(c, role) as Score;
                if h > 0 {
                    score[ci] += h * self.hand_value[role.index()];
                    in_hand[ci] += h;
                }
                let bb = pos.pieces(c, role);
                if bb.is_empty() {
                    continue;
                }
                score[ci] += bb.count() as Score * info.value;
                if info.royal {
                    continue;
                }
                let cr = rules_cr(roles, c, role) * n;
                for sq in bb.squares() {
                    let a = rules.attacks(c, role, sq, occ);
                    score[ci] += self.placement[cr + sq.index()]
                        + (a & !own).count() as Score * self.mobility
                        + (a & rules.zone[ci]).count() as Score * self.camp_attack;
                    attacked[ci] |= a;
                    ring_hits[c.opposite().index()] += (a & far).count() as Score;
                }
            }
        }
        for c in Color::ALL {
            let Some((k, _)) = royal[c.index()] else {
                continue;
            };
            let (us, them) = (c.index(), c.opposite().index());
            let zone = ring[us];
            let defenders = (zone & pos.color_pieces(c) & !B::from_square(k)).count() as Score;
            let weak = (zone & attacked[them] & !attacked[us]).count() as Score;
            let mut danger = ring_hits[us] * self.king_attack + weak * self.king_weak
                - defenders * self.king_defender
                + in_hand[them] * self.king_hand;
            if in_hand[them] > 0 {
                // Drops that would check: from where a piece of the role
                // attacks the royal, i.e. the royal's squares seen with
                // the role's moves of this side's orientation.
                let unguarded = empty & !attacked[us] & (!zone | attacked[them]);
                for role in rules.all_roles() {
                    if pos.hand(c.opposite(), role) == 0 {
                        continue;
                    }
                    let mut from = rules.attacks(c, role, k, occ) & unguarded;
                    if !rules.immobile_drops {
                        from &= rules.mobile(c.opposite(), role);
                    }
                    if from.any() {
                        danger += self.king_drop_check;
                    }
                }
            }
            if danger > 0 {
                let penalty = (danger * danger / self.king_divisor).min(self.king_max);
                score[us] -= (penalty as i64 * self.unit as i64 / 100) as Score;
            }
        }
        // Each side's pieces (not royals) that the other side attacks and
        // no piece of their own guards: worth `hanging` each to the attacker.
        for c in Color::ALL {
            let (ci, ti) = (c.index(), c.opposite().index());
            let hanging = pos.color_pieces(c) & attacked[ti] & !attacked[ci] & !pos.royals(c);
            score[ti] += hanging.count() as Score * self.hanging;
        }
        let us = pos.turn().index();
        score[us] - score[1 - us] + self.tempo
    }
}

#[inline]
fn rules_cr(roles: usize, color: Color, role: Role) -> usize {
    color.index() * roles + role.index()
}

/// The evaluation of the position with the default weights, from the side
/// to move's point of view (builds the rules' tables on each call: for
/// tests and tools, not for a search).
pub fn evaluate<B: Bitboard>(pos: &Position<B>) -> Score {
    Evaluator::new(pos.rules(), &Params::default()).evaluate(pos)
}

/// [`evaluate`] with these weights.
pub fn evaluate_with<B: Bitboard>(pos: &Position<B>, params: &Params) -> Score {
    Evaluator::new(pos.rules(), params).evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::Params;

    #[test]
    fn parse_reads_weights_over_the_defaults() {
        let p = Params::parse("# tuned\nmobility = 7\n\n tempo=20 # more\n").expect("parses");
        assert_eq!(p.mobility, 7);
        assert_eq!(p.tempo, 20);
        assert_eq!(p.king_attack, Params::default().king_attack);
    }

    #[test]
    fn every_name_is_a_weight() {
        let mut p = Params::default();
        for (i, name) in Params::NAMES.iter().enumerate() {
            assert!(p.set(name, 1000 + i as i32), "{name}");
            assert_eq!(p.get(name), Some(1000 + i as i32), "{name}");
        }
        assert_eq!(p.get("nothing"), None);
        assert!(!p.set("nothing", 1));
    }

    #[test]
    fn parse_refuses_unknown_names_and_bad_values() {
        assert!(Params::parse("mobilty = 3").unwrap_err().contains("line 1"));
        assert!(Params::parse("\ntempo = x").unwrap_err().contains("line 2"));
        assert!(Params::parse("tempo").is_err());
        assert!(Params::parse("king_divisor = 0").is_err());
    }
}
