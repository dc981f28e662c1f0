//! The fuzz targets' kept inputs, run on every `cargo test`: the corpus each
//! target built (`tests/fuzz/corpus/<target>/`, minimized) and the inputs that
//! once failed (`tests/fuzz/regressions/<target>/`). The bodies are those
//! cargo-fuzz runs (`tests/fuzz/targets.rs`); see `tests/fuzz/README.md`.

#[path = "../fuzz/targets.rs"]
mod targets;

use std::path::Path;

/// Runs every kept input of `target` through `body`; returns how many.
fn replay(target: &str, body: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz");
    let mut count = 0;
    for kind in ["corpus", "regressions"] {
        let dir = root.join(kind).join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).expect("readable input");
            let run = std::panic::catch_unwind(|| body(&data));
            assert!(run.is_ok(), "{} fails again", file.display());
            count += 1;
        }
    }
    count
}

macro_rules! kept_inputs {
    ($($target:ident),*) => {$(
        #[test]
        fn $target() {
            let n = replay(stringify!($target), targets::$target);
            assert!(n > 0, "no kept inputs for the {} target", stringify!($target));
        }
    )*};
}

kept_inputs!(
    variant, dsl, fen, sfen, moves, record, kif, ki2, csa, pgn, jkf, protocol, play
);
