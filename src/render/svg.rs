//! Diagrams as SVG 1.1, drawn from the variant file alone: the board of any
//! size, shogi coordinates, pentagonal pieces (gote's turned 180°) named in
//! kanji or letters, the hands, a title and the side to move.
//!
//! Every character is drawn as a path from `glyphs/glyphs.tsv` (outlines
//! from Noto CJK, SIL OFL 1.1), so the diagram reads the same on a machine
//! without CJK fonts. The output is deterministic.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::OnceLock;

use crate::board::{Bitboard, Color, Square};
use crate::position::{AnyPosition, Position};
use crate::rules::{Role, Rules};
use crate::with_position;

/// How piece names are written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Labels {
    /// Each piece's kanji from the variant file (letters where it has none).
    #[default]
    Kanji,
    /// FEN letters, `+` for promoted pieces.
    Latin,
}

/// Drawing options.
#[derive(Clone, Debug, Default)]
pub struct SvgOptions {
    /// Piece names.
    pub labels: Labels,
    /// The caption above the board (default: the variant's title).
    pub title: Option<String>,
    /// Pixel size of a square (default: the variant's `render.cellSize`, else 40).
    pub cell_size: Option<u32>,
}

struct Glyph {
    advance: f64,
    path: String,
}

type Glyphs = HashMap<(bool, char), Glyph>;

fn glyphs() -> &'static Glyphs {
    static GLYPHS: OnceLock<Glyphs> = OnceLock::new();
    GLYPHS.get_or_init(|| {
        let mut map = HashMap::new();
        for line in include_str!("glyphs/glyphs.tsv")
            .lines()
            .filter(|l| !l.starts_with('#'))
        {
            let mut f = line.split('\t');
            let (Some(set), Some(code), Some(adv), Some(path)) =
                (f.next(), f.next(), f.next(), f.next())
            else {
                continue;
            };
            let Some(ch) = code
                .strip_prefix("U+")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32)
            else {
                continue;
            };
            map.insert(
                (set == "piece", ch),
                Glyph {
                    advance: adv.parse().unwrap_or(1000.0),
                    path: path.to_string(),
                },
            );
        }
        map
    })
}

/// Whether every character of `s` can be drawn in the piece style.
fn drawable(s: &str) -> bool {
    s.chars().all(|c| glyphs().contains_key(&(true, c)))
}

