//! The perft suite: every `tests/perft/*.perft` file, entries of
//! `id` / `variant` / `fen` followed by `perft DEPTH NODES` lines. The
//! variant is a slug, or a file's path from the repository's root
//! (`tests/large/large-16x16.md`).

use koma::position::Position;
use koma::setup::Setup;
use koma::with_rules;

use crate::common::{game, tests_dir, variant_path};

/// Counts above this run only on demand (`cargo test --release -- --ignored`).
const QUICK_NODES: u64 = 5_000_000;

/// One position of a perft file and its counts.
pub struct Entry {
    /// The perft file's name.
    pub file: String,
    pub id: String,
    /// A slug, or a variant file's path from the repository's root.
    pub variant: String,
    pub fen: String,
    /// `(depth, nodes)`.
    pub counts: Vec<(u32, u64)>,
}

/// Every entry of every perft file, in file order.
pub fn entries() -> Vec<Entry> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(tests_dir().join("perft"))
        .expect("tests/perft exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    paths.sort();
    for path in paths {
        let file = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default()
            .to_string();
        let text = std::fs::read_to_string(&path).expect("readable perft file");
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "id" => out.push(Entry {
                    file: file.clone(),
                    id: value.into(),
                    variant: String::new(),
                    fen: String::new(),
                    counts: vec![],
                }),
                "variant" => out.last_mut().expect("id first").variant = value.into(),
                "fen" => out.last_mut().expect("id first").fen = value.into(),
                "perft" => {
                    let (d, n) = value.split_once(' ').expect("perft DEPTH NODES");
                    out.last_mut()
                        .expect("id first")
                        .counts
                        .push((d.parse().expect("depth"), n.parse().expect("nodes")));
                }
                other => panic!("{file}: unknown key {other}"),
            }
        }
    }
    out
}

fn run(max_nodes: u64) -> usize {
    let mut failures = Vec::new();
    let mut checked = 0;
    for e in entries() {
        let g = game(&variant_path(&e.variant));
        with_rules!(&g, rules => {
            let setup = Setup::parse_fen(&e.fen).unwrap_or_else(|err| panic!("{} {}: {err}", e.file, e.id));
            let mut pos = Position::new(rules, &setup).unwrap_or_else(|err| panic!("{} {}: {err}", e.file, e.id));
            for &(depth, nodes) in &e.counts {
                if nodes > max_nodes {
                    continue;
                }
                checked += 1;
                let got = pos.perft(depth);
                if got != nodes {
                    failures.push(format!("{} {} ({}): perft {depth} = {got}, expected {nodes}", e.file, e.id, e.fen));
                }
            }
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    checked
}

#[test]
fn perft_suite() {
    assert!(run(QUICK_NODES) >= 50, "the suite must not be empty");
}

#[test]
#[ignore = "deep perft, minutes in a release build: cargo test --release -- --ignored"]
fn perft_suite_deep() {
    run(u64::MAX);
}
