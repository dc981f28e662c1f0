//! Legal move generation, written once for every variant: pins and check
//! masks for the pieces on the board, attack tests for royal moves, bitboard
//! masks for drops, and the drop-mate rule.

use super::{Move, Position};
use crate::board::{Bitboard, Color, Square};
use crate::rules::{PromotionRule, Role};

/// Where generated moves go: a list, or a flag that the first one exists.
trait Sink {
    fn push(&mut self, mv: Move);
    /// Whether generation may stop (enough moves seen).
    fn full(&self) -> bool;
}

impl Sink for Vec<Move> {
    #[inline]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
    #[inline]
    fn full(&self) -> bool {
        false
    }
}

/// Records whether any move was generated.
struct First(bool);

impl Sink for First {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 = true;
    }
    #[inline]
    fn full(&self) -> bool {
        self.0
    }
}

/// At most this many pieces can be pinned at once (one per line through the royal).
const MAX_PINS: usize = 32;

/// Restrictions on the pieces of the side to move, for its one royal.
struct Guard<B> {
    royal: Square,
    /// Squares a non-royal move must end on (everything when not in check).
    evasion: B,
    /// Pinned pieces and the line each may stay on.
    pinned: B,
    pins: [(Square, B); MAX_PINS],
    pin_count: usize,
}

impl<B: Bitboard> Guard<B> {
    #[inline]
    fn pin_line(&self, sq: Square) -> B {
        let mut line = !B::EMPTY;
        for &(s, l) in &self.pins[..self.pin_count] {
            if s == sq {
                line &= l;
            }
        }
        line
    }
}

