//! The capture limits of `rules.trade_limits` (chu shogi's lion-trading
//! rules) on the small test game `tests/legs/trade-7x7.md`: which captures
//! between marked pieces the generator leaves out, the square a counterstrike
//! remembers (make/undo, hash, SFEN), and why a banned move is refused.

use koma::position::AnyPosition;
use koma::setup::Setup;

use crate::common::{game, variant_path};

fn position(sfen: &str) -> AnyPosition {
    let g = game(&variant_path("tests/legs/trade-7x7.md"));
    let setup = Setup::parse_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    AnyPosition::new(&g, &setup).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn moves(pos: &AnyPosition) -> Vec<String> {
    pos.legal_moves()
        .into_iter()
        .map(|m| pos.format_move(m, koma::notation::Notation::Usi))
        .collect()
}

fn has(pos: &AnyPosition, mv: &str) -> bool {
    moves(pos).iter().any(|m| m == mv)
}

fn play(pos: &mut AnyPosition, mv: &str) {
    let m = pos.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    pos.try_play(m).unwrap_or_else(|e| panic!("{mv}: {e}"));
}

#[test]
fn a_lion_may_not_take_a_protected_lion_from_afar() {
    // Gote's lion on 4c, protected by the pawn on 4b; sente's lion two away on 4e.
    let pos = position("3k3/3p3/3n3/7/3N3/7/3K3 b - 1");
    assert!(!has(&pos, "4e4c"), "{:?}", moves(&pos));
    let e = pos.parse_move("4e4c").expect_err("refused");
    assert!(
        e.to_string()
            .contains("may not capture a protected trade-limited piece"),
        "{e}"
    );
    // Unprotected, it may; so it may take a protected lion next to it.
    assert!(has(&position("3k3/7/3n3/7/3N3/7/3K3 b - 1"), "4e4c"));
    assert!(has(&position("3k3/3p3/3n3/3N3/7/7/3K3 b - 1"), "4d4c"));
    // A lion that is not marked would not be limited: the same jump by the
    // unmarked falcon's double step is there.
    assert!(has(&position("3k3/3p3/3n3/7/3F3/7/3K3 b - 1"), "4e4c"));
}

#[test]
fn a_capture_on_the_way_of_a_piece_not_excepted_lifts_the_limit() {
    // A silver on the way: the bridge is open.
    let pos = position("3k3/3g3/3n3/3s3/3N3/7/3K3 b - 1");
    assert!(has(&pos, "4e4d4c"), "{:?}", moves(&pos));
    assert!(!has(&pos, "4e4c"));
    // A pawn on the way (excepted): still limited.
    let pos = position("3k3/3g3/3n3/3p3/3N3/7/3K3 b - 1");
    assert!(!has(&pos, "4e4d4c"), "{:?}", moves(&pos));
    // The pawn on the way is the only protector: taken first, the lion is
    // no longer protected, so the capture is allowed (shogiops judges the
    // protection before the first capture and refuses it).
    let pos = position("3k3/7/3N3/3p3/3n3/7/3K3 b - 1");
    assert!(has(&pos, "4c4d4e"), "{:?}", moves(&pos));
    assert!(!has(&pos, "4c4e"), "the pawn protects the lion from a jump");
}

#[test]
fn after_a_lion_falls_to_another_piece_only_lions_take_lions() {
    // Sente's gold takes gote's lion on 4c; sente's lion on 2e is then
    // attacked by gote's silver (2d) and gote's second lion (1c).
    let sfen = "3k3/7/3n2n/3G1s1/5N1/7/3K3 b - 1";
    let mut pos = position(sfen);
    let before = pos.hash();
    play(&mut pos, "4d4c");
    let after = pos.sfen();
    assert_eq!(after, "3k3/7/3G2n/5s1/5N1/7/3K3 w 4c 2");
    let ms = moves(&pos);
    assert!(!ms.contains(&"2d2e".to_string()), "{ms:?}");
    assert!(ms.contains(&"1c2e".to_string()), "{ms:?}");
    assert!(ms.contains(&"4a4b".to_string()));
    let e = pos.parse_move("2d2e").expect_err("refused");
    assert!(e.to_string().contains("except on 4c"), "{e}");
    // The square is part of the position: read back from the SFEN, the same
    // moves and hash; without it, another position.
    let read = position(&after);
    assert_eq!(read.hash(), pos.hash());
    assert_eq!(moves(&read), ms);
    let free = position("3k3/7/3G2n/5s1/5N1/7/3K3 w - 2");
    assert_ne!(free.hash(), pos.hash());
    assert!(moves(&free).contains(&"2d2e".to_string()));
    // It lasts one move.
    play(&mut pos, "1c1d");
    assert!(pos.sfen().contains(" b - "), "{}", pos.sfen());
    pos.undo();
    pos.undo();
    assert_eq!(pos.hash(), before);
    assert_eq!(pos.sfen(), sfen);
    // A lion taken by a lion sets no limit.
    let mut pos = position("3k3/7/3n2n/3N1s1/5N1/7/3K3 b - 1");
    play(&mut pos, "4d4c");
    assert!(pos.sfen().contains(" w - "), "{}", pos.sfen());
}

#[test]
fn after_a_lion_falls_to_another_piece_no_other_piece_takes_a_lion_on_its_way() {
    // Sente's gold took gote's lion on 4c: gote's falcon (unmarked) may not
    // take sente's lion on 2d, by a step, on its way to 2e or without
    // moving; with no square remembered, it may.
    let limited = moves(&position("3k3/7/3G1f1/5N1/7/7/3K3 w 4c 2"));
    let free = moves(&position("3k3/7/3G1f1/5N1/7/7/3K3 w - 2"));
    for mv in ["2c2d", "2c2d2e", "2c2d2c"] {
        assert!(!limited.contains(&mv.to_string()), "{mv}: {limited:?}");
        assert!(free.contains(&mv.to_string()), "{mv}: {free:?}");
    }
}

#[test]
fn a_marked_piece_made_by_the_capture_may_be_taken_back_on_its_square() {
    // Sente's falcon on 4c takes gote's lion on 4b and promotes to an eagle
    // (marked): gote's gold may take it back there, not the lion on 6d.
    let pos_sfen = "3k3/2gn3/3F3/N6/7/7/3K3 b - 1";
    let mut pos = position(pos_sfen);
    play(&mut pos, "4c4b+");
    assert!(pos.sfen().contains(" w 4b "), "{}", pos.sfen());
    let ms = moves(&pos);
    assert!(ms.contains(&"5b4b".to_string()), "{ms:?}");
    assert!(ms.contains(&"4a4b".to_string()), "{ms:?}");
}

#[test]
fn a_square_in_the_third_field_is_checked() {
    let g = game(&variant_path("tests/legs/trade-7x7.md"));
    let setup = Setup::parse_sfen("3k3/7/7/7/7/7/3K3 w 9c 2").expect("reads");
    let Err(e) = AnyPosition::new(&g, &setup) else {
        panic!("no file 9")
    };
    assert!(
        e.to_string().contains("'9c' is not a square of the board"),
        "{e}"
    );
    // A hand is no square, and the game has no drops.
    let setup = Setup::parse_sfen("3k3/7/7/7/7/7/3K3 w P 2").expect("reads");
    assert!(AnyPosition::new(&g, &setup).is_err());
}
