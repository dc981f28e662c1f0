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
