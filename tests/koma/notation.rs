//! Moves as players type them (USI, Fairy-Stockfish's coordinates, a sign or
//! none, three squares for a route) read in a position: the move meant, or a
//! message that says why not (`tests/notation/moves.tsv`).

use koma::position::AnyPosition;
use koma::setup::Setup;

use crate::common::{game, table, tests_dir, variant_path};

#[test]
fn typed_moves_are_read_as_meant_or_refused_with_the_reason() {
    let path = tests_dir().join("notation").join("moves.tsv");
    for (line, f) in table(&path, 4) {
        let at = format!("moves.tsv:{line}");
        let g = game(&variant_path(&f[0]));
        let pos = if f[1] == "start" {
            AnyPosition::start(&g)
        } else {
            let setup = Setup::parse_sfen(&f[1]).unwrap_or_else(|e| panic!("{at}: {e}"));
            AnyPosition::new(&g, &setup).unwrap_or_else(|e| panic!("{at}: {e}"))
        };
        let got = match pos.parse_move(&f[2]) {
            Ok(mv) => {
                assert!(pos.legal_moves().contains(&mv), "{at}: {mv:?} is not legal");
                format!("= {}", pos.format_move(mv, koma::notation::Notation::Usi))
            }
            Err(e) => format!("! {e}"),
        };
        assert_eq!(got, f[3], "{at}: {:?}", f[2]);
    }
}

/// Kanji numerals as KIF writes ranks and counts in hand (a wa shogi hand
/// may hold more than twenty pawns).
#[test]
fn kanji_numbers_are_written_as_records_write_them() {
    use koma::notation::japanese::kanji_number;
    for (n, kanji) in [
        (0, "〇"),
        (1, "一"),
        (9, "九"),
        (10, "十"),
        (11, "十一"),
        (19, "十九"),
        (20, "二十"),
        (22, "二十二"),
        (99, "九十九"),
    ] {
        assert_eq!(kanji_number(n), kanji, "{n}");
    }
}
