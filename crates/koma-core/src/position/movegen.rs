//! Legal move generation, written once for every variant: pins and check
//! masks for the pieces on the board, attack tests for royal moves, bitboard
//! masks for drops, and the drop-mate rule.

use super::trades::Limited;
use super::{Move, Position};
use crate::board::{Bitboard, Color, RoleSet, Square};
use crate::rules::{PromotionRule, Role, Rules};

/// Where generated moves go: a list, a count, or a flag that the first
/// one exists.
pub(super) trait Sink {
    fn push(&mut self, mv: Move);
    /// Whether generation may stop (enough moves seen).
    fn full(&self) -> bool;
    /// The moves of the piece on `from` to the squares of `promoting`
    /// (turning over) and of `plain` (not), square by square in order, the
    /// promoting move first. A counter adds the sets' sizes instead.
    #[inline]
    fn push_normals<B: Bitboard>(&mut self, from: Square, promoting: B, plain: B) {
        self.push_each(|_| from, promoting, plain);
    }
    /// Drops of `role` on each square of `to`.
    #[inline]
    fn push_drops<B: Bitboard>(&mut self, role: Role, to: B) {
        for to in to.squares() {
            self.push(Move::Drop { role, to });
        }
    }
    /// The moves of several pieces by one offset: to each square of
    /// `promoting` (turning over) and of `plain` (not) from the square
    /// `delta` places below it, the promoting move first.
    #[inline]
    fn push_shifted<B: Bitboard>(&mut self, delta: i32, promoting: B, plain: B) {
        self.push_each(
            |to| Square::new((to.index() as i32 - delta) as u16),
            promoting,
            plain,
        );
    }
    /// The moves to each square of `promoting` (turning over) and of
    /// `plain` (not) from the square `from` gives, in order, the promoting
    /// move first.
    #[inline(always)]
    fn push_each<B: Bitboard>(&mut self, from: impl Fn(Square) -> Square, promoting: B, plain: B) {
        for to in (promoting | plain).squares() {
            let from = from(to);
            if promoting.contains(to) {
                self.push(Move::Normal {
                    from,
                    to,
                    promote: true,
                });
            }
            if plain.contains(to) {
                self.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
        }
    }
}

/// Counts the moves: perft's last ply, from set sizes.
struct Count(u64);

impl Sink for Count {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline]
    fn full(&self) -> bool {
        false
    }
    #[inline]
    fn push_normals<B: Bitboard>(&mut self, _: Square, promoting: B, plain: B) {
        self.0 += u64::from(promoting.count() + plain.count());
    }
    #[inline]
    fn push_drops<B: Bitboard>(&mut self, _: Role, to: B) {
        self.0 += u64::from(to.count());
    }
    #[inline]
    fn push_shifted<B: Bitboard>(&mut self, _: i32, promoting: B, plain: B) {
        self.0 += u64::from(promoting.count() + plain.count());
    }
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

/// A sink that passes on only the moves after which the mover's one royal
/// is not attacked, found by playing each move on a scratch copy: the
/// legality test of rules with two-leg moves, whose attacks and captures on
/// the way the pin and check masks do not describe.
struct Tried<'a, S, B: Bitboard> {
    scratch: Position<B>,
    out: &'a mut S,
    /// The squares a move must touch to be tried, from
    /// [`Rules::trial_watch`] of the mover's one royal: out of check, the
    /// squares always watched and the rays on which the other side has a
    /// piece (a move elsewhere is legal); in check, the squares always
    /// watched, the checkers and the rays they stand on (a move elsewhere
    /// leaves every check as it is, and is illegal). Every square without
    /// the table or a single royal.
    watch: B,
    /// Whether the royal is attacked: what a move off `watch` is.
    in_check: bool,
    /// The side's one royal (none: no move is illegal by the check rule).
    royal: Option<Square>,
}

