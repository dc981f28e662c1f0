//! What the compiled rules decide besides the moves: whether a board fits a
//! bitboard width, how many royal pieces a side may have, and the camp of
//! the impasse rule.

use koma::position::Position;
use koma::setup::Setup;
use koma::{rules, variant, with_rules};

use crate::common::game;

#[test]
fn a_bitboard_too_narrow_for_the_board_is_a_problem_at_the_topology() {
    let shogi = variant::load("shogi").expect("shogi loads");
    let e = rules::compile::<u64>(&shogi).expect_err("81 squares do not fit in 64");
    assert_eq!(e.problems.len(), 1);
    assert_eq!(e.problems[0].path, "engine.topology.cols");
    assert_eq!(
        e.problems[0].message,
        "engine.topology: 9×9 = 81 squares, more than the 64 of this bitboard width"
    );
    assert!(rules::compile::<u128>(&shogi).is_ok());
}

/// The FEN reader's verdict on a position of the variant: `Ok` or the message.
fn read(slug: &str, fen: &str) -> Result<(), String> {
    let g = game(slug);
    with_rules!(&g, rules => {
        let setup = Setup::parse_fen(fen).map_err(|e| e.to_string())?;
        Position::new(rules, &setup).map(|_| ()).map_err(|e| e.to_string())
    })
}

#[test]
fn a_rank_of_the_wrong_width_is_named_by_its_place_in_the_fen() {
    for (fen, says) in [
        (
            "4k3/9/9/9/9/9/9/9/4K4[] w - - 0 1",
            "rank 9 (the first written) has 8 files, the variant 9",
        ),
        (
            "4k4/8/9/9/9/9/9/9/4K4[] w - - 0 1",
            "rank 8 (the second written) has 8 files",
        ),
        (
            "4k4/9/8/9/9/9/9/9/4K4[] w - - 0 1",
            "rank 7 (the third written) has 8 files",
        ),
        (
            "4k4/9/9/9/10/9/9/9/4K4[] w - - 0 1",
            "rank 5 (the 5th written) has 10 files",
        ),
    ] {
        let e = read("shogi", fen).expect_err(fen);
        assert!(e.contains(says), "{fen}: {e}");
    }
}

#[test]
fn a_side_with_one_king_and_no_way_to_gain_one_keeps_exactly_one() {
    // Shogi: one king a side, no piece promotes to a royal one.
    assert_eq!(read("shogi", "4k4/9/9/9/9/9/9/9/4K4[] w - - 0 1"), Ok(()));
    let two = read("shogi", "4k4/9/9/9/9/9/9/9/K3K4[] w - - 0 1").expect_err("two kings");
    assert!(
        two.contains("sente has 2 royal pieces on the board; the rules need exactly one"),
        "{two}"
    );
    let in_hand = read("shogi", "4k4/9/9/9/9/9/9/9/4K4[k] w - - 0 1").expect_err("a king in hand");
    assert!(
        in_hand.contains("a royal piece ('K') cannot be in hand"),
        "{in_hand}"
    );
    // With a second royal a side can come to have (a pawn that promotes to
    // a prince), a king in hand is a position of the game.
    let prince = "tests/moves/variants/prince-drops.md";
    let prince = crate::common::variant_path(prince);
    assert_eq!(read(&prince, "4k/5/5/5/K4[Kp] w - - 0 1"), Ok(()));
}

/// Whether the side to move may declare a win (the impasse rule), from an SFEN.
fn may_declare(sfen: &str) -> bool {
    let g = game("shogi");
    with_rules!(&g, rules => {
        let setup = Setup::parse_sfen(sfen).expect("SFEN");
        Position::new(rules, &setup).expect("valid").may_declare()
    })
}

#[test]
fn the_impasse_camp_is_each_sides_far_three_ranks() {
    // Gote's king and ten pieces worth 18 points in sente's three ranks,
    // ten pawns in hand: 28 points, 27 needed.
    let gote = |king_row: usize| {
        let mut rows = ["9"; 9];
        rows[0] = "4K4";
        rows[king_row] = "4k4";
        rows[7] = "1r5b1";
        rows[8] = "+l+nsg1gs+n+l";
        format!("{} w 10p 1", rows.join("/"))
    };
    assert!(
        may_declare(&gote(6)),
        "king on the third rank from sente's side"
    );
    assert!(
        !may_declare(&gote(5)),
        "king on the fourth rank: out of the camp"
    );
    // Sente's, the same mirrored: 28 points, 28 needed.
    let sente = |king_row: usize| {
        let mut rows = ["9"; 9];
        rows[8] = "4k4";
        rows[king_row] = "4K4";
        rows[1] = "1R5B1";
        rows[0] = "+L+NSG1GS+N+L";
        format!("{} b 10P 1", rows.join("/"))
    };
    assert!(may_declare(&sente(2)), "king on gote's third rank");
    assert!(
        !may_declare(&sente(3)),
        "king on the fourth rank: out of the camp"
    );
}

