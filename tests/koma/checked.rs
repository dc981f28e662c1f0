//! Moves that cannot corrupt a position: `try_play` refuses, with a typed
//! reason, what `play_unchecked` would have turned into a wrong position, and
//! leaves the position as it was so that `undo` takes back the right move.

use koma::board::Square;
use koma::position::{AnyPosition, IllegalMove, Move, Position};
use koma::rules::Role;
use koma::setup::Setup;

use crate::common::{Narrow, game, narrow_rules};

fn judkins(fen: &str) -> Position<Narrow> {
    let rules = narrow_rules(&game("judkins-shogi"));
    Position::new(&rules, &Setup::parse_fen(fen).expect("FEN")).expect("valid")
}

/// The refused move changes nothing: same FEN, hash and history, and the
/// next undo takes back the last move that was really played.
fn refused(pos: &mut Position<Narrow>, mv: Move, expected: IllegalMove) {
    let (fen, hash, history) = (pos.fen(), pos.hash(), pos.history().count());
    assert!(!pos.is_legal(mv), "{mv:?}: is_legal");
    assert_eq!(pos.try_play(mv), Err(expected), "{mv:?}");
    assert_eq!(pos.fen(), fen);
    assert_eq!(pos.hash(), hash);
    assert_eq!(pos.history().count(), history);
}

#[test]
fn a_move_from_an_empty_square_is_refused() {
    let mut pos = judkins("rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1");
    let first = pos.parse_move("6e6d").expect("legal");
    assert!(pos.is_legal(first));
    pos.try_play(first).expect("legal");
    let after_first = pos.fen();
    let reply = pos.parse_move("1b1c").expect("legal");
    pos.try_play(reply).expect("legal");
    // d3 (the middle of the board) is empty.
    let empty = Square::new(2 * 6 + 3);
    let mv = Move::Normal {
        from: empty,
        to: Square::new(3 * 6 + 3),
        promote: false,
    };
    refused(&mut pos, mv, IllegalMove::EmptySquare { square: empty });
    assert_eq!(pos.undo(), Some(reply));
    assert_eq!(pos.fen(), after_first);
}

#[test]
fn a_drop_of_a_piece_not_in_hand_is_refused() {
    let mut pos = judkins("rbsgkn/5p/6/6/P5/NKGSBR[p] w - - 0 1");
    let pawn = pos.rules().role_by_letter('P', false).expect("a pawn");
    let to = Square::new(2 * 6 + 3);
    refused(
        &mut pos,
        Move::Drop { role: pawn, to },
        IllegalMove::NotInHand { role: pawn },
    );
    // Gote has one; sente's refused drop did not take it.
    assert_eq!(pos.hand(koma::board::Color::Gote, pawn), 1);
}

#[test]
fn a_drop_of_an_unknown_role_is_refused() {
    let mut pos = judkins("rbsgkn/5p/6/6/P5/NKGSBR[P] w - - 0 1");
    let role = Role(pos.rules().role_count() as u16);
    refused(
        &mut pos,
        Move::Drop {
            role,
            to: Square::new(15),
        },
        IllegalMove::UnknownRole { role },
    );
}

#[test]
fn other_illegal_moves_are_refused_by_kind() {
    let mut pos = judkins("rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1");
    let off = Square::new(36);
    refused(
        &mut pos,
        Move::Normal {
            from: Square::new(0),
            to: off,
            promote: false,
        },
        IllegalMove::OffBoard { square: off },
    );
    // Gote's pawn on f5, sente to move.
    let theirs = Square::new(4 * 6 + 5);
    refused(
        &mut pos,
        Move::Normal {
            from: theirs,
            to: Square::new(3 * 6 + 5),
            promote: false,
        },
        IllegalMove::NotYours { square: theirs },
    );
    // The rook on f1 cannot jump over the bishop to d1.
    refused(
        &mut pos,
        Move::Normal {
            from: Square::new(5),
            to: Square::new(3),
            promote: false,
        },
        IllegalMove::Forbidden,
    );
}

