//! Game records: a variant, a start position and moves, as text.
//!
//! ```text
//! # comments run to the end of a line
//! variant: judkins-shogi
//! sfen: rbsgkn/5p/6/6/P5/NKGSBR b - 1      (or fen: ..., or nothing: the variant's start)
//! 2f5c 5a4b
//! 5c4b+ 3a4b                                (USI or Fairy-Stockfish notation, any layout)
//! ```
//!
//! A USI line `position startpos|sfen ... moves ...` is read too. Move
//! numbers written as `1.` are skipped.

use std::fmt::Write;

use thiserror::Error;

use crate::notation::{Notation, ReplayError};
use crate::position::{AnyPosition, Game, Move};
use crate::setup::Setup;

/// Where a record starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// A Fairy-Stockfish FEN.
    Fen(String),
    /// An SFEN.
    Sfen(String),
}

/// A move as written in a record, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The text of the move.
    pub text: String,
    /// 1-based line.
    pub line: usize,
}

/// A record as read, not yet replayed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The variant it names, if any.
    pub variant: Option<String>,
    /// The start position, if not the variant's.
    pub start: Option<Start>,
    /// The moves in order.
    pub moves: Vec<RecordMove>,
}

/// A record that cannot be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct RecordError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a record's text.
pub fn parse(text: &str) -> Result<Record, RecordError> {
    let mut record = Record::default();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        let err = |message: String| RecordError { line, message };
        if let Some((key, value)) = content
            .split_once(':')
            .filter(|(k, _)| k.chars().all(|c| c.is_ascii_alphabetic()))
        {
            let value = value.trim().to_string();
            match key.trim() {
                "variant" => record.variant = Some(value),
                "fen" => record.start = Some(Start::Fen(value)),
                "sfen" => record.start = Some(Start::Sfen(value)),
                "moves" => push_moves(&mut record, &value, line),
                other => {
                    return Err(err(format!(
                        "unknown key '{other}': expected variant, fen, sfen or moves"
                    )));
                }
            }
            continue;
        }
        if let Some(rest) = content.strip_prefix("position ") {
            let (setup, moves) = match rest.split_once(" moves") {
                Some((s, m)) => (s.trim(), m.trim()),
                None => (rest.trim(), ""),
            };
            if setup == "startpos" {
                record.start = None;
            } else if let Some(sfen) = setup.strip_prefix("sfen ") {
                record.start = Some(Start::Sfen(sfen.trim().to_string()));
            } else if let Some(fen) = setup.strip_prefix("fen ") {
                record.start = Some(Start::Fen(fen.trim().to_string()));
            } else {
                return Err(err(format!(
                    "'position {setup}': expected 'startpos', 'sfen ...' or 'fen ...'"
                )));
            }
            record.moves.clear();
            push_moves(&mut record, moves, line);
            continue;
        }
        push_moves(&mut record, content, line);
    }
    Ok(record)
}

fn push_moves(record: &mut Record, text: &str, line: usize) {
    for token in text.split_whitespace() {
        let numbered = token
            .strip_suffix('.')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if !numbered {
            record.moves.push(RecordMove {
                text: token.to_string(),
                line,
            });
        }
    }
}

/// Plays a record's moves from its start on `rules`; `path` names the record
/// in messages. Every move must be legal and the game not over before it.
pub fn replay(rec: &Record, game: &Game, path: &str) -> Result<AnyPosition, crate::Error> {
    use crate::Error;
    let setup = match &rec.start {
        None => game.start_setup().clone(),
        Some(Start::Fen(f)) => Setup::parse_fen(f).map_err(|source| Error::Setup {
            kind: "FEN",
            text: f.clone(),
            source,
        })?,
        Some(Start::Sfen(f)) => Setup::parse_sfen(f).map_err(|source| Error::Setup {
            kind: "SFEN",
            text: f.clone(),
            source,
        })?,
    };
    let texts: Vec<&str> = rec.moves.iter().map(|m| m.text.as_str()).collect();
    AnyPosition::from_moves(game, &setup, &texts).map_err(|e| match e {
        ReplayError::Move { number, source } => {
            let m = &rec.moves[number - 1];
            Error::Invalid(format!(
                "{path}:{}: move {number}, {}: {}",
                m.line,
                m.text,
                source.reason()
            ))
        }
        other => other.into(),
    })
}

/// Writes a game as a record that [`parse`] reads back: the variant, the
/// start (as SFEN, unless it is the variant's start) and the moves in USI.
pub fn write(pos: &AnyPosition, comment: Option<&str>) -> String {
    let mut start = pos.clone();
    while start.undo().is_some() {}
    let mut s = String::new();
    let _ = writeln!(s, "# {} game record written by koma", pos.title());
    let _ = writeln!(s, "variant: {}", pos.slug());
    let initial = AnyPosition::start(&pos.game()).sfen();
    if start.sfen() != initial {
        let _ = writeln!(s, "sfen: {}", start.sfen());
    }
    let moves: Vec<Move> = pos.history();
    for (i, pair) in moves.chunks(2).enumerate() {
        let mut line = format!("{}. ", i + 1);
        for &m in pair {
            line.push_str(&start.format_move(m, Notation::Usi));
            line.push(' ');
            if start.try_play(m).is_err() {
                break;
            }
        }
        let _ = writeln!(s, "{}", line.trim_end());
    }
    if let Some(c) = comment {
        let _ = writeln!(s, "# {c}");
    }
    s
}
