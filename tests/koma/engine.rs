//! The engine: a tactics suite (tests/engine/tactics.tsv) solved under a
//! fixed node budget, its first move from the starts, and an evaluation that
//! does not depend on which colour sits where.

use std::sync::atomic::AtomicBool;

use koma::board::Color;
use koma::engine::{
    Engine, Limits, Params, SelfPlay, evaluate, evaluate_with, fit_results, self_play,
};
use koma::notation::Notation;
use koma::position::{AnyPosition, Move, Position};
use koma::setup::Setup;
use koma::{variant, with_rules};

use crate::common::{Rng, game, tests_dir, variant_path};

/// Nodes per tactics position: the search is single-threaded and stops on
/// its node count, so each answer is reproducible.
const TACTICS_NODES: u64 = 400_000;

/// One row of the suite: `variant kind answer fen source`, tab-separated.
struct Tactic {
    line: usize,
    variant: String,
    kind: String,
    answer: String,
    fen: String,
    source: String,
}

fn tactics() -> Vec<Tactic> {
    let path = tests_dir().join("engine").join("tactics.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(
                f.len(),
                5,
                "tactics.tsv:{}: expected 5 tab-separated fields",
                i + 1
            );
            Tactic {
                line: i + 1,
                variant: f[0].to_string(),
                kind: f[1].to_string(),
                answer: f[2].to_string(),
                fen: f[3].to_string(),
                source: f[4].to_string(),
            }
        })
        .collect()
}

/// What koma answers to a row, or why that is wrong.
fn solve(t: &Tactic) -> Result<(), String> {
    let g = game(&t.variant);
    let setup = Setup::parse_fen(&t.fen).map_err(|e| format!("FEN: {e}"))?;
    let mut pos = AnyPosition::new(&g, &setup).map_err(|e| format!("position: {e}"))?;
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(TACTICS_NODES),
        ..Limits::default()
    };
    let (m, info) = engine.think_any(&mut pos, limits, &stop, |_| {});
    let m = m.ok_or("no move")?;
    let played = pos.format_move(m, Notation::Fairy);
    let mate = info.as_ref().and_then(|i| i.mate_in());
    match t.kind.as_str() {
        "mate" => {
            let n: i32 = t
                .answer
                .parse()
                .map_err(|_| "mate: answer is not a number")?;
            // Without the check rule (a royal may walk into attack), the game
            // ends when the royal is taken: Fairy-Stockfish's mate in N, which
            // ends where the royal cannot escape, may then be koma's win one
            // move later.
            let check_rule = with_rules!(&g, r => r.check);
            if mate == Some(n) || (!check_rule && mate == Some(n + 1)) {
                Ok(())
            } else {
                Err(format!(
                    "played {played}, mate {mate:?}, expected mate in {n}"
                ))
            }
        }
        "win" => {
            if played == t.answer {
                Ok(())
            } else {
                Err(format!("played {played}, expected {}", t.answer))
            }
        }
        other => Err(format!("unknown kind '{other}'")),
    }
}

