//! Setups: anything a FEN or SFEN can say, not yet checked against the rules
//! of a variant (that is the job of `Position::new`, a layer above). FEN and
//! SFEN are read (`read.rs`) and written (`write.rs`) side by side.

mod read;
mod write;

use std::fmt;

use crate::board::{Color, PieceId};

/// One piece as written in a setup: colour, ID, promoted or not.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SetupPiece {
    /// Upper case = sente.
    pub color: Color,
    /// The piece's ID (`P`, or `(FD)` as written).
    pub id: PieceId,
    /// Written with a `+`.
    pub promoted: bool,
}

/// An unchecked position: ranks as written (top first), hands, side to move.
/// Two setups are equal when they say the same: the hands and the capture
/// square are two readings of one SFEN field, so that field's text is compared.
#[derive(Clone, Debug, Eq)]
pub struct Setup {
    /// The ranks from the top (gote's back rank) down; each square from file `a`.
    /// A hole (`*`) is `None` here and listed in `holes`.
    pub ranks: Vec<Vec<Option<SetupPiece>>>,
    /// The holes written (`*`): cells that are not on the board, as (rank
    /// from the top, file from `a`), 0-based, in reading order.
    pub holes: Vec<(usize, usize)>,
    /// Pieces in hand: colour, ID, count.
    pub hands: Vec<(Color, PieceId, u32)>,
    /// Side to move.
    pub turn: Color,
    /// Move number (1 = the start).
    pub move_number: u32,
    /// An SFEN's third field where it has the form of a square's name
    /// (digits and one lower-case letter, `5f`), as written: lishogi's SFEN
    /// of a game without hands puts there the square of a capture that
    /// limits the next move (chu shogi's `lastLionCapture`). Whether it is
    /// read so or as hands (five gote `f`) is the rules' choice; written back
    /// in place of the hands.
    pub capture_square: Option<String>,
}

/// The largest move number a position may start from, in plies as SFEN
/// counts (FEN's full moves: half of it), so that numbering never overflows.
pub const MAX_MOVE_NUMBER: u32 = 1_000_000_000;

impl PartialEq for Setup {
    fn eq(&self, other: &Setup) -> bool {
        self.ranks == other.ranks
            && self.holes == other.holes
            && self.turn == other.turn
            && self.move_number == other.move_number
            && self.third_field() == other.third_field()
    }
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            ranks: Vec::new(),
            holes: Vec::new(),
            hands: Vec::new(),
            turn: Color::Sente,
            move_number: 1,
            capture_square: None,
        }
    }
}

/// A FEN or SFEN that cannot be read, with the place of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// 0-based character position in the text.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.message, self.column + 1)
    }
}

impl std::error::Error for SetupError {}
