//! Moves as players type them (USI, Fairy-Stockfish's coordinates, a sign or
//! none, three squares for a route) read in a position: the move meant, or a
//! message that says why not (`tests/notation/moves.tsv`).

use koma::position::AnyPosition;
use koma::setup::Setup;

use crate::common::{game, table, tests_dir, variant_path};

#[test]
fn typed_moves_are_read_as_meant_or_refused_with_the_reason() {
    let path = tests_dir().join("notation").join("moves.tsv");
    for (line, f) in table(&path, 4) {
        let at = format!("moves.tsv:{line}");
        let g = game(&variant_path(&f[0]));
        let pos = if f[1] == "start" {
            AnyPosition::start(&g)
        } else {
            let setup = Setup::parse_sfen(&f[1]).unwrap_or_else(|e| panic!("{at}: {e}"));
            AnyPosition::new(&g, &setup).unwrap_or_else(|e| panic!("{at}: {e}"))
        };
        let got = match pos.parse_move(&f[2]) {
            Ok(mv) => {
                assert!(pos.legal_moves().contains(&mv), "{at}: {mv:?} is not legal");
                format!("= {}", pos.format_move(mv, koma::notation::Notation::Usi))
            }
            Err(e) => format!("! {e}"),
        };
        assert_eq!(got, f[3], "{at}: {:?}", f[2]);
    }
}

/// Kanji numerals as KIF writes ranks and counts in hand (a wa shogi hand
/// may hold more than twenty pawns).
#[test]
fn kanji_numbers_are_written_as_records_write_them() {
    use koma::notation::japanese::kanji_number;
    for (n, kanji) in [
        (0, "〇"),
        (1, "一"),
        (9, "九"),
        (10, "十"),
        (11, "十一"),
        (19, "十九"),
        (20, "二十"),
        (22, "二十二"),
        (99, "九十九"),
    ] {
        assert_eq!(kanji_number(n), kanji, "{n}");
    }
}

/// A role is written with its first KIF name that no other role has; a role
/// left without one is written with its letter, `+` before a promoted one.
#[test]
fn a_role_without_a_kif_name_of_its_own_is_written_with_its_letter() {
    use koma::notation::japanese::{role_name, take_role};
    use koma::rules::Role;
    let g = game("shogi");
    let mut roles = AnyPosition::start(&g).roles().to_vec();
    let find = |roles: &[koma::rules::RoleInfo], kanji: &str| {
        let i = roles.iter().position(|r| r.kanji.as_deref() == Some(kanji));
        Role(i.unwrap_or_else(|| panic!("no {kanji}")) as u16)
    };
    let (dragon, pawn, gold) = (find(&roles, "龍"), find(&roles, "歩"), find(&roles, "金"));
    assert_eq!(role_name(&roles, dragon), "龍");
    assert_eq!(role_name(&roles, pawn), "歩");
    // The dragon and the pawn given the same one name: neither keeps it.
    roles[dragon.index()].kif = vec!["歩".into()];
    roles[pawn.index()].kif = vec!["歩".into()];
    let letter = |r: Role| roles[r.index()].id;
    assert_eq!(role_name(&roles, dragon), format!("+{}", letter(dragon)));
    assert_eq!(role_name(&roles, pawn), letter(pawn).to_string());
    // What is written reads back.
    let rest = "x";
    let read =
        |text: String| take_role(&roles, &format!("{text}{rest}")).map(|(r, t)| (r, t.len()));
    assert_eq!(read(format!("+{}", letter(dragon))), Ok((dragon, 1)));
    assert_eq!(read(letter(pawn).to_string()), Ok((pawn, 1)));
    // A shared first name is passed over for the next.
    roles[gold.index()].kif = vec!["歩".into(), "金".into()];
    assert_eq!(role_name(&roles, gold), "金");
}

/// `@@@@`, XBoard's null move (HaChu's way of writing a lion's pass), reads
/// as a pass where a piece may pass, and is refused where none may.
#[test]
fn xboards_null_move_is_a_pass_where_there_is_one() {
    let g = game("chu-shogi");
    // The game of issue 45: gote's lion on d5 may pass (and take the pawn
    // on c4 without moving, which @@@@ must not mean).
    let moves =
        "f3d2 g10f8 i3i2 j9j8 d2b2 f8h7 j1k2 h7g8 b2d2 g8f7 a4a5 f7g8f7 g3f3 e11d11 d2b2 f7d5 b2d2";
    let pos = AnyPosition::from_moves(&g, g.start_setup(), &moves.split(' ').collect::<Vec<_>>())
        .expect("legal game");
    let pass = pos.parse_move("@@@@").expect("the lion may pass");
    assert_eq!(
        pass,
        pos.parse_move("d5e6d5").expect("a pass written as a route")
    );
    let mut after = pos.clone();
    after.try_play(pass).expect("legal");
    assert_eq!(
        after.piece_at(pass.to()),
        pos.piece_at(pass.to()),
        "the lion stays"
    );
    assert_eq!(
        after.fen().split(' ').next(),
        pos.fen().split(' ').next(),
        "nothing taken"
    );
    // Shogi has no piece that may pass.
    let shogi = game("shogi");
    let err = AnyPosition::start(&shogi)
        .parse_move("@@@@")
        .expect_err("no pass in shogi");
    assert!(err.to_string().contains("no piece may pass"), "{err}");
}
