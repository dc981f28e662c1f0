//! How games end: repetition, perpetual check, checkmate, the engine's mates.

use std::sync::atomic::AtomicBool;

use koma::board::Color;
use koma::engine::{Engine, Limits};
use koma::notation::{Notation, format_move};
use koma::position::{AnyPosition, Outcome, Position, Reason};
use koma::setup::Setup;
use koma::with_rules;

use crate::common::{Narrow, game, narrow_rules, position_at};

fn play(pos: &mut Position<Narrow>, moves: &[&str]) {
    for m in moves {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{e}"));
        pos.play(mv);
    }
}

fn judkins(fen: Option<&str>, f: impl FnOnce(Position<Narrow>)) {
    let g = game("judkins-shogi");
    let rules = narrow_rules(&g);
    let setup = fen.map_or_else(
        || rules.start.clone(),
        |f| Setup::parse_fen(f).expect("FEN"),
    );
    f(Position::new(&rules, &setup).expect("valid"));
}

#[test]
fn the_fourth_repetition_is_a_draw() {
    judkins(None, |mut pos| {
        let shuffle = ["5f5e", "2a2b", "5e5f", "2b2a"];
        for round in 1..=3 {
            assert_eq!(pos.outcome(), None, "round {round}");
            play(&mut pos, &shuffle);
        }
        assert_eq!(pos.repetitions(), 4);
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Draw {
                reason: Reason::Repetition
            })
        );
    });
}

/// From Judkins' `k5/6/6/6/6/1R3K` with sente to move: `before`, then
/// sente's rook checks gote's king round `cycle` three times; the fourth
/// time the position stands, sente has lost by perpetual check.
fn perpetual_check(before: &[&str], cycle: [&str; 4]) {
    judkins(Some("k5/6/6/6/6/1R3K[] w - - 0 1"), |mut pos| {
        play(&mut pos, before);
        for _ in 0..3 {
            assert_eq!(pos.outcome(), None);
            play(&mut pos, &cycle);
        }
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Win {
                winner: Color::Gote,
                reason: Reason::PerpetualCheck
            })
        );
    });
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    perpetual_check(&[], ["5f6f", "6a5a", "6f5f", "5a6a"]);
}

#[test]
fn perpetual_check_counts_the_moves_from_the_first_occurrence_on() {
    // Two quiet king moves, then the rook checks on and on: the cycle
    // starts where its position first stood, after the quiet moves, so it
    // is perpetual check.
    perpetual_check(&["1f1e", "6a6b"], ["5f6f", "6b5b", "6f5f", "5b6b"]);
}

#[test]
fn checkmate_and_no_legal_move_lose() {
    judkins(Some("k5/2G3/1P4/6/6/5K[] w - - 0 1"), |mut pos| {
        play(&mut pos, &["4b5b"]);
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Win {
                winner: Color::Sente,
                reason: Reason::Checkmate
            })
        );
    });
}

fn best(pos: &mut Position<Narrow>, depth: u32) -> (String, Option<i32>) {
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let (m, info) = engine.think(
        pos,
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        &stop,
        |_| {},
    );
    let m = m.expect("a move");
    (
        format_move(pos, m, Notation::Usi),
        info.and_then(|i| i.mate_in()),
    )
}

#[test]
fn the_engine_finds_mate_in_one() {
    judkins(Some("k5/2G3/1P4/6/6/5K[] w - - 0 1"), |mut pos| {
        // Two moves mate here: 4b5b and 5c5b+.
        let (m, mate) = best(&mut pos, 4);
        assert_eq!(mate, Some(1));
        play(&mut pos, &[&m]);
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Win {
                winner: Color::Sente,
                reason: Reason::Checkmate
            })
        );
    });
}

/// Whether the engine, moving for the side to move, mates within `moves`
/// of its moves against every defence.
fn mates_against_every_defence(pos: &mut Position<Narrow>, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    let (text, _) = best(pos, 2 * moves + 1);
    let mv = pos.parse_move(&text).expect("the engine plays legal moves");
    pos.play(mv);
    let replies = pos.legal_moves();
    let ok = if replies.is_empty() {
        pos.in_check()
    } else {
        replies.iter().all(|&r| {
            pos.play(r);
            let ok = mates_against_every_defence(pos, moves - 1);
            pos.undo();
            ok
        })
    };
    pos.undo();
    ok
}

#[test]
fn the_engine_finds_mate_in_three() {
    // A position of a random game (tests/oracle/judkins-shogi.tsv) where
    // sente mates in three.
    judkins(Some(MATE_IN_THREE), |mut pos| {
        let (_, mate) = best(&mut pos, 7);
        assert_eq!(mate, Some(3));
        assert!(
            mates_against_every_defence(&mut pos, 3),
            "the engine's moves must mate against every defence"
        );
    });
}

const MATE_IN_THREE: &str = "6/3k1+b/P1Rs2/K5/1N1G2/Nb1S2[GPR] w - - 0 16";

