//! The FEN and SFEN reader and writer on their own, before any rules: what
//! they accept and write back (`tests/setup/readable.tsv`), what they refuse
//! and where they say the problem is (`tests/setup/unreadable.tsv`), and which
//! setups are the same (`tests/setup/same.tsv`).

use koma::setup::{Setup, SetupError};

use crate::common::{table, tests_dir};

/// The rows of one of `tests/setup/`'s tables.
fn rows(name: &str, width: usize) -> Vec<(usize, Vec<String>)> {
    table(&tests_dir().join("setup").join(name), width)
}

fn read(kind: &str, text: &str) -> Result<Setup, SetupError> {
    match kind {
        "fen" => Setup::parse_fen(text),
        "sfen" => Setup::parse_sfen(text),
        _ => panic!("unknown kind {kind}"),
    }
}

#[test]
fn readable_setups_are_written_back_as_read() {
    for (line, f) in rows("readable.tsv", 5) {
        let (kind, text) = (&f[0], &f[1]);
        let setup = read(kind, text).unwrap_or_else(|e| panic!("readable.tsv:{line}: {e}"));
        assert_eq!(
            setup.to_sfen(),
            f[2],
            "readable.tsv:{line}: SFEN of {text:?}"
        );
        assert_eq!(setup.to_fen(), f[3], "readable.tsv:{line}: FEN of {text:?}");
        let square = setup.capture_square.as_deref().unwrap_or("-");
        assert_eq!(
            square, f[4],
            "readable.tsv:{line}: capture square of {text:?}"
        );
        // What koma writes, it reads as the same setup.
        let again = Setup::parse_sfen(&setup.to_sfen()).expect("its own SFEN");
        assert_eq!(again, setup, "readable.tsv:{line}: SFEN read back");
        assert_eq!(again.to_sfen(), f[2], "readable.tsv:{line}: SFEN read back");
    }
}

#[test]
fn unreadable_setups_are_refused_with_the_place_of_the_problem() {
    for (line, f) in rows("unreadable.tsv", 3) {
        let (kind, text) = (&f[0], &f[1]);
        match read(kind, text) {
            Ok(s) => panic!("unreadable.tsv:{line}: {text:?} read as {}", s.to_sfen()),
            Err(e) => assert_eq!(e.to_string(), f[2], "unreadable.tsv:{line}: {text:?}"),
        }
    }
}

#[test]
fn setups_are_the_same_when_they_say_the_same() {
    for (line, f) in rows("same.tsv", 5) {
        let a = read(&f[0], &f[1]).unwrap_or_else(|e| panic!("same.tsv:{line}: {e}"));
        let b = read(&f[2], &f[3]).unwrap_or_else(|e| panic!("same.tsv:{line}: {e}"));
        let expected = match f[4].as_str() {
            "same" => true,
            "different" => false,
            other => panic!("same.tsv:{line}: '{other}' is neither 'same' nor 'different'"),
        };
        assert_eq!(a == b, expected, "same.tsv:{line}: {} and {}", f[1], f[3]);
        assert_eq!(b == a, expected, "same.tsv:{line}: {} and {}", f[3], f[1]);
    }
}
