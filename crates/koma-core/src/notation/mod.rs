//! Square and move notations: USI (`7g7f`, `P*5e`, `8h2b+`) and
//! Fairy-Stockfish's coordinates (`a2a3`, `P@c3`, `e1a5+`); FEN and SFEN output.
//! A move in two legs names its three squares, start, end of the first leg,
//! end (`7g7f7e`, as lishogi writes a lion's double move). Read, three
//! squares mean the move that takes exactly that route
//! ([`Position::parse_move`]): the capture on the middle square (on, or back:
//! igui); the pass, through any empty square the piece can step out to and
//! back from (there is one pass, written back through the square the
//! generator names); through an empty square on to another, the plain move
//! there. A route the piece cannot take is refused with the reason.

use thiserror::Error;

use crate::board::{Bitboard, PieceId, Square, Topology};
mod any;
pub mod japanese;

use std::sync::Arc;

use crate::position::{Move, Position, PositionError, TradeBan};
use crate::rules::{Piece, PromotionRule, Role, Rules};
use crate::setup::Setup;

/// Which move notation to write.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// USI: files numbered from sente's right, ranks lettered from the top.
    #[default]
    Usi,
    /// Fairy-Stockfish: files lettered from sente's left, ranks numbered from the bottom.
    Fairy,
    /// Japanese, as KI2 records write it (`▲７六歩`, `△同　銀`; see [`japanese`]).
    Japanese,
}

/// Writes a move of the position (before it is played).
///
/// A promotion is written `+`; where every move turns the piece over
/// (`promotion: flip`), a move to the promoted side is written `+` and back
/// `-`. A drop with the promoted side up is written `+P*5e` / `+P@c3`.
pub fn format_move<B: Bitboard>(pos: &Position<B>, mv: Move, notation: Notation) -> String {
    if notation == Notation::Japanese {
        return japanese::format(pos, mv, japanese::JapaneseStyle::Ki2);
    }
    let rules = pos.rules();
    let t = rules.topology;
    let sq = |s| match notation {
        Notation::Fairy => t.fairy_name(s),
        _ => t.usi_name(s),
    };
    match mv {
        Move::Normal { from, to, promote } => {
            let suffix = match (promote, pos.piece_at(from)) {
                (false, _) => "",
                (true, Some(p)) if rules.role(p.role).promoted => "-",
                (true, _) => "+",
            };
            format!("{}{}{suffix}", sq(from), sq(to))
        }
        Move::MultiLeg {
            from,
            via,
            to,
            promote,
        } => {
            let suffix = if promote { "+" } else { "" };
            format!("{}{}{}{suffix}", sq(from), sq(via), sq(to))
        }
        Move::Drop { role, to } => {
            let sep = if notation == Notation::Usi { '*' } else { '@' };
            let info = rules.role(role);
            let plus = if info.promoted { "+" } else { "" };
            format!("{plus}{}{sep}{}", info.id.as_str(), sq(to))
        }
    }
}

/// A move as typed, before it is matched against the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParsedMove {
    /// From, to, promotion suffix.
    Normal {
        /// Start square.
        from: Square,
        /// End square.
        to: Square,
        /// Whether `+` (or `-`, turning a piece back) was written.
        promote: bool,
    },
    /// From, the end of the first leg, to, promotion suffix.
    MultiLeg {
        /// Start square.
        from: Square,
        /// Where the first leg ends.
        via: Square,
        /// End square.
        to: Square,
        /// Whether `+` was written.
        promote: bool,
    },
    /// Piece ID and square.
    Drop {
        /// The piece's ID.
        id: PieceId,
        /// Whether it is dropped promoted side up (`+P*5e`).
        promoted: bool,
        /// Where.
        to: Square,
    },
}