#[test]
fn the_impasse_counts_pieces_in_the_camp_and_points_exactly() {
    // Sente's king on gote's third rank; the camp's pieces (first rank) and
    // pawns in hand: declared with ten pieces and 28 points, not with 27
    // points, nor with nine pieces however many points.
    let sente = |first: &str, pawns: u32| format!("{first}/1R5B1/4K4/9/9/9/9/9/4k4 b {pawns}P 1");
    assert!(
        may_declare(&sente("+L+NSG1GS+N+L", 10)),
        "10 pieces, 28 points"
    );
    assert!(!may_declare(&sente("+L+NSG1GS+N+L", 9)), "27 points");
    assert!(
        !may_declare(&sente("+L+NSG2S+N+L", 11)),
        "9 pieces, 28 points"
    );
}

#[test]
fn a_piece_whose_two_leg_moves_stay_on_its_file_is_limited_per_file() {
    // The pawn also goes two squares forward in two legs (`fmafW`): still
    // on its file, so a doubled file cannot be reached and is refused.
    let path = crate::common::variant_path("tests/modes/double-step-pawn.md");
    assert_eq!(read(&path, "4k/5/5/P4/K4[] w - - 0 1"), Ok(()));
    let doubled = read(&path, "4k/5/P4/P4/K4[] w - - 0 1").expect_err("doubled pawns");
    assert!(
        doubled.contains("sente has more than 1 unpromoted pawn on file 5"),
        "{doubled}"
    );
}

#[test]
fn a_side_may_hold_every_royal_piece_of_the_game_but_the_one_the_check_rule_keeps() {
    // Minishogi whose pawn promotes to a royal prince: two kings and two
    // pawns. Sente may come to have its king, its prince and gote's king
    // (captured while gote had a prince, dropped); gote keeps one royal
    // piece, as its last one may not be left attacked.
    let path = crate::common::variant_path("tests/moves/variants/prince-drops.md");
    assert_eq!(read(&path, "4k/5/5/5/K+P2+P[] w - - 0 1"), Ok(()));
    assert_eq!(read(&path, "4+p/5/5/5/KK1+P1[] w - - 0 1"), Ok(()));
    let four = read(&path, "5/5/5/5/KK+P1+P[] w - - 0 1").expect_err("gote's last royal taken");
    assert!(
        four.contains("sente has 4 royal pieces") && four.contains("at most 3"),
        "{four}"
    );
}

/// The FEN reader refuses two unpromoted pawns of a side on one file only
/// where no move can make them: `Ok` where some move changes a pawn's file.
fn doubled_pawns(path: &str, fen: &str) -> Result<(), String> {
    read(&crate::common::variant_path(path), fen)
}

#[test]
fn a_pawn_that_hops_or_steps_to_another_file_may_stand_doubled() {
    // Sideways hops as a cannon's (`fWspR`): the hop's file changes.
    let fen = "4k/5/P4/P4/K4[] w - - 0 1";
    assert_eq!(
        doubled_pawns("tests/modes/sideways-hopper-pawn.md", fen),
        Ok(())
    );
    // Forward, then any orthogonal step (`fWfmaW`): a second leg sideways.
    assert_eq!(doubled_pawns("tests/modes/sidestep-pawn.md", fen), Ok(()));
}

#[test]
fn pieces_that_borrow_only_moves_along_the_file_keep_the_per_file_limit() {
    // Every piece moves straight up or down; a piece moves as its friend
    // beside it: no move, its own or borrowed, changes a file.
    let path = "tests/borrow/beside-friend.md";
    assert_eq!(
        doubled_pawns(path, "1nkrl/2p2/5/2P2/LRKN1[] w - - 0 1"),
        Ok(())
    );
    let doubled = doubled_pawns(path, "1nkrl/2p2/5/2P2/LKPRN[] w - - 0 1").expect_err("doubled");
    assert!(
        doubled.contains("sente has more than 1 unpromoted pawn on file 3"),
        "{doubled}"
    );
}
