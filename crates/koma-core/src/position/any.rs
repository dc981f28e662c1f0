//! [`AnyPosition`]: a position on whichever bitboard width its game needs,
//! so that the code above the engine (records, protocols, the play session,
//! the CLI) names no width.

use super::{Game, IllegalMove, Move, Outcome, Piece, Position, PositionError};
use crate::board::{Bitboard256, Bitboard1344, Color, PieceId, Square, Topology};
use crate::rules::{Role, RoleInfo};
use crate::setup::Setup;

/// A position of a [`Game`], whatever its board's width.
// Positions of different widths differ in size by their bitboards; an
// AnyPosition is made once per game or command and never kept in bulk, so
// boxing would buy nothing but an indirection on every call.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum AnyPosition {
    /// Up to 64 squares.
    #[cfg(not(feature = "one-width"))]
    Narrow(Position<u64>),
    /// Up to 128 squares.
    #[cfg(not(feature = "one-width"))]
    Wide(Position<u128>),
    /// Up to 256 squares.
    Large(Position<Bitboard256>),
    /// Up to [`crate::board::MAX_SQUARES`] (1,296) squares.
    Huge(Position<Bitboard1344>),
}

/// Runs a block with `$pos` bound to the concrete `Position<B>` inside an
/// [`AnyPosition`] (by reference or mutable reference, as the expression is).
// Two definitions, not a `cfg` inside one: a macro's `cfg` is read in the
// crate that uses it, and the crates above this one have no `one-width`.
#[cfg(not(feature = "one-width"))]
#[macro_export]
macro_rules! with_position {
    ($any:expr, $pos:ident => $body:expr) => {
        match $any {
            $crate::position::AnyPosition::Narrow($pos) => $body,
            $crate::position::AnyPosition::Wide($pos) => $body,
            $crate::position::AnyPosition::Large($pos) => $body,
            $crate::position::AnyPosition::Huge($pos) => $body,
        }
    };
}

/// Runs a block with `$pos` bound to the concrete `Position<B>` inside an
/// [`AnyPosition`] (by reference or mutable reference, as the expression is).
#[cfg(feature = "one-width")]
#[macro_export]
macro_rules! with_position {
    ($any:expr, $pos:ident => $body:expr) => {
        match $any {
            $crate::position::AnyPosition::Large($pos) => $body,
            $crate::position::AnyPosition::Huge($pos) => $body,
        }
    };
}

#[cfg(not(feature = "one-width"))]
impl From<Position<u64>> for AnyPosition {
    fn from(p: Position<u64>) -> AnyPosition {
        #[cfg(not(feature = "one-width"))]
        AnyPosition::Narrow(p)
    }
}

#[cfg(not(feature = "one-width"))]
impl From<Position<u128>> for AnyPosition {
    fn from(p: Position<u128>) -> AnyPosition {
        #[cfg(not(feature = "one-width"))]
        AnyPosition::Wide(p)
    }
}

impl From<Position<Bitboard256>> for AnyPosition {
    fn from(p: Position<Bitboard256>) -> AnyPosition {
        AnyPosition::Large(p)
    }
}

impl From<Position<Bitboard1344>> for AnyPosition {
    fn from(p: Position<Bitboard1344>) -> AnyPosition {
        AnyPosition::Huge(p)
    }
}

impl AnyPosition {
    /// The start position of a game.
    pub fn start(game: &Game) -> AnyPosition {
        match game {
            #[cfg(not(feature = "one-width"))]
            Game::Narrow(r) => Position::start(r).into(),
            #[cfg(not(feature = "one-width"))]
            Game::Wide(r) => Position::start(r).into(),
            Game::Large(r) => Position::start(r).into(),
            Game::Huge(r) => Position::start(r).into(),
        }
    }

    /// Checks a setup against a game's rules and makes it a position.
    pub fn new(game: &Game, setup: &Setup) -> Result<AnyPosition, PositionError> {
        Ok(match game {
            #[cfg(not(feature = "one-width"))]
            Game::Narrow(r) => Position::new(r, setup)?.into(),
            #[cfg(not(feature = "one-width"))]
            Game::Wide(r) => Position::new(r, setup)?.into(),
            Game::Large(r) => Position::new(r, setup)?.into(),
            Game::Huge(r) => Position::new(r, setup)?.into(),
        })
    }

