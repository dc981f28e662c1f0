//! From a setup to a position: every way a setup can fail to be a position
//! of the rules, as typed problems with the words koma says them in.

use std::fmt;
use std::sync::Arc;

use super::{Position, State, square_name};
use crate::board::RoleSet;
use crate::board::{Bitboard, Color, PieceId, Square};
use crate::rules::{Piece, PromotionRule, Rules};
use crate::setup::{MAX_MOVE_NUMBER, Setup};

/// One reason a setup is not a position of the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionProblem {
    /// The setup has another number of ranks than the board.
    RankCount {
        /// Ranks written.
        written: usize,
        /// Ranks of the board.
        expected: usize,
    },
    /// A rank has another number of files than the board.
    FileCount {
        /// The rank (1 = sente's back rank).
        rank: usize,
        /// Its place in the text (1 = the first written).
        written_as: usize,
        /// Files written.
        written: usize,
        /// Files of the board.
        expected: usize,
    },
    /// A letter on the board that is no piece of the variant.
    UnknownPiece {
        /// As written (`+X`).
        written: String,
        /// The square's USI name.
        square: String,
    },
    /// A piece, or an empty square, written on a hole of the board.
    OnHole {
        /// As written: the piece (`+X`), or `None` for an empty square.
        written: Option<String>,
        /// The hole's USI name.
        square: String,
    },
    /// A hole (`*`) written where the board has a square.
    HoleOnSquare {
        /// The square's USI name.
        square: String,
    },
    /// A piece where it could never move (and the rules forbid that).
    Immobile {
        /// Whose.
        color: Color,
        /// The piece's name.
        piece: String,
        /// The square's USI name.
        square: String,
    },
    /// A piece ID in hand that is no piece of the variant.
    UnknownInHand {
        /// The ID.
        id: PieceId,
    },
    /// A royal piece in hand, where it can never be captured.
    RoyalInHand {
        /// The ID.
        id: PieceId,
    },
    /// Pieces in hand in a variant without drops.
    HandWithoutDrops,
    /// The square of a counterstrike limit (the SFEN's third field) is not
    /// a square of the board.
    CaptureSquare {
        /// As written.
        written: String,
    },
    /// More pieces of a kind on a file than the rules allow, where no move
    /// could have put them there.
    FileLimit {
        /// Whose.
        color: Color,
        /// The limit.
        max: u8,
        /// The piece's name.
        piece: String,
        /// The file, numbered as USI does.
        file: usize,
    },
    /// More pieces of one kind in the game than a hand can count.
    TooMany {
        /// How many.
        count: u32,
        /// The piece's name.
        piece: String,
    },
    /// Not exactly one royal piece where the rules guard one.
    RoyalsNotOne {
        /// Whose.
        color: Color,
        /// How many on the board.
        count: u32,
    },
    /// More royal pieces than the rules allow.
    TooManyRoyals {
        /// Whose.
        color: Color,
        /// How many on the board.
        count: u32,
        /// The most allowed.
        max: u32,
    },
    /// The side not to move is in check.
    WrongSideInCheck {
        /// The side in check.
        in_check: Color,
    },
}

impl fmt::Display for PositionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionProblem::*;
        match self {
            RankCount { written, expected } => {
                write!(f, "the board has {written} ranks, the variant {expected}")
            }
            FileCount {
                rank,
                written_as,
                written,
                expected,
            } => write!(
                f,
                "rank {rank} (the {} written) has {written} files, the variant {expected}",
                ordinal(*written_as)
            ),
            UnknownPiece { written, square } => {
                write!(f, "'{written}' on {square} is not a piece of this variant")
            }
            OnHole {
                written: Some(written),
                square,
            } => write!(
                f,
                "'{written}' on {square}: {square} is a hole of this board, not a square (write '*' there)"
            ),
            OnHole {
                written: None,
                square,
            } => write!(
                f,
                "{square} is a hole of this board: write '*' there, not an empty square"
            ),
            HoleOnSquare { square } => write!(
                f,
                "'*' on {square}: {square} is a square of this board, not a hole"
            ),
            Immobile {
                color,
                piece,
                square,
            } => write!(
                f,
                "the {} {piece} on {square} could never move",
                color.name()
            ),
            UnknownInHand { id } => {
                write!(f, "'{id}' in hand is not a piece of this variant")
            }
            RoyalInHand { id } => write!(f, "a royal piece ('{id}') cannot be in hand"),
            HandWithoutDrops => {
                f.write_str("this variant has no drops, so no piece can be in hand")
            }
            CaptureSquare { written } => write!(
                f,
                "'{written}' is not a square of the board: the third field names the square where a trade-limited piece was just captured, or is '-'"
            ),
            FileLimit {
                color,
                max,
                piece,
                file,
            } => write!(
                f,
                "{} has more than {max} unpromoted {piece} on file {file}",
                color.name()
            ),
            TooMany { count, piece } => write!(f, "{count} {piece}s in the game: at most 250"),
            RoyalsNotOne { color, count } => write!(
                f,
                "{} has {count} royal pieces on the board; the rules need exactly one",
                color.name()
            ),
            TooManyRoyals { color, count, max } => write!(
                f,
                "{} has {count} royal pieces on the board; the rules allow at most {max}",
                color.name()
            ),
            WrongSideInCheck { in_check } => write!(
                f,
                "{} is in check but it is {}'s turn",
                in_check.name(),
                in_check.opposite().name()
            ),
        }
    }
}

