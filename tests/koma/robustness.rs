//! Arbitrary and mangled input thrown at every text entry point: the variant
//! loader (with parents), the DSL, FEN, SFEN, moves and game records. Every
//! call must return (Ok or a typed error); none may panic.

use koma::position::Position;
use koma::setup::Setup;
use koma::{Game, dsl, record, variant, with_rules};

use crate::common::{Rng, game};

const ALPHABET: &[&str] = &[
    "a",
    "b",
    "k",
    "K",
    "P",
    "p",
    "+",
    "/",
    "[",
    "]",
    "*",
    "@",
    "-",
    " ",
    "\n",
    ":",
    "0",
    "1",
    "6",
    "9",
    "10",
    "~",
    "{",
    "}",
    "\"",
    "'",
    "\t",
    "é",
    "王",
    "#",
    "---\n",
    "engine:",
    "  ",
    "parent: ",
    "W",
    "f",
    "N",
    "R0",
    "h",
    "m",
    "c",
    "99999999999",
    "w",
    "fen",
    "sfen",
    "moves",
    "position ",
    "startpos",
];

fn random_text(rng: &mut Rng, len: usize) -> String {
    (0..len)
        .map(|_| ALPHABET[rng.below(ALPHABET.len())])
        .collect()
}

/// A valid text with some characters replaced, deleted or repeated.
fn mangle(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(6) {
        if chars.is_empty() {
            break;
        }
        let i = rng.below(chars.len());
        match rng.below(4) {
            0 => {
                chars[i] = ALPHABET[rng.below(ALPHABET.len())]
                    .chars()
                    .next()
                    .unwrap_or('x')
            }
            1 => {
                chars.remove(i);
            }
            2 => {
                let c = chars[i];
                for _ in 0..rng.below(40) {
                    chars.insert(i, c);
                }
            }
            _ => chars.truncate(i),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn variant_files_never_panic() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let sources: Vec<&str> = variant::catalogue()
        .iter()
        .filter_map(|s| variant::embedded(s))
        .collect();
    for i in 0..1500 {
        let text = if i % 3 == 0 {
            random_text(&mut rng, 200)
        } else {
            {
                let k = rng.below(sources.len());
                mangle(&mut rng, sources[k])
            }
        };
        if let Ok(v) = variant::from_text(&text, "fuzz.md", None) {
            let _ = Game::compile(&v);
        }
    }
}

#[test]
fn movement_strings_never_panic() {
    let mut rng = Rng(42);
    for _ in 0..5000 {
        let len = 1 + rng.below(12);
        let text = random_text(&mut rng, len);
        let _ = dsl::moves(&text);
    }
    for text in ["R99999999999999999999", "W0W0W0W0", &"fhN".repeat(10_000)] {
        let _ = dsl::moves(text);
    }
}

#[test]
fn positions_moves_and_records_never_panic() {
    let mut rng = Rng(7);
    let good = [
        "rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1",
        "rbsgkn/5p/6/6/P5/NKGSBR b - 1",
        "k5/6/6/2P3/6/5K[PNSpn] w - - 0 1",
    ];
    for slug in [
        "judkins-shogi",
        "shogi",
        "kyoto-shogi",
        "dobutsu-shogi",
        "sho-shogi",
    ] {
        let g = game(slug);
        with_rules!(&g, rules => {
            for i in 0..1500 {
                let text = if i % 2 == 0 { random_text(&mut rng, 40) } else { { let k = rng.below(good.len()); mangle(&mut rng, good[k]) } };
                for setup in [Setup::parse_fen(&text), Setup::parse_sfen(&text)].into_iter().flatten() {
                    if let Ok(pos) = Position::new(rules, &setup) {
                        let _ = pos.legal_moves();
                        let _ = pos.outcome();
                        let _ = (pos.fen(), pos.sfen());
                    }
                }
                let start = Position::start(rules);
                let len = 1 + rng.below(6);
                let _ = start.parse_move(&random_text(&mut rng, len));
                let _ = start.parse_move(&mangle(&mut rng, "P*5e"));
                for format in record::Format::ALL {
                    let _ = record::read_embedded(&text, format, "random", None);
                }
            }
        });
    }
}
