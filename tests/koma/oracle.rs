//! Move lists checked position by position against Fairy-Stockfish.
//!
//! `tests/oracle/<slug>.tsv`: `fen<TAB>in_check<TAB>sorted legal moves` per
//! line, written by `tests/oracle/generate.py` from the oracle in
//! `tests/oracle/fsoracle.py` (pyffish, pawn-drop mate illegal);
//! `drop-mates.tsv` has the slug as a first column. Every file must belong to
//! a variant of the catalogue.

use std::collections::BTreeSet;

use koma::notation::{Notation, format_move};
use koma::position::Position;
use koma::setup::Setup;
use koma::{variant, with_rules};

use crate::common::{game, tests_dir};

fn check_line(slug: &str, fen: &str, check: &str, expected: &str) -> Option<String> {
    let g = game(slug);
    with_rules!(&g, rules => {
        let setup = match Setup::parse_fen(fen) {
            Ok(s) => s,
            Err(e) => return Some(format!("{slug} {fen}: {e}")),
        };
        let pos = match Position::new(rules, &setup) {
            Ok(p) => p,
            Err(e) => return Some(format!("{slug} {fen}: {e}")),
        };
        let ours: BTreeSet<String> = pos.legal_moves().into_iter().map(|m| format_move(&pos, m, Notation::Fairy)).collect();
        let theirs: BTreeSet<String> = expected.split_whitespace().map(str::to_string).collect();
        let mut problems = Vec::new();
        if ours != theirs {
            let extra: Vec<_> = ours.difference(&theirs).cloned().collect();
            let missing: Vec<_> = theirs.difference(&ours).cloned().collect();
            problems.push(format!("koma only: {extra:?}; oracle only: {missing:?}"));
        }
        if pos.in_check() != (check == "1") {
            problems.push(format!("in check: koma {}, oracle {check}", pos.in_check()));
        }
        if canonical(&pos.fen()) != canonical(fen) {
            problems.push(format!("FEN written back as {}", pos.fen()));
        }
        if problems.is_empty() { None } else { Some(format!("{slug} {fen}: {}", problems.join("; "))) }
    })
}

/// Checks every line of an oracle file (`FEN<TAB>check<TAB>moves`) against
/// `game`, adding each difference to `failures`; returns how many positions
/// the file holds (it must hold at least 100).
fn check_file(game: &str, path: &std::path::Path, failures: &mut Vec<String>) -> usize {
    let text = std::fs::read_to_string(path).expect("readable");
    let mut positions = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 2, "{}: malformed line {line}", path.display());
        positions += 1;
        if let Some(f) = check_line(game, cols[0], cols[1], cols.get(2).copied().unwrap_or("")) {
            failures.push(f);
        }
    }
    assert!(
        positions >= 100,
        "{}: only {positions} positions",
        path.display()
    );
    positions
}

