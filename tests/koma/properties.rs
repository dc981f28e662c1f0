//! Properties over many positions of random games: the fast generator agrees
//! with a slow reference written for clarity, play/undo restores everything,
//! FEN and SFEN round-trip, and perft equals the sum of its divide.

use std::collections::BTreeSet;

use koma::board::{Bitboard, Color, Square};
use koma::dsl::{HopKind, Hopper, Mode, Step, TwoLegs};
use koma::notation::{Notation, format_move};
use koma::position::{Move, Position};
use koma::rules::{PromotionRule, Role, Rules};
use koma::setup::Setup;
use koma::variant::schema::RulesSpec;
use koma::{variant, with_rules};

use crate::common::{Rng, game};

/// The naive reference: walks each step of each piece square by square and
/// reads the rules from the variant file, not from the compiled tables.
struct Reference {
    steps: Vec<Vec<Step>>,
    two_legs: Vec<Vec<TwoLegs>>,
    hoppers: Vec<Vec<Hopper>>,
    spec: RulesSpec,
    /// The roles marked `trade_limited` in the file, by role index.
    marked: Vec<bool>,
    /// The roles whose captures in the zone do not promote them under
    /// `promotion: entering` (`promotes_capturing_in_zone: false`).
    no_zone_captures: Vec<bool>,
    /// `immobile_moves` as the file has it, or its default (`entering`).
    immobile_moves: bool,
    /// `promotion: entering` with `promotes_where_immobile: false`: a move
    /// that may not promote may end where the piece can never move again.
    stranding: bool,
}

/// One route of a two-leg move: where the first leg ends, where the second
/// does, and whether the first captured.
struct Route {
    via: Square,
    to: Square,
    takes: bool,
}

impl Reference {
    fn new<B: Bitboard>(rules: &Rules<B>, slug: &str) -> Reference {
        let v = variant::load(slug).expect("loads");
        let spec = v.engine.rules.clone();
        let marked_names: Vec<String> = v
            .pieces
            .iter()
            .flat_map(|p| {
                let promoted = p.spec.promotion.as_ref().filter(|q| q.trade_limited);
                [
                    p.spec.trade_limited.then(|| p.name.clone()),
                    promoted.map(|q| q.name.clone()),
                ]
            })
            .flatten()
            .collect();
        let marked = rules
            .roles
            .iter()
            .map(|r| marked_names.contains(&r.name))
            .collect();
        let no_zone_captures = rules
            .roles
            .iter()
            .map(|r| {
                !r.promoted
                    && v.pieces.iter().any(|p| {
                        p.name == r.name && p.spec.promotes_capturing_in_zone == Some(false)
                    })
            })
            .collect();
        let immobile_moves = spec
            .immobile_moves
            .unwrap_or(spec.promotion == PromotionRule::Entering);
        let stranding = spec.promotion == PromotionRule::Entering
            && spec.promotes_where_immobile == Some(false);
        let moves: Vec<_> = rules
            .roles
            .iter()
            .map(|r| koma::dsl::moves(&r.betza).expect("compiles"))
            .collect();
        Reference {
            steps: moves.iter().map(|m| m.steps.clone()).collect(),
            two_legs: moves.iter().map(|m| m.two_legs.clone()).collect(),
            hoppers: moves.iter().map(|m| m.hoppers.clone()).collect(),
            spec,
            marked,
            no_zone_captures,
            immobile_moves,
            stranding,
        }
    }

    /// Every route of the piece's two-leg moves, step by step on the board:
    /// a leg may end on an empty square (the one left counts as empty) or an
    /// opponent's piece, as its mode allows.
    fn routes<B: Bitboard>(
        &self,
        pos: &Position<B>,
        from: Square,
        color: Color,
        role: Role,
    ) -> Vec<Route> {
        let t = pos.rules().topology;
        let sign = if color == Color::Sente { 1 } else { -1 };
        let allows = |mode: Mode, sq: Square| match pos.piece_at(sq) {
            _ if sq == from => (mode != Mode::CaptureOnly).then_some(false),
            None => (mode != Mode::CaptureOnly).then_some(false),
            Some(p) if p.color != color => (mode != Mode::MoveOnly).then_some(true),
            Some(_) => None,
        };
        let mut out = Vec::new();
        for l in &self.two_legs[role.index()] {
            let (f, r) = (t.file(from) as i32, t.rank(from) as i32);
            let (x, y) = (f + l.first.dx as i32 * sign, r + l.first.dy as i32 * sign);
            let Some(via) = t.square(x, y) else { continue };
            let Some(takes) = allows(l.first.mode, via) else {
                continue;
            };
            let Some(to) = t.square(x + l.second.dx as i32 * sign, y + l.second.dy as i32 * sign)
            else {
                continue;
            };
            if allows(l.second.mode, to).is_some() {
                out.push(Route { via, to, takes });
            }
        }
        out
    }

