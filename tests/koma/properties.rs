//! Properties over many positions of random games: the fast generator agrees
//! with a slow reference written for clarity, play/undo restores everything,
//! FEN and SFEN round-trip, and perft equals the sum of its divide.

use std::collections::BTreeSet;

use koma::board::{Bitboard, Color, Square};
use koma::dsl::{Mode, Step};
use koma::notation::{Notation, format_move};
use koma::position::{Move, Position};
use koma::rules::{PromotionRule, Role, Rules};
use koma::setup::Setup;
use koma::variant::schema::RulesSpec;
use koma::{variant, with_rules};

use crate::common::{Rng, game};

/// The naive reference: walks each step of each piece square by square and
/// reads the rules from the variant file, not from the compiled tables.
struct Reference {
    steps: Vec<Vec<Step>>,
    spec: RulesSpec,
}

impl Reference {
    fn new<B: Bitboard>(rules: &Rules<B>, slug: &str) -> Reference {
        let spec = variant::load(slug).expect("loads").engine.rules;
        let steps = rules
            .roles
            .iter()
            .map(|r| koma::dsl::steps(&r.betza).expect("compiles"))
            .collect();
        Reference { steps, spec }
    }

    fn walk<B: Bitboard>(
        &self,
        pos: &Position<B>,
        from: Square,
        color: Color,
        role: Role,
        capture_only: bool,
    ) -> Vec<Square> {
        let t = pos.rules().topology;
        let (f, r) = (t.file(from) as i32, t.rank(from) as i32);
        let mut out = Vec::new();
        for s in &self.steps[role.index()] {
            let sign = if color == Color::Sente { 1 } else { -1 };
            let (dx, dy) = (s.dx as i32 * sign, s.dy as i32 * sign);
            let mut k = 1;
            while let Some(to) = t.square(f + dx * k, r + dy * k) {
                if s.max != 0 && k > s.max as i32 {
                    break;
                }
                let occupant = pos.piece_at(to);
                let may_move = s.mode != Mode::CaptureOnly && !capture_only;
                let may_capture = s.mode != Mode::MoveOnly;
                match occupant {
                    None if may_move => out.push(to),
                    Some(p) if p.color != color && may_capture => out.push(to),
                    _ => {}
                }
                if occupant.is_some() {
                    break;
                }
                k += 1;
            }
        }
        out
    }

    fn can_move_from<B: Bitboard>(
        &self,
        rules: &Rules<B>,
        color: Color,
        role: Role,
        sq: Square,
    ) -> bool {
        let t = rules.topology;
        let sign = if color == Color::Sente { 1 } else { -1 };
        self.steps[role.index()].iter().any(|s| {
            t.square(
                t.file(sq) as i32 + s.dx as i32 * sign,
                t.rank(sq) as i32 + s.dy as i32 * sign,
            )
            .is_some()
        })
    }

    fn in_zone<B: Bitboard>(&self, rules: &Rules<B>, color: Color, sq: Square) -> bool {
        let t = rules.topology;
        let zone = self.spec.promotion_zone as u8;
        match color {
            Color::Sente => t.rank(sq) >= t.rows - zone,
            Color::Gote => t.rank(sq) < zone,
        }
    }

    fn attacked<B: Bitboard>(&self, pos: &Position<B>, sq: Square, by: Color) -> bool {
        pos.rules().topology.squares().any(|from| {
            pos.piece_at(from).is_some_and(|p| {
                p.color == by && self.walk(pos, from, by, p.role, true).contains(&sq)
            })
        })
    }

    fn royal_in_danger<B: Bitboard>(&self, pos: &Position<B>, color: Color) -> bool {
        let royals: Vec<Square> = pos.royals(color).squares().collect();
        self.spec.check && royals.len() == 1 && self.attacked(pos, royals[0], color.opposite())
    }

