//! `engine.setup`: read once as a FEN; its board against the topology and
//! the letters of `engine.pieces`, each problem at its characters; then the
//! royal pieces each side starts with.

use serde_yaml::{Mapping, Value};

use super::PieceDef;
use super::shape::Checker;
use crate::board::{Color, PieceId, read_written_id};
use crate::setup::Setup;
use crate::variant::Problem;

impl Checker {
    /// Reads `engine.setup`. `board` is (rows, cols) when the topology is
    /// sound (a board that is itself wrong was reported already: its setup
    /// would only repeat it).
    pub(super) fn setup(&mut self, engine: &Mapping, board: Option<(i64, i64)>) -> Option<Setup> {
        let text = self.string(engine, "engine", "setup")?;
        let setup = match Setup::parse(text) {
            Ok(s) => s,
            Err(err) => {
                self.problems.push(Problem::inside(
                    "engine.setup",
                    err.column,
                    1,
                    format!("engine.setup: {}", err.message),
                ));
                return None;
            }
        };
        if let Some((rows, cols)) = board {
            self.setup_board(text, &setup, engine, rows, cols);
        }
        Some(setup)
    }

    /// The board read from `text` against the board's size and the declared
    /// letters.
    fn setup_board(&mut self, text: &str, setup: &Setup, engine: &Mapping, rows: i64, cols: i64) {
        let rank_count = setup.ranks.len() as i64;
        if rank_count != rows {
            self.value(
                "engine.setup",
                format!("engine.setup has {rank_count} ranks, the board {rows}"),
            );
            return;
        }
        if setup.holes.len() as i64 >= rows * cols {
            self.value(
                "engine.setup",
                "engine.setup: every cell is a hole ('*'): the board has no square".to_string(),
            );
            return;
        }
        let letters = declared_letters(engine);
        // The board is the text's first field, up to its hands: each rank is
        // the text between slashes, and its pieces are its letters, in order.
        let lead = text.len() - text.trim_start().len();
        let board = text[lead..]
            .split(|c: char| c.is_whitespace() || c == '[')
            .next()
            .unwrap_or_default();
        let mut rank_start = text[..lead].chars().count();
        let mut widths = Vec::new();
        for (i, (rank, written)) in setup.ranks.iter().zip(board.split('/')).enumerate() {
            let chars: Vec<char> = written.chars().collect();
            for (piece, (at, ch)) in rank.iter().flatten().zip(written_pieces(written)) {
                let at = rank_start + at;
                let width = ch.chars().count();
                match letters.iter().find(|(l, _)| *l == piece.id) {
                    None if !letters.is_empty() => self.problems.push(Problem::inside(
                        "engine.setup",
                        at,
                        width,
                        format!("engine.setup: '{ch}' is not the ID of any piece in engine.pieces"),
                    )),
                    Some((_, false)) if piece.promoted => self.problems.push(Problem::inside(
                        "engine.setup",
                        at - 1,
                        width + 1,
                        format!("engine.setup: '+{ch}': this piece has no promoted side"),
                    )),
                    _ => {}
                }
            }
            let files = rank.len() as i64;
            if files != cols {
                widths.push((i + 1, files, rank_start, chars.len().max(1)));
            }
            rank_start += chars.len() + 1;
        }
        if widths.len() > 2 {
            self.value(
                "engine.setup",
                format!(
                    "engine.setup: {} of its {rows} ranks do not have the board's {cols} files",
                    widths.len()
                ),
            );
        } else {
            for (rank, files, start, len) in widths {
                self.problems.push(Problem::inside(
                    "engine.setup",
                    start,
                    len,
                    format!("engine.setup: rank {rank} from the top has {files} squares, the board {cols} files"),
                ));
            }
        }
    }

    /// Each side needs a royal piece in the start, if the variant has royal
    /// pieces at all. More than one is fine, with the check rule too: it
    /// guards a side's last royal only.
    pub(super) fn royals(&mut self, pieces: &[PieceDef], start: &Setup) {
        let royal = |p: &PieceDef, promoted: bool| match &p.spec.promotion {
            Some(pr) if promoted => pr.royal,
            _ => !promoted && p.spec.royal,
        };
        if !pieces.iter().any(|p| royal(p, false) || royal(p, true)) {
            return;
        }
        for color in Color::ALL {
            let has_royal = start.ranks.iter().flatten().flatten().any(|s| {
                s.color == color && pieces.iter().any(|p| p.id == s.id && royal(p, s.promoted))
            });
            if !has_royal {
                self.value(
                    "engine.setup",
                    format!(
                        "engine.setup: {} has no royal piece; the rules need at least one",
                        color.name()
                    ),
                );
            }
        }
    }
}

/// The letters `engine.pieces` declares (upper case), each with whether its
/// piece has a promoted side: read leniently, so that a letter that is itself
/// wrong (reported with its piece) does not make the setup wrong too.
fn declared_letters(engine: &Mapping) -> Vec<(PieceId, bool)> {
    let Some(Value::Mapping(pieces)) = engine.get("pieces") else {
        return Vec::new();
    };
    pieces
        .values()
        .filter_map(|piece| {
            let id = PieceId::new(piece.get("letter")?.as_str()?)?;
            let promotes = piece.get("promotion").is_some_and(|p| !p.is_null());
            Some((id, promotes))
        })
        .collect()
}

/// The pieces as a rank of a setup writes them, each with its character
/// position in the rank: a letter, or an ID in parentheses.
fn written_pieces(rank: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let (mut byte, mut at) = (0, 0);
    while let Some(c) = rank[byte..].chars().next() {
        let used = match read_written_id(&rank[byte..]) {
            Ok((_, _, used)) => {
                out.push((at, &rank[byte..byte + used]));
                used
            }
            Err(_) => c.len_utf8(),
        };
        at += rank[byte..byte + used].chars().count();
        byte += used;
    }
    out
}
