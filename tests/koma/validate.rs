//! `koma validate` on folders of files: `tests/validate/ok/*` must pass,
//! `tests/validate/errors/*` must fail; the report is the snapshot.

use std::path::Path;
use std::process::{Command, Output};

fn validate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_koma"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("validate")
        .args(args)
        .output()
        .expect("koma runs")
}

/// The report of an input koma accepts (exit 0), from stdout.
fn accepted(args: &[&str]) -> String {
    let o = validate(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The report of an input koma refuses (exit 1, nothing on stdout, no panic).
fn refused(args: &[&str]) -> String {
    let o = validate(args);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(o.stdout.is_empty(), "{args:?}: output on stdout");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn valid_variant_files() {
    insta::glob!("../validate/ok", "*.md", |path| {
        insta::assert_snapshot!(accepted(&[&relative(path)]));
    });
}

#[test]
fn every_embedded_variant_file_is_valid() {
    let mut files: Vec<String> = koma::variant::catalogue()
        .iter()
        .map(|s| format!("variants/{s}.md"))
        .collect();
    files.sort();
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    insta::assert_snapshot!(accepted(&args));
}

#[test]
fn broken_variant_files() {
    insta::glob!("../validate/errors", "*.md", |path| {
        insta::assert_snapshot!(refused(&[&relative(path)]));
    });
}

#[test]
fn misuse_exits_with_2() {
    assert_eq!(validate(&[]).status.code(), Some(2));
    assert_eq!(
        validate(&["variants/shogi.md", "--game", "x.txt"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn valid_game_records() {
    insta::glob!("../validate/games/ok", "*.*", |path| {
        insta::assert_snapshot!(accepted(&["--game", &relative(path)]));
    });
}

#[test]
fn broken_game_records() {
    insta::glob!("../validate/games/errors", "*.*", |path| {
        insta::assert_snapshot!(refused(&["--game", &relative(path)]));
    });
}

/// A name that ends in `.md` is a file even without a directory: a missing
/// one is said to be missing, not taken for an unknown variant's name.
#[test]
fn a_missing_variant_file_is_named_as_a_file() {
    let err = refused(&["no-such-variant.md"]);
    assert!(err.contains("cannot read no-such-variant.md: "), "{err}");
}