impl<'a, S: Sink, B: Bitboard> Tried<'a, S, B> {
    fn new(pos: &Position<B>, out: &'a mut S) -> Self {
        let us = pos.turn;
        let them = us.opposite();
        let royal = pos.royal_square(us);
        let table = royal.and_then(|royal| pos.rules.trial_watch(us, royal));
        let (watch, in_check) = match table {
            None => (!B::EMPTY, false),
            Some((fixed, lines)) => {
                // The attackers of the one royal, kept since the last move.
                let checkers = pos.checkers();
                // Out of check, a line matters where a piece of the other
                // side could attack along it; in check, where a checker does.
                let (of, in_check) = match checkers.any() {
                    false => (pos.by_color[them.index()], false),
                    true => (checkers, true),
                };
                let lines = lines.iter().filter(|&&line| (line & of).any());
                (lines.fold(fixed | checkers, |w, &line| w | line), in_check)
            }
        };
        Tried {
            scratch: pos.without_history(),
            out,
            watch,
            in_check,
            royal,
        }
    }
}

impl<S: Sink, B: Bitboard> Sink for Tried<'_, S, B> {
    #[inline]
    fn push(&mut self, mv: Move) {
        let touched = match mv {
            Move::Normal { from, to, .. } => B::from_square(from) | B::from_square(to),
            Move::MultiLeg { from, via, to, .. } => {
                B::from_square(from) | B::from_square(via) | B::from_square(to)
            }
            Move::Drop { to, .. } => B::from_square(to),
        };
        if (touched & self.watch).is_empty() {
            if !self.in_check {
                self.out.push(mv);
            }
            return;
        }
        let Some(royal) = self.royal else {
            self.out.push(mv);
            return;
        };
        // The royal to keep safe is the one the side had before the move
        // (where it went, if it moved): a second royal made by the move does
        // not lift the duty, as the generator with a guard has it.
        let now = match mv {
            Move::Normal { from, to, .. } | Move::MultiLeg { from, to, .. } if from == royal => to,
            _ => royal,
        };
        let us = self.scratch.turn;
        self.scratch.play_unchecked(mv);
        let safe = self
            .scratch
            .attackers_to(now, us.opposite(), self.scratch.occupied())
            .is_empty();
        self.scratch.undo();
        if safe {
            self.out.push(mv);
        }
    }
    #[inline]
    fn full(&self) -> bool {
        self.out.full()
    }
}

/// At most this many pieces can be pinned at once (one per line through the royal).
const MAX_PINS: usize = 32;

/// Restrictions on the pieces of the side to move, for its one royal.
struct Guard<B> {
    royal: Square,
    /// Squares a non-royal move must end on (everything when not in check).
    evasion: B,
    /// Pinned pieces, and each one's square with the square of the rider
    /// that pins it (the line between is where it may stay).
    pinned: B,
    pins: [(Square, Square); MAX_PINS],
    pin_count: usize,
}

