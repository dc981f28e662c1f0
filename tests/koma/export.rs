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

fn import(args: &[&str]) -> (String, String, Option<i32>) {
    let mut all = vec!["variant", "import"];
    all.extend_from_slice(args);
    koma_with_input(&all, b"")
}

fn ini(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("koma-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the section");
    path.to_str().expect("utf-8 path").to_string()
}

#[test]
fn a_section_over_minishogi_imports_as_a_file_koma_plays() {
    // Minishogi without drops: captured pieces leave the game.
    let path = ini(
        "nodrops.ini",
        "[nodrops:minishogi]\npieceDrops = false\ncapturesToHand = false\n",
    );
    let (out, err, code) = import(&[&path, "nodrops"]);
    assert_eq!(code, Some(0), "{err}");
    insta::assert_snapshot!(out.replace(&path, "nodrops.ini"));
    let md = ini("nodrops.md", &out);
    let (moves, err, code) = koma_with_input(&["perft", "--variant", &md, "--depth", "3"], b"");
    assert_eq!(code, Some(0), "{err}");
    // pyffish 0.0.90 counts 2488 for this section (load_variant_config,
    // legal_moves to depth 3); minishogi with its drops counts 2512.
    assert!(moves.ends_with("total: 2488\n"), "{moves}");
}

#[test]
fn what_cannot_come_in_is_refused_with_its_line() {
    let path = ini(
        "anti.ini",
        "# anti\n[anti:minishogi]\nking = -\ncommoner = k\nmustCapture = true\n",
    );
    let (out, err, code) = import(&[&path, "anti"]);
    assert_eq!(code, Some(1));
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(&format!(
            "{path}:5: mustCapture = true: koma has no rule for this key"
        )),
        "{err}"
    );
    assert!(err.contains("[anti] has no king"), "{err}");
    let (_, err, code) = import(&[&path, "other"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("no section [other]: the file has anti"),
        "{err}"
    );
    let (_, err, code) = import(&["no/such/file.ini", "anti"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("cannot read no/such/file.ini"), "{err}");
}
