//! Helpers shared by the test modules.

use std::path::{Path, PathBuf};

use std::sync::Arc;

use koma::Game;
use koma::rules::Rules;

/// The repository's `tests/` folder.
pub fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// A variant name as the test data write it: a slug stays a slug, a path
/// (`tests/large/large-16x16.md`) is made absolute from the repository's root.
pub fn variant_path(name: &str) -> String {
    if name.ends_with(".md") {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(name)
            .to_string_lossy()
            .into_owned()
    } else {
        name.to_string()
    }
}

/// Loads a variant, failing the test with the loader's message.
pub fn game(slug: &str) -> Game {
    Game::load(slug).unwrap_or_else(|e| panic!("{slug}: {e}"))
}

/// The bitboard of games up to 64 squares: `u64`, or the one width of the
/// `one-width` feature (mutation testing, tests/mutants/README.md).
#[cfg(not(feature = "one-width"))]
pub type Narrow = u64;
#[cfg(feature = "one-width")]
pub type Narrow = koma::board::Bitboard256;

/// The rules of a game of up to 64 squares, on [`Narrow`].
pub fn narrow_rules(g: &Game) -> Arc<Rules<Narrow>> {
    match g {
        #[cfg(not(feature = "one-width"))]
        Game::Narrow(rules) => rules.clone(),
        #[cfg(feature = "one-width")]
        Game::Large(rules) => rules.clone(),
        #[cfg(not(feature = "one-width"))]
        _ => panic!("{} is not on the narrow bitboard", g.slug()),
    }
}

/// Key-value lines (`key: value`), `#` comments and blank lines skipped.
pub fn fields(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            l.split_once(':')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

/// The rows of a table file, its fields split at tabs (`\t` written in a
/// field is a tab), `#` comments and blank lines left out; each row with its
/// line number. Fails the test unless every row has `width` fields and there
/// is at least one.
pub fn table(path: &Path, width: usize) -> Vec<(usize, Vec<String>)> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let rows: Vec<(usize, Vec<String>)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            (
                i + 1,
                l.split('\t').map(|f| f.replace("\\t", "\t")).collect(),
            )
        })
        .collect();
    for (line, fields) in &rows {
        assert_eq!(fields.len(), width, "{name}:{line}: {width} fields");
    }
    assert!(!rows.is_empty(), "{name} has cases");
    rows
}

/// The position an SFEN gives in a game.
pub fn position_at(g: &Game, sfen: &str) -> koma::position::AnyPosition {
    let setup = koma::setup::Setup::parse_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    koma::position::AnyPosition::new(g, &setup).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// A small deterministic generator (xorshift) for reproducible random input.
pub struct Rng(pub u64);

impl Rng {
    /// The next raw number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Runs the koma binary with `args`, `input` on its stdin: (stdout, stderr,
/// exit code).
pub fn koma_with_input(args: &[&str], input: &[u8]) -> (String, String, Option<i32>) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("koma runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("input written");
    let o = child.wait_with_output().expect("koma ends");
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code(),
    )
}