    /// The game this position is played in (its rules shared, not copied).
    pub fn game(&self) -> Game {
        match self {
            #[cfg(not(feature = "one-width"))]
            AnyPosition::Narrow(p) => Game::Narrow(p.shared_rules().clone()),
            #[cfg(not(feature = "one-width"))]
            AnyPosition::Wide(p) => Game::Wide(p.shared_rules().clone()),
            AnyPosition::Large(p) => Game::Large(p.shared_rules().clone()),
            AnyPosition::Huge(p) => Game::Huge(p.shared_rules().clone()),
        }
    }

    /// The variant's slug.
    pub fn slug(&self) -> &str {
        with_position!(self, p => &p.rules().slug)
    }
    /// The variant's title.
    pub fn title(&self) -> &str {
        with_position!(self, p => &p.rules().title)
    }
    /// The board.
    pub fn topology(&self) -> Topology {
        with_position!(self, p => p.rules().topology)
    }
    /// Every role of the variant, in order.
    pub fn roles(&self) -> &[RoleInfo] {
        with_position!(self, p => &p.rules().roles)
    }
    /// One role's information.
    pub fn role(&self, role: Role) -> &RoleInfo {
        with_position!(self, p => p.rules().role(role))
    }
    /// The variant's start setup.
    pub fn start_setup(&self) -> &Setup {
        with_position!(self, p => &p.rules().start)
    }

    /// Side to move.
    pub fn turn(&self) -> Color {
        with_position!(self, p => p.turn())
    }
    /// The piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        with_position!(self, p => p.piece_at(sq))
    }
    /// How many pieces of a role a colour has in hand.
    pub fn hand(&self, color: Color, role: Role) -> u8 {
        with_position!(self, p => p.hand(color, role))
    }
    /// Zobrist hash.
    pub fn hash(&self) -> u64 {
        with_position!(self, p => p.hash())
    }
    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        with_position!(self, p => p.in_check())
    }
    /// The move number (1 at the start, as SFEN counts).
    pub fn move_number(&self) -> u32 {
        with_position!(self, p => p.move_number())
    }
    /// The moves played since the setup, in order.
    pub fn history(&self) -> Vec<Move> {
        with_position!(self, p => p.history().collect())
    }
    /// The last move played.
    pub fn last_move(&self) -> Option<Move> {
        with_position!(self, p => p.last_move())
    }
    /// All legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        with_position!(self, p => p.legal_moves())
    }
    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        with_position!(self, p => p.has_legal_move())
    }
    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        with_position!(self, p => p.is_legal(mv))
    }
    /// Plays `mv` if it is legal; otherwise changes nothing and says why.
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        with_position!(self, p => p.try_play(mv))
    }
    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        with_position!(self, p => p.undo())
    }
    /// Whether the side to move may declare a win (the impasse rule).
    pub fn may_declare(&self) -> bool {
        with_position!(self, p => p.may_declare())
    }
    /// Whether the variant has an impasse rule (`rules.declaration`).
    pub fn has_declaration_rule(&self) -> bool {
        with_position!(self, p => p.rules().declaration.is_some())
    }
    /// How often the current position has occurred.
    pub fn repetitions(&self) -> u32 {
        with_position!(self, p => p.repetitions())
    }
    /// The result, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        with_position!(self, p => p.outcome())
    }
    /// The position as a setup.
    pub fn to_setup(&self) -> Setup {
        with_position!(self, p => p.to_setup())
    }
    /// Counts the leaves of the legal move tree `depth` plies deep.
    pub fn perft(&mut self, depth: u32) -> u64 {
        with_position!(self, p => p.perft(depth))
    }

    /// The role a name or an ID (`+` before a promoted one) stands for.
    pub fn role_by_name(&self, name: &str) -> Option<Role> {
        let name = name.trim();
        let roles = self.roles();
        let by_name = roles.iter().position(|r| r.name.eq_ignore_ascii_case(name));
        let by_letter = || {
            let (promoted, letter) = match name.strip_prefix('+') {
                Some(l) => (true, l),
                None => (false, name),
            };
            let id = PieceId::new(letter)?;
            roles
                .iter()
                .position(|r| r.promoted == promoted && r.id == id)
        };
        by_name.or_else(by_letter).map(|i| Role(i as u16))
    }
}
