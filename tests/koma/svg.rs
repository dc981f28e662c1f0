//! Diagrams: snapshots of the SVG text, the committed diagrams kept up to
//! date, and the Judkins diagram rendered to pixels and looked at.

use koma::position::AnyPosition;
use koma::render::{Labels, SvgOptions, start_diagram, svg};
use resvg::{tiny_skia, usvg};

use crate::common::game;

#[test]
fn judkins_start_diagram() {
    insta::assert_snapshot!(start_diagram("judkins-shogi", Labels::Kanji).expect("draws"));
}

#[test]
fn middle_game_diagram_with_hands_and_promoted_pieces() {
    let g = game("judkins-shogi");
    let mut pos = AnyPosition::start(&g);
    for m in ["2f5c", "5a4b", "5c4b+", "6a6e+"] {
        let mv = pos.parse_move(m).expect("legal");
        pos.try_play(mv).expect("legal");
    }
    assert_eq!(pos.sfen(), "2sgkn/2+B2p/6/6/+r5/NKGS1R b Bp 5");
    let options = SvgOptions {
        labels: Labels::Kanji,
        title: Some("Judkins' Shogi — a middle game".into()),
        cell_size: None,
    };
    let text = svg(&pos, &options);
    insta::assert_snapshot!(text);
}

#[test]
fn committed_diagrams_are_up_to_date() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for slug in koma::variant::catalogue() {
        let path = root.join(format!("variants/{slug}-board.svg"));
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        let now = start_diagram(slug, Labels::Kanji).expect("draws");
        assert!(
            committed == now,
            "{} is out of date: run `koma svg --all variants`",
            path.display()
        );
    }
}

#[test]
fn diagrams_are_deterministic_and_have_no_text_elements() {
    let a = start_diagram("tori-shogi", Labels::Kanji).expect("draws");
    assert_eq!(
        a,
        start_diagram("tori-shogi", Labels::Kanji).expect("draws")
    );
    assert!(!a.contains("<text"), "all text is drawn as paths");
}

struct Picture {
    pixmap: tiny_skia::Pixmap,
}

impl Picture {
    fn render(svg_text: &str) -> Picture {
        let tree = usvg::Tree::from_str(svg_text, &usvg::Options::default()).expect("valid SVG");
        let size = tree.size().to_int_size();
        let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).expect("a pixmap");
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        Picture { pixmap }
    }

    /// Whether the pixel is a piece's face (light wood), not the board.
    fn is_piece(&self, x: u32, y: u32) -> bool {
        let p = self.pixmap.pixel(x, y).expect("inside");
        // Piece face #f7e3b5; board #e8c77a; ink and lines are dark.
        p.red() > 240 && p.green() > 215 && p.green() < 235 && p.blue() > 165 && p.blue() < 195
    }

    /// How many piece-face pixels lie on a horizontal line inside a cell.
    fn width_at(&self, x0: f64, y: f64, c: f64) -> usize {
        (0..c as u32)
            .filter(|dx| self.is_piece((x0 + *dx as f64) as u32, y as u32))
            .count()
    }
}

