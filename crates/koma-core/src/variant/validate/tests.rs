//! The validator's own judgements, on small documents.

use serde_yaml::Value;

use super::validate;
use crate::variant::Problem;
use crate::variant::limits::MAX_ROLES;

/// A small sound game; `extra` lines are added under `pieces:`, `rules` under `rules:`.
fn doc(setup: &str, extra: &str, rules: &str) -> Value {
    let text = format!(
        "engine:\n  topology: {{ type: grid, rows: 3, cols: 3 }}\n  setup: \"{setup}\"\n  pieces:\n    king: {{ letter: K, betza: K, royal: true }}\n    pawn: {{ letter: P, betza: fW, promotion: {{ name: tokin, betza: WfF }} }}\n{extra}  rules:\n    promotion_zone: 1\n{rules}"
    );
    serde_yaml::from_str(&text).expect("the test's YAML parses")
}

fn problems(front: &Value) -> Vec<(String, String)> {
    match validate(front) {
        Ok(_) => Vec::new(),
        Err(p) => p
            .into_iter()
            .map(|Problem { path, message, .. }| (path, message))
            .collect(),
    }
}

#[test]
fn a_sound_section_comes_typed_with_its_movements_and_setup() {
    let v = validate(&doc("k2/1p1/2K", "", "")).expect("valid");
    let names: Vec<&str> = v.pieces.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["king", "pawn"]);
    assert_eq!(v.pieces[1].id.letter(), Some('P'));
    assert_eq!(v.pieces[0].moves.steps.len(), 8);
    assert!(v.pieces[0].promotion().is_none());
    let (tokin, steps) = v.pieces[1].promotion().expect("the pawn promotes");
    assert_eq!((tokin.name.as_str(), steps.steps.len()), ("tokin", 6));
    assert_eq!(v.start.ranks.len(), 3);
    assert_eq!(v.engine.rules.promotion_zone, 1);
}

#[test]
fn two_pieces_may_not_share_a_letter() {
    let front = doc("k2/3/2K", "    lance: { letter: p, betza: fR }\n", "");
    assert_eq!(
        problems(&front),
        [(
            "engine.pieces.lance.letter".to_string(),
            "engine.pieces.lance.letter: 'P' is already the ID of pawn".to_string()
        )]
    );
}

#[test]
fn a_file_limit_of_zero_says_why_it_is_refused() {
    let front = doc(
        "k2/3/2K",
        "    gold: { letter: G, betza: WfF, max_per_file: 0 }\n",
        "",
    );
    assert_eq!(
        problems(&front),
        [(
            "engine.pieces.gold.max_per_file".to_string(),
            "engine.pieces.gold.max_per_file: 0 would forbid the piece; omit it for no limit"
                .to_string()
        )]
    );
}

#[test]
fn the_piece_kinds_are_counted_with_their_promoted_sides() {
    // Two kinds are declared already; each of these adds two more.
    let n = MAX_ROLES / 2;
    let extra: String = (0..n)
        .map(|i| {
            let letter = (b'A' + (i % 26) as u8) as char;
            format!("    p{i}: {{ letter: {letter}, betza: W, promotion: {{ name: q{i}, betza: F }} }}\n")
        })
        .collect();
    let message = format!(
        "engine.pieces: {} piece kinds (promoted included), more than {MAX_ROLES}",
        2 * n + 3
    );
    let found = problems(&doc("k2/3/2K", &extra, ""));
    assert!(
        found.contains(&("engine.pieces".to_string(), message.clone())),
        "{message} not in {found:?}"
    );
}

#[test]
fn each_side_needs_its_royal_piece_in_the_start() {
    let need = |side: &str| {
        (
            "engine.setup".to_string(),
            format!("engine.setup: {side} has no royal piece; the rules need at least one"),
        )
    };
    assert_eq!(
        problems(&doc("3/1p1/3", "", "")),
        [need("sente"), need("gote")]
    );
    assert_eq!(
        problems(&doc("k2/3/3", "", "    check: false\n")),
        [need("sente")]
    );
    // The check rule guards a side's last royal: two are fine, with it or
    // without it.
    assert_eq!(problems(&doc("k2/3/K1K", "", "")), []);
    assert_eq!(problems(&doc("k2/3/K1K", "", "    check: false\n")), []);
}

