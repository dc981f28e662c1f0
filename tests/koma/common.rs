//! Helpers shared by the test modules.

use std::path::{Path, PathBuf};

use koma::Game;

/// The repository's `tests/` folder.
pub fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// Loads a variant, failing the test with the loader's message.
pub fn game(slug: &str) -> Game {
    Game::load(slug).unwrap_or_else(|e| panic!("{slug}: {e}"))
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