#[test]
fn the_engine_solves_the_tactics_suite() {
    let rows = tactics();
    assert!(
        rows.len() >= 50,
        "the suite has only {} positions",
        rows.len()
    );
    let kinds = |k: &str| rows.iter().filter(|t| t.kind == k).count();
    assert!(
        kinds("mate") > 0 && kinds("win") > 0,
        "both kinds are tested"
    );
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|t| {
            solve(t).err().map(|why| {
                format!(
                    "  tactics.tsv:{} {} {}: {why}\n    ({})",
                    t.line, t.variant, t.fen, t.source
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} positions unsolved at {TACTICS_NODES} nodes:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn the_engine_does_not_open_with_a_royal_move() {
    for slug in ["judkins-shogi", "shogi"] {
        let g = game(slug);
        for nodes in [20_000, 100_000, 400_000] {
            let mut pos = AnyPosition::start(&g);
            let mut engine = Engine::new(16);
            let stop = AtomicBool::new(false);
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let (m, _) = engine.think_any(&mut pos, limits, &stop, |_| {});
            let m = m.expect("a move from the start");
            if let Move::Normal { from, .. } = m {
                let piece = pos.piece_at(from).expect("a piece moves");
                assert!(
                    !pos.role(piece.role).royal,
                    "{slug}, {nodes} nodes: the engine opens with its royal ({})",
                    pos.format_move(m, Notation::Usi)
                );
            }
        }
    }
}

/// The position turned 180° with the colours swapped: the same game seen
/// from the other side.
fn turned(setup: &Setup) -> Setup {
    let ranks = setup
        .ranks
        .iter()
        .rev()
        .map(|rank| {
            rank.iter()
                .rev()
                .map(|sq| {
                    sq.map(|mut p| {
                        p.color = p.color.opposite();
                        p
                    })
                })
                .collect()
        })
        .collect();
    let (rows, cols) = (setup.ranks.len(), setup.ranks.first().map_or(0, Vec::len));
    let mut holes: Vec<_> = (setup.holes.iter())
        .map(|&(r, f)| (rows - 1 - r, cols - 1 - f))
        .collect();
    holes.sort_unstable();
    Setup {
        ranks,
        holes,
        hands: setup
            .hands
            .iter()
            .map(|&(c, l, n)| (c.opposite(), l, n))
            .collect(),
        turn: setup.turn.opposite(),
        move_number: setup.move_number,
        capture_square: None,
    }
}

#[test]
fn the_evaluation_is_the_same_from_either_side() {
    // Every variant here is the same turned 180° for the other player, so a
    // position and its turned copy are worth the same to the side to move.
    let mut checked = 0;
    for slug in variant::catalogue() {
        let g = game(slug);
        with_rules!(&g, rules => {
            let mut rng = Rng(0x51ed_2705_3a1f_0c2b);
            for _ in 0..6 {
                let mut pos = Position::start(rules);
                for _ in 0..60 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let setup = pos.to_setup();
                    let other = Position::new(rules, &turned(&setup)).expect("the turned position is valid");
                    assert_eq!(other.turn(), pos.turn().opposite());
                    assert_eq!(evaluate(&pos), evaluate(&other), "{slug} {}: {} turned", pos.fen(), other.fen());
                    checked += 1;
                    pos.play(legal[rng.below(legal.len())]);
                }
            }
        });
    }
    assert!(checked > 500, "only {checked} positions");
}

#[test]
fn the_evaluation_prefers_material() {
    // A rook up (here: the opponent's rook in hand) is better than even.
    let g = game("judkins-shogi");
    with_rules!(&g, rules => {
        let even = Position::new(rules, &Setup::parse_fen("rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1").expect("FEN")).expect("valid");
        let up = Position::new(rules, &Setup::parse_fen("1bsgkn/5p/6/6/P5/NKGSBR[R] w - - 0 1").expect("FEN")).expect("valid");
        assert!(evaluate(&up) > evaluate(&even) + 500, "{} vs {}", evaluate(&up), evaluate(&even));
        assert_eq!(even.turn(), Color::Sente);
    });
}

#[test]
fn the_engine_plays_legal_chu_shogi() {
    // Engine against engine from chu shogi's start, a small search each
    // move: every move it chooses is one of the legal moves and plays
    // through the checked path; lions, two-leg moves and the trade limits
    // included.
    let g = game("chu-shogi");
    let mut pos = AnyPosition::start(&g);
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    for ply in 0..40 {
        if pos.outcome().is_some() {
            break;
        }
        let limits = Limits {
            nodes: Some(3_000),
            ..Limits::default()
        };
        let (m, _) = engine.think_any(&mut pos, limits, &stop, |_| {});
        let m = m.unwrap_or_else(|| panic!("ply {ply}: no move in {}", pos.sfen()));
        assert!(
            pos.legal_moves().contains(&m),
            "ply {ply}: {} is not legal in {}",
            pos.format_move(m, Notation::Usi),
            pos.sfen()
        );
        pos.try_play(m).expect("legal");
    }
    assert!(pos.history().len() >= 20, "{}", pos.sfen());
}

/// Plays a royal's step out and back for each side, so that the position
/// stands as at the start with its first move a repetition; returns that move.
fn shuffle_royals<B: koma::board::Bitboard>(pos: &mut Position<B>) -> Move {
    let mut out = Vec::new();
    for _ in 0..2 {
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|&m| match m {
                Move::Normal { from, to, .. } => {
                    pos.piece_at(to).is_none()
                        && pos
                            .piece_at(from)
                            .is_some_and(|p| pos.rules().role(p.role).royal)
                }
                _ => false,
            })
            .expect("a royal step");
        pos.play(m);
        out.push(m);
    }
    for m in out.clone() {
        let Move::Normal { from, to, .. } = m else {
            unreachable!()
        };
        let back = Move::Normal {
            from: to,
            to: from,
            promote: false,
        };
        assert!(pos.legal_moves().contains(&back), "the step back is legal");
        pos.play(back);
    }
    out[0]
}

#[test]
fn contempt_makes_the_engine_avoid_a_repetition_when_behind() {
    // The side to move is a pawn down and may repeat the position (a draw
    // the search scores 0 without contempt): without contempt it takes the
    // draw; with a contempt of five units it plays on.
    let g = game("judkins-shogi");
    let fen = "rbsgkn/5p/6/6/6/NKGSBR[] w - - 0 1";
    let setup = Setup::parse_fen(fen).expect("FEN");
    for setup in [setup.clone(), turned(&setup)] {
        with_rules!(&g, rules => {
            for (contempt, takes) in [(0, true), (500, false)] {
                let mut pos = Position::new(rules, &setup).expect("valid");
                let repeat = shuffle_royals(&mut pos);
                let mut engine = Engine::new(16);
                engine.set_param("contempt", contempt);
                let stop = AtomicBool::new(false);
                let limits = Limits {
                    depth: Some(4),
                    ..Limits::default()
                };
                let (m, info) = engine.think(&mut pos, limits, &stop, |_| {});
                let (m, info) = (m.expect("a move"), info.expect("a depth"));
                pos.play(m);
                let repeated = pos.repetitions() > 1;
                pos.undo();
                assert_eq!(
                    repeated,
                    takes,
                    "{} to move, contempt {contempt}: {m:?} (score {}; the repetition is {repeat:?})",
                    if pos.turn() == Color::Sente { "sente" } else { "gote" },
                    info.score,
                );
                if takes {
                    assert_eq!(info.score, 0, "a draw without contempt");
                }
            }
        });
    }
}

/// The weights a variant file gives (`engine.eval`, here two of them in
/// tests/engine/judkins-weighted.md) are the engine's in that variant: the
/// others keep the parent's, the search evaluates with them, and a weight
/// set on the engine (a USI/UCI option) replaces the file's.
#[test]
fn a_variant_files_weights_are_the_engines_and_an_option_overrides_them() {
    let parent = game("judkins-shogi");
    let weighted = game(&variant_path("tests/engine/judkins-weighted.md"));
    let inherited = with_rules!(&parent, rules => Params::for_rules(rules));
    with_rules!(&weighted, rules => {
        let params = Params::for_rules(rules);
        assert_eq!((params.mobility, params.tempo), (40, 0));
        for name in Params::NAMES.iter().filter(|n| !["mobility", "tempo"].contains(n)) {
            assert_eq!(params.get(name), inherited.get(name), "{name}");
        }
        // A position that is not symmetric: the weights change its score,
        // and the engine's quiescence score is the one an engine given the
        // file's weights explicitly finds, not the parent's weights' one.
        let mut pos = Position::start(rules);
        pos.play(pos.legal_moves()[0]);
        assert_ne!(evaluate_with(&pos, &params), evaluate_with(&pos, &inherited));
        let quiet = |set: Option<&Params>, pos: &mut Position<_>| {
            let mut e = Engine::new(1);
            if let Some(p) = set {
                e.set_params(p.clone());
            }
            e.quiet_score(pos)
        };
        let file = quiet(None, &mut pos);
        assert_eq!(file, quiet(Some(&params), &mut pos));
        assert_ne!(file, quiet(Some(&inherited), &mut pos));
        let mut engine = Engine::new(1);
        assert_eq!(engine.params_for(rules), params);
        // An option replaces the file's weight and keeps the others.
        assert!(engine.set_param("mobility", 5));
        assert!(!engine.set_param("mobilty", 5));
        let mut set = params.clone();
        set.mobility = 5;
        assert_eq!(engine.params_for(rules), set);
        assert_eq!(engine.quiet_score(&mut pos), quiet(Some(&set), &mut pos));
    });
}

/// Self-play games (koma tune --self-play) are a function of their options,
/// differ from one another by their random plies, end in results, and the
/// fit to their results (Texel's method) lowers its loss.
#[test]
fn self_play_is_reproducible_and_the_fit_to_its_results_lowers_the_loss() {
    let g = game("minishogi");
    with_rules!(&g, rules => {
        let options = SelfPlay {
            games: 6,
            nodes: 300,
            random_plies: 4,
            max_plies: 200,
            seed: 7,
        };
        let play = || {
            let mut games = Vec::new();
            self_play(&Position::start(rules), &Params::default(), &options, |_, g| {
                let fens: Vec<String> = g.positions.iter().map(|p| p.to_setup().to_fen()).collect();
                games.push((fens, g.result, g.positions));
            });
            games
        };
        let (a, b) = (play(), play());
        assert_eq!(a.len(), 6);
        let texts = |v: &[(Vec<String>, f64, Vec<Position<_>>)]| -> Vec<(Vec<String>, f64)> {
            v.iter().map(|(f, r, _)| (f.clone(), *r)).collect()
        };
        assert_eq!(texts(&a), texts(&b));
        let firsts: std::collections::BTreeSet<&String> = a.iter().filter_map(|(f, _, _)| f.first()).collect();
        assert!(firsts.len() > 1, "the random plies make games differ");
        let mut samples = Vec::new();
        for (_, result, positions) in a {
            assert!([0.0, 0.5, 1.0].contains(&result));
            assert!(!positions.is_empty());
            for pos in positions {
                assert!(!pos.in_check());
                let mine = if pos.turn() == Color::Sente { result } else { 1.0 - result };
                samples.push((pos, mine));
            }
        }
        let n = samples.len();
        let fit = fit_results(samples, &Params::default(), 3, |_| {});
        assert!(fit.positions > 0 && fit.positions <= n);
        assert!(fit.scale > 0.0);
        assert!(
            fit.loss_after < fit.loss_before,
            "{} -> {}",
            fit.loss_before,
            fit.loss_after
        );
        assert_ne!(fit.params, Params::default());
    });
}
