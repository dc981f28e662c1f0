//! Notation on an [`AnyPosition`]: the same calls as on a `Position<B>`.

use super::{MoveError, Notation, ReplayError, format_move};
use crate::position::{AnyPosition, Game, Move, Position};
use crate::setup::Setup;
use crate::with_position;

impl AnyPosition {
    /// The position reached from `setup` by `moves` in a game (see
    /// [`Position::from_moves`]).
    pub fn from_moves<S: AsRef<str>>(
        game: &Game,
        setup: &Setup,
        moves: &[S],
    ) -> Result<AnyPosition, ReplayError> {
        Ok(match game {
            #[cfg(not(feature = "one-width"))]
            Game::Narrow(r) => Position::from_moves(r, setup, moves)?.into(),
            #[cfg(not(feature = "one-width"))]
            Game::Wide(r) => Position::from_moves(r, setup, moves)?.into(),
            Game::Large(r) => Position::from_moves(r, setup, moves)?.into(),
            Game::Huge(r) => Position::from_moves(r, setup, moves)?.into(),
        })
    }

    /// Reads a move in either notation and checks that it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        with_position!(self, p => p.parse_move(text))
    }

    /// Writes a move of this position (before it is played).
    pub fn format_move(&self, mv: Move, notation: Notation) -> String {
        with_position!(self, p => format_move(p, mv, notation))
    }

    /// The position as a Fairy-Stockfish FEN.
    pub fn fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// The position as an SFEN.
    pub fn sfen(&self) -> String {
        self.to_setup().to_sfen()
    }
}
