//! How games end: typed outcomes and reasons, repetition and perpetual
//! check, no legal move, a royal captured, a try, a check that wins.

use crate::board::RoleSet;
use std::fmt;

use super::{Position, State};
use crate::board::{Bitboard, Color};
use crate::rules::{RepetitionResult, Role};

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check (it loses).
    NoLegalMove,
    /// The same position came back as often as the rules allow.
    Repetition,
    /// A repetition in which one side checked with every move: it loses.
    PerpetualCheck,
    /// A piece reached its last rank where it cannot be captured (a try).
    ReachedLastRank,
    /// The side to move has lost its last royal piece.
    RoyalCaptured,
    /// The side to move is in check where giving check wins (`check_wins`).
    Check,
    /// A player resigned.
    Resignation,
    /// The side that lost was left with one royal piece and nothing else
    /// that can move (`rules.bare_royal.loses`).
    BareRoyal,
    /// Each side was left with one royal piece and nothing else that can
    /// move (`rules.bare_royal.both_draw`).
    LoneRoyals,
}

impl Reason {
    /// The reason in words, as koma writes it ("checkmate").
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::NoLegalMove => "no legal move",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual check",
            Reason::ReachedLastRank => "reached the last rank",
            Reason::RoyalCaptured => "royal piece captured",
            Reason::Check => "check",
            Reason::Resignation => "resignation",
            Reason::BareRoyal => "bare royal",
            Reason::LoneRoyals => "lone royals",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a game has ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A side won, for a reason.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: Reason,
    },
    /// Drawn, for a reason.
    Draw {
        /// Why.
        reason: Reason,
    },
}

impl Outcome {
    /// The winner, if the game was not drawn.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }
    /// Why the game ended.
    pub fn reason(&self) -> Reason {
        match self {
            Outcome::Win { reason, .. } | Outcome::Draw { reason } => *reason,
        }
    }
}

impl std::fmt::Display for Outcome {
    /// The outcome in words: "sente wins by checkmate", "draw by repetition".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Win { winner, reason } => write!(f, "{} wins by {reason}", winner.name()),
            Outcome::Draw { reason } => write!(f, "draw by {reason}"),
        }
    }
}

impl<B: Bitboard> Position<B> {
    /// Whether the side to move may declare a win under the variant's
    /// impasse rule (`rules.declaration`): its royal in the camp, not in
    /// check, enough other pieces there, enough points there and in hand.
    pub fn may_declare(&self) -> bool {
        let Some(d) = &self.rules.declaration else {
            return false;
        };
        let us = self.turn;
        let camp = d.camp[us.index()];
        let royals = self.royals(us);
        if royals.is_empty() || !(royals & !camp).is_empty() || self.in_check() {
            return false;
        }
        let mut pieces = 0;
        let mut points = 0;
        for role in self.rules.all_roles() {
            let info = self.rules.role(role);
            if info.royal {
                continue;
            }
            let here = (self.pieces(us, role) & camp).count();
            pieces += here;
            points += (here + u32::from(self.hand(us, role))) * info.declaration_points;
        }
        pieces >= d.pieces && points >= d.points[us.index()]
    }

    /// How often the current position has occurred (this time included).
    pub fn repetitions(&self) -> u32 {
        let h = self.repeat_key(self.state());
        self.states
            .iter()
            .rev()
            .step_by(2)
            .filter(|s| self.repeat_key(s) == h)
            .count() as u32
    }

    /// The key by which a state repeats another: its hash, without the
    /// square a counterstrike limit remembers where the rules say it does
    /// not make a different position (`counterstrike_distinguishes: false`).
    #[inline]
    fn repeat_key(&self, s: &State<B>) -> u64 {
        match s.strike {
            Some(sq) if !self.rules.repetition.counterstrike_distinguishes => {
                s.hash() ^ self.rules.z_strike[sq.index()]
            }
            _ => s.hash(),
        }
    }