/// Why a move cannot be read or played.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in either notation.
    #[error("'{text}' is not a move: {reason}")]
    Unreadable {
        /// As typed.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A well-formed move that the position does not allow.
    #[error("{text} is illegal: {reason}")]
    Illegal {
        /// As typed.
        text: String,
        /// Why, in words.
        reason: String,
    },
    /// A move after the end of the game.
    #[error("{text} comes after the end of the game ({outcome})")]
    GameOver {
        /// As typed.
        text: String,
        /// How the game ended, in words.
        outcome: String,
    },
}

impl MoveError {
    /// What is wrong, without the move's text.
    pub fn reason(&self) -> String {
        match self {
            MoveError::Unreadable { reason, .. } | MoveError::Illegal { reason, .. } => {
                reason.clone()
            }
            MoveError::GameOver { outcome, .. } => format!("the game was already over ({outcome})"),
        }
    }
}

/// Why a setup and a list of moves do not make a position.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// The setup is not a position of the rules.
    #[error("the position is not valid for {variant}: {source}")]
    Position {
        /// The variant's slug.
        variant: String,
        /// Every problem.
        source: PositionError,
    },
    /// A move could not be read, is illegal, or comes after the end.
    #[error("move {number}: {source}")]
    Move {
        /// 1-based number of the move in the list.
        number: usize,
        /// What is wrong.
        source: MoveError,
    },
}

impl<B: Bitboard> Position<B> {
    /// The position reached from `setup` by `moves` (in either notation;
    /// blank ones skipped), or the number and reason of the first move that
    /// cannot be played, a move after the game's end included.
    pub fn from_moves<S: AsRef<str>>(
        rules: &Arc<Rules<B>>,
        setup: &Setup,
        moves: &[S],
    ) -> Result<Position<B>, ReplayError> {
        let mut pos = Position::new(rules, setup).map_err(|source| ReplayError::Position {
            variant: rules.slug.clone(),
            source,
        })?;
        let texts = moves
            .iter()
            .map(|m| m.as_ref())
            .filter(|m| !m.trim().is_empty());
        for (i, text) in texts.enumerate() {
            let fail = |source| ReplayError::Move {
                number: i + 1,
                source,
            };
            if let Some(o) = pos.outcome() {
                return Err(fail(MoveError::GameOver {
                    text: text.trim().to_string(),
                    outcome: o.to_string(),
                }));
            }
            let mv = pos.parse_move(text).map_err(fail)?;
            pos.play_unchecked(mv);
        }
        Ok(pos)
    }
}

fn unreadable(text: &str, reason: impl Into<String>) -> MoveError {
    MoveError::Unreadable {
        text: text.to_string(),
        reason: reason.into(),
    }
}

/// Reads a square in either notation (USI `5e`, Fairy `c3`); returns it and
/// the rest. A hole of the board is read too, for [`parse_move`] to name.
fn parse_square(t: Topology, s: &str, usi: bool) -> Option<(Square, &str)> {
    if usi {
        t.read_usi_cell(s)
    } else {
        t.read_fairy_cell(s)
    }
}

