//! Positions: a checked game state on compiled rules, with make/unmake,
//! Zobrist hash, history, legal move generation and the game's outcome.

mod any;
mod bare;
mod checked;
mod game;
mod movegen;
mod outcome;
mod shifted;
mod trades;
mod validate;

pub use any::AnyPosition;
pub use checked::IllegalMove;
pub use game::Game;
pub use outcome::{Outcome, Reason};
pub use trades::TradeBan;
pub use validate::{PositionError, PositionProblem};

use std::sync::Arc;

use crate::board::RoleSet;
use crate::board::{Bitboard, CellCode, Color, Square};
use crate::dsl::Mode;
use crate::rules::{Piece, Role, Rules};

use crate::setup::{Setup, SetupPiece};

pub use crate::board::MAX_SQUARES;

/// A move: a piece moving on the board (promoting or not), a move in two
/// legs that captures on the way or comes back, or a drop from hand.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A piece goes from one square to another, capturing what stands there.
    Normal {
        /// Where it starts.
        from: Square,
        /// Where it ends.
        to: Square,
        /// Whether it promotes.
        promote: bool,
    },
    /// A piece moves in two legs: to `via`, then on to `to`. Generated
    /// only where the route matters, so that one result is one move: either
    /// `via` holds an opponent's piece, captured on the way (`to` may be
    /// `from`: a capture without moving), or `to` is `from` and nothing is
    /// captured (a pass, `via` then the lowest empty square it can use;
    /// written through another such square, it reads as this one).
    /// A route through an empty square to another square is a
    /// [`Move::Normal`].
    MultiLeg {
        /// Where it starts.
        from: Square,
        /// Where the first leg ends.
        via: Square,
        /// Where the second leg ends, capturing what stands there.
        to: Square,
        /// Whether it promotes.
        promote: bool,
    },
    /// A piece from hand is put on an empty square.
    Drop {
        /// The role dropped.
        role: Role,
        /// Where.
        to: Square,
    },
}

impl Move {
    /// The destination square.
    #[inline]
    pub fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::MultiLeg { to, .. } | Move::Drop { to, .. } => to,
        }
    }
    /// Where the moving piece starts (none for a drop).
    #[inline]
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } | Move::MultiLeg { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }
    /// Whether the piece promotes.
    #[inline]
    pub fn promotes(self) -> bool {
        match self {
            Move::Normal { promote, .. } | Move::MultiLeg { promote, .. } => promote,
            Move::Drop { .. } => false,
        }
    }
}

/// What make() must remember to undo a move; also the game's history.
#[derive(Copy, Clone, Debug)]
struct State<B> {
    /// XOR of the board's keys and the side to move.
    board_hash: u64,
    /// Sum of the hands' keys (one per piece in hand).
    hand_hash: u64,
    checkers: B,
    /// Where the move that led here starts in the capture log
    /// ([`Position::taken`]): the pieces it took are the log's entries from
    /// here to its end, or to where the next state starts.
    taken_from: u32,
    /// The square a counterstrike limit remembers for the side to move
    /// (see [`Position::counterstrike_square`]); its key is in `board_hash`.
    strike: Option<Square>,
    mv: Option<Move>,
}

impl<B> State<B> {
    #[inline]
    fn hash(&self) -> u64 {
        self.board_hash ^ self.hand_hash
    }
}

/// A legal game state of some rules.
#[derive(Clone)]
pub struct Position<B: Bitboard> {
    rules: Arc<Rules<B>>,
    /// Piece code per square: 0 empty, else `role * 2 + colour + 1`.
    board: B::Cells,
    by_color: [B; 2],
    by_role: B::PerRole<B>,
    /// The roles each colour has on the board, as sets of role
    /// indices: the generator and the attack test visit only these.
    present: [B::Roles; 2],
    hands: [B::PerRole<u8>; 2],
    /// Roles that are royal, as a set of role indices.
    royal_roles: B::Roles,
    turn: Color,
    start_move_number: u32,
    states: Vec<State<B>>,
    /// The capture log: every piece the moves of the game took, with its
    /// square, in the order they were taken. A move may take any
    /// number; undo puts back what its state's part of the log holds.
    taken: Vec<(Square, Piece)>,
}

