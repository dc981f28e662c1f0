//! What a format's parser hands over: the record as written, not yet
//! resolved against a game.

use crate::board::Color;
use crate::setup::Setup;

use super::{Ending, Format, GameResult, Headers};

/// A move as a format writes it, to be resolved against the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveText {
    /// USI, Fairy-Stockfish or Japanese notation.
    Text(String),
    /// A CSA move, `+7776FU` (the piece as it is after the move).
    Csa(String),
    /// A move given by its squares' record numbers (`from` absent for a
    /// drop), the piece's CSA code before the move and whether it promotes.
    Coords {
        /// The mover, if the format says.
        color: Option<Color>,
        /// File and rank numbers of the origin.
        from: Option<(u32, u32)>,
        /// File and rank numbers of the destination.
        to: (u32, u32),
        /// The piece's CSA code before the move.
        piece: String,
        /// Whether it promotes.
        promote: bool,
    },
    /// PGN's SAN, or a coordinate move.
    San(String),
}

impl MoveText {
    /// The move as written, for messages.
    pub fn text(&self) -> String {
        match self {
            MoveText::Text(t) | MoveText::Csa(t) | MoveText::San(t) => t.clone(),
            MoveText::Coords {
                from, to, piece, ..
            } => match from {
                Some((f, r)) => format!("{f}{r}{}{}{piece}", to.0, to.1),
                None => format!("00{}{}{piece}", to.0, to.1),
            },
        }
    }
}

/// A move as read, not yet resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraftMove {
    /// What was written.
    pub text: MoveText,
    /// Its line.
    pub line: usize,
    /// A comment after it.
    pub comment: Option<String>,
    /// Seconds spent.
    pub time: Option<u32>,
}

/// Where a record starts, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DraftStart {
    /// The variant's start.
    Variant,
    /// A Fairy-Stockfish FEN, with its line.
    Fen(String, usize),
    /// An SFEN, with its line.
    Sfen(String, usize),
    /// A setup already read (needs no game).
    Setup(Setup),
    /// A BOD diagram's lines (KIF, KI2), with their line numbers.
    Bod(Vec<(usize, String)>),
    /// CSA position lines, with their line numbers.
    Csa(Vec<(usize, String)>),
    /// JKF's `initial.data`.
    Jkf(serde_json::Value, usize),
}

/// The result as a record writes it, settled only against the final position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DraftResult {
    /// Fully known.
    Known(GameResult),
    /// A word said relative to the side to move after the last move: the
    /// side to move won (`true`) or lost (`false`), by this ending.
    SideToMove(bool, Ending),
    /// A winner whose ending the final position tells (resignation or
    /// checkmate, say).
    Winner(Color),
}

/// A record as a format's parser read it.
#[derive(Clone, Debug)]
pub struct Draft {
    /// The format.
    pub format: Format,
    /// The variant the record names (slug, alias, PGN name or title), with its line.
    pub variant: Option<(String, usize)>,
    /// KIF's `手合割`, with its line.
    pub handicap: Option<(String, usize)>,
    /// Where it starts.
    pub start: DraftStart,
    /// A comment before the first move.
    pub start_comment: Option<String>,
    /// The moves.
    pub moves: Vec<DraftMove>,
    /// The headers.
    pub headers: Headers,
    /// The result, if written.
    pub result: Option<DraftResult>,
    /// Whether only 9×9 games with CSA codes can be meant (CSA, JKF).
    pub csa_pieces: bool,
}

impl Draft {
    /// An empty draft of a format.
    pub fn new(format: Format) -> Draft {
        Draft {
            format,
            variant: None,
            handicap: None,
            start: DraftStart::Variant,
            start_comment: None,
            moves: Vec::new(),
            headers: Headers::default(),
            result: None,
            csa_pieces: false,
        }
    }

    /// Adds a comment to the last move, or before the first.
    pub fn comment(&mut self, text: &str) {
        let slot = match self.moves.last_mut() {
            Some(m) => &mut m.comment,
            None => &mut self.start_comment,
        };
        match slot {
            Some(c) => {
                c.push('\n');
                c.push_str(text);
            }
            None => *slot = Some(text.to_string()),
        }
    }
}