/// Reads a move in USI or Fairy-Stockfish notation (told apart by their form).
pub fn parse_move(t: Topology, text: &str) -> Result<ParsedMove, MoveError> {
    let s = text.trim();
    if !s.is_ascii() || s.is_empty() {
        return Err(unreadable(
            text,
            "expected a move such as 7g7f, P*5e (USI) or a2a3, P@c3 (Fairy-Stockfish)",
        ));
    }
    if let Some((piece, square)) = s.split_once(['*', '@']) {
        let usi = s.contains('*');
        let (promoted, piece) = match piece.strip_prefix('+') {
            Some(p) => (true, p),
            None => (false, piece),
        };
        // An ID of more letters may be written bare (`FD*5e`) or as a
        // setup writes it (`(FD)*5e`).
        let bare = piece
            .strip_prefix('(')
            .and_then(|p| p.strip_suffix(')'))
            .filter(|p| p.len() > 1)
            .unwrap_or(piece);
        let Some(id) = PieceId::new(bare) else {
            return Err(unreadable(
                text,
                "a drop starts with a piece ID (one to four letters), as in P*5e, FD*5e or P@c3",
            ));
        };
        return match parse_square(t, square, usi) {
            Some((to, "")) if t.is_hole(to) => Err(unreadable(
                text,
                format!("'{square}' is a hole of this board, not a square"),
            )),
            Some((to, "")) => Ok(ParsedMove::Drop { id, promoted, to }),
            _ => Err(unreadable(
                text,
                format!(
                    "'{square}' is not a square of this {}×{} board",
                    t.cols, t.rows
                ),
            )),
        };
    }
    let usi = s.starts_with(|c: char| c.is_ascii_digit());
    let board = format!("{}×{}", t.cols, t.rows);
    let (from, rest) = parse_square(t, s, usi).ok_or_else(|| {
        unreadable(
            text,
            format!("it does not start with a square of this {board} board"),
        )
    })?;
    let (to, rest) = parse_square(t, rest, usi).ok_or_else(|| {
        unreadable(
            text,
            format!("the second square is not a square of this {board} board"),
        )
    })?;
    // A third square: a move in two legs, through the second.
    let (via, to, rest) = match parse_square(t, rest, usi) {
        Some((third, rest)) => (Some(to), third, rest),
        None => (None, to, rest),
    };
    if let Some(hole) = [Some(from), via, Some(to)]
        .into_iter()
        .flatten()
        .find(|&sq| t.is_hole(sq))
    {
        let name = if usi {
            t.usi_name(hole)
        } else {
            t.fairy_name(hole)
        };
        return Err(unreadable(
            text,
            format!("{name} is a hole of this board, not a square"),
        ));
    }
    let promote = match rest {
        "" | "=" => false,
        // '-' turns a piece back to its unpromoted side (kyoto shogi).
        "+" | "-" => true,
        other => {
            return Err(unreadable(
                text,
                format!("unexpected '{other}' after the squares (only '+', '-' or '=' may follow)"),
            ));
        }
    };
    Ok(match via {
        Some(via) => ParsedMove::MultiLeg {
            from,
            via,
            to,
            promote,
        },
        None => ParsedMove::Normal { from, to, promote },
    })
}

