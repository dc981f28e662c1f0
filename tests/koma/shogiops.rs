//! Check shogi, annan shogi and chu shogi against lishogi's rules, position
//! by position.
//!
//! `tests/shogiops/check-shogi.tsv` and `annan-shogi.tsv`:
//! `sfen<TAB>result<TAB>moves[<TAB>exceptions]` per line, written by
//! `tests/shogiops/oracle.mjs RULES generate` from npm `shogiops` 0.18.0
//! (lishogi's rules library). result is `-` while the game goes on, else
//! `WINNER:REASON` in shogiops' words; moves are the sorted legal moves in
//! USI, none once the game is over; exceptions (annan shogi) are where
//! shogiops' legality shortcuts depart from its movement rule, found by
//! trying each move there: `+MOVE` allowed but not listed, `-MOVE` listed
//! but leaving the king attacked. koma plays moves, plus the `+`, less the `-`.

use std::collections::BTreeSet;

use koma::board::Color;
use koma::notation::{Notation, format_move};
use koma::position::{Outcome, Position, Reason};
use koma::setup::Setup;
use koma::with_rules;

use crate::common::{game, tests_dir};

/// koma's outcome in shogiops' words (`-`, or `WINNER:REASON`), with the
/// reasons a game's file can end by named as `reason` names them.
fn shogiops_words(outcome: Option<Outcome>, reason: fn(Reason) -> Option<&'static str>) -> String {
    let Some(o) = outcome else {
        return "-".into();
    };
    let Some(reason) = reason(o.reason()) else {
        return format!("koma's {}", o.reason());
    };
    let winner = match o.winner() {
        Some(Color::Sente) => "sente",
        Some(Color::Gote) => "gote",
        None => "none",
    };
    format!("{winner}:{reason}")
}

/// Check shogi's ends in shogiops' words.
fn in_shogiops_words(outcome: Option<Outcome>) -> String {
    shogiops_words(outcome, |r| match r {
        Reason::Check => Some("specialVariantEnd"),
        Reason::Checkmate => Some("checkmate"),
        Reason::NoLegalMove => Some("stalemate"),
        _ => None,
    })
}

/// Annan shogi's ends in shogiops' words.
fn annan_words(outcome: Option<Outcome>) -> String {
    shogiops_words(outcome, |r| match r {
        Reason::Checkmate => Some("checkmate"),
        Reason::NoLegalMove => Some("stalemate"),
        _ => None,
    })
}

/// What differs at one position (`sfen`, `result`, moves, exceptions), if anything.
fn differences<B: koma::board::Bitboard>(
    rules: &std::sync::Arc<koma::rules::Rules<B>>,
    cols: &[&str],
    words: fn(Option<Outcome>) -> String,
) -> Option<String> {
    let (sfen, result) = (cols[0], cols[1]);
    let setup = match Setup::parse_sfen(sfen) {
        Ok(s) => s,
        Err(e) => return Some(format!("{sfen}: {e}")),
    };
    let pos = match Position::new(rules, &setup) {
        Ok(p) => p,
        Err(e) => return Some(format!("{sfen}: {e}")),
    };
    let mut problems = Vec::new();
    if pos.to_setup().to_sfen() != sfen {
        problems.push(format!("koma writes it {}", pos.to_setup().to_sfen()));
    }
    let ours = words(pos.outcome());
    if ours != result {
        problems.push(format!("result: koma {ours}, shogiops {result}"));
    }
    let moves: BTreeSet<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| format_move(&pos, m, Notation::Usi))
        .collect();
    let mut theirs: BTreeSet<String> = cols
        .get(2)
        .unwrap_or(&"")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    for exception in cols.get(3).unwrap_or(&"").split_whitespace() {
        match exception.split_at(1) {
            ("+", m) => theirs.insert(m.to_string()),
            ("-", m) => theirs.remove(m),
            _ => panic!("{sfen}: exception {exception} is neither +MOVE nor -MOVE"),
        };
    }
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

/// What a data file holds: positions, ended games, exceptions.
struct Tally {
    positions: usize,
    over: usize,
    exceptions: usize,
}

/// Compares every position of `tests/shogiops/FILE` with koma playing `slug`.
fn agrees_with_lishogi(file: &str, slug: &str, words: fn(Option<Outcome>) -> String) -> Tally {
    let path = tests_dir().join("shogiops").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let g = game(slug);
    let mut failures = Vec::new();
    let mut tally = Tally {
        positions: 0,
        over: 0,
        exceptions: 0,
    };
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 2, "malformed line {line}");
        tally.positions += 1;
        tally.over += usize::from(cols[1] != "-");
        tally.exceptions += cols.get(3).map_or(0, |e| e.split_whitespace().count());
        if let Some(f) = with_rules!(&g, rules => differences(rules, &cols, words)) {
            failures.push(f);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} positions differ:\n{}",
        failures.len(),
        tally.positions,
        failures.join("\n")
    );
    tally
}

#[test]
fn check_shogi_agrees_with_lishogi() {
    let t = agrees_with_lishogi("check-shogi.tsv", "check-shogi", in_shogiops_words);
    assert!(
        t.positions >= 1000 && t.over >= 50,
        "{} positions, {} ended",
        t.positions,
        t.over
    );
}

#[test]
fn annan_shogi_agrees_with_lishogi() {
    let t = agrees_with_lishogi("annan-shogi.tsv", "annan-shogi", annan_words);
    assert!(
        t.positions >= 1000 && t.over >= 10 && t.exceptions >= 1,
        "{} positions, {} ended, {} exceptions",
        t.positions,
        t.over,
        t.exceptions
    );
}