/// In minishogi a repetition loses for sente (`repetition.result: sente_loses`):
/// a sente that is behind must not walk back into a position seen before,
/// although a draw would suit it. Found by a cutechess-cli match
/// (tests/gui/results.txt), where koma repeated at 0.00 and lost.
#[test]
fn the_engine_avoids_a_repetition_that_loses() {
    let g = game("minishogi");
    let rules = narrow_rules(&g);
    // Gote has a gold in hand; sente has only its king.
    let setup = Setup::parse_fen("k4/5/5/5/4K[g] w - - 0 1").expect("FEN");
    let mut pos = Position::new(&rules, &setup).expect("valid");
    play(&mut pos, &["1e2e", "5a4a", "2e1e", "4a5a"]);
    assert_eq!(pos.repetitions(), 2);
    for depth in 1..=4 {
        let (m, _) = best(&mut pos, depth);
        assert_ne!(m, "1e2e", "depth {depth}: 1e2e repeats, and sente loses");
    }
}

#[test]
fn the_engine_respects_its_time() {
    let g = game("shogi");
    with_rules!(&g, rules => {
        let mut pos = Position::start(rules);
        let mut engine = Engine::new(8);
        let stop = AtomicBool::new(false);
        let start = std::time::Instant::now();
        let (m, _) = engine.think(&mut pos, Limits { time: Some(std::time::Duration::from_millis(200)), ..Limits::default() }, &stop, |_| {});
        assert!(m.is_some());
        assert!(start.elapsed() < std::time::Duration::from_millis(1500), "took {:?}", start.elapsed());
    });
}

/// A check shogi position from an SFEN (koma's file `check-shogi`, where
/// `check_wins` is set), or shogi's for comparison.
fn sfen_position(slug: &str, sfen: &str) -> AnyPosition {
    position_at(&game(slug), sfen)
}

fn usi(pos: &AnyPosition) -> Vec<String> {
    let mut list: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| pos.format_move(m, Notation::Usi))
        .collect();
    list.sort();
    list
}

#[test]
fn giving_check_wins_and_ends_the_game() {
    let mut pos = sfen_position("check-shogi", "4k4/9/9/9/9/9/9/9/4K3R b - 1");
    assert_eq!(pos.outcome(), None);
    let mv = pos.parse_move("1i1a").expect("legal");
    pos.try_play(mv).expect("legal");
    let win = Outcome::Win {
        winner: Color::Sente,
        reason: Reason::Check,
    };
    assert_eq!(pos.outcome(), Some(win.clone()));
    assert_eq!(win.to_string(), "sente wins by check");
    assert!(pos.in_check());
    assert!(pos.legal_moves().is_empty(), "no move after the end");
    assert!(!pos.has_legal_move());
    // The king's capture of the rook answers the check in shogi, not here.
    assert!(pos.parse_move("5a4a").is_err());
    // The same move in shogi only checks.
    let mut shogi = sfen_position("shogi", "4k4/9/9/9/9/9/9/9/4K3R b - 1");
    let mv = shogi.parse_move("1i1a").expect("legal");
    shogi.try_play(mv).expect("legal");
    assert_eq!(shogi.outcome(), None);
    assert!(!shogi.legal_moves().is_empty());
}

#[test]
fn a_position_given_in_check_is_lost_for_the_side_to_move() {
    // Sente's king is attacked by the rook on its rank.
    let pos = sfen_position("check-shogi", "4k4/9/9/9/9/9/9/9/4K3r b - 1");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::Gote,
            reason: Reason::Check
        })
    );
    assert!(pos.legal_moves().is_empty());
    let shogi = sfen_position("shogi", "4k4/9/9/9/9/9/9/9/4K3r b - 1");
    assert_eq!(shogi.outcome(), None);
}

#[test]
fn a_pawn_drop_check_wins_unless_it_would_mate() {
    // The king on 1a can take a pawn dropped on 1b: the drop is legal, and
    // its check wins.
    let mut pos = sfen_position("check-shogi", "7nk/9/9/9/9/9/9/9/4K4 b P 1");
    assert!(usi(&pos).contains(&"P*1b".to_string()));
    let mv = pos.parse_move("P*1b").expect("legal");
    pos.try_play(mv).expect("legal");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::Sente,
            reason: Reason::Check
        })
    );
    // With the gold on 2c guarding 1b and 2b (the knight blocks 2a), the
    // same drop would mate: it is illegal, as in shogi; the gold's check on
    // 2b wins instead.
    let pos = sfen_position("check-shogi", "7nk/9/7G1/9/9/9/9/9/4K4 b P 1");
    let moves = usi(&pos);
    assert!(!moves.contains(&"P*1b".to_string()), "{moves:?}");
    assert!(moves.contains(&"2c2b".to_string()));
    let shogi = sfen_position("shogi", "7nk/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert!(!usi(&shogi).contains(&"P*1b".to_string()));
}

