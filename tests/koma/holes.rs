//! Boards with holes (`*` in a setup): what is refused and how it is said,
//! and the holes as drawn. Their moves are checked against Fairy-Stockfish
//! (oracle.rs, `tests/holes/holey-shogi.tsv`) and snapshotted
//! (`tests/moves/holes.pos`).

use koma::board::Bitboard;
use koma::position::AnyPosition;
use koma::render::{Labels, Style, SvgOptions, board_text, svg};
use koma::setup::Setup;
use resvg::{tiny_skia, usvg};

use crate::common::{game, variant_path};

const HOLEY: &str = "tests/holes/holey-shogi.md";

fn refused(fen: &str) -> String {
    let g = game(&variant_path(HOLEY));
    let setup = Setup::parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    match AnyPosition::new(&g, &setup) {
        Ok(_) => panic!("{fen} was accepted"),
        Err(e) => e.to_string(),
    }
}

/// A FEN must write the board's holes where they are, and only there.
#[test]
fn a_position_must_have_the_boards_holes() {
    assert_eq!(
        refused("rbnsgk/5p/6/4*1/P5/KGSNBR[ACac] w"),
        "5c is a hole of this board: write '*' there, not an empty square"
    );
    assert_eq!(
        refused("rbnsgk/5p/1P4/4*1/P5/KGSNBR[ACac] w"),
        "'P' on 5c: 5c is a hole of this board, not a square (write '*' there)"
    );
    assert_eq!(
        refused("rbnsgk/5p/1**3/4*1/P5/KGSNBR[ACac] w"),
        "'*' on 4c: 4c is a square of this board, not a hole"
    );
    // A board without holes does not take one either.
    let judkins = game("judkins-shogi");
    let setup = Setup::parse_fen("rbsgkn/5p/6/2*3/P5/NKGSBR[] w").expect("reads");
    let Err(e) = AnyPosition::new(&judkins, &setup) else {
        panic!("a hole taken on judkins' board");
    };
    assert_eq!(
        e.to_string(),
        "'*' on 4d: 4d is a square of this board, not a hole"
    );
}

/// A move that names a hole is refused with the hole's name, in either
/// notation, and a hole is never a square of a legal move.
#[test]
fn moves_that_name_a_hole_say_so() {
    let g = game(&variant_path(HOLEY));
    let pos = AnyPosition::start(&g);
    for (text, message) in [
        ("2f5c", "5c is a hole of this board, not a square"),
        ("e1b4", "b4 is a hole of this board, not a square"),
        ("A*2d", "'2d' is a hole of this board, not a square"),
        ("A@e3", "'e3' is a hole of this board, not a square"),
    ] {
        let e = pos.parse_move(text).expect_err(text);
        assert!(e.to_string().contains(message), "{text}: {e}");
    }
    let t = pos.topology();
    let holes: Vec<_> = t.holes().collect();
    assert_eq!(holes.len(), 2);
    for m in pos.legal_moves() {
        assert!(!holes.contains(&m.to()), "{m:?} ends on a hole");
    }
    // The start written back keeps its holes.
    assert_eq!(pos.fen(), "rbnsgk/5p/1*4/4*1/P5/KGSNBR[ACac] w - - 0 1");
}

/// The diagram cuts the holes out of the board (the picture's white where
/// the other empty squares are wood); the terminal board marks them `###`.
#[test]
fn holes_are_drawn_as_no_square() {
    let g = game(&variant_path(HOLEY));
    let pos = AnyPosition::start(&g);
    let text = svg(
        &pos,
        &SvgOptions {
            labels: Labels::Latin,
            title: None,
            cell_size: Some(40),
        },
    );
    let tree = usvg::Tree::from_str(&text, &usvg::Options::default()).expect("valid SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).expect("a pixmap");
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    // As svg.rs lays a board out: cell 40, its top left corner at (x0, y0).
    let c = 40.0;
    let (x0, y0) = (0.3 * c + 1.3 * c, 0.8 * c + 0.5 * c);
    let t = pos.topology();
    let centre = |file: u8, row: u8| {
        let p = pixmap
            .pixel(
                (x0 + (file as f64 + 0.5) * c) as u32,
                (y0 + (row as f64 + 0.5) * c) as u32,
            )
            .expect("inside");
        (p.red(), p.green(), p.blue())
    };
    let mut holes = 0;
    for row in 0..t.rows {
        for file in 0..t.cols {
            let cell = t
                .cell(file as i32, (t.rows - 1 - row) as i32)
                .expect("a cell");
            if t.is_hole(cell) {
                holes += 1;
                assert_eq!(centre(file, row), (255, 255, 255), "hole {row},{file}");
            } else if pos.piece_at(cell).is_none() {
                assert_eq!(centre(file, row), (0xe8, 0xc7, 0x7a), "square {row},{file}");
            }
        }
    }
    assert_eq!(holes, 2);
    let board = board_text(&pos, Style::default());
    assert_eq!(board.matches("###").count(), 2, "{board}");
}

/// `Rules::between` (a table by the offset of two squares, `rules/lines.rs`)
/// against a walk: in games whose riders go all eight ways (rook and bishop,
/// free king), the squares strictly between two squares on a file, rank or
/// diagonal with no hole or edge on the way, and none for any other pair.
#[test]
fn between_is_the_walk_along_each_line() {
    for file in [HOLEY, "variants/chu-shogi.md", "variants/dai-shogi.md"] {
        let g = game(&variant_path(file));
        koma::with_rules!(&g, rules => {
            let t = rules.topology;
            let mut lines = 0;
            for a in t.squares() {
                let mut expected = std::collections::HashMap::new();
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let mut path = Vec::new();
                    let mut k = 1;
                    while let Some(b) = t.step(a, dx, dy, k) {
                        expected.insert(b, path.clone());
                        path.push(b);
                        k += 1;
                    }
                }
                for b in t.squares() {
                    let got: Vec<_> = rules.between(a, b).squares().collect();
                    let mut want = expected.get(&b).cloned().unwrap_or_default();
                    want.sort();
                    assert_eq!(got, want, "{file}: between {a:?} and {b:?}");
                    lines += usize::from(!want.is_empty());
                }
            }
            assert!(lines > 0, "{file}: no pair with squares between");
        });
    }
}