#[test]
fn has_legal_move_agrees_with_the_move_list() {
    for (fen, moves) in [
        ("rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1", 21),
        // Checkmated: the gold on b5 is guarded by the pawn.
        ("k5/1G4/1P4/6/6/5K[] b - - 0 1", 0),
    ] {
        let pos = judkins(fen);
        assert_eq!(pos.legal_moves().len(), moves, "{fen}");
        assert_eq!(pos.has_legal_move(), moves > 0, "{fen}");
        let any = AnyPosition::from(pos.clone());
        assert_eq!(any.legal_moves().len(), moves, "{fen}");
        assert_eq!(any.has_legal_move(), moves > 0, "{fen}");
    }
}

/// The position of whatever width answers what its moves are as the
/// position inside does: on a board of 36, 121 and 144 squares.
#[test]
fn a_position_of_any_width_knows_its_legal_moves() {
    for slug in ["judkins-shogi", "wa-shogi", "chu-shogi"] {
        let pos = AnyPosition::start(&game(slug));
        let moves = pos.legal_moves();
        assert!(!moves.is_empty(), "{slug}");
        assert!(pos.has_legal_move(), "{slug}");
        for &mv in &moves {
            assert!(pos.is_legal(mv), "{slug}: {mv:?}");
        }
        // A move from an empty square.
        let empty = pos
            .topology()
            .squares()
            .find(|&s| pos.piece_at(s).is_none())
            .expect("an empty square");
        let mv = Move::Normal {
            from: empty,
            to: moves[0].to(),
            promote: false,
        };
        assert!(!pos.is_legal(mv), "{slug}: {mv:?}");
    }
}

#[test]
fn position_problems_are_typed() {
    let rules = narrow_rules(&game("judkins-shogi"));
    let setup = Setup::parse_fen("rbsgkn/5p/6/P5/P5/NKGSBR[X] b - - 0 1").expect("FEN");
    let e = match Position::new(&rules, &setup) {
        Ok(_) => {
            panic!("two pawns on a file, an unknown piece in hand and sente in check are refused")
        }
        Err(e) => e,
    };
    use koma::position::PositionProblem::*;
    assert!(
        matches!(
            e.problems[..],
            [
                UnknownInHand { .. },
                FileLimit {
                    max: 1,
                    file: 6,
                    ..
                }
            ]
        ),
        "{:?}",
        e.problems
    );
    assert!(
        matches!(e.problems[0], UnknownInHand { id } if id.as_str() == "X"),
        "{:?}",
        e.problems
    );
    assert_eq!(
        e.to_string(),
        "'X' in hand is not a piece of this variant; sente has more than 1 unpromoted pawn on file 6"
    );
}

#[test]
fn outcomes_are_typed() {
    use koma::position::{Outcome, Reason};
    let pos = judkins("k5/1G4/1P4/6/6/5K[] b - - 0 1");
    let o = pos.outcome().expect("checkmate");
    assert_eq!(o.winner(), Some(koma::board::Color::Sente));
    assert_eq!(o.reason(), Reason::Checkmate);
    assert_eq!(
        o,
        Outcome::Win {
            winner: koma::board::Color::Sente,
            reason: Reason::Checkmate
        }
    );
    assert_eq!(o.to_string(), "sente wins by checkmate");
}

/// The history is the moves played, in order, and the last move its last;
/// undo takes them back from the end (records, the server and the engine's
/// ordering read them).
#[test]
fn history_and_last_move_follow_play_and_undo() {
    let mut pos = judkins("rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1");
    assert_eq!(pos.history().count(), 0);
    assert_eq!(pos.last_move(), None);
    let mut played = Vec::new();
    for text in ["6e6d", "1b1c", "2f3e", "1c1d"] {
        let mv = pos.parse_move(text).expect("legal");
        pos.try_play(mv).expect("legal");
        played.push(mv);
        assert_eq!(pos.history().collect::<Vec<_>>(), played, "after {text}");
        assert_eq!(pos.last_move(), Some(mv), "after {text}");
    }
    while let Some(mv) = played.pop() {
        assert_eq!(pos.undo(), Some(mv));
        assert_eq!(pos.history().collect::<Vec<_>>(), played);
        assert_eq!(pos.last_move(), played.last().copied());
    }
    assert_eq!(pos.undo(), None);
}