impl<B: Bitboard> Position<B> {
    /// Reads a move in USI, Fairy-Stockfish or Japanese notation and checks
    /// that it is legal here, saying why not if it is not.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if japanese::is_japanese(text) {
            return japanese::parse(self, text);
        }
        // XBoard's null move, as HaChu writes a lion's pass: the pass of
        // the first piece that may pass (every pass leaves the same position).
        if text.trim() == "@@@@" {
            return self
                .legal_moves()
                .into_iter()
                .find(|&m| {
                    matches!(m, Move::MultiLeg { from, via, to, .. }
                        if from == to && self.piece_at(via).is_none())
                })
                .ok_or_else(|| {
                    unreadable(
                        text,
                        "@@@@ (a pass, as XBoard writes one) is not a move here: no piece may pass",
                    )
                });
        }
        let rules = self.rules();
        let parsed = parse_move(rules.topology, text)?;
        let legal = self.legal_moves();
        // A legal move matches when it is written the same way in either notation.
        let mut typed = text.trim().to_string();
        if let Some(i) = typed.find(['*', '@']) {
            typed = typed[..i].to_ascii_uppercase() + &typed[i..];
        }
        let typed = typed.trim_end_matches('=').to_string();
        for &mv in &legal {
            if format_move(self, mv, Notation::Usi) == typed
                || format_move(self, mv, Notation::Fairy) == typed
            {
                return Ok(mv);
            }
        }
        let found = match parsed {
            ParsedMove::Normal { from, to, promote } => Move::Normal { from, to, promote },
            // Three squares name a route, and the move is the one that takes
            // exactly that route: the capture on the way (on or back, igui),
            // the pass through any empty square the piece can step out to
            // and back from (the one pass: written back through the square
            // the generator names), the plain move through an empty square.
            ParsedMove::MultiLeg {
                from,
                via,
                to,
                promote,
            } => match self.two_leg_route(from, via, to, promote) {
                Some(mv) => mv,
                // On through an empty square to another: nothing happens on
                // the way, so it is the plain move there, if the piece's legs
                // go that way (as a lion's two steps are its jump).
                None if to != from
                    && self.piece_at(via).is_none()
                    && self.has_route(from, via, to) =>
                {
                    Move::Normal { from, to, promote }
                }
                None => return Err(illegal(text, self.explain_route(from, via, to))),
            },
            ParsedMove::Drop { id, promoted, to } => match rules.role_by_id(id, promoted) {
                Some(role) => Move::Drop { role, to },
                None => {
                    let plus = if promoted { "+" } else { "" };
                    return Err(illegal(
                        text,
                        format!("'{plus}{id}' is not a piece of this variant"),
                    ));
                }
            },
        };
        // Three squares name a route; the move it makes is the one meant
        // (through an empty square to another square: the plain move).
        // A drop has no sign: however its piece was written (`(FD)*5e`),
        // the legal drop it names is meant.
        if matches!(
            parsed,
            ParsedMove::MultiLeg { .. } | ParsedMove::Drop { .. }
        ) && legal.contains(&found)
        {
            return Ok(found);
        }
        if let Move::MultiLeg {
            from,
            via,
            to,
            promote,
        } = found
        {
            let other = Move::MultiLeg {
                from,
                via,
                to,
                promote: !promote,
            };
            if legal.contains(&other) {
                return Err(self.wrong_sign(text, other));
            }
        }
        // Without a sign, a move that can only be made promoting (or turning
        // over) is that move.
        if let Move::Normal {
            from,
            to,
            promote: false,
        } = found
        {
            let turned = Move::Normal {
                from,
                to,
                promote: true,
            };
            if !text.trim().ends_with('=') && legal.contains(&turned) {
                return Ok(turned);
            }
        }
        if legal.contains(&found) {
            // The move exists but with the other sign ('+' for '-').
            return Err(self.wrong_sign(text, found));
        }
        Err(illegal(text, self.explain(found, &legal)))
    }

    /// `text` is the legal move `right` but for its sign: say how to write it
    /// (in the notation typed; a route with the squares typed).
    fn wrong_sign(&self, text: &str, right: Move) -> MoveError {
        let usi = text.trim().starts_with(|c: char| c.is_ascii_digit()) || text.contains('*');
        let right = match right {
            Move::MultiLeg { promote, .. } => {
                let squares = text.trim().trim_end_matches(['+', '-', '=']);
                format!("{squares}{}", if promote { "+" } else { "" })
            }
            _ => format_move(
                self,
                right,
                if usi { Notation::Usi } else { Notation::Fairy },
            ),
        };
        illegal(
            text,
            format!("the sign does not match what the move does: write {right}"),
        )
    }

    /// Whether the piece of the side to move on `from` has the two-leg
    /// route through `via` to `to` on a board that lets it.
    fn has_route(&self, from: Square, via: Square, to: Square) -> bool {
        let us = self.turn();
        self.piece_at(from)
            .is_some_and(|p| p.color == us && self.rules().has_route(us, p.role, from, via, to))
    }

    /// The side to move's piece on `from`, or why there is none to move.
    fn mover_at(&self, from: Square) -> Result<Piece, String> {
        let us = self.turn();
        let name = self.rules().topology.usi_name(from);
        match self.piece_at(from) {
            None => Err(format!("there is no piece on {name}")),
            Some(p) if p.color != us => Err(format!(
                "the piece on {name} is {}'s, and it is {}'s turn",
                p.color.name(),
                us.name()
            )),
            Some(p) => Ok(p),
        }
    }

    /// Why the piece on `from` cannot take the two-leg route through `via`
    /// to `to`, in words.
    fn explain_route(&self, from: Square, via: Square, to: Square) -> String {
        let rules = self.rules();
        let us = self.turn();
        let name = |sq| rules.topology.usi_name(sq);
        let p = match self.mover_at(from) {
            Ok(p) => p,
            Err(why) => return why,
        };
        let cannot = format!(
            "a {} cannot move from {} through {} to {}",
            rules.role(p.role).name,
            name(from),
            name(via),
            name(to)
        );
        let ours = |sq| sq != from && self.piece_at(sq).is_some_and(|q| q.color == us);
        if !self.has_route(from, via, to) {
            cannot
        } else if let Some(friend) = [via, to].into_iter().find(|&sq| ours(sq)) {
            format!(
                "{cannot}: {} is occupied by a {} piece",
                name(friend),
                us.name()
            )
        } else {
            // What the squares hold does not suit the legs: one that only
            // captures ends on an empty square, or one that only moves on a
            // piece.
            let theirs = self.color_pieces(us.opposite());
            let left = self.leg_squares(from);
            let first_leg = rules
                .hops(us, p.role, from)
                .iter()
                .any(|h| h.mid == via && h.reach().contains(to) && h.ends(left, theirs).is_some());
            let (leg, on) = if first_leg {
                ("second", to)
            } else {
                ("first", via)
            };
            if theirs.contains(on) {
                format!(
                    "{cannot}: its {leg} leg may not capture, and {} holds a {} piece",
                    name(on),
                    us.opposite().name()
                )
            } else {
                format!(
                    "{cannot}: its {leg} leg must capture, and {} is empty",
                    name(on)
                )
            }
        }
    }

    /// A trade limit in words, for a move of a `mover`.
    fn explain_ban(&self, ban: TradeBan, mover: Role) -> String {
        let rules = self.rules();
        let name = &rules.role(mover).name;
        match ban {
            TradeBan::DistantProtected => format!(
                "a {name} may not capture a protected trade-limited piece that does not stand next to it"
            ),
            TradeBan::Counterstrike { square } => format!(
                "a trade-limited piece was just captured by another kind of piece, so a {name} may not capture one now, except on {}",
                rules.topology.usi_name(square)
            ),
        }
    }

    /// Why a move that is not in `legal` is not legal, in words.
    fn explain(&self, mv: Move, legal: &[Move]) -> String {
        let rules = self.rules();
        let t = rules.topology;
        let us = self.turn();
        let name = |sq| t.usi_name(sq);
        match mv {
            Move::Normal { from, to, promote } => {
                let p = match self.mover_at(from) {
                    Ok(p) => p,
                    Err(why) => return why,
                };
                let info = rules.role(p.role);
                if self.piece_at(to).is_some_and(|q| q.color == us) {
                    return format!("{} is occupied by a {} piece", name(to), us.name());
                }
                // The piece's movement: its own, or a friend's it borrows.
                let mover = self.moves_as(us, p.role, from);
                if !rules
                    .targets_all(
                        us,
                        mover,
                        from,
                        self.occupied(),
                        self.color_pieces(us.opposite()),
                    )
                    .contains(to)
                {
                    let borrowed = if mover == p.role {
                        String::new()
                    } else {
                        format!(
                            " (it borrows the movement of a friendly {})",
                            rules.role(mover).name
                        )
                    };
                    return format!(
                        "a {} cannot move from {} to {}{borrowed}",
                        info.name,
                        name(from),
                        name(to)
                    );
                }
                let other = Move::Normal {
                    from,
                    to,
                    promote: !promote,
                };
                if legal.contains(&other) && rules.promotion == PromotionRule::Capture {
                    return if promote {
                        "a piece turns over only when it captures".into()
                    } else {
                        "a capture turns the capturing piece over".into()
                    };
                }
                if legal.contains(&other) {
                    return if promote {
                        match info.promotion {
                            None => format!("a {} does not promote", info.name),
                            Some(_) if rules.promotion == PromotionRule::Entering => "a piece promotes only when its move enters the promotion zone, captures starting or ending in it, or ends where it could never move again".into(),
                            Some(_) => "a piece promotes only when its move starts or ends in the promotion zone".into(),
                        }
                    } else {
                        match rules.promotion {
                            PromotionRule::Flip => "every move turns the moving piece over".into(),
                            PromotionRule::Mandatory => {
                                "a move that starts or ends in the promotion zone must promote"
                                    .into()
                            }
                            _ => format!(
                                "a {} on {} could never move again, so it must promote",
                                info.name,
                                name(to)
                            ),
                        }
                    };
                }
                if !promote
                    && !rules.immobile_drops
                    && !rules.immobile_moves
                    && !rules.mobile(us, p.role).contains(to)
                {
                    return format!(
                        "a {} on {} could never move again, and it cannot promote there",
                        info.name,
                        name(to)
                    );
                }
                if let Some(ban) = self.trade_ban(mv) {
                    return self.explain_ban(ban, p.role);
                }
                if self.in_check() {
                    "it does not get out of check".into()
                } else {
                    "it would leave the king in check".into()
                }
            }
            Move::MultiLeg { from, via, to, .. } => {
                let Some(p) = self.piece_at(from).filter(|p| p.color == us) else {
                    return format!("there is no {} piece on {}", us.name(), name(from));
                };
                let info = rules.role(p.role);
                let routed = |m: &Move| matches!(*m, Move::MultiLeg { from: f, via: v, to: t, .. } if (f, v, t) == (from, via, to));
                if !legal.iter().any(routed) && !self.pseudo_legal_moves().iter().any(routed) {
                    return format!(
                        "a {} cannot move from {} through {} to {}",
                        info.name,
                        name(from),
                        name(via),
                        name(to)
                    );
                }
                if let Some(ban) = self.trade_ban(mv) {
                    return self.explain_ban(ban, p.role);
                }
                if self.in_check() {
                    "it does not get out of check".into()
                } else {
                    "it would leave the king in check".into()
                }
            }
            Move::Drop { role, to } => {
                let info = rules.role(role);
                if !rules.drops {
                    return "this variant has no drops".into();
                }
                if info.promoted && !rules.drop_promoted {
                    return "pieces are dropped unpromoted".into();
                }
                if self.hand(us, info.base) == 0 {
                    return format!("{} has no {} in hand", us.name(), info.name);
                }
                if self.piece_at(to).is_some() {
                    return format!("{} is not empty", name(to));
                }
                if !rules.immobile_drops && !rules.mobile(us, role).contains(to) {
                    return format!("a {} dropped on {} could never move", info.name, name(to));
                }
                if let Some(max) = info.max_per_file {
                    let file = rules.files[t.file(to) as usize];
                    if (self.pieces(us, role) & file).count() >= max as u32 {
                        let nth = if max == 1 {
                            "a second".to_string()
                        } else {
                            format!("more than {max}")
                        };
                        return format!(
                            "{nth} unpromoted {} on file {}",
                            info.name,
                            t.cols - t.file(to)
                        );
                    }
                }
                if self.in_check() {
                    return "it does not get out of check".into();
                }
                if info.drop_mate_illegal {
                    return format!("dropping a {} to give checkmate is not allowed", info.name);
                }
                "it is not allowed here".into()
            }
        }
    }

    /// The position as Fairy-Stockfish writes a FEN (`[hands]`, `w` = sente).
    pub fn fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// The position as an SFEN (`b` = sente, counts before letters).
    pub fn sfen(&self) -> String {
        self.to_setup().to_sfen()
    }
}

fn illegal(text: &str, reason: String) -> MoveError {
    MoveError::Illegal {
        text: text.trim().to_string(),
        reason,
    }
}
