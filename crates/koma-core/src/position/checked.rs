//! Checked moves: whether a move may be played here, and why not, so that a
//! move from a person, a file or a GUI can never corrupt a position.

use super::{Move, Position};
use crate::board::{Bitboard, Square};
use crate::rules::Role;

/// Why a move cannot be played in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// A square of the move is not on the board.
    #[error("square {} is not on the board", square.index())]
    OffBoard {
        /// The square.
        square: Square,
    },
    /// The move starts from an empty square.
    #[error("there is no piece on the square it starts from")]
    EmptySquare {
        /// The square.
        square: Square,
    },
    /// The piece on the starting square belongs to the side not to move.
    #[error("the piece it moves is not the side to move's")]
    NotYours {
        /// The square.
        square: Square,
    },
    /// A drop of a role the variant does not have.
    #[error("the variant has no piece kind {}", role.index())]
    UnknownRole {
        /// The role.
        role: Role,
    },
    /// A drop of a piece the side to move does not have in hand.
    #[error("the side to move has no such piece in hand")]
    NotInHand {
        /// The role, unpromoted.
        role: Role,
    },
    /// The rules do not allow the move (its piece cannot go there, it leaves
    /// the royal attacked, the game is over, ...).
    #[error("the rules do not allow it here")]
    Forbidden,
}

impl<B: Bitboard> Position<B> {
    /// Whether `mv` is a legal move here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Why `mv` cannot be played here, if it cannot: the first of its
    /// squares off the board, its role unknown, no piece of the side to move
    /// on its square or in hand, or a move the rules do not allow.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        let rules = &*self.rules;
        let on_board = |sq: Square| {
            if sq.index() < rules.topology.len() {
                Ok(())
            } else {
                Err(IllegalMove::OffBoard { square: sq })
            }
        };
        match mv {
            Move::Normal { from, to, .. } | Move::MultiLeg { from, via: to, .. } => {
                on_board(from)?;
                on_board(to)?;
                on_board(mv.to())?;
                match self.piece_at(from) {
                    None => return Err(IllegalMove::EmptySquare { square: from }),
                    Some(p) if p.color != self.turn => {
                        return Err(IllegalMove::NotYours { square: from });
                    }
                    Some(_) => {}
                }
            }
            Move::Drop { role, to } => {
                on_board(to)?;
                if role.index() >= rules.role_count() {
                    return Err(IllegalMove::UnknownRole { role });
                }
                let base = rules.role(role).base;
                if self.hand(self.turn, base) == 0 {
                    return Err(IllegalMove::NotInHand { role: base });
                }
            }
        }
        if self.legal_moves().contains(&mv) {
            Ok(())
        } else {
            Err(IllegalMove::Forbidden)
        }
    }

    /// Plays `mv` if it is legal here; otherwise the position is unchanged
    /// and the error says why. Every move from a person, a file or a GUI
    /// goes through here.
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check_move(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move known to be legal (one of [`Position::legal_moves`]).
    ///
    /// # Panics
    /// If the move is not legal here: use [`Position::try_play`] for moves
    /// that come from outside.
    pub fn play(&mut self, mv: Move) {
        if let Err(e) = self.check_move(mv) {
            panic!("Position::play: {mv:?} is not legal: {e}");
        }
        self.play_unchecked(mv);
    }
}