    fn walk<B: Bitboard>(
        &self,
        pos: &Position<B>,
        from: Square,
        color: Color,
        role: Role,
        capture_only: bool,
    ) -> Vec<Square> {
        let t = pos.rules().topology;
        let (f, r) = (t.file(from) as i32, t.rank(from) as i32);
        let mut out = Vec::new();
        for s in &self.steps[role.index()] {
            let sign = if color == Color::Sente { 1 } else { -1 };
            let (dx, dy) = (s.dx as i32 * sign, s.dy as i32 * sign);
            let mut k = 1;
            while let Some(to) = t.square(f + dx * k, r + dy * k) {
                if s.max != 0 && k > s.max as i32 {
                    break;
                }
                let occupant = pos.piece_at(to);
                let may_move = s.mode != Mode::CaptureOnly && !capture_only;
                let may_capture = s.mode != Mode::MoveOnly;
                match occupant {
                    None if may_move => out.push(to),
                    Some(p) if p.color != color && may_capture => out.push(to),
                    _ => {}
                }
                if occupant.is_some() {
                    break;
                }
                k += 1;
            }
        }
        // Hops: walk to the first piece (the screen), then beyond it.
        for h in &self.hoppers[role.index()] {
            let sign = if color == Color::Sente { 1 } else { -1 };
            let (dx, dy) = (h.dx as i32 * sign, h.dy as i32 * sign);
            let mut screened = false;
            let mut k = 1;
            while let Some(to) = t.square(f + dx * k, r + dy * k) {
                if h.max != 0 && k > h.max as i32 {
                    break;
                }
                let occupant = pos.piece_at(to);
                k += 1;
                if !screened {
                    screened = occupant.is_some();
                    continue;
                }
                let may_move = h.mode != Mode::CaptureOnly && !capture_only;
                let may_capture = h.mode != Mode::MoveOnly;
                match occupant {
                    None if may_move => out.push(to),
                    Some(p) if p.color != color && may_capture => out.push(to),
                    _ => {}
                }
                if occupant.is_some() || h.kind == HopKind::Next {
                    break;
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The role whose movement a piece has: that of the friendly piece on
    /// the square `rules.move_as_friend_at` names (seen from the piece's
    /// owner), if any, else its own.
    fn moves_as<B: Bitboard>(
        &self,
        pos: &Position<B>,
        from: Square,
        color: Color,
        role: Role,
    ) -> Role {
        let Some(at) = self.spec.move_as_friend_at else {
            return role;
        };
        let t = pos.rules().topology;
        let sign = if color == Color::Sente { 1 } else { -1 };
        let (f, r) = (t.file(from) as i32, t.rank(from) as i32);
        match t
            .square(f + sign * at.right, r + sign * at.forward)
            .and_then(|sq| pos.piece_at(sq))
        {
            Some(friend) if friend.color == color => friend.role,
            _ => role,
        }
    }

    fn can_move_from<B: Bitboard>(
        &self,
        rules: &Rules<B>,
        color: Color,
        role: Role,
        sq: Square,
    ) -> bool {
        let t = rules.topology;
        let sign = if color == Color::Sente { 1 } else { -1 };
        let (f, r) = (t.file(sq) as i32, t.rank(sq) as i32);
        self.steps[role.index()].iter().any(|s| {
            t.square(f + s.dx as i32 * sign, r + s.dy as i32 * sign)
                .is_some()
        }) || self.hoppers[role.index()].iter().any(|h| {
            // Room for a screen and a square beyond it, within its range.
            (h.max == 0 || h.max >= 2)
                && t.square(f + 2 * h.dx as i32 * sign, r + 2 * h.dy as i32 * sign)
                    .is_some()
        }) || self.two_legs[role.index()].iter().any(|l| {
            // Both legs on the board (a piece that moves only in two legs).
            let (x, y) = (f + l.first.dx as i32 * sign, r + l.first.dy as i32 * sign);
            t.square(x, y).is_some()
                && t.square(x + l.second.dx as i32 * sign, y + l.second.dy as i32 * sign)
                    .is_some()
        })
    }

    fn in_zone<B: Bitboard>(&self, rules: &Rules<B>, color: Color, sq: Square) -> bool {
        let t = rules.topology;
        let zone = self.spec.promotion_zone as u8;
        match color {
            Color::Sente => t.rank(sq) >= t.rows - zone,
            Color::Gote => t.rank(sq) < zone,
        }
    }

    /// `promotion: entering`: into the zone from outside, a capture on the
    /// last square starting or ending in it, or a move in or into it that
    /// ends where the piece could never move again.
    fn may_promote_entering<B: Bitboard>(
        &self,
        pos: &Position<B>,
        us: Color,
        role: Role,
        from: Square,
        to: Square,
    ) -> bool {
        let rules = pos.rules();
        let captures = to != from && pos.piece_at(to).is_some_and(|p| p.color != us);
        let (a, b) = (self.in_zone(rules, us, from), self.in_zone(rules, us, to));
        let enters = !a && b;
        let immobile = !self.can_move_from(rules, us, role, to);
        let captures_in_zone =
            captures && (a || b) && (!self.no_zone_captures[role.index()] || immobile);
        let stuck = (a || b) && immobile && !self.stranding;
        rules.role(role).promotion.is_some() && (enters || captures_in_zone || stuck)
    }

    fn attacked<B: Bitboard>(&self, pos: &Position<B>, sq: Square, by: Color) -> bool {
        pos.rules().topology.squares().any(|from| {
            pos.piece_at(from).is_some_and(|p| {
                p.color == by
                    && (self
                        .walk(pos, from, by, self.moves_as(pos, from, by, p.role), true)
                        .contains(&sq)
                        || self
                            .routes(pos, from, by, p.role)
                            .iter()
                            .any(|r| (r.takes && r.via == sq) || (r.to == sq && r.to != from)))
            })
        })
    }

    fn royal_in_danger<B: Bitboard>(&self, pos: &Position<B>, color: Color) -> bool {
        let royals: Vec<Square> = pos.royals(color).squares().collect();
        self.spec.check && royals.len() == 1 && self.attacked(pos, royals[0], color.opposite())
    }

    /// The game ended with the last move: royals gone, or a safe arrival on the last rank.
    fn over<B: Bitboard>(&self, pos: &Position<B>) -> bool {
        let rules = pos.rules();
        let us = pos.turn();
        let t = rules.topology;
        if rules.roles.iter().any(|r| r.royal) && pos.royals(us).is_empty() {
            return true;
        }
        t.squares().any(|sq| {
            pos.piece_at(sq).is_some_and(|p| {
                let last = if p.color == Color::Sente {
                    t.rows - 1
                } else {
                    0
                };
                // Either side's piece, standing on its last rank unattacked.
                rules.role(p.role).wins_on_last_rank
                    && t.rank(sq) == last
                    && !self.attacked(pos, sq, p.color.opposite())
            })
        })
    }

    /// The legal moves: none once the game is over, also where a check has
    /// ended it (`check_wins`).
    fn moves<B: Bitboard>(&self, pos: &Position<B>) -> Vec<Move> {
        if self.spec.check_wins && self.royal_in_danger(pos, pos.turn()) {
            return Vec::new();
        }
        self.replies(pos)
    }

    /// The moves of the side to move, whether or not a check it stands in
    /// has already ended the game: what a drop mate is judged by.
    fn replies<B: Bitboard>(&self, pos: &Position<B>) -> Vec<Move> {
        if self.over(pos) {
            return Vec::new();
        }
        let rules = pos.rules();
        let us = pos.turn();
        let mut candidates = Vec::new();
        for from in rules.topology.squares() {
            let Some(p) = pos.piece_at(from).filter(|p| p.color == us) else {
                continue;
            };
            let info = rules.role(p.role);
            // Two-leg routes: a capture on the way is a move of its own; a
            // pass is one move whatever the square it goes through (the
            // lowest); a route through an empty square to another square is
            // the plain move there.
            let mover = self.moves_as(pos, from, us, p.role);
            let mut plain = self.walk(pos, from, us, mover, false);
            let mut pass: Option<Square> = None;
            for route in self.routes(pos, from, us, p.role) {
                if route.takes {
                    let may_promote = match self.spec.promotion {
                        // A capture on the way turns it over under `capture`.
                        PromotionRule::Flip | PromotionRule::Capture => info.other_side.is_some(),
                        PromotionRule::Entering => {
                            self.may_promote_entering(pos, us, p.role, from, route.to)
                        }
                        _ => {
                            info.promotion.is_some()
                                && (self.in_zone(rules, us, from)
                                    || self.in_zone(rules, us, route.to))
                        }
                    };
                    let stays_mobile = self.spec.immobile_drops
                        || self.immobile_moves
                        || (self.stranding && !may_promote)
                        || self.can_move_from(rules, us, p.role, route.to);
                    // As for a plain move: `immobile_drops` lets a piece that
                    // cannot promote stay, not one that can.
                    let must = match self.spec.promotion {
                        PromotionRule::Optional | PromotionRule::Entering => {
                            !(self.immobile_moves
                                || self.can_move_from(rules, us, p.role, route.to))
                        }
                        _ => true,
                    };
                    for promote in [true, false] {
                        if (promote && may_promote)
                            || (!promote && (!may_promote || !must) && stays_mobile)
                        {
                            candidates.push(Move::MultiLeg {
                                from,
                                via: route.via,
                                to: route.to,
                                promote,
                            });
                        }
                    }
                } else if route.to == from {
                    pass = Some(pass.map_or(route.via, |v| v.min(route.via)));
                } else {
                    plain.push(route.to);
                }
            }
            if let Some(via) = pass {
                candidates.push(Move::MultiLeg {
                    from,
                    via,
                    to: from,
                    promote: false,
                });
            }
            for to in plain {
                let (may_promote, must) = match self.spec.promotion {
                    PromotionRule::Flip => (info.other_side.is_some(), true),
                    PromotionRule::Capture => (
                        info.other_side.is_some()
                            && pos.piece_at(to).is_some_and(|q| q.color != us),
                        true,
                    ),
                    PromotionRule::Entering => (
                        self.may_promote_entering(pos, us, p.role, from, to),
                        !self.immobile_moves && !self.can_move_from(rules, us, p.role, to),
                    ),
                    rule => (
                        info.promotion.is_some()
                            && (self.in_zone(rules, us, from) || self.in_zone(rules, us, to)),
                        rule == PromotionRule::Mandatory
                            || (!self.immobile_moves && !self.can_move_from(rules, us, p.role, to)),
                    ),
                };
                if may_promote {
                    candidates.push(Move::Normal {
                        from,
                        to,
                        promote: true,
                    });
                }
                // Unpromoted, it must be able to move again from where it lands.
                let stays_mobile = self.spec.immobile_drops
                    || self.immobile_moves
                    || (self.stranding && !may_promote)
                    || self.can_move_from(rules, us, p.role, to);
                if (!may_promote || !must) && stays_mobile {
                    candidates.push(Move::Normal {
                        from,
                        to,
                        promote: false,
                    });
                }
            }
        }
        for role in rules
            .all_roles()
            .filter(|&r| !rules.role(r).promoted && pos.hand(us, r) > 0)
        {
            let info = rules.role(role);
            let sides = match info.other_side {
                Some(other) if self.spec.drop_promoted => vec![role, other],
                _ => vec![role],
            };
            for side in sides {
                for to in rules
                    .topology
                    .squares()
                    .filter(|&s| pos.piece_at(s).is_none())
                {
                    if !self.spec.immobile_drops && !self.can_move_from(rules, us, side, to) {
                        continue;
                    }
                    if let Some(max) = rules.role(side).max_per_file {
                        let file = rules.topology.file(to);
                        let same = rules
                            .topology
                            .squares()
                            .filter(|&s| {
                                rules.topology.file(s) == file
                                    && pos
                                        .piece_at(s)
                                        .is_some_and(|p| p.color == us && p.role == side)
                            })
                            .count();
                        if same >= max as usize {
                            continue;
                        }
                    }
                    candidates.push(Move::Drop { role: side, to });
                }
            }
        }
        // With one royal (and the check rule), that royal must be safe after
        // the move, wherever it went; a second royal made by promotion does
        // not lift the duty (as Fairy-Stockfish plays sho shogi).
        let royals: Vec<Square> = pos.royals(us).squares().collect();
        let guarded = (self.spec.check && royals.len() == 1).then(|| royals[0]);
        candidates
            .into_iter()
            .filter(|&mv| {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                if let Some(royal) = guarded {
                    let now = match mv {
                        Move::Normal { from, to, .. } | Move::MultiLeg { from, to, .. }
                            if from == royal =>
                        {
                            to
                        }
                        _ => royal,
                    };
                    if self.attacked(&after, now, us.opposite()) {
                        return false;
                    }
                }
                if !self.trade_allows(pos, &after, mv) {
                    return false;
                }
                // A drop mate: the dropped piece's own movement reaches the
                // royal, or, where pieces hop, another piece checks over it;
                // and the opponent has no reply (where nothing is borrowed,
                // the same as a check with no answer).
                let hops = self.hoppers.iter().any(|h| !h.is_empty());
                let drop_mate = match mv {
                    Move::Drop { role, to } if rules.role(role).drop_mate_illegal => {
                        let theirs: Vec<Square> = pos.royals(us.opposite()).squares().collect();
                        theirs.len() == 1
                            && self.spec.check
                            && (self.walk(&after, to, us, role, true).contains(&theirs[0])
                                || (hops && self.royal_in_danger(&after, us.opposite())))
                    }
                    _ => false,
                };
                !(drop_mate && self.replies(&after).is_empty())
            })
            .collect()
    }
}

impl Reference {
    /// `rules.trade_limits`, read from the file: a marked piece may not take
    /// a marked piece on its last square that stands two or more files or
    /// ranks from its start and that the victim's side attacks after the
    /// move, unless it took a piece of a kind not in `bridge_except` on the
    /// way; after a marked piece fell to an unmarked one (the square the
    /// position remembers), an unmarked piece may take a marked one only
    /// on that square.
    fn trade_allows<B: Bitboard>(&self, pos: &Position<B>, after: &Position<B>, mv: Move) -> bool {
        let Some(limits) = &self.spec.trade_limits else {
            return true;
        };
        let (from, via, to) = match mv {
            Move::Normal { from, to, .. } => (from, None, to),
            Move::MultiLeg { from, via, to, .. } => (from, Some(via), to),
            Move::Drop { .. } => return true,
        };
        let Some(mover) = pos.piece_at(from) else {
            return true;
        };
        let victim = |sq: Square| pos.piece_at(sq).filter(|p| p.color != mover.color);
        let marked = |sq: Square| victim(sq).is_some_and(|p| self.marked[p.role.index()]);
        let last = to != from && marked(to);
        if !self.marked[mover.role.index()] {
            let Some(square) = pos.counterstrike_square() else {
                return true;
            };
            return !(last && to != square || via.is_some_and(|v| marked(v) && v != square));
        }
        let t = pos.rules().topology;
        let far = t.file(from).abs_diff(t.file(to)) > 1 || t.rank(from).abs_diff(t.rank(to)) > 1;
        if !limits.distant_protected || !last || !far {
            return true;
        }
        let bridged = match (&limits.bridge_except, via.and_then(victim)) {
            (Some(except), Some(w)) => !except.contains(&pos.rules().role(w.role).name),
            _ => false,
        };
        bridged || !self.attacked(after, to, mover.color.opposite())
    }
}

fn names<B: Bitboard>(pos: &Position<B>, moves: &[Move]) -> BTreeSet<String> {
    moves
        .iter()
        .map(|&m| format_move(pos, m, Notation::Usi))
        .collect()
}

/// Plays random games favouring captures and drops, checking every position.
fn check_games(slug: &str, games: usize, plies: usize, seed: u64) -> usize {
    let g = game(slug);
    with_rules!(&g, rules => {
        let reference = Reference::new(rules, slug);
        let mut rng = Rng(seed);
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = Position::start(rules);
            // At the setup there is no null move to take back: nothing
            // changes (the first ply below compares the moves).
            let (fen, hash) = (pos.fen(), pos.hash());
            pos.undo_null();
            assert_eq!((pos.fen(), pos.hash()), (fen, hash), "{slug}: undo of a null move at the setup");
            for _ in 0..plies {
                let legal = pos.legal_moves();
                let fen = pos.fen();
                assert_eq!(names(&pos, &legal), names(&pos, &reference.moves(&pos)), "{slug} {fen}: generator and reference differ");
                assert_eq!(legal.len(), names(&pos, &legal).len(), "{fen}: duplicate moves");
                assert_eq!(pos.in_check(), reference.royal_in_danger(&pos, pos.turn()), "{fen}: check status");

                let again = Position::new(rules, &Setup::parse_fen(&fen).expect("own FEN reads")).expect("own FEN is valid");
                assert_eq!(again.fen(), fen, "FEN round trip");
                // A FEN has no field for the square a counterstrike limit
                // remembers; an SFEN has (its third).
                if pos.counterstrike_square().is_none() {
                    assert_eq!(again.hash(), pos.hash(), "{fen}: hash after FEN round trip");
                }
                let sfen = pos.sfen();
                let from_sfen = Position::new(rules, &Setup::parse_sfen(&sfen).expect("own SFEN reads")).expect("own SFEN is valid");
                assert_eq!(from_sfen.sfen(), sfen, "SFEN round trip");
                assert_eq!(from_sfen.hash(), pos.hash(), "{sfen}: hash after SFEN round trip");

                let them = pos.turn().opposite();
                let theirs: Vec<_> = (0..rules.topology.len())
                    .map(|i| Square::new(i as u16))
                    .filter_map(|sq| pos.piece_at(sq).filter(|p| p.color == them).map(|p| (sq, p)))
                    .collect();
                for &mv in &legal {
                    let hash = pos.hash();
                    // What the search counts as taken is what the move takes.
                    let said: Vec<_> = pos.captures(mv).collect();
                    assert_eq!(pos.is_capture(mv), !said.is_empty(), "{fen}: is_capture of {mv:?}");
                    pos.play(mv);
                    let mut gone: Vec<_> = theirs.iter().copied().filter(|&(sq, p)| pos.piece_at(sq) != Some(p)).collect();
                    gone.sort_by_key(|&(sq, _)| sq);
                    let mut said = said;
                    said.sort_by_key(|&(sq, _)| sq);
                    assert_eq!(said, gone, "{slug} {fen}: the pieces {mv:?} takes");
                    assert_eq!(pos.undo(), Some(mv));
                    assert_eq!(pos.fen(), fen, "undo of {mv:?}");
                    assert_eq!(pos.hash(), hash, "hash after undo of {mv:?}");
                }
                checked += 1;
                if legal.is_empty() {
                    break;
                }
                let captures: Vec<Move> = legal.iter().copied().filter(|m| match *m {
                    Move::Normal { to, .. } => pos.piece_at(to).is_some(),
                    Move::MultiLeg { via, .. } => pos.piece_at(via).is_some(),
                    Move::Drop { .. } => false,
                }).collect();
                let drops: Vec<Move> = legal.iter().copied().filter(|m| matches!(m, Move::Drop { .. })).collect();
                let mut generated = Vec::new();
                pos.generate_captures(&mut generated);
                assert_eq!(names(&pos, &generated), names(&pos, &captures), "{slug} {fen}: the capture generator and the legal captures differ");
                if !pos.in_check() {
                    let (hash, turn) = (pos.hash(), pos.turn());
                    pos.play_null();
                    assert_eq!(pos.turn(), turn.opposite(), "{fen}: turn after a null move");
                    assert_ne!(pos.hash(), hash, "{fen}: a null move changes the side to move's key");
                    assert!(!pos.in_check(), "{fen}: a null move from a legal position gives no check");
                    // The key of the position with the turn passed is the key
                    // that position has when read afresh.
                    let passed = pos.sfen();
                    let fresh = Position::new(rules, &Setup::parse_sfen(&passed).expect("own SFEN reads")).expect("own SFEN is valid");
                    assert_eq!(fresh.hash(), pos.hash(), "{passed}: hash after a null move");
                    pos.undo_null();
                    assert_eq!(pos.fen(), fen, "{fen}: undo of a null move");
                    assert_eq!(pos.hash(), hash, "{fen}: hash after undo of a null move");
                }
                let mv = if !captures.is_empty() && rng.below(2) == 0 {
                    captures[rng.below(captures.len())]
                } else if !drops.is_empty() && rng.below(3) == 0 {
                    drops[rng.below(drops.len())]
                } else {
                    legal[rng.below(legal.len())]
                };
                pos.play(mv);
            }
        }
        checked
    })
}

#[test]
fn judkins_generator_matches_the_reference() {
    assert!(check_games("judkins-shogi", 40, 80, 0x9e3779b97f4a7c15) > 1000);
}

#[test]
fn every_variant_matches_the_reference() {
    for slug in variant::catalogue() {
        assert!(
            check_games(slug, 20, 60, 0x2545f4914f6cdd1d) > 100,
            "{slug}: too few positions"
        );
    }
}

#[test]
fn perft_equals_the_sum_of_its_divide() {
    let g = game("judkins-shogi");
    with_rules!(&g, rules => {
        let mut pos = Position::start(rules);
        for mv in ["2f5c", "5a2d", "5c4b+"] {
            let m = pos.parse_move(mv).expect("legal");
            pos.play(m);
        }
        let total = pos.perft(3);
        let mut sum = 0;
        for mv in pos.legal_moves() {
            pos.play(mv);
            sum += pos.perft(2);
            pos.undo();
        }
        assert_eq!(sum, total);
    });
}

#[test]
fn move_fits_in_eight_bytes() {
    // Squares are 16 bits (boards to 36×36): a two-leg move names three
    // of them and a promotion, the most a move holds.
    assert!(
        std::mem::size_of::<Move>() <= 8,
        "Move is {} bytes",
        std::mem::size_of::<Move>()
    );
}

/// Perft by the reference generator alone (every node's moves from the slow walk).
fn reference_perft<B: Bitboard>(reference: &Reference, pos: &mut Position<B>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = reference.moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for mv in moves {
        pos.play(mv);
        nodes += reference_perft(reference, pos, depth - 1);
        pos.undo();
    }
    nodes
}

/// The boards of more than 128 squares (`tests/large/`): for every entry of
/// `file` in `tests/perft/` (counts from an independent Python perft), the
/// reference walk's perft and the table generator's both give the stored
/// counts, up to `max_nodes` each; `width` says whether the game runs on
/// the bitboard width the file's boards need.
fn boards_match_the_reference(file: &str, width: fn(&koma::Game) -> bool, max_nodes: u64) -> usize {
    let entries: Vec<_> = crate::perft::entries()
        .into_iter()
        .filter(|e| e.file == file)
        .collect();
    let mut checked = 0;
    for e in entries {
        let path = crate::common::variant_path(&e.variant);
        let g = game(&path);
        assert!(width(&g), "{}: the bitboard width of {file}", e.variant);
        with_rules!(&g, rules => {
            let reference = Reference::new(rules, &path);
            let setup = Setup::parse_fen(&e.fen).expect("FEN reads");
            let mut pos = Position::new(rules, &setup).expect("valid position");
            for &(depth, nodes) in e.counts.iter().filter(|c| c.1 <= max_nodes) {
                assert_eq!(reference_perft(&reference, &mut pos, depth), nodes, "{}: reference perft {depth}", e.id);
                assert_eq!(pos.perft(depth), nodes, "{}: perft {depth}", e.id);
                checked += 1;
            }
        });
    }
    checked
}

/// The boards of 129 to 256 squares, on `Bitboard256`.
fn large_boards_match_the_reference(max_nodes: u64) -> usize {
    let large = |g: &koma::Game| matches!(g, koma::Game::Large(_));
    boards_match_the_reference("large-boards.perft", large, max_nodes)
}

#[test]
fn huge_boards_match_the_reference() {
    // 20×20, 25×25 and 36×36 (on the widest bitboard): every count.
    let huge = |g: &koma::Game| matches!(g, koma::Game::Huge(_));
    assert_eq!(
        boards_match_the_reference("huge-boards.perft", huge, u64::MAX),
        9
    );
}

#[test]
fn large_boards_match_the_reference_quick() {
    // Every depth-1 and depth-2 count, and the depth-3 counts of the smaller trees.
    assert!(large_boards_match_the_reference(400_000) >= 26);
}

#[test]
#[ignore = "the reference walk on 2 million leaves: cargo test --release -- --ignored"]
fn large_boards_match_the_reference_deep() {
    assert_eq!(large_boards_match_the_reference(u64::MAX), 30);
}

#[test]
fn large_boards_random_games_match_the_reference() {
    for file in ["tests/large/large-12x12.md", "tests/large/large-16x16.md"] {
        let path = crate::common::variant_path(file);
        assert!(
            check_games(&path, 12, 80, 0x5851_f42d_4c95_7f2d) > 500,
            "{file}: too few positions"
        );
    }
}

#[test]
fn two_leg_moves_match_the_reference() {
    // A lion and a falcon with drops and the check rule: captures on the way,
    // captures without moving, passes, checks given and parried by them.
    let path = crate::common::variant_path("tests/legs/lion-7x7.md");
    assert!(check_games(&path, 30, 80, 0x2d35_8dcc_aa6c_78a5) > 1000);
    // With a bishop (a friend that blocks the falcon without guarding past
    // it), a stinger (diagonal captures only without moving), a jumper (two
    // knight's jumps through an empty square) and a cannon,
    // and no rider along files and ranks.
    let path = crate::common::variant_path("tests/legs/igui-7x7.md");
    assert!(check_games(&path, 20, 80, 0x94d0_49bb_1331_11eb) > 800);
    // Hawks and terns, which capture on the way to the last rank, where
    // they could never move again; also where pieces may be dropped there.
    for file in [
        "tests/legs/dead-ends-7x7.md",
        "tests/legs/dead-ends-drops-7x7.md",
    ] {
        let path = crate::common::variant_path(file);
        assert!(
            check_games(&path, 20, 80, 0x3c6e_f372_fe94_f82b) > 800,
            "{file}"
        );
    }
}

#[test]
fn two_leg_captures_to_dead_ends_promote_as_plain_moves_do() {
    // A hawk (it promotes) or a tern (it does not) on 4c takes the silver
    // on 4b and steps on to 4a, the last rank, where neither could move
    // again. (File, FEN, move, listed unpromoted, listed promoting.)
    let (hawk, tern) = (
        "k6/3s3/3H3/7/7/7/6K[] w - - 0 1",
        "k6/3s3/3T3/7/7/7/6K[] w - - 0 1",
    );
    let [forced, drops, entering] = ["dead-ends-7x7", "dead-ends-drops-7x7", "deep-zone-7x7"];
    let cases = [
        // It must promote, or may not go there.
        (forced, hawk, "4c4b4a", false, true),
        (forced, tern, "4c4b4a", false, false),
        // `immobile_drops` lets the tern go there, not the hawk stay
        // unpromoted (as for its plain step, 4b4a).
        (drops, hawk, "4c4b4a", false, true),
        (drops, "k6/3H3/7/7/7/7/6K[] w - - 0 1", "4b4a", false, true),
        (drops, tern, "4c4b4a", true, false),
        // `promotion: entering` never forces it.
        (entering, hawk, "4c4b4a", true, true),
    ];
    for (name, fen, mv, plain, promoting) in cases {
        let legal = chosen_moves(&format!("tests/legs/{name}.md"), fen);
        assert_eq!(
            (legal.contains(mv), legal.contains(&format!("{mv}+"))),
            (plain, promoting),
            "{name} {fen}: {mv}"
        );
    }
}

/// The legal moves of a chosen position of a test game, in USI: the same
/// as the reference's, each listed once.
fn chosen_moves(file: &str, fen: &str) -> BTreeSet<String> {
    let path = crate::common::variant_path(file);
    let g = game(&path);
    with_rules!(&g, rules => {
        let reference = Reference::new(rules, &path);
        let pos = Position::new(rules, &Setup::parse_fen(fen).expect("FEN reads")).expect("valid");
        let moves = pos.legal_moves();
        let legal = names(&pos, &moves);
        assert_eq!(legal, names(&pos, &reference.moves(&pos)), "{file} {fen}: generator and reference differ");
        assert_eq!(moves.len(), legal.len(), "{file} {fen}: duplicate moves");
        legal
    })
}

#[test]
fn attacks_in_chosen_positions_match_the_reference() {
    // Positions random games seldom reach, each made for one way a square is
    // attacked or not (whether the side to move is in check is read from the
    // rules, and the reference must agree).
    let cases = [
        // The falcon's double step goes only through an empty square: its
        // own bishop in front blocks it, and the bishop does not guard the
        // square beyond. Gote is not in check; its pawn may move.
        (
            "tests/legs/igui-7x7.md",
            "7/7/p2k3/3B3/3F3/7/K6[] b - - 0 1",
            false,
        ),
        // Through an empty square it does attack: gote is in check.
        (
            "tests/legs/lion-7x7.md",
            "7/7/p2k3/7/3F3/7/K6[] b - - 0 1",
            true,
        ),
        // So does the stinger's two-step move, which has no capture on its
        // first square to stand in for it.
        (
            "tests/legs/igui-7x7.md",
            "7/7/p2k3/7/3T3/7/K6[] b - - 0 1",
            true,
        ),
        // The stinger captures a diagonal neighbour only without moving (a
        // move in two legs): gote's king next to it is in check.
        (
            "tests/legs/igui-7x7.md",
            "7/7/p6/4k2/3T3/7/K6[] b - - 0 1",
            true,
        ),
        // The eagle's capture on the way needs a victim there: past its own
        // pawn it does not attack 4d, where gote's king may go.
        (
            "tests/legs/lion-7x7.md",
            "7/7/p2k3/7/2P4/1+F5/K6[] b - - 0 1",
            false,
        ),
        // Moves that let an attack through, off every rider's line (the
        // game has no rook, lance or eagle): the gold in front of the king
        // may not step aside and let the stinger's two steps through, the
        // silver may not go between the cannon and the king as its screen.
        (
            "tests/legs/igui-7x7.md",
            "7/7/p2k3/3g3/3T3/7/6K[] b - - 0 1",
            false,
        ),
        (
            "tests/legs/igui-7x7.md",
            "7/7/p2k3/7/7/2s4/3U2K[] b - - 0 1",
            false,
        ),
        // The gold between the jumper and the king, a knight's jump from
        // each, off every line through the king, may not move at all.
        (
            "tests/legs/igui-7x7.md",
            "7/7/p2k3/7/2g4/7/1J4K[] b - - 0 1",
            false,
        ),
        // A capture on the way that must go on: the jumper attacks a piece
        // a knight's jump away only if the square beyond is empty, the
        // stinger only if it is empty or holds a piece it may take.
        (
            "tests/legs/igui-7x7.md",
            "7/7/p6/7/2k4/7/1J4K[] b - - 0 1",
            true,
        ),
        (
            "tests/legs/igui-7x7.md",
            "7/7/p2g3/7/2k4/7/1J4K[] b - - 0 1",
            false,
        ),
        (
            "tests/legs/igui-7x7.md",
            "7/7/p6/7/2k4/7/1T4K[] b - - 0 1",
            true,
        ),
        (
            "tests/legs/igui-7x7.md",
            "7/7/p2P3/7/2k4/7/1T4K[] b - - 0 1",
            false,
        ),
        // Sente, checked by a cannon over its gold, may not promote its
        // pawn to a prince far from the check: a second royal made by the
        // move does not lift the duty to keep the king safe (as
        // Fairy-Stockfish plays sho shogi; the generator that plays each
        // move to try it once asked only the royals after it).
        (
            "tests/moves/variants/prince-cannon.md",
            "u1k2/3P1/G4/5/K4[] w - - 0 1",
            true,
        ),
        // The lion attacks gote's king two squares away both by a leap and
        // by capturing the pawn between and stepping on: gote is in check
        // (the two kinds of attack found twice are still one attacker).
        (
            "tests/legs/lion-7x7.md",
            "7/7/p2k3/3p3/3N3/7/K6[] b - - 0 1",
            true,
        ),
        // Sente's swallows stand on exactly the squares from which a
        // swallow attacks where gote's phoenix could go (the table of
        // `Rules::near_royal`): the phoenix has no move.
        ("tori-shogi", "k6/1S5/SS3s1/7/7/7/6K[] b - - 0 1", false),
        // Gote's king has no move (the gold and the silver guard its three
        // squares) and no check: a lance that may not mate by a drop may
        // still be dropped on its file behind the gold, no check and so no
        // mate (the lance's reach counts the pieces in its way), but not on
        // 9b, a mate. The game has a cannon (none on the board): every
        // lance drop is then tried for a dropped mate, not only those whose
        // square reaches the king.
        (
            "tests/moves/variants/lance-drop-mate.md",
            "k8/2S6/G8/9/9/9/9/9/8K[L] w - - 0 1",
            false,
        ),
        // Eight tokins, more than the six shifts of a gold's move: the
        // generator moves them all at once by shifts (a role that does not
        // promote), as it does pawns and other promoting pieces.
        (
            "shogi",
            "4k4/9/9/9/+P+P+P+P1+P+P+P+P/9/9/9/4K4[] w - - 0 1",
            false,
        ),
    ];
    for (file, fen, in_check) in cases {
        let path = crate::common::variant_path(file);
        let g = game(&path);
        with_rules!(&g, rules => {
            let reference = Reference::new(rules, &path);
            let pos = Position::new(rules, &Setup::parse_fen(fen).expect("FEN reads")).expect("valid");
            assert_eq!(reference.royal_in_danger(&pos, pos.turn()), in_check, "{file} {fen}: the reference's check status");
            assert_eq!(pos.in_check(), in_check, "{file} {fen}: check status");
            let legal = pos.legal_moves();
            assert!(!legal.is_empty(), "{file} {fen}: the side to move has a move");
            assert_eq!(names(&pos, &legal), names(&pos, &reference.moves(&pos)), "{file} {fen}: generator and reference differ");
        });
    }
}

#[test]
fn promotion_on_entering_without_check_matches_the_reference() {
    // No check rule (kings are captured), no drops, `promotion: entering`;
    // then the same with a second royal made by promotion (a crown prince),
    // and with chu shogi's lion-trading limits.
    for file in [
        "tests/legs/lion-7x7-entering.md",
        "tests/legs/prince-7x7.md",
        "tests/legs/trade-7x7.md",
        "tests/legs/deep-zone-7x7.md",
    ] {
        let path = crate::common::variant_path(file);
        assert!(
            check_games(&path, 30, 100, 0x1b87_3593_c2b2_ae35) > 1000,
            "{file}"
        );
    }
}

#[test]
fn two_leg_moves_promote_on_entering_by_where_they_capture() {
    // `promotion: entering` with a three-rank zone: the falcon's double
    // steps (handed over one move at a time, not as a set of squares) can
    // start and end in the zone, or leave it. (FEN, move, may it promote.)
    // Its back double step is written three times (second leg any,
    // move-only, capture-only): each move is still listed once.
    let cases = [
        // A capture on the last square, from inside the zone to inside it.
        ("k2s3/7/3F3/7/7/7/6K[] w - - 0 1", "4c4a", true),
        // The same step without a capture stays in the zone: no promotion.
        ("k6/7/3F3/7/7/7/6K[] w - - 0 1", "4c4a", false),
        // A capture leaving the zone starts in it: it may promote.
        ("k6/7/3F3/7/3s3/7/6K[] w - - 0 1", "4c4e", true),
        ("k6/7/3F3/7/7/7/6K[] w - - 0 1", "4c4e", false),
        // Outside the zone, the back double step to a piece: listed once.
        ("k6/7/7/3F3/7/3s3/6K[] w - - 0 1", "4d4f", false),
        // The capture was on the way, not on the last square.
        ("k6/3s3/3F3/7/7/7/6K[] w - - 0 1", "4c4b4a", false),
        // Gote: a capture in its zone from outside, and entering it.
        ("k6/7/7/7/3f3/7/3S2K[] b - - 0 1", "4e4g", true),
        ("k6/7/3f3/7/7/7/3S2K[] b - - 0 1", "4c4e", true),
    ];
    for (fen, mv, promotes) in cases {
        let legal = chosen_moves("tests/legs/deep-zone-7x7.md", fen);
        assert!(legal.contains(mv), "{fen}: {mv} is legal");
        assert_eq!(
            legal.contains(&format!("{mv}+")),
            promotes,
            "{fen}: may {mv} promote"
        );
    }
}

#[test]
fn royal_promotions_with_drops_and_check_match_the_reference() {
    // The check rule guards a side's last royal only; a pawn promotes to a
    // royal prince and, captured and dropped, can give either side more
    // royals than it started with: every position a game reaches is one the
    // FEN reader takes back.
    let path = crate::common::variant_path("tests/moves/variants/prince-drops.md");
    assert!(check_games(&path, 40, 120, 0x9e37_79b9_7f4a_7c15) > 2000);
    // With cannons: legality tried by playing the moves.
    let cannons = crate::common::variant_path("tests/moves/variants/prince-cannon.md");
    assert!(check_games(&cannons, 30, 120, 0x6a09_e667_f3bc_c908) > 1500);
    // Two kings from the start, with drops: a king taken while the other
    // stands is dropped again by its captor.
    let two = crate::common::variant_path("tests/validate/ok/two-kings.md");
    assert!(check_games(&two, 40, 120, 0x2545_f491_4f6c_dd1d) > 2000);
    // Random games seldom get there: sente, with its king and a prince,
    // drops a pawn taken from gote and promotes it, a third royal piece.
    let g = game(&path);
    with_rules!(&g, rules => {
        let mut pos = Position::new(rules, &Setup::parse_sfen("4k/5/5/5/K+P3 b P 1").expect("SFEN reads")).expect("valid");
        for usi in ["P*3b", "1a1b", "3b3a+", "1b1c"] {
            let mv = pos.parse_move(usi).unwrap_or_else(|e| panic!("{usi}: {e}"));
            pos.play(mv);
            let sfen = pos.sfen();
            let again = Position::new(rules, &Setup::parse_sfen(&sfen).expect("own SFEN reads"))
                .unwrap_or_else(|e| panic!("{sfen} after {usi}: {e}"));
            assert_eq!(again.sfen(), sfen);
            assert_eq!(names(&again, &again.legal_moves()), names(&pos, &pos.legal_moves()), "{sfen}");
        }
        assert_eq!(pos.royals(Color::Sente).count(), 3);
        // Gote's only royal is guarded; two of sente's three may be taken.
        assert!(!pos.in_check());
    });
}

#[test]
fn two_leg_perft_matches_the_reference() {
    let path = crate::common::variant_path("tests/legs/lion-7x7.md");
    let g = game(&path);
    with_rules!(&g, rules => {
        let reference = Reference::new(rules, &path);
        // The start, and a middle game where the lions face each other.
        for fen in ["sgnkfgs/ppppppp/7/7/7/PPPPPPP/SGFKNGS w - 1", "sg1kfgs/ppp1ppp/3n3/3p3/2NP3/PPP1PPP/SGFK1GS w - 1"] {
            let mut pos = Position::new(rules, &Setup::parse_fen(fen).expect("FEN reads")).expect("valid");
            for depth in 1..=3 {
                assert_eq!(pos.perft(depth), reference_perft(&reference, &mut pos, depth), "{fen}: perft {depth}");
            }
        }
    });
}

#[test]
fn many_roles_match_the_reference() {
    // 39 roles, the royal one last (role 38): check and mate detection rely on
    // a royal mask wider than 32 bits.
    let path = crate::common::variant_path("tests/large/many-roles.md");
    assert!(check_games(&path, 10, 80, 0x1405_7b7e_f767_814f) > 500);
}

#[test]
fn two_leg_moves_read_and_write_as_lishogi_does() {
    let path = crate::common::variant_path("tests/legs/lion-7x7.md");
    let g = game(&path);
    with_rules!(&g, rules => {
        let fen = "sg1kfgs/ppp1ppp/3n3/3p3/2NP3/PPP1PPP/SGFK1GS w - 1";
        let pos = Position::new(rules, &Setup::parse_fen(fen).expect("FEN reads")).expect("valid");
        let usi = |text: &str| pos.parse_move(text).map(|m| format_move(&pos, m, Notation::Usi));
        // A capture on the way, then on; a capture without moving.
        assert_eq!(usi("5e4d3c").as_deref(), Ok("5e4d3c"));
        assert_eq!(usi("5e4d5e").as_deref(), Ok("5e4d5e"));
        assert!(matches!(pos.parse_move("5e4d5e"), Ok(Move::MultiLeg { .. })));
        // Through an empty square: the plain move; a pass through any empty
        // square is the one pass, written through the lowest square.
        assert_eq!(usi("5e5d6c").as_deref(), Ok("5e6c"));
        assert_eq!(usi("5e6e5e").as_deref(), Ok("5e4f5e"));
        // Not a route of the lion.
        assert!(pos.parse_move("5e4d2c").is_err());
        let mut after = pos.clone();
        after.play(pos.parse_move("5e4d5e").expect("legal"));
        assert_eq!(after.fen(), "sg1kfgs/ppp1ppp/3n3/7/2NP3/PPP1PPP/SGFK1GS[P] b - - 0 1");
    });
}

#[test]
fn hoppers_match_the_reference() {
    // Grasshoppers, cannons, a range-limited cannon and directed hops, in
    // hand at the start: screens made and unmade by drops, checks through
    // screens, pins by hoppers.
    let path = crate::common::variant_path("tests/hoppers/hopper-shogi.md");
    assert!(check_games(&path, 30, 80, 0x94d0_49bb_1331_11eb) > 1000);
}

#[test]
fn a_hopper_may_not_be_dropped_to_mate_where_the_rule_says_so() {
    // The same game twice: hoppers may drop to mate in the first, not in the
    // second (`drop_mate_illegal`). Random games of the first find hopper
    // drops that mate (a hopper checks only through a screen); each must be
    // missing from the second's moves, and the second agree with the
    // reference there.
    let free = crate::common::variant_path("tests/hoppers/hopper-shogi.md");
    let barred = crate::common::variant_path("tests/hoppers/hopper-drop-mate.md");
    let (free, barred) = (game(&free), game(&barred));
    let mut mates = 0;
    with_rules!(&free, rules => {
        with_rules!(&barred, barred_rules => {
            let reference = Reference::new(barred_rules, "tests/hoppers/hopper-drop-mate.md");
            let mut rng = Rng(0x6a09_e667_f3bc_c908);
            for _ in 0..400 {
                let mut pos = Position::start(rules);
                for _ in 0..80 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let fen = pos.fen();
                    let mating: Vec<Move> = legal.iter().copied().filter(|&mv| {
                        matches!(mv, Move::Drop { role, .. } if barred_rules.role(role).drop_mate_illegal) && {
                            let mut after = pos.clone();
                            after.play(mv);
                            after.in_check() && after.legal_moves().is_empty()
                        }
                    }).collect();
                    if !mating.is_empty() {
                        let there = Position::new(barred_rules, &Setup::parse_fen(&fen).expect("FEN reads")).expect("valid");
                        let moves = names(&there, &there.legal_moves());
                        assert_eq!(moves, names(&there, &reference.moves(&there)), "{fen}");
                        for &mv in &mating {
                            let name = format_move(&pos, mv, Notation::Usi);
                            assert!(!moves.contains(&name), "{fen}: {name} drops a hopper to mate");
                            mates += 1;
                        }
                    }
                    let mv = legal[rng.below(legal.len())];
                    pos.play(mv);
                }
            }
        })
    });
    assert!(mates >= 20, "only {mates} mating hopper drops met");
}

#[test]
fn borrowed_movement_matches_the_reference() {
    // A piece moves as the friend behind it and one file to its right, a
    // cannon in each hand: lenders moved, captured and dropped, borrowed
    // hops and rides in checks and pins, both orientations.
    let path = crate::common::variant_path("tests/borrow/diagonal-friend.md");
    assert!(check_games(&path, 30, 80, 0x2545_f491_4f6c_dd1d) > 1000);
}

#[test]
fn borrowed_movement_from_a_friend_beside_matches_the_reference() {
    // A piece moves as the friend on its right, on the same rank
    // (`forward: 0`), every piece moving along its file only.
    let path = crate::common::variant_path("tests/borrow/beside-friend.md");
    assert!(check_games(&path, 30, 80, 0x9e37_79b9_7f4a_7c15) > 1000);
}
