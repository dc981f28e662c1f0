//! `koma variant export --to ini`: the Fairy-Stockfish section of a variant,
//! and the refusal that names each key it cannot carry. That pyffish plays
//! the sections as koma plays the files is checked by tests/diff/export.py
//! (shipped variants) and tests/diff/randvar.py --ini-from-koma (random ones).

use crate::common::{koma_with_input, tests_dir};

fn export(args: &[&str]) -> (String, String, Option<i32>) {
    let mut all = vec!["variant", "export"];
    all.extend_from_slice(args);
    koma_with_input(&all, b"")
}

#[test]
fn judkins_shogi_as_a_variants_ini_section() {
    let (out, err, code) = export(&["judkins-shogi", "--to", "ini"]);
    assert_eq!(code, Some(0), "{err}");
    insta::assert_snapshot!(out);
}

#[test]
fn a_declaration_rule_is_named_as_left_out_and_the_section_named_as_asked() {
    let (out, err, code) = export(&["shogi", "--to", "ini", "--name", "myshogi"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("[myshogi:shogi]"), "{out}");
    assert!(
        out.contains("# left out: engine.rules.declaration"),
        "{out}"
    );
    // The pawn is Fairy-Stockfish's shogi pawn (the one its drop-mate rule
    // knows), set once: configparser refuses a key written twice.
    assert_eq!(out.matches("shogiPawn = ").count(), 1, "{out}");
    assert!(out.contains("shogiPawn = p\n") && out.contains("shogiPawnDropMateIllegal = true"));
}

#[test]
fn what_cannot_go_out_is_refused_with_its_key() {
    let (out, err, code) = export(&["chu-shogi", "--to", "ini"]);
    assert_eq!(code, Some(1));
    assert!(out.is_empty(), "{out}");
    for key in [
        "engine.topology: a board of 12×12",
        "engine.rules.promotion: 'entering'",
        "engine.rules.trade_limits",
        "engine.rules.bare_royal",
        "engine.pieces.lion.betza: 'KNADcaKmabK' moves in two legs",
        "engine.pieces: 2 royal kinds (king, crown prince)",
    ] {
        assert!(err.contains(key), "{key} not in: {err}");
    }
    let (_, err, code) = export(&["annan-shogi", "--to", "ini"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("engine.rules.move_as_friend_at"), "{err}");
    let long = tests_dir().join("moves/variants/long-ids.md");
    let (_, err, code) = export(&[long.to_str().expect("utf-8 path"), "--to", "ini"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("engine.pieces.silver.letter: 'SI' has 2 letters"),
        "{err}"
    );
}

#[test]
fn bad_names_and_files_are_refused_with_a_message() {
    let (_, err, code) = export(&["judkins-shogi", "--to", "ini", "--name", "a b]"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("name: 'a b]' cannot name a section"), "{err}");
    let (_, err, code) = export(&["no-such-variant", "--to", "ini"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("no-such-variant"), "{err}");
    let (_, err, code) = export(&["judkins-shogi", "--to", "yaml"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("yaml"), "{err}");
}
