//! A position as text: shogi coordinates (file numbers from the right along
//! the top, rank letters down the side), gote's pieces marked `v`, hands below.

use std::fmt::Write;

use crate::board::{Bitboard, Color};
use crate::position::{AnyPosition, Position};
use crate::with_position;

/// How to draw pieces.
#[derive(Copy, Clone, Debug, Default)]
pub struct Style {
    /// Kanji (from the variant file) instead of letters, where the file has them.
    pub kanji: bool,
    /// ANSI colours: gote's pieces red, promoted pieces bold.
    pub color: bool,
}

/// The board with coordinates, both hands and whose turn it is.
pub fn board_text(pos: &AnyPosition, style: Style) -> String {
    with_position!(pos, p => board_text_of(p, style))
}

fn board_text_of<B: Bitboard>(pos: &Position<B>, style: Style) -> String {
    let rules = pos.rules();
    let t = rules.topology;
    let mut s = String::new();
    let hand = |color: Color| -> String {
        let mut h = Vec::new();
        for role in rules.all_roles() {
            let n = pos.hand(color, role);
            if n > 0 {
                let info = rules.role(role);
                let name = match (&info.kanji, style.kanji) {
                    (Some(k), true) => match k.chars().next() {
                        Some(c) => c.to_string(),
                        None => info.id.to_string(),
                    },
                    _ => info.id.to_string(),
                };
                h.push(if n > 1 { format!("{name}{n}") } else { name });
            }
        }
        if h.is_empty() {
            "-".to_string()
        } else {
            h.join(" ")
        }
    };
    let _ = writeln!(s, "gote's hand:  {}", hand(Color::Gote));
    // A cell holds the side's mark, a `+` and the longest ID (three
    // characters for one-letter IDs).
    let cell = rules
        .roles
        .iter()
        .map(|r| 1 + usize::from(r.promoted) + r.id.len())
        .max()
        .unwrap_or(0)
        .max(3);
    let mut header = String::from("  ");
    for file in 0..t.cols {
        let _ = write!(header, "{:>w$}", t.cols - file, w = cell + 1);
    }
    let _ = writeln!(s, "{header}");
    let line = format!(
        "   +{}",
        format!("{}+", "-".repeat(cell)).repeat(t.cols as usize)
    );
    let _ = writeln!(s, "{line}");
    for row in 0..t.rows {
        let rank = t.rows - 1 - row;
        let _ = write!(s, "   |");
        for file in 0..t.cols {
            let Some(sq) = t.cell(file.into(), rank.into()) else {
                continue;
            };
            let cell = match pos.piece_at(sq) {
                None if t.is_hole(sq) => "#".repeat(cell),
                None => " ".repeat(cell),
                Some(p) => {
                    let info = rules.role(p.role);
                    let mark = if p.color == Color::Gote { 'v' } else { ' ' };
                    let body = match (&info.kanji, style.kanji) {
                        (Some(k), true) => match k.chars().next() {
                            Some(c) => c.to_string(),
                            None => info.id.to_string(),
                        },
                        _ => format!("{}{}", if info.promoted { "+" } else { "" }, info.id),
                    };
                    let text = format!("{mark}{body}");
                    let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
                    let padded = format!("{text}{}", " ".repeat(cell.saturating_sub(width)));
                    match (style.color, p.color, info.promoted) {
                        (false, _, _) => padded,
                        (true, Color::Gote, promoted) => format!(
                            "\x1b[31{}m{padded}\x1b[0m",
                            if promoted { ";1" } else { "" }
                        ),
                        (true, Color::Sente, true) => format!("\x1b[1m{padded}\x1b[0m"),
                        (true, Color::Sente, false) => padded,
                    }
                }
            };
            let _ = write!(s, "{cell}|");
        }
        let _ = writeln!(s, " {}", t.rank_letters_from_top(row));
        let _ = writeln!(s, "{line}");
    }
    let _ = writeln!(s, "sente's hand: {}", hand(Color::Sente));
    s
}