#[test]
fn without_the_check_rule_capturing_the_king_in_two_legs_wins() {
    let path = crate::common::variant_path("tests/legs/lion-7x7-entering.md");
    let g = game(&path);
    with_rules!(&g, rules => {
        let fen = "3k3/3Np2/7/7/7/7/3K3 w - 1";
        for (mv, lion) in [("4b4a4b", "4b"), ("4b3b4a", "4a"), ("4b4a", "4a")] {
            let mut pos = Position::new(rules, &Setup::parse_fen(fen).expect("FEN")).expect("valid");
            assert_eq!(pos.outcome(), None);
            let m = pos.parse_move(mv).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(format_move(&pos, m, Notation::Usi), mv);
            pos.play(m);
            assert_eq!(
                pos.outcome(),
                Some(Outcome::Win { winner: Color::Sente, reason: Reason::RoyalCaptured }),
                "after {mv}"
            );
            assert!(pos.legal_moves().is_empty(), "after {mv}");
            let t = pos.rules().topology;
            let at = pos.rules().topology.squares().find(|&s| t.usi_name(s) == lion).expect("square");
            assert!(pos.piece_at(at).is_some(), "{mv}: the lion stands on {lion}");
        }
    });
}

#[test]
fn without_the_check_rule_the_engine_sees_taking_the_king_as_a_win() {
    // The search ends a line where the game ends, also by a king taken: a
    // mate in one, played.
    let path = crate::common::variant_path("tests/legs/lion-7x7-entering.md");
    let rules = narrow_rules(&game(&path));
    let setup = Setup::parse_fen("3k3/3Np2/7/7/7/7/3K3 w - 1").expect("FEN");
    let mut pos = Position::new(&rules, &setup).expect("valid");
    let (m, mate) = best(&mut pos, 3);
    assert_eq!(mate, Some(1), "{m}");
    play(&mut pos, &[&m]);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::Sente,
            reason: Reason::RoyalCaptured
        })
    );
}

#[test]
fn without_the_check_rule_a_side_loses_when_neither_its_king_nor_its_prince_is_left() {
    let path = crate::common::variant_path("tests/legs/prince-7x7.md");
    let g = game(&path);
    with_rules!(&g, rules => {
        // Gote's lion next to sente's king; sente's prince (a promoted silver) on 7g.
        let fen = "3k3/7/7/7/7/3n3/+S2K3 b - 1";
        let mut pos = Position::new(rules, &Setup::parse_fen(fen).expect("FEN")).expect("valid");
        let step = |pos: &mut Position<_>, mv: &str| {
            let m = pos.parse_move(mv).unwrap_or_else(|e| panic!("{e}"));
            pos.play(m);
        };
        step(&mut pos, "4f4g");
        assert_eq!(pos.outcome(), None, "the prince is left");
        assert!(!pos.legal_moves().is_empty());
        step(&mut pos, "7g6g");
        assert_eq!(pos.outcome(), None);
        step(&mut pos, "4g6g");
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Win { winner: Color::Gote, reason: Reason::RoyalCaptured })
        );
    });
}

/// Chu shogi after a lion on b11 was taken by a non-lion (`c10b11`): the
/// counterstrike limit remembers b11 for sente's next move. Two moves each
/// later (`c8g8 d12e11 g8c8 e11d12`) the board and the side to move are as
/// they were, but without the limit. lishogi's reading (chu-shogi.md)
/// counts that as a new position; HaChu's (`counterstrike_distinguishes:
/// false`, tests/diff/variants/chu-shogi-hachu.md) as a repetition, which
/// gote made and so loses. The moves are a random game of
/// tests/diff/hachu.py (seed 3, game 18), where HaChu refused `e11d12`.
#[test]
fn the_counterstrike_square_makes_a_new_position_unless_a_key_says_not() {
    let moves = "c1d2 c12d11 b4b5 i10i11 c4c5 k9k8 b3b4 b12b11 d3c4 h9h8 f3e5 h10h9 e5c7 \
                 g10f8 g4g5 j9j8 j1i2 f8f7 c7b7 f7e5 b7a8 b9b8 a8c8 e5d6 c8d8c7 j8j7 c7b8c7 \
                 h9g8 e3d3 d6d5c6 c4g8 c9c8 c7c9 f10h10 d3c4 e11f10 c2b3 c6c5c4 c3c4 a9a8 \
                 c9c10d11 h11g10 d11d10c10 i11h11 c10b10b9 a10a9 g8g9+ c11b12 b9a9b9 b11c10 \
                 c4c6 g11g9 b9c11 h10i10 b3c4 k10k9 c6c8 i10h9 c11b11 c10b11 c8g8 d12e11 \
                 g8c8 e11d12";
    let after = |file: &str| {
        let mut pos = AnyPosition::start(&game(&crate::common::variant_path(file)));
        for m in moves.split_whitespace() {
            assert_eq!(pos.outcome(), None, "{file}: the game goes on before {m}");
            let mv = pos
                .parse_move(m)
                .unwrap_or_else(|e| panic!("{file} {m}: {e}"));
            pos.try_play(mv)
                .unwrap_or_else(|e| panic!("{file} {m}: {e}"));
        }
        (pos.repetitions(), pos.outcome())
    };
    assert_eq!(after("variants/chu-shogi.md"), (1, None));
    assert_eq!(
        after("tests/diff/variants/chu-shogi-hachu.md"),
        (
            2,
            Some(Outcome::Win {
                winner: Color::Sente,
                reason: Reason::Repetition
            })
        )
    );
}