    /// The game ended with the last move: royals gone, or a safe arrival on the last rank.
    fn over<B: Bitboard>(&self, pos: &Position<B>) -> bool {
        let rules = pos.rules();
        let us = pos.turn();
        let t = rules.topology;
        if rules.roles.iter().any(|r| r.royal) && pos.royals(us).is_empty() {
            return true;
        }
        t.squares().any(|sq| {
            pos.piece_at(sq).is_some_and(|p| {
                let last = if p.color == Color::Sente {
                    t.rows - 1
                } else {
                    0
                };
                // Either side's piece, standing on its last rank unattacked.
                rules.role(p.role).wins_on_last_rank
                    && t.rank(sq) == last
                    && !self.attacked(pos, sq, p.color.opposite())
            })
        })
    }

    fn moves<B: Bitboard>(&self, pos: &Position<B>) -> Vec<Move> {
        if self.over(pos) {
            return Vec::new();
        }
        let rules = pos.rules();
        let us = pos.turn();
        let mut candidates = Vec::new();
        for from in rules.topology.squares() {
            let Some(p) = pos.piece_at(from).filter(|p| p.color == us) else {
                continue;
            };
            let info = rules.role(p.role);
            for to in self.walk(pos, from, us, p.role, false) {
                let (may_promote, must) = match self.spec.promotion {
                    PromotionRule::Flip => (info.other_side.is_some(), true),
                    rule => (
                        info.promotion.is_some()
                            && (self.in_zone(rules, us, from) || self.in_zone(rules, us, to)),
                        rule == PromotionRule::Mandatory
                            || !self.can_move_from(rules, us, p.role, to),
                    ),
                };
                if may_promote {
                    candidates.push(Move::Normal {
                        from,
                        to,
                        promote: true,
                    });
                }
                // Unpromoted, it must be able to move again from where it lands.
                let stays_mobile =
                    self.spec.immobile_drops || self.can_move_from(rules, us, p.role, to);
                if (!may_promote || !must) && stays_mobile {
                    candidates.push(Move::Normal {
                        from,
                        to,
                        promote: false,
                    });
                }
            }
        }
        for role in rules
            .all_roles()
            .filter(|&r| !rules.role(r).promoted && pos.hand(us, r) > 0)
        {
            let info = rules.role(role);
            let sides = match info.other_side {
                Some(other) if self.spec.drop_promoted => vec![role, other],
                _ => vec![role],
            };
            for side in sides {
                for to in rules
                    .topology
                    .squares()
                    .filter(|&s| pos.piece_at(s).is_none())
                {
                    if !self.spec.immobile_drops && !self.can_move_from(rules, us, side, to) {
                        continue;
                    }
                    if let Some(max) = rules.role(side).max_per_file {
                        let file = rules.topology.file(to);
                        let same = rules
                            .topology
                            .squares()
                            .filter(|&s| {
                                rules.topology.file(s) == file
                                    && pos
                                        .piece_at(s)
                                        .is_some_and(|p| p.color == us && p.role == side)
                            })
                            .count();
                        if same >= max as usize {
                            continue;
                        }
                    }
                    candidates.push(Move::Drop { role: side, to });
                }
            }
        }
        // With one royal (and the check rule), that royal must be safe after
        // the move, wherever it went; a second royal made by promotion does
        // not lift the duty (as Fairy-Stockfish plays sho shogi).
        let royals: Vec<Square> = pos.royals(us).squares().collect();
        let guarded = (self.spec.check && royals.len() == 1).then(|| royals[0]);
        candidates
            .into_iter()
            .filter(|&mv| {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                if let Some(royal) = guarded {
                    let now = match mv {
                        Move::Normal { from, to, .. } if from == royal => to,
                        _ => royal,
                    };
                    if self.attacked(&after, now, us.opposite()) {
                        return false;
                    }
                }
                let drop_mate =
                    matches!(mv, Move::Drop { role, .. } if rules.role(role).drop_mate_illegal);
                !(drop_mate
                    && self.royal_in_danger(&after, us.opposite())
                    && self.moves(&after).is_empty())
            })
            .collect()
    }
}

fn names<B: Bitboard>(pos: &Position<B>, moves: &[Move]) -> BTreeSet<String> {
    moves
        .iter()
        .map(|&m| format_move(pos, m, Notation::Usi))
        .collect()
}