impl<B: Bitboard> Position<B> {
    /// All legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(128);
        self.generate(&mut moves);
        moves
    }

    /// Appends all legal moves to `out` (cleared first).
    pub fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        self.generate_into(out);
    }

    /// Appends the legal captures to `out` (cleared first): the moves of
    /// pieces on the board to a square of the opponent, promoting or not;
    /// no drops. The quiescence search's generator.
    pub fn generate_captures(&self, out: &mut Vec<Move>) {
        out.clear();
        self.generate_some(out, self.by_color[self.turn.opposite().index()], false);
    }

    /// Whether the side to move has a legal move: stops at the first one.
    pub fn has_legal_move(&self) -> bool {
        let mut first = First(false);
        self.generate_into(&mut first);
        first.0
    }

    /// Hands every legal move to `out`, until it says it has enough.
    fn generate_into<S: Sink>(&self, out: &mut S) {
        self.generate_some(out, !B::EMPTY, true);
    }

    /// Hands the legal moves to `out` that end on `to_mask` (drops too, if
    /// `drops`), until it says it has enough.
    fn generate_some<S: Sink>(&self, out: &mut S, to_mask: B, drops: bool) {
        if (self.royal_roles != 0 || self.rules.has_tries) && self.terminal().is_some() {
            return;
        }
        let rules = &*self.rules;
        let us = self.turn;
        let them = us.opposite();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = ours | theirs;
        let guard = self.guard();
        let double_check = guard.is_some() && self.checkers().more_than_one();

        for (i, &bb) in self.by_role[..rules.role_count()].iter().enumerate() {
            let role = Role(i as u8);
            for from in (bb & ours).squares() {
                if out.full() {
                    return;
                }
                let targets = rules.targets(us, role, from, occ, theirs)
                    & rules.arrival(us, role, from)
                    & to_mask;
                match &guard {
                    Some(g) if g.royal == from => {
                        let without = occ ^ B::from_square(from);
                        for to in targets.squares() {
                            if (self.attackers_to(to, them, without) & !B::from_square(to))
                                .is_empty()
                            {
                                self.push_normal(out, role, from, to);
                            }
                        }
                    }
                    Some(g) => {
                        let mut t = if double_check {
                            B::EMPTY
                        } else {
                            targets & g.evasion
                        };
                        if g.pinned.contains(from) {
                            t &= g.pin_line(from);
                        }
                        for to in t.squares() {
                            self.push_normal(out, role, from, to);
                        }
                    }
                    None => {
                        for to in targets.squares() {
                            self.push_normal(out, role, from, to);
                        }
                    }
                }
            }
        }

        if !rules.drops || !drops || double_check {
            return;
        }
        let empty = rules.all & !occ;
        let drop_squares = match &guard {
            Some(g) => empty & g.evasion,
            None => empty,
        };
        if drop_squares.is_empty() {
            return;
        }
        for role in rules.all_roles() {
            if self.hands[us.index()][role.index()] == 0 || out.full() {
                continue;
            }
            let info = rules.role(role);
            let mut t = if rules.immobile_drops {
                drop_squares
            } else {
                drop_squares & rules.mobile(us, role)
            };
            if let Some(max) = info.max_per_file {
                let mine = self.pieces(us, role);
                if mine.any() {
                    for &file in &rules.files {
                        if (mine & file).count() >= max as u32 {
                            t &= !file;
                        }
                    }
                }
            }
            for to in t.squares() {
                if info.drop_mate_illegal && self.drop_mates(us, role, to) {
                    continue;
                }
                out.push(Move::Drop { role, to });
            }
            if let Some(other) = info.other_side.filter(|_| rules.drop_promoted) {
                let t = if rules.immobile_drops {
                    drop_squares
                } else {
                    drop_squares & rules.mobile(us, other)
                };
                for to in t.squares() {
                    out.push(Move::Drop { role: other, to });
                }
            }
        }
    }

    /// The check mask and pins for the side to move, where it has exactly one royal.
    #[inline]
    fn guard(&self) -> Option<Guard<B>> {
        let rules = &*self.rules;
        let us = self.turn;
        let them = us.opposite();
        if !rules.check {
            return None;
        }
        let royal = self.royal_square(us)?;
        let occ = self.occupied();
        let ours = self.by_color[us.index()];
        let checkers = self.checkers();
        let evasion = if checkers.is_empty() {
            !B::EMPTY
        } else if checkers.more_than_one() {
            B::EMPTY
        } else {
            let c = checkers.lsb();
            let role = self.piece_at(c).map(|p| p.role).unwrap_or(Role(0));
            if rules.leap_attacks(them, role, c, royal) {
                checkers
            } else {
                checkers | rules.between(royal, c)
            }
        };
        let mut g = Guard {
            royal,
            evasion,
            pinned: B::EMPTY,
            pins: [(royal, B::EMPTY); MAX_PINS],
            pin_count: 0,
        };
        let theirs = self.by_color[them.index()];
        for (i, &bb) in self.by_role[..rules.role_count()].iter().enumerate() {
            let role = Role(i as u8);
            if !rules.role(role).rides {
                continue;
            }
            let snipers = bb & theirs;
            if snipers.is_empty() {
                continue;
            }
            // Squares from which their rider of this role would reach our royal
            // on an empty board: our own orientation of the role, from the royal.
            for s in (rules.ride_xray(us, role, royal) & snipers).squares() {
                let between = rules.between(royal, s);
                let blockers = between & occ;
                if blockers.any()
                    && !blockers.more_than_one()
                    && (blockers & ours).any()
                    && g.pin_count < MAX_PINS
                {
                    g.pinned |= blockers;
                    g.pins[g.pin_count] = (blockers.lsb(), between | B::from_square(s));
                    g.pin_count += 1;
                }
            }
        }
        Some(g)
    }

    /// Whether a move of `role` from `from` to `to` may promote (turn over).
    #[inline]
    fn may_promote(&self, role: Role, from: Square, to: Square) -> bool {
        let rules = &*self.rules;
        let info = rules.role(role);
        match rules.promotion {
            PromotionRule::Flip => info.other_side.is_some(),
            _ => {
                info.promotion.is_some()
                    && (rules.zone[self.turn.index()] & (B::from_square(from) | B::from_square(to)))
                        .any()
            }
        }
    }

    #[inline(always)]
    fn push_normal<S: Sink>(&self, out: &mut S, role: Role, from: Square, to: Square) {
        let rules = &*self.rules;
        if !self.may_promote(role, from, to) {
            out.push(Move::Normal {
                from,
                to,
                promote: false,
            });
            return;
        }
        out.push(Move::Normal {
            from,
            to,
            promote: true,
        });
        if rules.promotion == PromotionRule::Optional && rules.mobile(self.turn, role).contains(to)
        {
            out.push(Move::Normal {
                from,
                to,
                promote: false,
            });
        }
    }

    /// Whether dropping `role` on `to` checkmates the opponent.
    fn drop_mates(&self, us: Color, role: Role, to: Square) -> bool {
        let them = us.opposite();
        let Some(their_royal) = self.royal_square(them) else {
            return false;
        };
        let occ = self.occupied() | B::from_square(to);
        if !self.rules.attacks(us, role, to, occ).contains(their_royal) {
            return false;
        }
        let mut after = self.without_history();
        after.play_unchecked(Move::Drop { role, to });
        !after.has_legal_move()
    }

    /// Counts the leaves of the legal move tree `depth` plies deep.
    pub fn perft(&mut self, depth: u32) -> u64 {
        let mut buffers: Vec<Vec<Move>> = (0..=depth).map(|_| Vec::with_capacity(256)).collect();
        self.perft_with(depth, &mut buffers)
    }

    fn perft_with(&mut self, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (mine, rest) = buffers.split_first_mut().expect("one buffer per ply");
        self.generate(mine);
        if depth == 1 {
            return mine.len() as u64;
        }
        let mut nodes = 0;
        for &mv in mine.iter() {
            self.play_unchecked(mv);
            nodes += self.perft_with(depth - 1, rest);
            self.undo();
        }
        nodes
    }
}