#[test]
fn a_promoted_royal_counts_as_royal() {
    let prince = "    elephant: { letter: E, betza: FfW, promotion: { name: prince, betza: K, royal: true } }\n";
    assert_eq!(problems(&doc("k2/3/+E2", prince, "")), []);
    assert_eq!(problems(&doc("k2/3/+E1K", prince, "")), []);
    assert_eq!(
        problems(&doc("k2/3/E2", prince, "")),
        [(
            "engine.setup".to_string(),
            "engine.setup: sente has no royal piece; the rules need at least one".to_string()
        )]
    );
}

#[test]
fn without_royal_pieces_the_start_needs_none() {
    let front: Value = serde_yaml::from_str(
        "engine:\n  topology: { type: grid, rows: 1, cols: 2 }\n  setup: \"Pp\"\n  pieces:\n    pawn: { letter: P, betza: W }\n  rules: { promotion_zone: 1 }\n",
    )
    .expect("parses");
    assert_eq!(problems(&front), []);
}

#[test]
fn giving_check_wins_only_where_there_is_check() {
    assert_eq!(
        problems(&doc("k2/1p1/2K", "", "    check_wins: true\n")),
        []
    );
    assert_eq!(
        problems(&doc("k2/1p1/2K", "", "    check: false\n    check_wins: true\n")),
        [(
            "engine.rules.check_wins".to_string(),
            "engine.rules.check_wins: giving check cannot win where engine.rules.check is false (royals may then be attacked and captured, and nobody is in check)".to_string()
        )]
    );
    let front: Value = serde_yaml::from_str(
        "engine:\n  topology: { type: grid, rows: 1, cols: 2 }\n  setup: \"Pp\"\n  pieces:\n    pawn: { letter: P, betza: W }\n  rules: { promotion_zone: 1, check_wins: true }\n",
    )
    .expect("parses");
    assert_eq!(
        problems(&front),
        [(
            "engine.rules.check_wins".to_string(),
            "engine.rules.check_wins: no piece is royal, so no move can give check".to_string()
        )]
    );
}

#[test]
fn record_names_are_checked_for_form_and_clashes() {
    let front = doc(
        "k2/3/2K",
        "    gold: { letter: G, betza: WfF, kif: 金 金将, csa: KI }\n    lance: { letter: L, betza: fR, kif: 金将 L1, csa: Ki }\n    silver: { letter: S, betza: FfW, csa: KI }\n",
        "",
    );
    assert_eq!(
        problems(&front),
        [
            (
                "engine.pieces.lance.kif".to_string(),
                "engine.pieces.lance.kif: '金将' is already a name of engine.pieces.gold".to_string()
            ),
            (
                "engine.pieces.lance.kif".to_string(),
                "engine.pieces.lance.kif: 'L1' has a digit or an ASCII character, which moves use for squares".to_string()
            ),
            (
                "engine.pieces.lance.csa".to_string(),
                "engine.pieces.lance.csa: 'Ki' must be two upper-case letters, as FU".to_string()
            ),
            (
                "engine.pieces.silver.csa".to_string(),
                "engine.pieces.silver.csa: 'KI' is already the code of engine.pieces.gold".to_string()
            ),
        ]
    );
}

#[test]
fn record_names_of_the_variant_are_one_line_each() {
    let mut front = doc("k2/3/2K", "", "");
    let records: Value =
        serde_yaml::from_str("{ kif_handicap: \"a\\nb\", pgn_variant: tiny }").expect("YAML");
    front["engine"]["records"] = records;
    assert_eq!(
        problems(&front),
        [(
            "engine.records.kif_handicap".to_string(),
            "engine.records.kif_handicap must be a name on one line, not 'a\nb'".to_string()
        )]
    );
}