#[test]
fn the_judkins_diagram_shows_what_a_person_expects() {
    let text = start_diagram("judkins-shogi", Labels::Kanji).expect("draws");
    let pic = Picture::render(&text);
    // Geometry as drawn: cell 40 (render.cellSize), board at (x0, y0).
    let c: f64 = 40.0;
    let (x0, y0) = (0.3 * c + 1.3 * c, 0.8 * c + 0.5 * c);
    let width = x0 + 6.0 * c + 0.6 * c + 1.3 * c + 0.3 * c;
    let height = y0 + 6.0 * c + 0.7 * c;
    assert_eq!(
        (pic.pixmap.width(), pic.pixmap.height()),
        (width.round() as u32, height.round() as u32)
    );

    let g = game("judkins-shogi");
    let mut occupied = 0;
    {
        let pos = AnyPosition::start(&g);
        for row in 0..6u16 {
            for file in 0..6u16 {
                let sq = koma::board::Square::new((5 - row) * 6 + file);
                let (left, top) = (x0 + file as f64 * c, y0 + row as f64 * c);
                // Near the upper and lower edge of the cell: a piece's tip is
                // narrow, its base wide.
                let upper = pic.width_at(left, top + 0.12 * c, c);
                let lower = pic.width_at(left, top + 0.86 * c, c);
                match pos.piece_at(sq) {
                    None => assert_eq!(
                        upper + lower,
                        0,
                        "a piece drawn on the empty square {row},{file}"
                    ),
                    Some(p) => {
                        occupied += 1;
                        assert!(upper + lower > 0, "no piece drawn on {row},{file}");
                        match p.color {
                            koma::board::Color::Sente => {
                                assert!(upper < lower, "sente's piece on {row},{file} points down")
                            }
                            koma::board::Color::Gote => {
                                assert!(upper > lower, "gote's piece on {row},{file} is not turned")
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(occupied, 14);
}

/// The squares a movement diagram marks, drawn as a grid from sente's side:
/// `*` the piece, `o` move or capture, `m` move only, `x` capture only.
fn marks(text: &str) -> String {
    let num = |s: &str, key: &str| -> f64 {
        let at = s.find(&format!(" {key}=\"")).expect(key) + key.len() + 3;
        s[at..s[at..].find('"').unwrap() + at].parse().unwrap()
    };
    let board = text
        .lines()
        .find(|l| l.starts_with("<rect x="))
        .expect("the board");
    let (x0, y0) = (num(board, "x"), num(board, "y"));
    let (w, h) = (num(board, "width"), num(board, "height"));
    let (cols, rows) = ((w / 40.0) as usize, (h / 40.0) as usize);
    let mut grid = vec![vec!['.'; cols]; rows];
    let cell = |x: f64, y: f64| (((y - y0) / 40.0) as usize, ((x - x0) / 40.0) as usize);
    for line in text.lines() {
        let (mark, (x, y)) = if line.starts_with("<circle class=\"both\"") {
            ('o', (num(line, "cx"), num(line, "cy")))
        } else if line.starts_with("<circle class=\"move\"") {
            ('m', (num(line, "cx"), num(line, "cy")))
        } else if line.starts_with("<path class=\"capture\"") {
            let d = &line[line.find("d=\"M").unwrap() + 4..];
            let mut it = d.split(['L', ' ']).map(|v| v.parse::<f64>().unwrap_or(0.0));
            let (x, y) = (it.next().unwrap(), it.next().unwrap());
            ('x', (x + 7.2, y + 7.2))
        } else if line.starts_with("<g><path") && line.contains("#f7e3b5") {
            let m = &line[line.find("d=\"M").unwrap() + 4..];
            let mut it = m.split(['L', ' ']).map(|v| v.parse::<f64>().unwrap_or(0.0));
            let (x, y) = (it.next().unwrap(), it.next().unwrap());
            ('*', (x, y + 0.44 * 40.0))
        } else {
            continue;
        };
        let (r, c) = cell(x, y);
        grid[r][c] = mark;
    }
    grid.iter()
        .map(|row| {
            row.iter()
                .map(|c| format!("{c} "))
                .collect::<String>()
                .trim_end()
                .to_string()
                + "\n"
        })
        .collect()
}

fn piece_diagram(variant: &str, piece: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["svg", "--variant", variant, "--piece", piece])
        .output()
        .expect("koma runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn movement_diagrams_mark_each_square_a_piece_reaches() {
    let rook = piece_diagram("judkins-shogi", "rook");
    assert_eq!(
        marks(&rook),
        "\
. . . o . .
. . . o . .
o o o * o o
. . . o . .
. . . o . .
. . . o . .
"
    );
    // By letter; a promoted one with `+`.
    assert_eq!(
        marks(&piece_diagram("judkins-shogi", "+B")),
        "\
. o . . . o
. . o o o .
. . o * o .
. . o o o .
. o . . . o
o . . . . .
"
    );
    assert_eq!(
        marks(&piece_diagram("judkins-shogi", "N")),
        "\
. . o . o .
. . . . . .
. . . * . .
. . . . . .
. . . . . .
. . . . . .
"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["svg", "--variant", "judkins-shogi", "--piece", "lance"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("its pieces are king"));
}