/// Why a setup is not a position of these rules: every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// Each problem.
    pub problems: Vec<PositionProblem>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionError {}

impl<B: Bitboard> Position<B> {
    /// Checks a setup against the rules and makes it a position.
    pub fn new(rules: &Arc<Rules<B>>, setup: &Setup) -> Result<Position<B>, PositionError> {
        let t = rules.topology;
        let mut problems = Vec::new();
        let mut pos = Position {
            rules: Arc::clone(rules),
            board: B::EMPTY_CELLS,
            by_color: [B::EMPTY; 2],
            by_role: B::per_role(rules.roles.len()),
            present: [B::Roles::EMPTY; 2],
            hands: [
                B::per_role(rules.roles.len()),
                B::per_role(rules.roles.len()),
            ],
            royal_roles: rules
                .roles
                .iter()
                .enumerate()
                .filter(|(_, r)| r.royal)
                .map(|(i, _)| i)
                .collect(),
            turn: setup.turn,
            start_move_number: setup.move_number.clamp(1, MAX_MOVE_NUMBER),
            states: Vec::with_capacity(256),
            taken: Vec::with_capacity(64),
        };
        if setup.ranks.len() != t.rows as usize {
            problems.push(PositionProblem::RankCount {
                written: setup.ranks.len(),
                expected: t.rows as usize,
            });
        }
        for (i, rank_pieces) in setup.ranks.iter().enumerate().take(t.rows as usize) {
            let rank = t.rows as usize - 1 - i;
            if rank_pieces.len() != t.cols as usize {
                problems.push(PositionProblem::FileCount {
                    rank: rank + 1,
                    written_as: i + 1,
                    written: rank_pieces.len(),
                    expected: t.cols as usize,
                });
                continue;
            }
            for (file, p) in rank_pieces.iter().enumerate() {
                let Some(sq) = t.cell(file as i32, rank as i32) else {
                    continue;
                };
                let hole_written = setup.holes.contains(&(i, file));
                let written = p.map(|p| {
                    if p.promoted {
                        format!("+{}", p.id)
                    } else {
                        p.id.to_string()
                    }
                });
                if t.is_hole(sq) != hole_written {
                    problems.push(if hole_written {
                        PositionProblem::HoleOnSquare {
                            square: square_name(rules, sq),
                        }
                    } else {
                        PositionProblem::OnHole {
                            written,
                            square: square_name(rules, sq),
                        }
                    });
                    continue;
                }
                let (Some(p), Some(written)) = (p, written) else {
                    continue;
                };
                match rules.role_by_id(p.id, p.promoted) {
                    None => problems.push(PositionProblem::UnknownPiece {
                        written,
                        square: square_name(rules, sq),
                    }),
                    Some(role) => {
                        let piece = Piece {
                            color: p.color,
                            role,
                        };
                        // Where promotion is never forced, a piece may stand
                        // where it can no longer move; so may a piece that a
                        // turn put there: a promotion may end anywhere its
                        // zone allows (as in Fairy-Stockfish), whether or not
                        // the promoted side can move on from there, and
                        // `flip` and `capture` turn pieces both ways
                        // wherever they end.
                        let turned = match rules.promotion {
                            PromotionRule::Optional | PromotionRule::Mandatory => p.promoted,
                            PromotionRule::Flip | PromotionRule::Capture => {
                                rules.role(role).other_side.is_some()
                            }
                            PromotionRule::Entering => false,
                        };
                        // A piece that went on unpromoted in the zone may end
                        // where it cannot move where such a move may not
                        // promote (`promotes_where_immobile: false`).
                        let stranded = rules.promotion == PromotionRule::Entering
                            && !rules.promotes_where_immobile;
                        let may_stay =
                            turned || stranded || rules.immobile_drops || rules.immobile_moves;
                        if !may_stay && !rules.mobile(p.color, role).contains(sq) {
                            problems.push(PositionProblem::Immobile {
                                color: p.color,
                                piece: rules.role(role).name.clone(),
                                square: square_name(rules, sq),
                            });
                        }
                        pos.put(piece, sq);
                    }
                }
            }
        }
        // Where the rules remember a capture's square, lishogi's SFEN writes
        // it in place of the hands.
        let counterstrike = rules.trade.is_some_and(|t| t.counterstrike);
        let mut strike = None;
        let hands: &[(Color, PieceId, u32)] = match &setup.capture_square {
            Some(name) if counterstrike => {
                match t.parse_usi_name(name) {
                    Some(sq) => strike = Some(sq),
                    None => problems.push(PositionProblem::CaptureSquare {
                        written: name.clone(),
                    }),
                }
                &[]
            }
            _ => &setup.hands,
        };
        for &(color, id, count) in hands {
            match rules.role_by_id(id, false) {
                None => problems.push(PositionProblem::UnknownInHand { id }),
                // A royal that can never be captured can never be in hand.
                Some(role)
                    if rules.role(role).royal
                        && rules.check
                        && rules.start_royals[color.opposite().index()] <= 1 =>
                {
                    problems.push(PositionProblem::RoyalInHand { id })
                }
                Some(_) if !rules.drops => problems.push(PositionProblem::HandWithoutDrops),
                Some(role) => {
                    pos.hands[color.index()].as_mut()[role.index()] = count.min(255) as u8
                }
            }
        }
        for color in Color::ALL {
            for role in rules.all_roles() {
                // Where moves can double a file, a doubled file is a
                // position of the game: only drops are limited then.
                let Some(max) = rules
                    .role(role)
                    .max_per_file
                    .filter(|_| rules.role(role).keeps_file)
                else {
                    continue;
                };
                for (f, &file) in rules.files.iter().enumerate() {
                    if (pos.pieces(color, role) & file).count() > max as u32 {
                        problems.push(PositionProblem::FileLimit {
                            color,
                            max,
                            piece: rules.role(role).name.clone(),
                            file: t.cols as usize - f,
                        });
                    }
                }
            }
        }
        // Hands count in bytes: no kind of piece may be more than a byte can hold.
        for role in rules.all_roles().filter(|&r| !rules.role(r).promoted) {
            let on_board: u32 = rules
                .all_roles()
                .filter(|&r| rules.role(r).base == role)
                .map(|r| pos.by_role.as_ref()[r.index()].count())
                .sum();
            let in_hand: u32 = Color::ALL
                .iter()
                .map(|&c| pos.hands[c.index()].as_ref()[role.index()] as u32)
                .sum();
            if on_board + in_hand > 250 {
                problems.push(PositionProblem::TooMany {
                    count: on_board + in_hand,
                    piece: rules.role(role).name.clone(),
                });
            }
        }
        if !pos.royal_roles.is_empty() {
            for color in Color::ALL {
                let n = pos.royals(color).count();
                let start = rules.start_royals[color.index()];
                // The start itself is being checked while the rules are compiled.
                let start = if rules.start.ranks.is_empty() {
                    n
                } else {
                    start
                };
                if start == 1 && rules.check && n != 1 {
                    problems.push(PositionProblem::RoyalsNotOne { color, count: n });
                } else if n > start.max(1) {
                    problems.push(PositionProblem::TooManyRoyals {
                        color,
                        count: n,
                        max: start.max(1),
                    });
                }
            }
        }
        if problems.is_empty() {
            let (board_hash, hand_hash) = pos.compute_hash();
            let strike_key = strike.map_or(0, |sq: Square| rules.z_strike[sq.index()]);
            pos.states.push(State {
                board_hash: board_hash ^ strike_key,
                hand_hash,
                checkers: B::EMPTY,
                taken_from: 0,
                strike,
                mv: None,
            });
            let them = pos.turn.opposite();
            if pos.attackers_to_royal(them).any() {
                problems.push(PositionProblem::WrongSideInCheck { in_check: them });
            }
            let checkers = pos.attackers_to_royal(pos.turn);
            if let Some(s) = pos.states.last_mut() {
                s.checkers = checkers;
            }
        }
        if problems.is_empty() {
            Ok(pos)
        } else {
            Err(PositionError { problems })
        }
    }
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        n => format!("{n}th"),
    }
}