/// The squares a move captures on, in the order it takes them: where it
/// ends, or for a two-leg move where the first leg ends and then where the
/// second does (unless it comes back). What stands there is taken.
#[inline]
fn capture_squares(mv: Move) -> [Option<Square>; 2] {
    match mv {
        Move::Normal { to, .. } => [Some(to), None],
        Move::MultiLeg { from, via, to, .. } => [Some(via), (to != from).then_some(to)],
        Move::Drop { .. } => [None, None],
    }
}

#[inline]
fn code(piece: Piece) -> u16 {
    piece.role.0 * 2 + piece.color as u16 + 1
}

#[inline]
fn decode(c: u16) -> Option<Piece> {
    if c == 0 {
        None
    } else {
        let c = c - 1;
        Some(Piece {
            color: if c & 1 == 0 {
                Color::Sente
            } else {
                Color::Gote
            },
            role: Role(c >> 1),
        })
    }
}

impl<B: Bitboard> Position<B> {
    /// The start position of the rules.
    pub fn start(rules: &Arc<Rules<B>>) -> Position<B> {
        // The start setup was checked when the rules were compiled.
        Position::new(rules, &rules.start)
            .unwrap_or_else(|e| unreachable!("start position checked at load: {e}"))
    }

    /// The rules this position plays by.
    #[inline]
    pub fn rules(&self) -> &Rules<B> {
        &self.rules
    }
    /// The shared rules, to build another position on them.
    #[inline]
    pub fn shared_rules(&self) -> &Arc<Rules<B>> {
        &self.rules
    }
    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }
    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.board.as_ref()[sq.index()].code())
    }
    /// Pieces of a colour and role.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> B {
        self.by_role.as_ref()[role.index()] & self.by_color[color.index()]
    }
    /// All pieces of a colour.
    #[inline]
    pub fn color_pieces(&self, color: Color) -> B {
        self.by_color[color.index()]
    }
    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> B {
        self.by_color[0] | self.by_color[1]
    }
    /// How many pieces of a role a colour has in hand.
    #[inline]
    pub fn hand(&self, color: Color, role: Role) -> u8 {
        self.hands[color.index()].as_ref()[role.index()]
    }
    /// Zobrist hash of the position (board, hands, side to move).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.state().hash()
    }
    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> B {
        self.state().checkers
    }
    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }
    /// The move number (1 at the start, +1 after each ply, as SFEN counts).
    pub fn move_number(&self) -> u32 {
        self.start_move_number
            .saturating_add(self.states.len() as u32 - 1)
    }
    /// The moves played since the setup, in order.
    pub fn history(&self) -> impl Iterator<Item = Move> + '_ {
        self.states.iter().filter_map(|s| s.mv)
    }
    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.state().mv
    }

    #[inline]
    fn state(&self) -> &State<B> {
        // There is always the initial state.
        &self.states[self.states.len() - 1]
    }

    /// The opponent's pieces a move of the side to move takes, with their
    /// squares: every square it captures on (a two-leg move may take one on
    /// the way and one where it ends), none for a quiet move or a drop.
    /// The search's capture/quiet decision, its exchange evaluation and its
    /// move ordering all read captures here.
    #[inline]
    pub fn captures(&self, mv: Move) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let them = self.turn.opposite();
        capture_squares(mv)
            .into_iter()
            .flatten()
            .filter_map(move |sq| {
                self.piece_at(sq)
                    .filter(|p| p.color == them)
                    .map(|p| (sq, p))
            })
    }

    /// Whether a move of the side to move takes anything ([`Position::captures`]).
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.captures(mv).next().is_some()
    }

    /// The royal pieces of a colour.
    #[inline]
    pub fn royals(&self, color: Color) -> B {
        let mut b = B::EMPTY;
        for r in self.royal_roles.iter() {
            b |= self.by_role.as_ref()[r];
        }
        b & self.by_color[color.index()]
    }

    /// The square of a colour's only royal, if it has exactly one.
    #[inline]
    pub fn royal_square(&self, color: Color) -> Option<Square> {
        let r = self.royals(color);
        if r.any() && !r.more_than_one() {
            Some(r.lsb())
        } else {
            None
        }
    }

    /// Pieces of `by` that attack `sq`, given the occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: B) -> B {
        if self.rules.by_trial {
            self.irregular_attackers(sq, by, occ)
        } else {
            self.one_leg_attackers(sq, by, occ)
        }
    }

    /// [`Position::attackers_to`] where the one-leg tables do not tell it
    /// all: moves in two legs, hops, borrowed movement. Kept out of line.
    #[inline(never)]
    fn irregular_attackers(&self, sq: Square, by: Color, occ: B) -> B {
        if self.rules.borrows() {
            return self.borrowed_attackers(sq, by, occ);
        }
        self.one_leg_attackers(sq, by, occ)
            | self.two_leg_attackers(sq, by)
            | self.hop_attackers(sq, by, occ)
    }

    /// The role whose movement the piece of `color` and `role` on `sq` has:
    /// that of the friendly piece on its lending square
    /// (`rules.move_as_friend_at`), if there is one; else its own.
    #[inline]
    pub fn moves_as(&self, color: Color, role: Role, sq: Square) -> Role {
        match self.rules.lender(color, sq).and_then(|l| self.piece_at(l)) {
            Some(friend) if friend.color == color => friend.role,
            _ => role,
        }
    }

    /// Pieces of `by` that attack `sq` given the occupancy, each by the
    /// movement it borrows ([`Position::moves_as`]); lenders are read from
    /// the board as it stands. No role moves in two legs here (the
    /// validator refuses them with borrowing).
    fn borrowed_attackers(&self, sq: Square, by: Color, occ: B) -> B {
        let rules = &*self.rules;
        let mut att = B::EMPTY;
        for from in self.by_color[by.index()].squares() {
            let Some(piece) = self.piece_at(from) else {
                continue;
            };
            let role = self.moves_as(by, piece.role, from);
            if (rules.role(role).hops || rules.reach(by, role, from).contains(sq))
                && rules.attacks_all(by, role, from, occ).contains(sq)
            {
                att |= B::from_square(from);
            }
        }
        att
    }

    /// Pieces of `by` that hop over a screen onto `sq`, given the
    /// occupancy: each hopper's own attacks are looked at, since a hop seen
    /// from its target is not the same move turned round (a grasshopper's
    /// screen is next to where it lands, not next to where it stands).
    /// Kept out of line: games without hoppers never call it.
    #[inline(never)]
    fn hop_attackers(&self, sq: Square, by: Color, occ: B) -> B {
        let rules = &*self.rules;
        let mut att = B::EMPTY;
        if !rules.has_hoppers {
            return att;
        }
        for role in rules.all_roles().filter(|&r| rules.role(r).hops) {
            let near = self.pieces(by, role) & rules.hop_sources(by, role, sq);
            for from in near.squares() {
                if rules.hop_attacks(by, role, from, occ).contains(sq) {
                    att |= B::from_square(from);
                }
            }
        }
        att
    }

    /// Pieces of `by` whose leaps and rides attack `sq`, given the occupancy.
    #[inline]
    pub(crate) fn one_leg_attackers(&self, sq: Square, by: Color, occ: B) -> B {
        self.one_leg_attackers_among(self.present[by.index()], sq, by, occ)
    }

    /// The roles of `by` with a piece where it could attack, on an empty
    /// board, a square the royal of the other colour on `royal` could move
    /// to, as a mask over role indices (every role present where the rules
    /// make no table for it).
    #[inline]
    pub(crate) fn roles_near_royal(&self, by: Color, royal: Square) -> B::Roles {
        let present = self.present[by.index()];
        let Some(near) = self.rules.near_royal(by.opposite(), royal) else {
            return present;
        };
        let mine = self.by_color[by.index()];
        let mut roles = present;
        for i in present.iter() {
            if (self.by_role.as_ref()[i] & mine & near[i]).is_empty() {
                roles.remove(i);
            }
        }
        roles
    }

    /// [`Position::one_leg_attackers`] among the roles of the mask `roles`.
    #[inline]
    pub(crate) fn one_leg_attackers_among(
        &self,
        roles: B::Roles,
        sq: Square,
        by: Color,
        occ: B,
    ) -> B {
        let mine = self.by_color[by.index()];
        let them = by.opposite();
        let mut att = B::EMPTY;
        let reaches = self.rules.reaches(them, sq);
        for i in roles.iter() {
            let p = self.by_role.as_ref()[i] & mine & reaches[i];
            if p.any() {
                att |= self.rules.attacks(them, Role(i as u16), sq, occ) & p;
            }
        }
        att
    }

    /// Pieces of `by` whose two-leg moves capture on `sq` (read from the
    /// board as it stands, whatever occupancy [`Position::attackers_to`] is given).
    /// Kept out of line: games without two-leg moves never call it.
    #[inline(never)]
    fn two_leg_attackers(&self, sq: Square, by: Color) -> B {
        let rules = &*self.rules;
        let victims = self.by_color[by.opposite().index()];
        let empty = rules.all & !self.occupied();
        let mut att = B::EMPTY;
        if !rules.has_two_legs {
            return att;
        }
        for role in rules.all_roles().filter(|&r| rules.role(r).two_legs) {
            for from in self.pieces(by, role).squares() {
                let left = empty | B::from_square(from);
                for hop in rules.hops(by, role, from) {
                    let takes = victims.contains(hop.mid) && hop.first != Mode::MoveOnly;
                    let passes = empty.contains(hop.mid) && hop.first != Mode::CaptureOnly;
                    let [both, to_empty, to_capture] = hop.second;
                    let reaches = (both | to_capture).contains(sq) && (takes || passes);
                    let takes_here = hop.mid == sq
                        && takes
                        && ((both & (left | victims)) | (to_empty & left) | (to_capture & victims))
                            .any();
                    if reaches || takes_here {
                        att |= B::from_square(from);
                        break;
                    }
                }
            }
        }
        att
    }

    /// Pieces of the opponent attacking `color`'s royal, where the rules hold
    /// it to one royal (otherwise nobody is "in check").
    fn attackers_to_royal(&self, color: Color) -> B {
        if !self.rules.check {
            return B::EMPTY;
        }
        match self.royal_square(color) {
            Some(k) => self.attackers_to(k, color.opposite(), self.occupied()),
            None => B::EMPTY,
        }
    }

    /// [`Position::attackers_to_royal`] of the side to move just after a
    /// one-leg move (or a drop, without `from`) to `to` that took no royal,
    /// where attacks are one-leg leaps and rides: the piece on `to`, and the
    /// riders of the mover whose line to the royal ran through `from`.
    /// Nothing else can have started to attack it (and before the move,
    /// with its royals as they are now, it was not the side to move's to
    /// leave attacked).
    #[inline]
    fn checkers_after(&self, from: Option<Square>, to: Square) -> B {
        let rules = &*self.rules;
        let them = self.turn;
        let us = them.opposite();
        let Some(k) = self.royal_square(them) else {
            return B::EMPTY;
        };
        let occ = self.occupied();
        let mut checkers = B::EMPTY;
        if let Some(p) = self.piece_at(to)
            && rules.reach(us, p.role, to).contains(k)
            && rules.attacks(us, p.role, to, occ).contains(k)
        {
            checkers = B::from_square(to);
        }
        // A square off every line to the royal, or with a piece between
        // it and the royal, uncovers nothing.
        let Some(from) = from.filter(|&f| {
            rules.ride_lines(them, k).contains(f) && (rules.between(k, f) & occ).is_empty()
        }) else {
            return checkers;
        };
        let ours = self.by_color[us.index()];
        let riders = rules.rider_roles & self.present[us.index()];
        for i in riders.iter() {
            let snipers =
                self.by_role.as_ref()[i] & ours & rules.ride_xray(them, Role(i as u16), k);
            for s in snipers.squares() {
                let between = rules.between(k, s);
                if between.contains(from) && (between & occ).is_empty() {
                    checkers |= B::from_square(s);
                }
            }
        }
        checkers
    }

    fn compute_hash(&self) -> (u64, u64) {
        let mut board = 0;
        for sq in self.rules.topology.squares() {
            if let Some(p) = self.piece_at(sq) {
                board ^= self.rules.z_piece(p, sq);
            }
        }
        if self.turn == Color::Gote {
            board ^= self.rules.z_turn;
        }
        let mut hand: u64 = 0;
        for color in Color::ALL {
            for role in self.rules.all_roles() {
                hand = hand.wrapping_add(
                    self.rules
                        .z_hand(color, role)
                        .wrapping_mul(self.hand(color, role) as u64),
                );
            }
        }
        (board, hand)
    }

    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        let b = B::from_square(sq);
        self.board.as_mut()[sq.index()] = B::Cell::from_code(code(piece));
        self.by_color[piece.color.index()] ^= b;
        self.by_role.as_mut()[piece.role.index()] ^= b;
        self.present[piece.color.index()].insert(piece.role.index());
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        let b = B::from_square(sq);
        self.board.as_mut()[sq.index()] = B::Cell::from_code(0);
        self.by_color[piece.color.index()] ^= b;
        self.by_role.as_mut()[piece.role.index()] ^= b;
        if self.pieces(piece.color, piece.role).is_empty() {
            self.present[piece.color.index()].remove(piece.role.index());
        }
    }

    /// Plays a move that the caller knows to be legal, without checking it:
    /// the search's and perft's hot path. Debug builds assert that the moving
    /// piece is the mover's and a dropped one is in hand.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(
            match mv {
                Move::Normal { from, .. } | Move::MultiLeg { from, .. } =>
                    self.piece_at(from).is_some_and(|p| p.color == self.turn),
                Move::Drop { role, .. } => self.hand(self.turn, self.rules.role(role).base) > 0,
            },
            "play_unchecked: {mv:?} has no piece of the side to move"
        );
        let us = self.turn;
        let mut hash = self.state().board_hash;
        if let Some(sq) = self.state().strike {
            hash ^= self.rules.z_strike[sq.index()];
        }
        let mut hand_hash = self.state().hand_hash;
        let taken_from = self.taken.len();
        let mut mover = None;
        // A royal taken can leave the opponent with one royal, attacked
        // by pieces that could attack it while it had two.
        let mut royal_taken = false;
        match mv {
            Move::Normal { from, to, promote }
            | Move::MultiLeg {
                from, to, promote, ..
            } => {
                let Some(piece) = self.piece_at(from) else {
                    return;
                };
                mover = Some(piece);
                for sq in capture_squares(mv).into_iter().flatten() {
                    if let Some(cap) = self.capture(sq, &mut hash, &mut hand_hash) {
                        royal_taken |= self.rules.role(cap.role).royal;
                    }
                }
                self.remove(piece, from);
                hash ^= self.rules.z_piece(piece, from);
                let role = match (promote, self.rules.role(piece.role).other_side) {
                    (true, Some(p)) => p,
                    _ => piece.role,
                };
                let moved = Piece { color: us, role };
                self.put(moved, to);
                hash ^= self.rules.z_piece(moved, to);
            }
            Move::Drop { role, to } => {
                let base = self.rules.role(role).base;
                self.hands[us.index()].as_mut()[base.index()] -= 1;
                hand_hash = hand_hash.wrapping_sub(self.rules.z_hand(us, base));
                let piece = Piece { color: us, role };
                self.put(piece, to);
                hash ^= self.rules.z_piece(piece, to);
            }
        }
        let strike = match (self.rules.trade, mover) {
            (Some(_), Some(piece)) => self.strike_after(piece, &self.taken[taken_from..]),
            _ => None,
        };
        if let Some(sq) = strike {
            hash ^= self.rules.z_strike[sq.index()];
        }
        self.turn = us.opposite();
        hash ^= self.rules.z_turn;
        let checkers = match mv {
            Move::Normal { from, to, .. }
                if self.rules.check && !self.rules.by_trial && !royal_taken =>
            {
                self.checkers_after(Some(from), to)
            }
            Move::Drop { to, .. } if self.rules.check && !self.rules.by_trial => {
                self.checkers_after(None, to)
            }
            _ => self.attackers_to_royal(self.turn),
        };
        debug_assert_eq!(
            checkers,
            self.attackers_to_royal(self.turn),
            "checkers after {mv:?}"
        );
        self.states.push(State {
            board_hash: hash,
            hand_hash,
            checkers,
            taken_from: taken_from as u32,
            strike,
            mv: Some(mv),
        });
    }

    /// Takes the piece on `sq`, if any, into the mover's hand (where the
    /// rules have drops) and writes it in the capture log.
    #[inline]
    fn capture(&mut self, sq: Square, hash: &mut u64, hand_hash: &mut u64) -> Option<Piece> {
        let cap = self.piece_at(sq)?;
        let us = self.turn;
        self.remove(cap, sq);
        *hash ^= self.rules.z_piece(cap, sq);
        if self.rules.drops {
            let base = self.rules.role(cap.role).base;
            self.hands[us.index()].as_mut()[base.index()] += 1;
            *hand_hash = hand_hash.wrapping_add(self.rules.z_hand(us, base));
        }
        self.taken.push((sq, cap));
        Some(cap)
    }

    /// Puts back a piece that a move of `us` captured on `sq`.
    #[inline]
    fn uncapture(&mut self, cap: Piece, sq: Square, us: Color) {
        self.put(cap, sq);
        if self.rules.drops {
            let base = self.rules.role(cap.role).base;
            self.hands[us.index()].as_mut()[base.index()] -= 1;
        }
    }

    /// Passes the turn without moving: the search's null move. The side to
    /// move must not be in check. Take it back with [`Position::undo_null`],
    /// not [`Position::undo`].
    pub fn play_null(&mut self) {
        debug_assert!(!self.in_check(), "play_null: the side to move is in check");
        let st = *self.state();
        self.turn = self.turn.opposite();
        let checkers = self.attackers_to_royal(self.turn);
        // A limit on the reply lapses with the turn passed.
        let strike_key = st.strike.map_or(0, |sq| self.rules.z_strike[sq.index()]);
        self.states.push(State {
            board_hash: st.board_hash ^ self.rules.z_turn ^ strike_key,
            hand_hash: st.hand_hash,
            checkers,
            taken_from: self.taken.len() as u32,
            strike: None,
            mv: None,
        });
    }

    /// Takes back a [`Position::play_null`] (at the setup, nothing: as [`Position::undo`]).
    pub fn undo_null(&mut self) {
        debug_assert!(
            self.states.len() < 2 || self.state().mv.is_none(),
            "undo_null: the last move was not a null move"
        );
        if self.states.len() > 1 {
            self.states.pop();
            self.turn = self.turn.opposite();
        }
    }

    /// Takes back the last move. Returns it, or `None` at the setup.
    pub fn undo(&mut self) -> Option<Move> {
        if self.states.len() < 2 {
            return None;
        }
        let st = self.states.pop()?;
        let mv = st.mv?;
        let us = self.turn.opposite();
        self.turn = us;
        match mv {
            Move::Normal { from, to, promote }
            | Move::MultiLeg {
                from, to, promote, ..
            } => {
                let moved = self.piece_at(to)?;
                self.remove(moved, to);
                let role = match (promote, self.rules.role(moved.role).other_side) {
                    (true, Some(r)) => r,
                    _ => moved.role,
                };
                self.put(Piece { color: us, role }, from);
            }
            Move::Drop { role, to } => {
                self.remove(Piece { color: us, role }, to);
                self.hands[us.index()].as_mut()[self.rules.role(role).base.index()] += 1;
            }
        }
        // The pieces the move took, last taken first.
        while self.taken.len() > st.taken_from as usize {
            if let Some((sq, cap)) = self.taken.pop() {
                self.uncapture(cap, sq, us);
            }
        }
        Some(mv)
    }

    /// A copy that keeps only the current state, not the game's history
    /// (cheap, for looking one move ahead).
    pub(crate) fn without_history(&self) -> Position<B> {
        Position {
            rules: Arc::clone(&self.rules),
            board: self.board,
            by_color: self.by_color,
            by_role: self.by_role.clone(),
            present: self.present,
            hands: self.hands.clone(),
            royal_roles: self.royal_roles,
            turn: self.turn,
            start_move_number: self.start_move_number,
            states: vec![State {
                taken_from: 0,
                ..*self.state()
            }],
            taken: Vec::new(),
        }
    }

    /// The position as a setup (to print it as FEN or SFEN).
    pub fn to_setup(&self) -> Setup {
        let t = self.rules.topology;
        let ranks = (0..t.rows)
            .rev()
            .map(|rank| {
                (0..t.cols)
                    .map(|file| {
                        t.cell(file.into(), rank.into())
                            .and_then(|c| self.piece_at(c))
                            .map(|p| SetupPiece {
                                color: p.color,
                                id: self.rules.role(p.role).id,
                                promoted: self.rules.role(p.role).promoted,
                            })
                    })
                    .collect()
            })
            .collect();
        let mut hands = Vec::new();
        for color in Color::ALL {
            for role in self.rules.all_roles() {
                let n = self.hand(color, role);
                if n > 0 {
                    hands.push((color, self.rules.role(role).id, n as u32));
                }
            }
        }
        let counterstrike = self.rules.trade.is_some_and(|t| t.counterstrike);
        Setup {
            ranks,
            holes: t.holes_as_written(),
            hands,
            turn: self.turn,
            move_number: self.move_number(),
            capture_square: self
                .state()
                .strike
                .filter(|_| counterstrike)
                .map(|sq| self.rules.topology.usi_name(sq)),
        }
    }
}

/// A square's name in USI (`5e`), for messages.
pub fn square_name<B: Bitboard>(rules: &Rules<B>, sq: Square) -> String {
    rules.topology.usi_name(sq)
}
