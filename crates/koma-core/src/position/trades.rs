//! Capture limits between the roles a variant marks `trade_limited`
//! (`rules.trade_limits`, chu shogi's lion-trading rules): a marked piece
//! may not take a protected marked piece from afar, and after a marked piece
//! fell to an unmarked one, the reply may not take a marked piece with an
//! unmarked one. Both filter the moves the generator finds; the second is
//! remembered in the position as the square of that capture.

use super::movegen::Sink;
use super::{Move, Position};
use crate::board::{Bitboard, Square};
use crate::rules::{Piece, TradeLimits};

/// Why the trade limits forbid a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TradeBan {
    /// A marked piece would take a marked piece that stands next to none of
    /// the squares around its start and that its side protects.
    DistantProtected,
    /// A marked piece was just taken by an unmarked one: an unmarked piece
    /// may not take a marked one now, except on this square.
    Counterstrike {
        /// The square of the capture that set the limit.
        square: Square,
    },
}

/// A sink that passes on the moves the trade limits allow.
pub(super) struct Limited<'a, S, B: Bitboard> {
    pos: &'a Position<B>,
    limits: TradeLimits,
    /// A copy to play moves on, made the first time protection is asked.
    scratch: Option<Position<B>>,
    out: &'a mut S,
}

impl<'a, S, B: Bitboard> Limited<'a, S, B> {
    pub(super) fn new(pos: &'a Position<B>, limits: TradeLimits, out: &'a mut S) -> Self {
        Limited {
            pos,
            limits,
            scratch: None,
            out,
        }
    }
}

impl<S: Sink, B: Bitboard> Sink for Limited<'_, S, B> {
    #[inline]
    fn push(&mut self, mv: Move) {
        if self
            .pos
            .trade_ban_with(mv, self.limits, &mut self.scratch)
            .is_none()
        {
            self.out.push(mv);
        }
    }
    #[inline]
    fn full(&self) -> bool {
        self.out.full()
    }
}

impl<B: Bitboard> Position<B> {
    /// The square where, on the last move, an unmarked piece took a marked
    /// one, where the rules have a counterstrike limit: the side to move may
    /// then take a marked piece with an unmarked one only there.
    #[inline]
    pub fn counterstrike_square(&self) -> Option<Square> {
        self.state().strike
    }

    /// Why the trade limits forbid a move of the side to move, if they do
    /// (the move is otherwise assumed possible).
    pub fn trade_ban(&self, mv: Move) -> Option<TradeBan> {
        let limits = self.rules.trade?;
        self.trade_ban_with(mv, limits, &mut None)
    }

    fn trade_ban_with(
        &self,
        mv: Move,
        limits: TradeLimits,
        scratch: &mut Option<Position<B>>,
    ) -> Option<TradeBan> {
        let (from, via, to) = match mv {
            Move::Normal { from, to, .. } => (from, None, to),
            Move::MultiLeg { from, via, to, .. } => (from, Some(via), to),
            Move::Drop { .. } => return None,
        };
        let mover = self.piece_at(from)?;
        let victim = |sq: Square| self.piece_at(sq).filter(|p| p.color != mover.color);
        let last = if to == from { None } else { victim(to) };
        let on_way = via.and_then(victim);
        let marked = |p: Option<Piece>| p.is_some_and(|p| limits.marks(p.role));
        if !limits.marks(mover.role) {
            let square = self.state().strike?;
            let banned = (marked(last) && to != square)
                || via.is_some_and(|v| marked(on_way) && v != square);
            return banned.then_some(TradeBan::Counterstrike { square });
        }
        if !limits.distant_protected || !marked(last) || self.next_to(from, to) {
            return None;
        }
        let bridged = match (limits.bridge_except, on_way) {
            (Some(except), Some(w)) => !except.contains(w.role.index()),
            _ => false,
        };
        if bridged {
            return None;
        }
        let them = mover.color.opposite();
        let after = scratch.get_or_insert_with(|| self.without_history());
        after.play_unchecked(mv);
        let protected = after.attackers_to(to, them, after.occupied()).any();
        after.undo();
        protected.then_some(TradeBan::DistantProtected)
    }

    /// Whether two squares touch (a king's step apart).
    pub(super) fn next_to(&self, a: Square, b: Square) -> bool {
        let t = self.rules.topology;
        t.file(a).abs_diff(t.file(b)) <= 1 && t.rank(a).abs_diff(t.rank(b)) <= 1
    }

    /// The square a counterstrike limit remembers after a move by `mover`
    /// that took `taken` (its part of the capture log, in the order taken):
    /// the last square where it took a marked piece.
    pub(super) fn strike_after(&self, mover: Piece, taken: &[(Square, Piece)]) -> Option<Square> {
        let limits = self.rules.trade.filter(|t| t.counterstrike)?;
        if limits.marks(mover.role) {
            return None;
        }
        taken
            .iter()
            .rev()
            .find(|(_, p)| limits.marks(p.role))
            .map(|&(sq, _)| sq)
    }
}