/// Plays random games favouring captures and drops, checking every position.
fn check_games(slug: &str, games: usize, plies: usize, seed: u64) -> usize {
    let g = game(slug);
    with_rules!(&g, rules => {
        let reference = Reference::new(rules, slug);
        let mut rng = Rng(seed);
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = Position::start(rules);
            for _ in 0..plies {
                let legal = pos.legal_moves();
                let fen = pos.fen();
                assert_eq!(names(&pos, &legal), names(&pos, &reference.moves(&pos)), "{slug} {fen}: generator and reference differ");
                assert_eq!(legal.len(), names(&pos, &legal).len(), "{fen}: duplicate moves");
                assert_eq!(pos.in_check(), reference.royal_in_danger(&pos, pos.turn()), "{fen}: check status");

                let again = Position::new(rules, &Setup::parse_fen(&fen).expect("own FEN reads")).expect("own FEN is valid");
                assert_eq!(again.fen(), fen, "FEN round trip");
                assert_eq!(again.hash(), pos.hash(), "{fen}: hash after FEN round trip");
                let sfen = pos.sfen();
                let from_sfen = Position::new(rules, &Setup::parse_sfen(&sfen).expect("own SFEN reads")).expect("own SFEN is valid");
                assert_eq!(from_sfen.sfen(), sfen, "SFEN round trip");

                for &mv in &legal {
                    let hash = pos.hash();
                    pos.play(mv);
                    assert_eq!(pos.undo(), Some(mv));
                    assert_eq!(pos.fen(), fen, "undo of {mv:?}");
                    assert_eq!(pos.hash(), hash, "hash after undo of {mv:?}");
                }
                checked += 1;
                if legal.is_empty() {
                    break;
                }
                let captures: Vec<Move> = legal.iter().copied().filter(|m| matches!(m, Move::Normal { to, .. } if pos.piece_at(*to).is_some())).collect();
                let drops: Vec<Move> = legal.iter().copied().filter(|m| matches!(m, Move::Drop { .. })).collect();
                let mut generated = Vec::new();
                pos.generate_captures(&mut generated);
                assert_eq!(names(&pos, &generated), names(&pos, &captures), "{slug} {fen}: the capture generator and the legal captures differ");
                if !pos.in_check() {
                    let (hash, turn) = (pos.hash(), pos.turn());
                    pos.play_null();
                    assert_eq!(pos.turn(), turn.opposite(), "{fen}: turn after a null move");
                    assert_ne!(pos.hash(), hash, "{fen}: a null move changes the side to move's key");
                    assert!(!pos.in_check(), "{fen}: a null move from a legal position gives no check");
                    pos.undo_null();
                    assert_eq!(pos.fen(), fen, "{fen}: undo of a null move");
                    assert_eq!(pos.hash(), hash, "{fen}: hash after undo of a null move");
                }
                let mv = if !captures.is_empty() && rng.below(2) == 0 {
                    captures[rng.below(captures.len())]
                } else if !drops.is_empty() && rng.below(3) == 0 {
                    drops[rng.below(drops.len())]
                } else {
                    legal[rng.below(legal.len())]
                };
                pos.play(mv);
            }
        }
        checked
    })
}

#[test]
fn judkins_generator_matches_the_reference() {
    assert!(check_games("judkins-shogi", 40, 80, 0x9e3779b97f4a7c15) > 1000);
}

#[test]
fn every_variant_matches_the_reference() {
    for slug in variant::catalogue() {
        assert!(
            check_games(slug, 20, 60, 0x2545f4914f6cdd1d) > 100,
            "{slug}: too few positions"
        );
    }
}

#[test]
fn perft_equals_the_sum_of_its_divide() {
    let g = game("judkins-shogi");
    with_rules!(&g, rules => {
        let mut pos = Position::start(rules);
        for mv in ["2f5c", "5a2d", "5c4b+"] {
            let m = pos.parse_move(mv).expect("legal");
            pos.play(m);
        }
        let total = pos.perft(3);
        let mut sum = 0;
        for mv in pos.legal_moves() {
            pos.play(mv);
            sum += pos.perft(2);
            pos.undo();
        }
        assert_eq!(sum, total);
    });
}

#[test]
fn move_fits_in_four_bytes() {
    assert!(
        std::mem::size_of::<Move>() <= 4,
        "Move is {} bytes",
        std::mem::size_of::<Move>()
    );
}