impl<B: Bitboard> Guard<B> {
    #[inline]
    fn pin_line(&self, rules: &Rules<B>, sq: Square) -> B {
        let mut line = !B::EMPTY;
        for &(s, sniper) in &self.pins[..self.pin_count] {
            if s == sq {
                line &= rules.between(self.royal, sniper) | B::from_square(sniper);
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

    /// Every move of the side to move, leaving its royal attacked or not
    /// (to explain why a move is illegal).
    pub(crate) fn pseudo_legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.generate_unguarded(&mut moves, !B::EMPTY, true);
        moves
    }

    /// Appends the legal captures to `out` (cleared first): the moves of
    /// pieces on the board to a square of the opponent, promoting or not;
    /// no drops. The quiescence search's generator.
    pub fn generate_captures(&self, out: &mut Vec<Move>) {
        out.clear();
        let theirs = self.by_color[self.turn.opposite().index()];
        self.generate_some(out, theirs, false);
        if self.rules.has_two_legs {
            // Two-leg moves whose route matters come whatever their end:
            // keep those that take something (igui, on the way), not passes.
            out.retain(|m| match *m {
                Move::MultiLeg { via, to, .. } => theirs.contains(via) || theirs.contains(to),
                _ => true,
            });
        }
    }

    /// Whether the side to move has a legal move: stops at the first one.
    pub fn has_legal_move(&self) -> bool {
        let mut first = First(false);
        self.generate_into(&mut first);
        first.0
    }

    /// Hands every legal move to `out`, until it says it has enough: none
    /// once the game is over.
    fn generate_into<S: Sink>(&self, out: &mut S) {
        self.generate_some(out, !B::EMPTY, true);
    }

    /// Hands the legal moves to `out` that end on `to_mask` (drops too, if
    /// `drops`), until it says it has enough.
    fn generate_some<S: Sink>(&self, out: &mut S, to_mask: B, drops: bool) {
        if self.checked_out() {
            return;
        }
        self.generate_replies(out, to_mask, drops);
    }

    /// The moves of the side to move even where a check it stands in has
    /// already ended the game (`check_wins`): whether such a check could be
    /// answered is what makes a drop mate.
    fn generate_replies<S: Sink>(&self, out: &mut S, to_mask: B, drops: bool) {
        if (!self.royal_roles.is_empty() || self.rules.has_tries)
            && self.terminal_on_board().is_some()
        {
            return;
        }
        match self.rules.trade {
            None => self.generate_legal(out, to_mask, drops),
            Some(limits) => {
                let mut limited = Limited::new(self, limits, out);
                self.generate_legal(&mut limited, to_mask, drops);
            }
        }
    }

    /// The legal moves by the check rule (all the rules but the trade limits).
    fn generate_legal<S: Sink>(&self, out: &mut S, to_mask: B, drops: bool) {
        // Pins and check masks describe neither two-leg moves, nor hops over
        // a screen (a move can add or take away a screen), nor borrowed
        // movement (a move can change how other pieces move): those games
        // try each move instead.
        if !self.rules.by_trial {
            self.generate_with::<S, false>(out, &self.guard(), to_mask, drops);
        } else if self.rules.check {
            let mut tried = Tried::new(self, out);
            self.generate_unguarded(&mut tried, to_mask, drops);
        } else {
            self.generate_unguarded(out, to_mask, drops);
        }
    }

    /// Every pseudo-legal move, with the movement each piece borrows where
    /// the rules have borrowing (a generator of its own, so that the other
    /// games pay nothing for it).
    fn generate_unguarded<S: Sink>(&self, out: &mut S, to_mask: B, drops: bool) {
        if self.rules.borrows() {
            self.generate_with::<S, true>(out, &None, to_mask, drops);
        } else {
            self.generate_with::<S, false>(out, &None, to_mask, drops);
        }
    }

    /// Hands to `out` every move that `guard` allows (every pseudo-legal
    /// move without a guard); with `BORROWS`, each piece moves as the
    /// friend it borrows from (never with a guard).
    fn generate_with<S: Sink, const BORROWS: bool>(
        &self,
        out: &mut S,
        guard: &Option<Guard<B>>,
        to_mask: B,
        drops: bool,
    ) {
        let rules = &*self.rules;
        let us = self.turn;
        let them = us.opposite();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = ours | theirs;
        let double_check = guard.is_some() && self.checkers().more_than_one();

        // Under the zone rules, translating leapers (but the royal and the
        // pinned) of the roles in `shift_roles` move all at once where they
        // have more pieces than offsets (one shift an offset against one
        // lookup a piece): a pass of their own, the loop below then sees
        // only the pieces left to it.
        let mut shifted = B::EMPTY;
        // (`shift_roles` is empty under the other promotion rules.)
        let shift_roles = rules.shift_roles[us.index()] & self.present[us.index()];
        if !BORROWS {
            for i in shift_roles.iter() {
                let on = self.by_role.as_ref()[i];
                if !(on & ours).more_than_one() {
                    continue;
                }
                let set = on
                    & ours
                    & match guard {
                        Some(g) => !(g.pinned | B::from_square(g.royal)),
                        None => !B::EMPTY,
                    };
                let role = Role(i as u16);
                if let Some(shifts) = rules.shifts(us, role)
                    && shifts.len() < set.count() as usize
                {
                    let shift_to = match guard {
                        Some(_) if double_check => B::EMPTY,
                        Some(g) => g.evasion & to_mask,
                        None => to_mask,
                    };
                    shifted |= set;
                    self.push_by_shifts(out, role, shifts, set, shift_to, occ, theirs);
                }
            }
        }
        let movers = ours & !shifted;
        // With a guard, the royal and the pinned pieces are taken apart
        // from the others, whose moves need only end on `evasion`.
        let (free, pinned, royal, allowed) = match guard {
            Some(g) => {
                let royal = B::from_square(g.royal) & movers;
                let evasion = if double_check { B::EMPTY } else { g.evasion };
                (
                    movers & !g.pinned & !royal,
                    movers & g.pinned,
                    royal,
                    evasion & to_mask,
                )
            }
            None => (movers, B::EMPTY, B::EMPTY, to_mask),
        };
        if allowed.any() {
            for i in self.present[us.index()].iter() {
                let role = Role(i as u16);
                for from in (self.by_role.as_ref()[i] & free).squares() {
                    if out.full() {
                        return;
                    }
                    // The movement may be a friend's; promotion is by the
                    // piece's own role.
                    let mover = if BORROWS {
                        self.moves_as(us, role, from)
                    } else {
                        role
                    };
                    let t = rules.targets(us, mover, from, occ, theirs)
                        & rules.arrival(us, role, from, theirs)
                        & allowed;
                    self.push_targets(out, role, from, t, theirs);
                }
            }
            if let Some(g) = guard {
                for from in pinned.squares() {
                    if out.full() {
                        return;
                    }
                    let Some(piece) = self.piece_at(from) else {
                        continue;
                    };
                    let t = rules.targets(us, piece.role, from, occ, theirs)
                        & rules.arrival(us, piece.role, from, theirs)
                        & allowed
                        & g.pin_line(rules, from);
                    self.push_targets(out, piece.role, from, t, theirs);
                }
            }
        }
        if royal.any() && !out.full() {
            // Each target of the royal asked alone, seen through it (a guard
            // exists only without two-leg moves).
            let from = royal.lsb();
            let role = self.piece_at(from).map_or(Role(0), |p| p.role);
            let targets = rules.targets(us, role, from, occ, theirs)
                & rules.arrival(us, role, from, theirs)
                & to_mask;
            let without = occ ^ royal;
            let near = self.roles_near_royal(them, from);
            let mut safe = B::EMPTY;
            for to in targets.squares() {
                let attackers = self.one_leg_attackers_among(near, to, them, without);
                if (attackers & !B::from_square(to)).is_empty() {
                    safe |= B::from_square(to);
                }
            }
            self.push_targets(out, role, from, safe, theirs);
        }

        // Two-leg moves (only ever without a guard): those whose route
        // matters, then the plain moves they add.
        if rules.has_two_legs {
            for role in rules.all_roles().filter(|&r| rules.role(r).two_legs) {
                for from in (self.by_role.as_ref()[role.index()] & ours).squares() {
                    let arrival = rules.arrival(us, role, from, theirs);
                    let plain = self.push_two_legs(out, role, from, occ, theirs)
                        & arrival
                        & to_mask
                        & !rules.targets(us, role, from, occ, theirs);
                    for to in plain.squares() {
                        self.push_normal(out, role, from, to);
                    }
                }
            }
        }

        // Hops over a screen (only ever without a guard), but for squares
        // the piece's other moves reach; with borrowing, of each piece
        // whose movement (its own or a friend's) hops.
        if rules.has_hoppers && BORROWS {
            for from in ours.squares() {
                let Some(piece) = self.piece_at(from) else {
                    continue;
                };
                let mover = self.moves_as(us, piece.role, from);
                if !rules.role(mover).hops {
                    continue;
                }
                let hops = rules.hop_targets(us, mover, from, occ, theirs)
                    & rules.arrival(us, piece.role, from, theirs)
                    & to_mask
                    & !rules.targets(us, mover, from, occ, theirs);
                for to in hops.squares() {
                    self.push_normal(out, piece.role, from, to);
                }
            }
        } else if rules.has_hoppers {
            for role in rules.all_roles().filter(|&r| rules.role(r).hops) {
                for from in (self.by_role.as_ref()[role.index()] & ours).squares() {
                    let hops = rules.hop_targets(us, role, from, occ, theirs)
                        & rules.arrival(us, role, from, theirs)
                        & to_mask
                        & !rules.targets(us, role, from, occ, theirs);
                    for to in hops.squares() {
                        self.push_normal(out, role, from, to);
                    }
                }
            }
        }

        if !rules.drops || !drops || double_check {
            return;
        }
        let empty = rules.all & !occ;
        let drop_squares = match guard {
            Some(g) => empty & g.evasion,
            None => empty,
        };
        if drop_squares.is_empty() {
            return;
        }
        // (Only unpromoted roles are ever in hand.)
        for i in rules.hand_roles.iter() {
            let role = Role(i as u16);
            if self.hands[us.index()].as_ref()[i] == 0 || out.full() {
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
            if info.drop_mate_illegal
                && let Some(royal) = self.royal_square(them)
            {
                // Only a drop from where the piece's own movement reaches
                // the royal can be a drop mate: test those alone (the
                // squares its leaps and rides would check from, read from
                // the royal). Where pieces hop, every square is tested: a
                // hopper checks by its hops, and any dropped piece may be
                // the screen another one hops over to check.
                let checks = if rules.has_hoppers {
                    t
                } else {
                    t & rules.attacks(them, role, royal, occ)
                };
                for to in checks.squares() {
                    if self.drop_mates(us, role, to) {
                        t &= !B::from_square(to);
                    }
                }
            }
            out.push_drops(role, t);
            if let Some(other) = info.other_side.filter(|_| rules.drop_promoted) {
                let t = if rules.immobile_drops {
                    drop_squares
                } else {
                    drop_squares & rules.mobile(us, other)
                };
                out.push_drops(other, t);
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
            pins: [(royal, royal); MAX_PINS],
            pin_count: 0,
        };
        let theirs = self.by_color[them.index()];
        let riders = rules.rider_roles & self.present[them.index()];
        for i in riders.iter() {
            let role = Role(i as u16);
            let snipers = self.by_role.as_ref()[i] & theirs;
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
                    g.pins[g.pin_count] = (blockers.lsb(), s);
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
        // One test for both of the rules that turn pieces both ways, so
        // that the zone rules pay nothing for `capture`.
        if rules.promotion.turns_both_ways() {
            return info.other_side.is_some()
                && (rules.promotion == PromotionRule::Flip
                    || self.by_color[self.turn.opposite().index()].contains(to));
        }
        info.promotion.is_some()
            && (rules.zone[self.turn.index()] & (B::from_square(from) | B::from_square(to))).any()
            && (rules.promotion != PromotionRule::Entering
                || self.may_promote_entering(role, from, to))
    }

    /// `promotion: entering`, for a move that starts or ends in the zone:
    /// one into the zone from outside, a capture on its last square (for a
    /// piece with `promotes_capturing_in_zone: false`, only where it could
    /// never move again), or, with `promotes_where_immobile`, any move to
    /// where it could never move again. Out of line: other rules never call
    /// it.
    #[inline(never)]
    fn may_promote_entering(&self, role: Role, from: Square, to: Square) -> bool {
        let rules = &*self.rules;
        let zone = rules.zone[self.turn.index()];
        let captures = to != from && self.by_color[self.turn.opposite().index()].contains(to);
        let info = rules.role(role);
        let stuck = !rules.mobile(self.turn, role).contains(to);
        info.promotion.is_some()
            && ((!zone.contains(from) && zone.contains(to))
                || (captures
                    && (info.promotes_capturing_in_zone || stuck)
                    && (zone.contains(from) || zone.contains(to)))
                || (rules.promotes_where_immobile && stuck))
    }

    /// Hands to `out` the moves of the piece of `role` on `from` to the
    /// squares of `targets`: promoting, not, or both, as the rules allow on
    /// each, worked out for the whole set at once.
    #[inline(always)]
    fn push_targets<S: Sink>(&self, out: &mut S, role: Role, from: Square, targets: B, theirs: B) {
        let rules = &*self.rules;
        let us = self.turn;
        let promoting = if !rules.promotion.turns_both_ways() {
            targets & rules.ends_and_promotions(us, role, from)[1]
        } else if !rules.two_sided(role) {
            B::EMPTY
        } else if rules.promotion == PromotionRule::Flip {
            targets
        } else {
            targets & theirs
        };
        if promoting.is_empty() {
            out.push_normals(from, B::EMPTY, targets);
        } else {
            self.push_promoting(out, role, from, targets, promoting, theirs);
        }
    }

    /// [`Self::push_targets`] where some moves may promote: which of those
    /// also stay unpromoted, and `promotion: entering`'s narrower set.
    #[inline(never)]
    fn push_promoting<S: Sink>(
        &self,
        out: &mut S,
        role: Role,
        from: Square,
        targets: B,
        mut promoting: B,
        theirs: B,
    ) {
        let rules = &*self.rules;
        let us = self.turn;
        if rules.promotion == PromotionRule::Entering && rules.zone[us.index()].contains(from) {
            // From inside the zone: only a capture (where the piece's
            // captures promote, or where it could never move again), or,
            // with `promotes_where_immobile`, any move to where it could
            // never move again.
            let stuck = !rules.mobile(us, role);
            let captures = if rules.role(role).promotes_capturing_in_zone {
                theirs
            } else {
                theirs & stuck
            };
            let quiet = if rules.promotes_where_immobile {
                stuck
            } else {
                B::EMPTY
            };
            promoting &= captures | quiet;
        }
        // Where the piece may also stay as it is.
        let stays = match rules.promotion {
            PromotionRule::Optional | PromotionRule::Entering if rules.immobile_moves => promoting,
            PromotionRule::Optional | PromotionRule::Entering => promoting & rules.mobile(us, role),
            _ => B::EMPTY,
        };
        out.push_normals(from, promoting, (targets & !promoting) | stays);
    }

    /// Whether a move of `role` to `to` that may promote may also end there
    /// unpromoted: under `optional` and `entering` where the piece can move
    /// again, or anywhere with `immobile_moves` (the default of `entering`).
    #[inline]
    fn may_stay_unpromoted(&self, role: Role, to: Square) -> bool {
        let rules = &*self.rules;
        match rules.promotion {
            PromotionRule::Optional | PromotionRule::Entering => {
                rules.immobile_moves || rules.mobile(self.turn, role).contains(to)
            }
            _ => false,
        }
    }

    #[inline(always)]
    fn push_normal<S: Sink>(&self, out: &mut S, role: Role, from: Square, to: Square) {
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
        if self.may_stay_unpromoted(role, to) {
            out.push(Move::Normal {
                from,
                to,
                promote: false,
            });
        }
    }

    /// Hands to `out` the two-leg moves of the piece on `from` whose route
    /// matters (a capture on the way, a pass); returns the squares that its
    /// other two-leg moves reach, through an empty square, as plain moves.
    fn push_two_legs<S: Sink>(
        &self,
        out: &mut S,
        role: Role,
        from: Square,
        occ: B,
        theirs: B,
    ) -> B {
        let rules = &*self.rules;
        let us = self.turn;
        let left = (rules.all & !occ) | B::from_square(from);
        let mut plain = B::EMPTY;
        let mut passed = false;
        for hop in rules.hops(us, role, from) {
            let Some(ends) = hop.ends(left, theirs) else {
                continue;
            };
            if theirs.contains(hop.mid) {
                for to in ends.squares() {
                    self.push_multi(out, role, from, hop.mid, to);
                }
            } else {
                if !passed && ends.contains(from) {
                    passed = true;
                    out.push(Move::MultiLeg {
                        from,
                        via: hop.mid,
                        to: from,
                        promote: false,
                    });
                }
                plain |= ends;
            }
        }
        plain & !B::from_square(from)
    }

    /// The squares a leg of a piece on `from` may move to: the empty ones
    /// and `from` itself, which the piece has left.
    pub(crate) fn leg_squares(&self, from: Square) -> B {
        (self.rules.all & !self.occupied()) | B::from_square(from)
    }

    /// The move that the piece of the side to move on `from` makes by
    /// exactly the route `from`, `via`, `to` (a move in two legs), as the
    /// generator lists it: the capture on `via`, going on to `to` or back
    /// (igui); the pass, when it steps out to the empty `via` and back (one
    /// move however many empty squares it could step through, so its `via`
    /// is the first of them, as generated); else the plain move to `to`.
    /// `promote` is taken as written. `None` when the piece has no such
    /// route here (no two-leg piece on `from`, a first leg that cannot end
    /// on `via`, a second leg that cannot go on from there to `to`). Only
    /// the route is checked: whether the move is legal is for
    /// [`Position::legal_moves`] to say.
    pub(crate) fn two_leg_route(
        &self,
        from: Square,
        via: Square,
        to: Square,
        promote: bool,
    ) -> Option<Move> {
        let rules = &*self.rules;
        let us = self.turn;
        let piece = self.piece_at(from).filter(|p| p.color == us)?;
        if !rules.role(piece.role).two_legs {
            return None;
        }
        let theirs = self.color_pieces(us.opposite());
        let left = self.leg_squares(from);
        let hops = rules.hops(us, piece.role, from);
        let ends = |hop: &crate::rules::Hop<B>| hop.ends(left, theirs).unwrap_or(B::EMPTY);
        if !hops.iter().any(|h| h.mid == via && ends(h).contains(to)) {
            return None;
        }
        Some(if theirs.contains(via) {
            Move::MultiLeg {
                from,
                via,
                to,
                promote,
            }
        } else if to == from {
            // The pass, through the square the generator names.
            let first = hops
                .iter()
                .find(|h| !theirs.contains(h.mid) && ends(h).contains(from))?;
            Move::MultiLeg {
                from,
                via: first.mid,
                to,
                promote,
            }
        } else {
            Move::Normal { from, to, promote }
        })
    }

    /// A two-leg move that captures on `via`, promoting as a plain move to
    /// `to` would.
    fn push_multi<S: Sink>(&self, out: &mut S, role: Role, from: Square, via: Square, to: Square) {
        let rules = &*self.rules;
        let mv = |promote| Move::MultiLeg {
            from,
            via,
            to,
            promote,
        };
        // A move in two legs captures on the way: under `promotion:
        // capture` that turns the piece over wherever it ends.
        let promotes = if rules.promotion == PromotionRule::Capture {
            rules.role(role).other_side.is_some()
        } else {
            self.may_promote(role, from, to)
        };
        if !promotes {
            // Unpromoted, it may end where a plain move may (`Rules::arrive`).
            if rules.arrive[rules.cr(self.turn, role)].contains(to) {
                out.push(mv(false));
            }
            return;
        }
        out.push(mv(true));
        if self.may_stay_unpromoted(role, to) {
            out.push(mv(false));
        }
    }

    /// Whether dropping `role` on `to` checkmates the opponent: the dropped
    /// piece's own movement reaches their royal (or, where pieces hop,
    /// another piece checks by hopping over it), and they have no legal
    /// reply (where giving check wins, the check would end the game by
    /// itself; the drop is still mate only if it could not be answered).
    /// With borrowed movement the replies follow every piece's borrowed
    /// movement, while the drop is judged by the piece's own (lishogi's
    /// annan shogi: the pawn dropped in front of the king, mating or leaving
    /// no move, whatever the pawn borrows).
    fn drop_mates(&self, us: Color, role: Role, to: Square) -> bool {
        let them = us.opposite();
        let Some(their_royal) = self.royal_square(them) else {
            return false;
        };
        let occ = self.occupied() | B::from_square(to);
        // The drop checks by the dropped piece or, where pieces hop, by one
        // that hops over it (known once the drop is made: the dropped piece
        // may also lend its movement).
        let own = self
            .rules
            .attacks_all(us, role, to, occ)
            .contains(their_royal);
        if !own && !self.rules.has_hoppers {
            return false;
        }
        let mut after = self.without_history();
        after.play_unchecked(Move::Drop { role, to });
        if !own && !after.in_check() {
            return false;
        }
        let mut reply = First(false);
        after.generate_replies(&mut reply, !B::EMPTY, true);
        !reply.0
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
        if depth == 1 {
            let mut count = Count(0);
            self.generate_into(&mut count);
            return count.0;
        }
        let (mine, rest) = buffers.split_first_mut().expect("one buffer per ply");
        self.generate(mine);
        let mut nodes = 0;
        for &mv in mine.iter() {
            self.play_unchecked(mv);
            nodes += self.perft_with(depth - 1, rest);
            self.undo();
        }
        nodes
    }
}