    /// What the repetition rule makes of the cycle that ends here (from the
    /// first occurrence of this position to now), were it repeated as often
    /// as the rule asks: perpetual check loses for the checking side where
    /// the rule says so, else `repetition.result`. The search scores a
    /// position seen before with it.
    pub fn cycle_outcome(&self) -> Outcome {
        let rep = self.rules.repetition;
        let h = self.repeat_key(self.state());
        let first = self
            .states
            .iter()
            .position(|s| self.repeat_key(s) == h)
            .unwrap_or(0);
        if rep.perpetual_check_loses {
            for checker in Color::ALL {
                // Moves by `checker` in the cycle: the states after them have
                // the opponent to move; all must be check.
                let mut all = true;
                let mut any = false;
                for (i, s) in self.states.iter().enumerate().skip(first + 1) {
                    let mover = if (self.states.len() - 1 - i).is_multiple_of(2) {
                        self.turn.opposite()
                    } else {
                        self.turn
                    };
                    if mover == checker {
                        any = true;
                        all &= s.checkers.any();
                    }
                }
                if any && all {
                    return Outcome::Win {
                        winner: checker.opposite(),
                        reason: Reason::PerpetualCheck,
                    };
                }
            }
        }
        let loser = match rep.result {
            RepetitionResult::Draw => None,
            RepetitionResult::SenteLoses => Some(Color::Sente),
            RepetitionResult::GoteLoses => Some(Color::Gote),
            RepetitionResult::RepeaterLoses => Some(self.turn.opposite()),
        };
        match loser {
            None => Outcome::Draw {
                reason: Reason::Repetition,
            },
            Some(l) => Outcome::Win {
                winner: l.opposite(),
                reason: Reason::Repetition,
            },
        }
    }

    /// The result, if the game is over: no legal move (the side to move
    /// loses), or the repetition rule.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.repetitions() >= self.rules.repetition.count {
            return Some(self.cycle_outcome());
        }
        if self.checked_out() {
            return Some(Outcome::Win {
                winner: self.turn.opposite(),
                reason: Reason::Check,
            });
        }
        if let Some(o) = self.terminal_on_board() {
            return Some(o);
        }
        if !self.has_legal_move() {
            let reason = if self.in_check() {
                Reason::Checkmate
            } else {
                Reason::NoLegalMove
            };
            return Some(Outcome::Win {
                winner: self.turn.opposite(),
                reason,
            });
        }
        self.bare_end()
    }

    /// Whether the game ended with the last move: it gave check where
    /// giving check wins, the side to move lost its last royal piece, the
    /// opponent's piece reached its last rank safely, or a royal was bared.
    pub fn terminal(&self) -> Option<Outcome> {
        if self.checked_out() {
            return Some(Outcome::Win {
                winner: self.turn.opposite(),
                reason: Reason::Check,
            });
        }
        self.terminal_on_board().or_else(|| self.bare_end())
    }

    /// Whether the side to move is in check where giving check wins: then
    /// the game is over (one flag and the stored checkers: cheap).
    #[inline]
    pub(crate) fn checked_out(&self) -> bool {
        self.rules.check_wins && self.in_check()
    }

    /// The ends that the pieces on the board decide: the side to move lost
    /// its last royal piece, or a piece reached its last rank safely.
    pub(crate) fn terminal_on_board(&self) -> Option<Outcome> {
        let us = self.turn;
        let them = us.opposite();
        if !self.royal_roles.is_empty() && self.royals(us).is_empty() {
            return Some(Outcome::Win {
                winner: them,
                reason: Reason::RoyalCaptured,
            });
        }
        if self.rules.has_tries {
            let occ = self.occupied();
            // Whoever's piece stands on its last rank unattacked has won:
            // the side that just moved there, or the side to move whose piece
            // the opponent left there.
            for side in [them, us] {
                for (i, info) in self.rules.roles.iter().enumerate() {
                    if !info.wins_on_last_rank {
                        continue;
                    }
                    let arrived =
                        self.pieces(side, Role(i as u16)) & self.rules.last_rank[side.index()];
                    if arrived
                        .squares()
                        .any(|sq| self.attackers_to(sq, side.opposite(), occ).is_empty())
                    {
                        return Some(Outcome::Win {
                            winner: side,
                            reason: Reason::ReachedLastRank,
                        });
                    }
                }
            }
        }
        None
    }
}
