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

fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn valid_variant_files() {
    insta::glob!("../validate/ok", "*.md", |path| {
        let o = validate(&[&relative(path)]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{stderr}");
        insta::assert_snapshot!(String::from_utf8_lossy(&o.stdout));
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
    let o = validate(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    insta::assert_snapshot!(String::from_utf8_lossy(&o.stdout));
}

#[test]
fn broken_variant_files() {
    insta::glob!("../validate/errors", "*.md", |path| {
        let o = validate(&[&relative(path)]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{}: {stderr}", path.display());
        assert!(o.stdout.is_empty());
        assert!(!stderr.contains("panicked"), "{stderr}");
        insta::assert_snapshot!(stderr);
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
    insta::glob!("../validate/games/ok", "*.txt", |path| {
        let o = validate(&["--game", &relative(path)]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        insta::assert_snapshot!(String::from_utf8_lossy(&o.stdout));
    });
}

#[test]
fn broken_game_records() {
    insta::glob!("../validate/games/errors", "*.txt", |path| {
        let o = validate(&["--game", &relative(path)]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{}: {stderr}", path.display());
        insta::assert_snapshot!(stderr);
    });
}
