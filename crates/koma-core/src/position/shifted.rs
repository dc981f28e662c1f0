//! Moves of translating leapers, all pieces of a role at once (see
//! `rules/shifts.rs`): the generator's pass for them.

use super::Position;
use super::movegen::Sink;
use crate::board::Bitboard;
use crate::rules::{PromotionRule, Role, Shift};

impl<B: Bitboard> Position<B> {
    /// The moves of the pieces `set` of a translating leaper (`shifts`) to
    /// squares of `allowed`, under a zone rule (`optional` or `mandatory`,
    /// the only rules whose roles have shifts):
    /// [`Self::push_targets`] worked out for all the pieces at once.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn push_by_shifts<S: Sink>(
        &self,
        out: &mut S,
        role: Role,
        shifts: &[Shift<B>],
        set: B,
        allowed: B,
        occ: B,
        theirs: B,
    ) {
        if set.is_empty() || allowed.is_empty() {
            return;
        }
        let rules = &*self.rules;
        let us = self.turn;
        let empty = rules.all & !occ;
        let promotes = rules.role(role).promotion.is_some();
        let zone = rules.zone[us.index()];
        let arrive = rules.arrive[rules.cr(us, role)];
        let stays = if rules.promotion == PromotionRule::Optional {
            if rules.immobile_moves {
                rules.all
            } else {
                rules.mobile(us, role)
            }
        } else {
            B::EMPTY
        };
        for s in shifts {
            let from = set & s.from;
            if from.is_empty() {
                continue;
            }
            let open = s.mode.open(empty, theirs) & allowed;
            let to = from.shifted(s.delta) & open;
            if !promotes {
                out.push_shifted(s.delta, B::EMPTY, to & arrive);
                continue;
            }
            // From the zone every target may promote and none is barred;
            // from outside, those in the zone may, and only `arrive` is open.
            let from_zone = (from & zone).shifted(s.delta) & to;
            let outside = to & !from_zone & arrive;
            let promoting = from_zone | (outside & zone);
            out.push_shifted(
                s.delta,
                promoting,
                ((from_zone | outside) & !promoting) | (promoting & stays),
            );
        }
    }
}
