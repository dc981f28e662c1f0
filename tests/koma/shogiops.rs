//! Check shogi against lishogi's rules, position by position.
//!
//! `tests/shogiops/check-shogi.tsv`: `sfen<TAB>result<TAB>moves` per line,
//! written by `tests/shogiops/oracle.mjs generate` from npm `shogiops`
//! 0.18.0 (lishogi's rules library). result is `-` while the game goes on,
//! else `WINNER:REASON` in shogiops' words; moves are the sorted legal moves
//! in USI, none once the game is over.

use std::collections::BTreeSet;

use koma::board::Color;
use koma::notation::{Notation, format_move};
use koma::position::{Outcome, Position, Reason};
use koma::setup::Setup;
use koma::with_rules;

use crate::common::{game, tests_dir};

/// koma's outcome in shogiops' words (`-`, or `WINNER:REASON`).
fn in_shogiops_words(outcome: Option<Outcome>) -> String {
    let Some(o) = outcome else {
        return "-".into();
    };
    let reason = match o.reason() {
        Reason::Check => "specialVariantEnd",
        Reason::Checkmate => "checkmate",
        Reason::NoLegalMove => "stalemate",
        other => return format!("koma's {other}"),
    };
    let winner = match o.winner() {
        Some(Color::Sente) => "sente",
        Some(Color::Gote) => "gote",
        None => "none",
    };
    format!("{winner}:{reason}")
}

/// What differs at one position, if anything.
fn differences<B: koma::board::Bitboard>(
    rules: &std::sync::Arc<koma::rules::Rules<B>>,
    sfen: &str,
    result: &str,
    expected: &str,
) -> Option<String> {
    let setup = match Setup::parse_sfen(sfen) {
        Ok(s) => s,
        Err(e) => return Some(format!("{sfen}: {e}")),
    };
    let pos = match Position::new(rules, &setup) {
        Ok(p) => p,
        Err(e) => return Some(format!("{sfen}: {e}")),
    };
    let mut problems = Vec::new();
    let ours = in_shogiops_words(pos.outcome());
    if ours != result {
        problems.push(format!("result: koma {ours}, shogiops {result}"));
    }
    let moves: BTreeSet<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| format_move(&pos, m, Notation::Usi))
        .collect();
    let theirs: BTreeSet<String> = expected.split_whitespace().map(str::to_string).collect();
    if moves != theirs {
        let extra: Vec<_> = moves.difference(&theirs).cloned().collect();
        let missing: Vec<_> = theirs.difference(&moves).cloned().collect();
        problems.push(format!("koma only: {extra:?}; shogiops only: {missing:?}"));
    }
    if problems.is_empty() {
        None
    } else {
        Some(format!("{sfen}: {}", problems.join("; ")))
    }
}

#[test]
fn check_shogi_agrees_with_lishogi() {
    let path = tests_dir().join("shogiops/check-shogi.tsv");
    let text = std::fs::read_to_string(&path).expect("tests/shogiops/check-shogi.tsv");
    let g = game("check-shogi");
    let mut failures = Vec::new();
    let (mut positions, mut over) = (0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 2, "malformed line {line}");
        positions += 1;
        over += usize::from(cols[1] != "-");
        let expected = cols.get(2).copied().unwrap_or("");
        if let Some(f) = with_rules!(&g, rules => differences(rules, cols[0], cols[1], expected)) {
            failures.push(f);
        }
    }
    assert!(
        positions >= 1000 && over >= 50,
        "{positions} positions, {over} ended"
    );
    assert!(
        failures.is_empty(),
        "{} of {positions} positions differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