/// Text as paths: `size` pixels per em, anchored at its middle, baseline `y`.
fn text(
    out: &mut String,
    s: &str,
    (x, y): (f64, f64),
    size: f64,
    piece_style: bool,
    fill: &str,
    anchor_middle: bool,
) {
    let g = glyphs();
    let scale = size / 1000.0;
    let lookup = |c: char| {
        g.get(&(piece_style, c))
            .or_else(|| g.get(&(!piece_style, c)))
            .or_else(|| g.get(&(false, '?')))
    };
    let width: f64 = s
        .chars()
        .filter_map(lookup)
        .map(|gl| gl.advance * scale)
        .sum();
    let mut pen = if anchor_middle { x - width / 2.0 } else { x };
    let _ = write!(out, r#"<g fill="{fill}">"#);
    for c in s.chars() {
        let Some(gl) = lookup(c) else { continue };
        if !gl.path.is_empty() {
            let _ = write!(
                out,
                r#"<path transform="translate({pen:.2} {y:.2}) scale({scale:.4})" d="{}"/>"#,
                gl.path
            );
        }
        pen += gl.advance * scale;
    }
    out.push_str("</g>");
}

/// The width of a text line in the text style.
fn text_width(s: &str, size: f64) -> f64 {
    let g = glyphs();
    s.chars()
        .filter_map(|c| g.get(&(false, c)).or_else(|| g.get(&(true, c))))
        .map(|gl| gl.advance * size / 1000.0)
        .sum()
}

/// The kanji numeral of 1 to 10, else the number itself.
fn numeral(n: u8) -> String {
    const K: [&str; 10] = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"];
    if (1..=10).contains(&n) {
        K[n as usize - 1].to_string()
    } else {
        n.to_string()
    }
}

fn label<B: Bitboard>(rules: &Rules<B>, role: Role, labels: Labels) -> (String, bool) {
    let info = rules.role(role);
    let latin = (
        format!("{}{}", if info.promoted { "+" } else { "" }, info.id),
        false,
    );
    match (&info.kanji, labels) {
        (Some(k), Labels::Kanji) if drawable(k) => (k.clone(), true),
        _ => latin,
    }
}

/// One pentagonal piece centred at (cx, cy), pointing up for sente.
fn piece(
    out: &mut String,
    (cx, cy): (f64, f64),
    c: f64,
    color: Color,
    name: &str,
    kanji: bool,
    promoted: bool,
) {
    let (w, top, shoulder, bottom) = (0.40 * c, 0.44 * c, 0.26 * c, 0.42 * c);
    let rotate = if color == Color::Gote {
        format!(r#" transform="rotate(180 {cx:.2} {cy:.2})""#)
    } else {
        String::new()
    };
    let _ = write!(out, "<g{rotate}>");
    let _ = write!(
        out,
        r##"<path d="M{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}Z" fill="#f7e3b5" stroke="#6b4f1d" stroke-width="{:.2}"/>"##,
        cx,
        cy - top,
        cx + w * 0.82,
        cy - shoulder,
        cx + w,
        cy + bottom,
        cx - w,
        cy + bottom,
        cx - w * 0.82,
        cy - shoulder,
        (c / 40.0).max(0.5)
    );
    let fill = if promoted { "#c0161b" } else { "#1a1a1a" };
    let chars: Vec<char> = name.chars().collect();
    if kanji && chars.len() >= 2 {
        // Two kanji stacked; three (成金砲) smaller, about the same middle.
        let (size, top) = if chars.len() >= 3 {
            (0.26 * c, cy - 0.1055 * c)
        } else {
            (0.34 * c, cy - 0.02 * c)
        };
        for (i, ch) in chars.iter().take(3).enumerate() {
            text(
                out,
                &ch.to_string(),
                (cx, top + (i as f64) * size * 0.95),
                size,
                true,
                fill,
                true,
            );
        }
    } else {
        // Latin labels up to three characters (`+BI`) at one size, longer
        // ones (`+CSW`) smaller to stay on the piece.
        let size = if kanji {
            0.52 * c
        } else {
            0.40 * c * (3.0 / chars.len().max(3) as f64)
        };
        text(out, name, (cx, cy + 0.20 * c), size, true, fill, true);
    }
    out.push_str("</g>");
}

/// The position as an SVG document.
pub fn svg(pos: &AnyPosition, options: &SvgOptions) -> String {
    with_position!(pos, p => svg_of(p, options))
}

fn svg_of<B: Bitboard>(pos: &Position<B>, options: &SvgOptions) -> String {
    let rules = pos.rules();
    let t = rules.topology;
    let c = options
        .cell_size
        .or(rules.cell_size)
        .unwrap_or(40)
        .clamp(8, 512) as f64;
    let (cols, rows) = (t.cols as f64, t.rows as f64);
    let hand_w = 1.3 * c;
    let margin = 0.3 * c;
    let title_h = 0.8 * c;
    let coord_h = 0.5 * c;
    let rank_w = 0.6 * c;
    let footer_h = 0.7 * c;
    let x0 = margin + hand_w;
    let y0 = title_h + coord_h;
    let title = options.title.clone().unwrap_or_else(|| rules.title.clone());
    let title_size = 0.42 * c;
    let board_width = x0 + cols * c + rank_w + hand_w + margin;
    // A long title widens the picture; the board stays in the middle.
    let shift = ((text_width(&title, title_size) + 2.0 * margin - board_width) / 2.0)
        .max(0.0)
        .ceil();
    let width = board_width + 2.0 * shift;
    let height = y0 + rows * c + footer_h;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}">
"#
    );
    let _ = writeln!(
        s,
        r##"<rect width="{width:.0}" height="{height:.0}" fill="#ffffff"/>"##
    );
    text(
        &mut s,
        &title,
        (width / 2.0, title_h * 0.68),
        title_size,
        false,
        "#000000",
        true,
    );
    s.push('\n');
    if shift > 0.0 {
        let _ = writeln!(s, r#"<g transform="translate({shift:.0} 0)">"#);
    }
    let _ = writeln!(
        s,
        r##"<rect x="{x0:.2}" y="{y0:.2}" width="{:.2}" height="{:.2}" fill="#e8c77a" stroke="#333333" stroke-width="{:.2}"/>"##,
        cols * c,
        rows * c,
        (c / 20.0).max(1.0)
    );
    let mut grid = String::new();
    for i in 1..t.cols {
        let x = x0 + i as f64 * c;
        let _ = write!(grid, "M{x:.2} {y0:.2}V{:.2}", y0 + rows * c);
    }
    for i in 1..t.rows {
        let y = y0 + i as f64 * c;
        let _ = write!(grid, "M{x0:.2} {y:.2}H{:.2}", x0 + cols * c);
    }
    let _ = writeln!(
        s,
        r##"<path d="{grid}" stroke="#333333" stroke-width="{:.2}" fill="none"/>"##,
        (c / 40.0).max(0.5)
    );
    holes(&mut s, t, (x0, y0), c);
    for file in 0..t.cols {
        let x = x0 + (file as f64 + 0.5) * c;
        text(
            &mut s,
            &(t.cols - file).to_string(),
            (x, y0 - 0.12 * c),
            0.34 * c,
            false,
            "#000000",
            true,
        );
    }
    for row in 0..t.rows {
        let y = y0 + (row as f64 + 0.5) * c + 0.12 * c;
        let name = if t.rows <= 10 {
            numeral(row + 1)
        } else {
            t.rank_letters_from_top(row)
        };
        text(
            &mut s,
            &name,
            (x0 + cols * c + rank_w * 0.5, y),
            0.34 * c,
            true,
            "#000000",
            true,
        );
    }
    s.push('\n');
    for rank in 0..t.rows {
        for file in 0..t.cols {
            let Some(p) = t
                .cell(file.into(), rank.into())
                .and_then(|sq| pos.piece_at(sq))
            else {
                continue;
            };
            let (name, kanji) = label(rules, p.role, options.labels);
            let cx = x0 + (file as f64 + 0.5) * c;
            let cy = y0 + ((t.rows - 1 - rank) as f64 + 0.5) * c;
            piece(
                &mut s,
                (cx, cy),
                c,
                p.color,
                &name,
                kanji,
                rules.role(p.role).promoted,
            );
            s.push('\n');
        }
    }
    // Hands: gote's to the left of the board from the top, sente's to the right from the bottom.
    for color in Color::ALL {
        let mut k = 0.0;
        for role in rules.all_roles() {
            let n = pos.hand(color, role);
            if n == 0 {
                continue;
            }
            let (name, kanji) = label(rules, role, options.labels);
            let (cx, cy) = match color {
                Color::Gote => (margin + 0.45 * c, y0 + (k + 0.5) * c),
                Color::Sente => (
                    x0 + cols * c + rank_w + 0.45 * c,
                    y0 + rows * c - (k + 0.5) * c,
                ),
            };
            piece(&mut s, (cx, cy), c * 0.8, color, &name, kanji, false);
            if n > 1 {
                text(
                    &mut s,
                    &format!("×{n}"),
                    (cx + 0.42 * c, cy + 0.15 * c),
                    0.3 * c,
                    false,
                    "#000000",
                    false,
                );
            }
            s.push('\n');
            k += 1.0;
        }
    }
    if shift > 0.0 {
        s.push_str("</g>\n");
    }
    let side = format!("{} to move", pos.turn().name());
    text(
        &mut s,
        &side,
        (width / 2.0, y0 + rows * c + footer_h * 0.7),
        0.32 * c,
        false,
        "#333333",
        true,
    );
    s.push_str("\n</svg>\n");
    s
}

/// The caption a document gives its diagram: `{{svg:FILE "caption"}}`.
pub fn caption(body: &str, file: &str) -> Option<String> {
    let start = body.find(&format!("{{{{svg:{file} \""))? + file.len() + 8;
    let rest = &body[start..];
    Some(rest[..rest.find("\"}}")?].to_string())
}

/// The start diagram of a variant as the documents name it
/// (`<slug>-board.svg`), with the caption the document gives it.
pub fn start_diagram(name: &str, labels: Labels) -> Result<String, crate::Error> {
    let v = crate::variant::load(name)?;
    let g = crate::Game::compile(&v)?;
    let title = caption(&v.body, &format!("{}-board.svg", v.slug))
        .or_else(|| Some(format!("{} — starting position", v.title)));
    Ok(svg(
        &AnyPosition::start(&g),
        &SvgOptions {
            labels,
            title,
            cell_size: None,
        },
    ))
}

/// One piece of `role` on its own, sente's way up: the pieces of the
/// browser's board, drawn like the diagrams' (every glyph a path).
pub fn piece_svg(pos: &AnyPosition, role: Role, labels: Labels) -> String {
    with_position!(pos, p => {
        let rules = p.rules();
        let (name, kanji) = label(rules, role, labels);
        let c = 100.0;
        let mut s = String::from(
            r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="100" height="100" viewBox="0 0 100 100">"#,
        );
        piece(&mut s, (50.0, 50.0), c, Color::Sente, &name, kanji, rules.role(role).promoted);
        s.push_str("</svg>");
        s
    })
}

/// How a role moves: the piece on the middle square of an empty board of
/// its game's size, seen from sente, each square it reaches marked — a
/// filled dot where it may move or capture, a ring where it may only
/// move, a cross where it may only capture.
pub fn movement_svg(pos: &AnyPosition, role: Role, labels: Labels) -> String {
    with_position!(pos, p => movement_of(p.rules(), role, labels))
}

/// Cuts the board's holes out of a drawn board whose top left corner is
/// `at`, in cells of `c`: each is painted in the picture's background.
fn holes(s: &mut String, t: crate::board::Topology, at: (f64, f64), c: f64) {
    for hole in t.holes() {
        let x = at.0 + t.file(hole) as f64 * c;
        let y = at.1 + (t.rows - 1 - t.rank(hole)) as f64 * c;
        let _ = writeln!(
            s,
            r##"<rect x="{x:.2}" y="{y:.2}" width="{c:.2}" height="{c:.2}" fill="#ffffff"/>"##
        );
    }
}

fn movement_of<B: Bitboard>(rules: &Rules<B>, role: Role, labels: Labels) -> String {
    let t = rules.topology;
    let c = 40.0;
    let (cols, rows) = (t.cols as f64, t.rows as f64);
    let margin = 0.3 * c;
    let title_h = 0.8 * c;
    let origin = t.middle();
    let here = B::from_square(origin);
    let quiet = rules.targets_all(Color::Sente, role, origin, here, B::default());
    // A capture is asked of each square alone: an enemy there, nothing else
    // on the board.
    let captures = |sq: Square| {
        let there = B::from_square(sq);
        rules
            .targets_all(Color::Sente, role, origin, here | there, there)
            .contains(sq)
    };
    let info = rules.role(role);
    let title = format!("{} ({})", info.name, info.betza);
    let width = (cols * c + 2.0 * margin).max(text_width(&title, 0.4 * c) + 2.0 * margin);
    let x0 = (width - cols * c) / 2.0;
    let y0 = title_h;
    let height = y0 + rows * c + margin;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}">
<rect width="{width:.0}" height="{height:.0}" fill="#ffffff"/>
"##
    );
    text(
        &mut s,
        &title,
        (width / 2.0, title_h * 0.68),
        0.4 * c,
        false,
        "#000000",
        true,
    );
    s.push('\n');
    let _ = writeln!(
        s,
        r##"<rect x="{x0:.2}" y="{y0:.2}" width="{:.2}" height="{:.2}" fill="#e8c77a" stroke="#333333" stroke-width="2"/>"##,
        cols * c,
        rows * c
    );
    let mut grid = String::new();
    for i in 1..t.cols {
        let x = x0 + i as f64 * c;
        let _ = write!(grid, "M{x:.2} {y0:.2}V{:.2}", y0 + rows * c);
    }
    for i in 1..t.rows {
        let y = y0 + i as f64 * c;
        let _ = write!(grid, "M{x0:.2} {y:.2}H{:.2}", x0 + cols * c);
    }
    let _ = writeln!(
        s,
        r##"<path d="{grid}" stroke="#333333" stroke-width="1" fill="none"/>"##
    );
    holes(&mut s, t, (x0, y0), c);
    for sq in t.squares() {
        let cx = x0 + (t.file(sq) as f64 + 0.5) * c;
        let cy = y0 + ((t.rows - 1 - t.rank(sq)) as f64 + 0.5) * c;
        let (m, x) = (quiet.contains(sq), sq != origin && captures(sq));
        let r = 0.18 * c;
        let _ = match (m, x) {
            (true, true) => writeln!(
                s,
                r##"<circle class="both" cx="{cx:.2}" cy="{cy:.2}" r="{r:.2}" fill="#1f5fa8"/>"##
            ),
            (true, false) => writeln!(
                s,
                r##"<circle class="move" cx="{cx:.2}" cy="{cy:.2}" r="{r:.2}" fill="none" stroke="#1f5fa8" stroke-width="3"/>"##
            ),
            (false, true) => writeln!(
                s,
                r##"<path class="capture" d="M{:.2} {:.2}L{:.2} {:.2}M{:.2} {:.2}L{:.2} {:.2}" stroke="#c0161b" stroke-width="4"/>"##,
                cx - r,
                cy - r,
                cx + r,
                cy + r,
                cx - r,
                cy + r,
                cx + r,
                cy - r
            ),
            (false, false) => Ok(()),
        };
    }
    let (name, kanji) = label(rules, role, labels);
    let cx = x0 + (t.file(origin) as f64 + 0.5) * c;
    let cy = y0 + ((t.rows - 1 - t.rank(origin)) as f64 + 0.5) * c;
    piece(
        &mut s,
        (cx, cy),
        c,
        Color::Sente,
        &name,
        kanji,
        info.promoted,
    );
    s.push_str("\n</svg>\n");
    s
}