/// [`check_file`] of `tests/TSV` against the test game `GAME`, which must
/// agree on every position.
fn assert_file_agrees(game: &str, tsv: &str) {
    let mut failures = Vec::new();
    let positions = check_file(
        &crate::common::variant_path(game),
        &tests_dir().join(tsv),
        &mut failures,
    );
    assert!(
        failures.is_empty(),
        "{} of {positions} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Board, side to move and the hands as a sorted multiset (engines order
/// hands differently; Fairy-Stockfish writes an empty hand `[-]`).
fn canonical(fen: &str) -> (String, Vec<char>, String) {
    let mut fields = fen.split_whitespace();
    let first = fields.next().unwrap_or_default();
    let (board, hand) = first.split_once('[').unwrap_or((first, "]"));
    let mut hand: Vec<char> = hand
        .trim_end_matches(']')
        .chars()
        .filter(|&c| c != '-')
        .collect();
    hand.sort();
    (
        board.to_string(),
        hand,
        fields.next().unwrap_or("w").to_string(),
    )
}

#[test]
fn move_lists_agree_with_the_oracle() {
    let dir = tests_dir().join("oracle");
    let catalogue = variant::catalogue();
    let mut failures = Vec::new();
    let mut positions = 0;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/oracle exists")
        .map(|e| e.expect("readable").path())
        .collect();
    files.sort();
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
    {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let with_slug = stem == "drop-mates";
        assert!(
            with_slug || catalogue.contains(&stem),
            "{}: no variant '{stem}' in the catalogue",
            path.display()
        );
        let text = std::fs::read_to_string(path).expect("readable");
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let cols: Vec<&str> = line.split('\t').collect();
            let (slug, rest) = if with_slug {
                (cols[0], &cols[1..])
            } else {
                (stem, &cols[..])
            };
            assert!(rest.len() >= 2, "{}: malformed line {line}", path.display());
            positions += 1;
            if let Some(f) = check_line(slug, rest[0], rest[1], rest.get(2).copied().unwrap_or(""))
            {
                failures.push(f);
            }
        }
    }
    assert!(positions >= 100, "only {positions} oracle positions found");
    assert!(
        failures.is_empty(),
        "{} of {positions} positions differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Under each name Fairy-Stockfish also knows, koma starts where it does
/// (`tests/oracle/fs-starts.txt`, from `tests/oracle/fs_starts.py`): e.g.
/// `judkins` from Fairy-Stockfish's setup, while `judkins-shogi` keeps the
/// seed's (checked apart, so that the two cannot silently become one).
#[test]
fn fs_start_positions_are_those_of_the_alias() {
    let text =
        std::fs::read_to_string(tests_dir().join("oracle/fs-starts.txt")).expect("fs-starts.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (name, fen) = line.split_once(' ').expect("name FEN");
        let g = koma::Game::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = koma::position::AnyPosition::start(&g).fen();
        assert_eq!(canonical(&ours), canonical(fen), "{name}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} names checked");
    let seed = koma::Game::load("judkins-shogi").expect("judkins-shogi");
    assert_eq!(
        norm_board(&koma::position::AnyPosition::start(&seed).fen()),
        "rbsgkn/5p/6/6/P5/NKGSBR"
    );
    let alias = koma::Game::load("judkins").expect("judkins");
    assert_eq!(alias.slug(), "judkins");
    // Every alias of the catalogue loads (a setup of its own is validated
    // as the variant's is).
    for a in variant::alias_list() {
        koma::Game::load(&a.name).unwrap_or_else(|e| panic!("alias {}: {e}", a.name));
    }
}

fn norm_board(fen: &str) -> String {
    canonical(fen).0
}

/// Hoppers (`p`, `g`, ranges, modes) position by position against
/// Fairy-Stockfish: `tests/hoppers/hopper-shogi.tsv`, written by
/// `tests/hoppers/oracle.py` for the test game `tests/hoppers/hopper-shogi.md`.
#[test]
fn hopper_move_lists_agree_with_the_oracle() {
    assert_file_agrees("tests/hoppers/hopper-shogi.md", "hoppers/hopper-shogi.tsv");
}

/// Hoppers whose hop and leap reach one square (`DpR`, `AgB`): that square
/// attacked once and one move, against Fairy-Stockfish
/// (`tests/hoppers/leaping-cannons.tsv`, `tests/hoppers/oracle.py positions
/// leaping-cannons`).
#[test]
fn leaping_cannon_move_lists_agree_with_the_oracle() {
    assert_file_agrees(
        "tests/hoppers/leaping-cannons.md",
        "hoppers/leaping-cannons.tsv",
    );
}

/// A board with holes (`*`: Fairy-Stockfish's walls) against
/// Fairy-Stockfish, position by position: riders stop before a hole,
/// leapers jump over it, hoppers use it as a screen, nothing is dropped on
/// it nor where a hole leaves a piece no move (`tests/holes/holey-shogi.tsv`,
/// `tests/hoppers/oracle.py positions holey-shogi`). Each position is also
/// read back from koma's own FEN, holes and all.
#[test]
fn holey_board_move_lists_agree_with_the_oracle() {
    assert_file_agrees("tests/holes/holey-shogi.md", "holes/holey-shogi.tsv");
}

/// Games whose pieces turn over (`promotion: flip`, `capture`), position by
/// position against Fairy-Stockfish: each `tests/turnover/NAME.tsv`, written by
/// `tests/turnover/oracle.py NAME` from a section of
/// `tests/turnover/variants.ini`, holds the move lists of the test game
/// `tests/turnover/NAME.md`: promoted drops barred where the dropped side
/// could never move (`promoted-drops`), hops that turn the piece over at
/// every move (`flip-hoppers`) or at captures only (`capture-hoppers`), no
/// quiet move to a dead end where only a capture turns a piece over
/// (`capture-dead-ends`).
#[test]
fn turnover_move_lists_agree_with_the_oracle() {
    let dir = tests_dir().join("turnover");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/turnover exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    files.sort();
    let names: Vec<_> = files
        .iter()
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()))
        .collect();
    assert_eq!(
        names,
        [
            "capture-dead-ends",
            "capture-hoppers",
            "flip-hoppers",
            "promoted-drops"
        ],
        "the games of tests/turnover"
    );
    let mut failures = Vec::new();
    for (path, name) in files.iter().zip(&names) {
        let game = crate::common::variant_path(&format!("tests/turnover/{name}.md"));
        let positions = check_file(&game, path, &mut failures);
        assert!(positions >= 100, "{name}: only {positions} positions");
    }
    assert!(
        failures.is_empty(),
        "{} positions differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A movement that names one step in two modes (`W` and `cW`) is the piece
/// it would be with the step named once: minishogi with the gold written
/// `WfFcW` (`tests/modes/minishogi-gold-wfcw.md`) against Fairy-Stockfish's
/// minishogi lists.
#[test]
fn a_step_named_in_two_modes_is_the_same_piece() {
    assert_file_agrees("tests/modes/minishogi-gold-wfcw.md", "oracle/minishogi.tsv");
}