/// Chu shogi's end in shogiops' words.
fn chu_words(outcome: Option<Outcome>) -> String {
    shogiops_words(outcome, |r| match r {
        Reason::RoyalCaptured => Some("kingslost"),
        Reason::NoLegalMove => Some("stalemate"),
        Reason::BareRoyal => Some("bareking"),
        Reason::LoneRoyals => Some("draw"),
        _ => None,
    })
}

/// 64-bit FNV-1a, in hex (the digest `tests/shogiops/chu.mjs` writes).
fn fnv(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// koma's legal moves in USI, sorted, and its end in shogiops' words.
fn chu_moves<B: koma::board::Bitboard>(pos: &Position<B>) -> (String, Vec<String>) {
    let outcome = pos.outcome();
    let mut moves: Vec<String> = if outcome.is_some() {
        Vec::new()
    } else {
        pos.legal_moves()
            .into_iter()
            .map(|m| format_move(pos, m, Notation::Usi))
            .collect()
    };
    moves.sort();
    moves.dedup();
    (chu_words(outcome), moves)
}

/// One position of `tests/shogiops/chu-shogi.tsv` and its replies: what differs.
fn chu_differences<B: koma::board::Bitboard>(
    rules: &std::sync::Arc<koma::rules::Rules<B>>,
    position: &[&str],
    replies: &[Vec<&str>],
) -> Vec<String> {
    let sfen = position[1];
    let mut problems = Vec::new();
    let setup = match Setup::parse_sfen(sfen) {
        Ok(s) => s,
        Err(e) => return vec![format!("{sfen}: {e}")],
    };
    let pos = match Position::new(rules, &setup) {
        Ok(p) => p,
        Err(e) => return vec![format!("{sfen}: {e}")],
    };
    if pos.to_setup().to_sfen() != sfen {
        problems.push(format!(
            "{sfen}: koma writes it {}",
            pos.to_setup().to_sfen()
        ));
    }
    let (result, moves) = chu_moves(&pos);
    if result != position[2] {
        problems.push(format!(
            "{sfen}: result koma {result}, shogiops {}",
            position[2]
        ));
    }
    // koma plays the moves shogiops lists and the documented exceptions.
    let mut expected: BTreeSet<String> = position[3].split_whitespace().map(String::from).collect();
    expected.extend(position[4].split_whitespace().map(String::from));
    let ours: BTreeSet<String> = moves.iter().cloned().collect();
    if ours != expected {
        let extra: Vec<_> = ours.difference(&expected).collect();
        let missing: Vec<_> = expected.difference(&ours).collect();
        problems.push(format!(
            "{sfen}: koma only {extra:?}; shogiops only {missing:?}"
        ));
    }
    for reply in replies {
        let (usi, result, count, digest) = (reply[1], reply[2], reply[3], reply[4]);
        let mut child = pos.clone();
        match child.parse_move(usi) {
            Ok(m) => child.play(m),
            Err(e) => {
                problems.push(format!("{sfen}: {usi}: {e}"));
                continue;
            }
        }
        let (r, list) = chu_moves(&child);
        let joined = list.join(" ");
        if r != result || list.len().to_string() != count || fnv(&joined) != digest {
            problems.push(format!(
                "{sfen} after {usi}: koma {r}, {} replies (digest {}); shogiops {result}, {count} ({digest}); koma's: {joined}",
                list.len(),
                fnv(&joined)
            ));
        }
    }
    problems
}

#[test]
fn chu_shogi_agrees_with_lishogi_to_depth_two() {
    let path = tests_dir().join("shogiops/chu-shogi.tsv");
    let text = std::fs::read_to_string(&path).expect("tests/shogiops/chu-shogi.tsv");
    let g = game("chu-shogi");
    let mut blocks: Vec<(Vec<&str>, Vec<Vec<&str>>)> = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        match cols[0] {
            "position" => blocks.push((cols, Vec::new())),
            "reply" => blocks.last_mut().expect("a position first").1.push(cols),
            other => panic!("unexpected line kind {other}"),
        }
    }
    let (mut strikes, mut exceptions, mut replies, mut ended) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for (position, rs) in &blocks {
        assert_eq!(position.len(), 6, "{position:?}");
        strikes += usize::from(position[1].split(' ').nth(2) != Some("-"));
        exceptions += position[4].split_whitespace().count();
        ended += usize::from(position[2] != "-");
        replies += rs.len();
        failures.extend(with_rules!(&g, rules => chu_differences(rules, position, rs)));
    }
    assert!(
        blocks.len() >= 20 && strikes >= 5 && exceptions >= 1 && replies >= 1000 && ended >= 5,
        "{} positions, {strikes} with a lion just captured, {exceptions} exceptions, {replies} replies, {ended} ended",
        blocks.len()
    );
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn chu_shogi_endings_agree_with_lishogi() {
    // Chosen positions for the bare-king rule and the draw of two lone
    // kings (why each: tests/shogiops/chu-endings.sfen); random games reach
    // few of them.
    let path = tests_dir().join("shogiops/chu-endings.tsv");
    let text = std::fs::read_to_string(&path).expect("tests/shogiops/chu-endings.tsv");
    let g = game("chu-shogi");
    let (mut rows, mut ended) = (0, 0);
    let mut failures = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "{line}");
        // As a line of chu-shogi.tsv has it: kind, SFEN, result, moves, exceptions.
        let position = ["position", cols[0], cols[1], cols[2], cols[3]];
        rows += 1;
        ended += usize::from(cols[1] != "-");
        failures.extend(with_rules!(&g, rules => chu_differences(rules, &position, &[])));
    }
    assert!(rows >= 18 && ended >= 10, "{rows} positions, {ended} ended");
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
