//! Snapshots of move lists: each `tests/moves/*.pos` names a variant and a
//! position (`fen:`, `sfen:` or `moves:`); the snapshot holds the position
//! and its legal moves in USI and Fairy-Stockfish notation.

use std::fmt::Write;

use koma::notation::{Notation, format_move};
use koma::position::Position;
use koma::setup::Setup;
use koma::with_rules;

use crate::common::{fields, game};

fn render(text: &str) -> String {
    let f = fields(text);
    let get = |k: &str| f.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let variant = get("variant").expect("a .pos file names its variant");
    let g = game(&variant);
    with_rules!(&g, rules => {
        let setup = match (get("fen"), get("sfen")) {
            (Some(fen), _) => Setup::parse_fen(&fen).expect("valid FEN"),
            (_, Some(sfen)) => Setup::parse_sfen(&sfen).expect("valid SFEN"),
            _ => rules.start.clone(),
        };
        let mut pos = Position::new(rules, &setup).expect("valid position");
        for m in get("moves").unwrap_or_default().split_whitespace() {
            let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{e}"));
            pos.play(mv);
        }
        let mut out = String::new();
        let _ = writeln!(out, "variant: {variant}\nsfen: {}\nfen: {}\nin check: {}", pos.sfen(), pos.fen(), pos.in_check());
        let mut moves: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .map(|m| (format_move(&pos, m, Notation::Usi), format_move(&pos, m, Notation::Fairy)))
            .collect();
        moves.sort();
        let _ = writeln!(out, "legal moves: {}", moves.len());
        for (usi, fairy) in moves {
            let _ = writeln!(out, "{usi:8}{fairy}");
        }
        out
    })
}

#[test]
fn move_lists() {
    insta::glob!("../moves", "*.pos", |path| {
        let text = std::fs::read_to_string(path).expect("readable .pos file");
        insta::assert_snapshot!(render(&text));
    });
}

/// Why a move is refused, as `koma moves --moves` and play report it.
fn refusal(slug: &str, fen: &str, mv: &str) -> String {
    let g = game(&crate::common::variant_path(slug));
    with_rules!(&g, rules => {
        let setup = Setup::parse_fen(fen).expect("FEN");
        let pos = Position::new(rules, &setup).expect("valid");
        pos.parse_move(mv).expect_err("illegal").to_string()
    })
}

#[test]
fn a_hop_that_leaves_the_check_is_refused_for_the_check_not_the_movement() {
    // Sente's king on a1 is checked by gote's leaping cannon (`DpR`) jumping
    // from a3. Sente's leaping cannon on c1 reaches c3 by its jump and by
    // hopping over the pawn on c2, and c4 only by the hop: both moves are
    // its movement, refused because the king stays in check.
    let (path, fen) = (
        "tests/hoppers/leaping-cannons.md",
        "4k/5/5/o4/2P2/K1O2[] w - - 0 1",
    );
    for mv in ["c1c3", "c1c4"] {
        assert_eq!(
            refusal(path, fen, mv),
            format!("{mv} is illegal: it does not get out of check")
        );
    }
    assert_eq!(
        refusal(path, fen, "c1d2"),
        "c1d2 is illegal: a leaping cannon cannot move from 3f to 2e"
    );
}

#[test]
fn a_two_leg_move_that_exposes_the_king_is_refused_for_the_check_not_the_route() {
    // Sente's lion on 7f stands between its king and gote's eagle on the
    // file: capturing the pawn on 6e and stepping on to 5e is its movement,
    // refused because the king would be attacked; a route the lion does not
    // have is refused for the route.
    let (path, fen) = (
        "tests/legs/lion-7x7.md",
        "+f2k3/7/7/7/1p5/N6/K6[] w - - 0 1",
    );
    assert_eq!(
        refusal(path, fen, "7f6e5e"),
        "7f6e5e is illegal: it would leave the king in check"
    );
    assert_eq!(
        refusal(path, fen, "7f6e4e"),
        "7f6e4e is illegal: a lion cannot move from 7f through 6e to 4e"
    );
}
