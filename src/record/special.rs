//! The words CSA and JKF use for a game's end.

use crate::board::Color;
use crate::position::AnyPosition;
use crate::rules::Role;

use super::{Decision, DraftResult, Ending, GameResult};

/// Words of the formats that say a result relative to the side to move
/// (CSA's `%TORYO`, JKF's `TORYO`): the word, whether the side to move won,
/// and the ending. A word for a draw or no result has `None`.
pub(crate) const CSA_SPECIALS: &[(&str, Option<bool>, Ending)] = &[
    ("TORYO", Some(false), Ending::Resignation),
    ("TSUMI", Some(false), Ending::Checkmate),
    ("TIME_UP", Some(false), Ending::Time),
    ("ILLEGAL_MOVE", Some(false), Ending::IllegalMove),
    ("KACHI", Some(true), Ending::Impasse),
    ("SENNICHITE", None, Ending::Repetition),
    ("JISHOGI", None, Ending::Impasse),
    ("HIKIWAKE", None, Ending::Unknown),
    // CSA V3: the game reached its move limit (a draw).
    ("MAX_MOVES", None, Ending::Unknown),
    ("CHUDAN", None, Ending::Abort),
    ("FUZUMI", None, Ending::Unknown),
    ("ERROR", None, Ending::Unknown),
    ("MATTA", None, Ending::Unknown),
];

/// The CSA word for a result after the last move (`TORYO`), or `None`
/// when the result is not what any word says from there.
pub(crate) fn csa_special(result: &GameResult, turn: Color) -> Option<String> {
    match result.decision {
        Decision::Win(w) => {
            let won = w == turn;
            let ending = match result.ending {
                Ending::NoLegalMove
                | Ending::RoyalCaptured
                | Ending::ReachedLastRank
                | Ending::BareRoyal
                | Ending::Check => Ending::Checkmate,
                Ending::Repetition | Ending::PerpetualCheck => {
                    return Some("SENNICHITE".into());
                }
                Ending::IllegalMove => {
                    // The loser's sign: +ILLEGAL_ACTION when sente loses.
                    let sign = if w == Color::Sente { '-' } else { '+' };
                    return Some(format!("{sign}ILLEGAL_ACTION"));
                }
                e => e,
            };
            CSA_SPECIALS
                .iter()
                .find(|(_, side, e)| *side == Some(won) && *e == ending)
                .or_else(|| (!won).then_some(&CSA_SPECIALS[0]))
                .map(|(w, _, _)| w.to_string())
        }
        Decision::Draw => Some(match result.ending {
            Ending::Impasse => "JISHOGI".into(),
            Ending::Repetition | Ending::PerpetualCheck => "SENNICHITE".into(),
            _ => "HIKIWAKE".into(),
        }),
        Decision::Undecided => Some("CHUDAN".into()),
    }
}

/// The result a CSA word says.
pub(crate) fn csa_result(word: &str) -> Option<DraftResult> {
    match word {
        "+ILLEGAL_ACTION" => {
            return Some(DraftResult::Known(GameResult::win(
                Color::Gote,
                Ending::IllegalMove,
            )));
        }
        "-ILLEGAL_ACTION" => {
            return Some(DraftResult::Known(GameResult::win(
                Color::Sente,
                Ending::IllegalMove,
            )));
        }
        _ => {}
    }
    let (_, side, ending) = CSA_SPECIALS.iter().find(|(w, _, _)| *w == word)?;
    Some(match side {
        Some(won) => DraftResult::SideToMove(*won, *ending),
        None if matches!(ending, Ending::Abort | Ending::Unknown)
            && !matches!(word, "HIKIWAKE" | "MAX_MOVES") =>
        {
            DraftResult::Known(GameResult::undecided(*ending))
        }
        None => DraftResult::Known(GameResult::draw(*ending)),
    })
}

/// The role a CSA code names in a game.
pub(crate) fn csa_role(pos: &AnyPosition, code: &str) -> Option<Role> {
    pos.roles()
        .iter()
        .position(|r| r.csa.as_deref() == Some(code))
        .map(|i| Role(i as u16))
}
