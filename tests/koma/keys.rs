//! Zobrist keys: positions that differ by one piece (its kind, its side, its
//! square) or by a hand get different hashes. Repetition and the engine's
//! table read positions by their hash alone, so two keys that coincide
//! would make different positions one.

use std::collections::HashMap;

use koma::board::Color;
use koma::position::Position;
use koma::setup::Setup;
use koma::with_rules;

use crate::common::game;

/// Every position of the variant with the two kings in opposite corners
/// and one more piece (each kind, promoted side or not, of either side, on
/// each other square) or one or two pieces in a hand, that the FEN reader
/// accepts: how many there were, and the pairs of different FENs with the
/// same hash.
fn collisions(slug: &str) -> (usize, Vec<String>) {
    let g = game(slug);
    with_rules!(&g, rules => {
        let (rows, cols) = (rules.topology.rows as usize, rules.topology.cols as usize);
        let king = rules
            .all_roles()
            .map(|r| rules.role(r))
            .find(|i| i.royal && !i.promoted)
            .expect("a royal piece")
            .id;
        // The board, top rank first: cells[rank][file] holds a FEN piece.
        let fen = |cells: &[Vec<String>], hand: &str| {
            let ranks: Vec<String> = cells
                .iter()
                .map(|rank| {
                    let mut out = String::new();
                    let mut empty = 0;
                    for c in rank {
                        if c.is_empty() {
                            empty += 1;
                        } else {
                            if empty > 0 {
                                out.push_str(&empty.to_string());
                                empty = 0;
                            }
                            out.push_str(c);
                        }
                    }
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                    }
                    out
                })
                .collect();
            format!("{}[{hand}] w - - 0 1", ranks.join("/"))
        };
        let mut base = vec![vec![String::new(); cols]; rows];
        base[rows - 1][0] = king.written(Color::Sente);
        base[0][cols - 1] = king.written(Color::Gote);
        let mut fens = vec![fen(&base, "")];
        for role in rules.all_roles() {
            let info = rules.role(role);
            for upper in [true, false] {
                let letter = info.id.written(if upper { Color::Sente } else { Color::Gote });
                let piece = if info.promoted { format!("+{letter}") } else { letter.clone() };
                for rank in 0..rows {
                    for file in 0..cols {
                        if base[rank][file].is_empty() {
                            let mut cells = base.clone();
                            cells[rank][file] = piece.clone();
                            fens.push(fen(&cells, ""));
                        }
                    }
                }
                if !info.promoted && !info.royal {
                    fens.push(fen(&base, &letter.to_string()));
                    fens.push(fen(&base, &format!("{letter}{letter}")));
                }
            }
        }
        let mut seen: HashMap<u64, String> = HashMap::new();
        let mut problems = Vec::new();
        for f in fens {
            let Ok(setup) = Setup::parse_fen(&f) else { continue };
            let Ok(pos) = Position::new(rules, &setup) else { continue };
            if let Some(other) = seen.insert(pos.hash(), f.clone())
                && other != f
            {
                problems.push(format!("{other} and {f}"));
            }
        }
        (seen.len(), problems)
    })
}

#[test]
fn positions_one_piece_apart_have_different_hashes() {
    // A narrow board (u64), a 9×9 one (u128) and chu shogi's many kinds.
    for (slug, at_least) in [("minishogi", 200), ("shogi", 1500), ("chu-shogi", 5000)] {
        let (positions, problems) = collisions(slug);
        assert!(positions >= at_least, "{slug}: only {positions} positions");
        assert!(
            problems.is_empty(),
            "{slug}: same hash for {}",
            problems.join("; ")
        );
    }
}

#[test]
fn every_bit_of_the_key_varies_with_the_hands() {
    // The engine's table takes its slot from the key's bits, so a key must
    // spread evenly whatever is in the hands: one position of shogi's
    // board with each hand of sente's of up to two of each kind (2,186
    // hands), where each bit of the hash is set in a quarter to three
    // quarters of them (a bit that only the board decided would be set in
    // all of them or none).
    let g = game("shogi");
    with_rules!(&g, rules => {
        let letters = ['P', 'L', 'N', 'S', 'G', 'B', 'R'];
        let mut set = [0usize; 64];
        let mut positions = 0;
        for code in 1..3usize.pow(letters.len() as u32) {
            let mut hand = String::new();
            let mut rest = code;
            for letter in letters {
                for _ in 0..rest % 3 {
                    hand.push(letter);
                }
                rest /= 3;
            }
            let fen = format!("4k4/9/9/9/9/9/9/9/4K4[{hand}] w - - 0 1");
            let pos = Position::new(rules, &Setup::parse_fen(&fen).expect("FEN reads")).expect("valid");
            let hash = pos.hash();
            for (bit, n) in set.iter_mut().enumerate() {
                *n += (hash >> bit & 1) as usize;
            }
            positions += 1;
        }
        assert_eq!(positions, 2186);
        for (bit, n) in set.iter().enumerate() {
            let share = *n as f64 / positions as f64;
            assert!((0.25..=0.75).contains(&share), "bit {bit} of the key is set in {n} of {positions} positions");
        }
    })
}
