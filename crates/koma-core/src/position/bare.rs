//! `rules.bare_royal`: a side left with a lone royal piece loses, and two
//! lone royals draw (chu shogi's bare king, as lishogi judges it). These end
//! the game without stopping move generation (as repetition does), so they
//! are asked of [`Position::outcome`] and the search, after the other ends.

use super::{Outcome, Position, Reason};
use crate::board::{Bitboard, Color};
use crate::rules::BareRoyal;

impl<B: Bitboard> Position<B> {
    /// The end the bare-royal rules give here, if any: the side to move
    /// bared loses, the opponent bared wins for it, two lone royals draw.
    pub(super) fn bare_end(&self) -> Option<Outcome> {
        let bare = self.rules.bare_royal?;
        let us = self.turn;
        if bare.loses {
            for loser in [us, us.opposite()] {
                if self.bared(loser, &bare) {
                    return Some(Outcome::Win {
                        winner: loser.opposite(),
                        reason: Reason::BareRoyal,
                    });
                }
            }
        }
        let lone = bare.both_draw
            && (self.movable(Color::Sente) | self.movable(Color::Gote)).count() == 2
            && Color::ALL
                .iter()
                .all(|&c| self.royals(c).count() == 1 && !self.attacks_royal_of(c));
        lone.then_some(Outcome::Draw {
            reason: Reason::LoneRoyals,
        })
    }

    /// The pieces of `color` on squares from which they can still move.
    fn movable(&self, color: Color) -> B {
        self.rules.all_roles().fold(B::EMPTY, |b, role| {
            b | (self.pieces(color, role) & self.rules.mobile(color, role))
        })
    }

    /// Whether a piece of `color`'s opponent attacks a royal of `color`.
    fn attacks_royal_of(&self, color: Color) -> bool {
        let occ = self.occupied();
        self.royals(color)
            .squares()
            .any(|k| self.attackers_to(k, color.opposite(), occ).any())
    }

    /// Whether `color` is bared: its one royal is all it has that can move,
    /// while the opponent has one royal, not attacked, and besides it
    /// counted pieces (able to move, not of the uncounted kinds): two or
    /// more, or one that does not stand next to the bare royal.
    fn bared(&self, color: Color, bare: &BareRoyal) -> bool {
        let them = color.opposite();
        let ours = self.royals(color);
        if ours.count() != 1 || self.movable(color) != ours {
            return false;
        }
        let uncounted = self
            .rules
            .all_roles()
            .filter(|r| bare.uncounted.contains(r.index()))
            .fold(B::EMPTY, |b, r| b | self.pieces(them, r));
        let theirs = self.movable(them) & !uncounted;
        if self.royals(them).count() != 1 || theirs.count() < 2 || self.attacks_royal_of(them) {
            return false;
        }
        let king = ours.lsb();
        theirs.count() > 2 || !theirs.squares().any(|sq| self.next_to(king, sq))
    }
}
