//! `koma tune`: fits the evaluation's weights and prints them as a weights
//! file (`name = value` lines, as `koma::engine::Params::parse` reads them,
//! the USI/UCI options set them and a variant file's `engine.eval` holds
//! them), either
//! - to game results (Texel's method): `--self-play N --results FILE` plays
//!   N fast games of the engine against itself, writes their positions with
//!   each game's result to FILE and fits to them; `--results FILE` alone
//!   fits to such a file written before; or
//! - to positions scored by another engine: `--data FILE`
//!   (tests/engine/make_evals.py writes such a file);
//!
//! - to match results (`--spsa N`): N pairs of games between the weights
//!   moved up and down at random (simultaneous perturbation stochastic
//!   approximation), each pair's result moving every weight;
//!
//! or, to check a fit before it is kept, plays a weights file against the
//! starting weights (`--versus FILE`) and prints the score.

use std::io::Write;

use clap::Args;
use koma::engine::{Fit, Params, SelfPlay, Spsa, fit, fit_results, self_play, spsa, versus};
use koma::position::Position;
use koma::setup::Setup;
use koma::{Error, Game, variant, with_rules};

use super::emit;

/// Arguments of `koma tune`.
#[derive(Args)]
pub struct TuneArgs {
    /// Variant: a slug from `variants/` (embedded) or a path to a variant file.
    #[arg(long, short = 'v', default_value = variant::DEFAULT_VARIANT)]
    variant: String,
    /// Scored positions: `FEN<TAB>score` lines, the score in centipawns for
    /// the side to move.
    #[arg(
        long,
        conflicts_with = "results",
        required_unless_present_any = ["results", "versus", "spsa"]
    )]
    data: Option<String>,
    /// Positions with their game's result: `FEN<TAB>1-0|0-1|1/2-1/2` lines
    /// (the result for sente); written first by --self-play.
    #[arg(long)]
    results: Option<String>,
    /// Play this many self-play games first and write their positions to
    /// --results.
    #[arg(long, requires = "results")]
    self_play: Option<usize>,
    /// Nodes searched for each move of a self-play game.
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Random plies at the start of each self-play game.
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// Self-play games still going after this many plies are draws.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from these weights (a weights file) instead of the variant's
    /// (the defaults with the variant file's `engine.eval` over them); the
    /// self-play games are played with them too.
    #[arg(long)]
    params: Option<String>,
    /// Instead of fitting, play the weights of this file (as `koma tune`
    /// prints them) against the starting weights: --games games at --nodes
    /// a move, each pair of games from the same --random-plies with the
    /// colours swapped; prints the file's score.
    #[arg(long, conflicts_with_all = ["data", "results"])]
    versus: Option<String>,
    /// Instead of fitting to positions, tune by SPSA: this many pairs of
    /// games at --nodes a move between the weights moved up and down at
    /// random, from --random-plies random plies; prints the weights.
    #[arg(long, conflicts_with_all = ["data", "results", "versus"])]
    spsa: Option<usize>,
    /// SPSA's first perturbation of each weight, as a fraction of its
    /// starting size (at least 1).
    #[arg(long, default_value_t = 0.1, requires = "spsa")]
    perturbation: f64,
    /// SPSA's first learning rate (a weight moves by rate × perturbation ×
    /// the pair's wins minus losses).
    #[arg(long, default_value_t = 0.05, requires = "spsa")]
    rate: f64,
    /// Games of --versus (rounded up to an even number).
    #[arg(long, default_value_t = 200, requires = "versus")]
    games: usize,
    /// Rounds of coordinate descent at most.
    #[arg(long, default_value_t = 20)]
    rounds: usize,
}

fn read(path: &str) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(Error::io(format!("read {path}")))
}

/// Reads or makes the data, fits, prints the weights.
pub fn run(args: &TuneArgs, out: &mut dyn Write) -> Result<(), Error> {
    let game = Game::load(&args.variant)?;
    with_rules!(&game, rules => {
        let start = match &args.params {
            Some(path) => {
                Params::parse(&read(path)?).map_err(|e| Error::Usage(format!("{path}: {e}")))?
            }
            None => Params::for_rules(rules),
        };
        let mut command = format!("koma tune --variant {}", args.variant);
        if let Some(path) = &args.versus {
            let candidate = Params::parse(&read(path)?)
                .map_err(|e| Error::Usage(format!("{path}: {e}")))?;
            return run_versus(rules, &candidate, &start, args, path, out);
        }
        if let Some(iterations) = args.spsa {
            return run_spsa(rules, &start, args, iterations, out);
        }
        let result = if let Some(data) = &args.data {
            command += &format!(" --data {data}");
            let mut samples = Vec::new();
            for (n, fen, score) in lines(data, &read(data)?)? {
                let bad = |why: String| Error::Usage(format!("{data}:{n}: {why}"));
                let score = score.parse().map_err(|_| bad(format!("'{score}' is not a score")))?;
                samples.push((position(rules, fen).map_err(bad)?, score));
            }
            emit(out, format_args!("# {command} ({} positions)", samples.len()))?;
            let mut log = Vec::new();
            let result = fit(&mut samples, &start, args.rounds, |l| {
                eprintln!("{l}");
                log.push(l.to_string());
            });
            (result, log)
        } else {
            let path = args.results.as_deref().unwrap_or_default();
            if let Some(games) = args.self_play {
                let options = game_options(args, games);
                command += &format!(" --self-play {games}{}", game_flags(args));
                write_games(rules, &start, &options, path)?;
            }
            command += &format!(" --results {path}");
            let mut samples = Vec::new();
            for (n, fen, result) in lines(path, &read(path)?)? {
                let bad = |why: String| Error::Usage(format!("{path}:{n}: {why}"));
                let sente = match result {
                    "1-0" => 1.0,
                    "0-1" => 0.0,
                    "1/2-1/2" => 0.5,
                    _ => return Err(bad(format!("'{result}' is not 1-0, 0-1 or 1/2-1/2"))),
                };
                let pos = position(rules, fen).map_err(bad)?;
                let mine = if pos.turn() == koma::board::Color::Sente { sente } else { 1.0 - sente };
                samples.push((pos, mine));
            }
            emit(out, format_args!("# {command} ({} positions)", samples.len()))?;
            let mut log = Vec::new();
            let result = fit_results(samples, &start, args.rounds, |l| {
                eprintln!("{l}");
                log.push(l.to_string());
            });
            (result, log)
        };
        print_fit(out, &result.0, &result.1)
    })
}

/// How the games of --self-play, --versus and --spsa are played.
fn game_options(args: &TuneArgs, games: usize) -> SelfPlay {
    SelfPlay {
        games,
        nodes: args.nodes,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        seed: args.seed,
    }
}

/// The options of [`game_options`] (and --params) as command-line flags.
fn game_flags(args: &TuneArgs) -> String {
    let params = args
        .params
        .as_deref()
        .map_or(String::new(), |p| format!(" --params {p}"));
    format!(
        " --nodes {} --random-plies {} --max-plies {} --seed {}{params}",
        args.nodes, args.random_plies, args.max_plies, args.seed
    )
}

/// Plays `candidate` against `start` and prints the games' tally and score.
fn run_versus<B: koma::board::Bitboard>(
    rules: &std::sync::Arc<koma::rules::Rules<B>>,
    candidate: &Params,
    start: &Params,
    args: &TuneArgs,
    path: &str,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let options = game_options(args, args.games);
    let against = args.params.as_deref().unwrap_or("the variant's weights");
    emit(
        out,
        format_args!(
            "# koma tune --variant {} --versus {path} --games {}{}",
            args.variant,
            args.games,
            game_flags(args)
        ),
    )?;
    let tally = versus(
        &Position::start(rules),
        candidate,
        start,
        &options,
        |g, t| {
            if (g + 1) % 20 == 0 {
                eprintln!(
                    "versus: {} games, {} wins, {} draws, {} losses",
                    g + 1,
                    t.wins,
                    t.draws,
                    t.losses
                );
            }
        },
    );
    let (low, high) = tally.interval();
    emit(
        out,
        format_args!(
            "{path} against {against}: {} wins, {} draws, {} losses, score {:.1}% (95% interval {:.1}% .. {:.1}%)",
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score(),
            100.0 * low,
            100.0 * high
        ),
    )
}

/// Tunes by SPSA from `start` and prints the weights.
fn run_spsa<B: koma::board::Bitboard>(
    rules: &std::sync::Arc<koma::rules::Rules<B>>,
    start: &Params,
    args: &TuneArgs,
    iterations: usize,
    out: &mut dyn Write,
) -> Result<(), Error> {
    for (flag, value) in [("perturbation", args.perturbation), ("rate", args.rate)] {
        if !(value > 0.0 && value.is_finite()) {
            return Err(Error::Usage(format!(
                "--{flag} {value}: must be a positive number"
            )));
        }
    }
    let options = game_options(args, 0);
    let settings = Spsa {
        iterations,
        perturbation: args.perturbation,
        rate: args.rate,
    };
    emit(
        out,
        format_args!(
            "# koma tune --variant {} --spsa {iterations} --perturbation {} --rate {}{}",
            args.variant,
            args.perturbation,
            args.rate,
            game_flags(args)
        ),
    )?;
    let params = spsa(
        &Position::start(rules),
        start,
        &options,
        &settings,
        |k, p| {
            if k % 100 == 0 || k == iterations {
                eprintln!("spsa {k}: {}", p.describe());
            }
        },
    );
    print_weights(out, &params)
}

/// The data lines of a file as (line number, FEN, the field after the tab).
fn lines<'a>(path: &str, text: &'a str) -> Result<Vec<(usize, &'a str, &'a str)>, Error> {
    let mut all = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((fen, value)) = line.split_once('\t') else {
            return Err(Error::Usage(format!(
                "{path}:{}: expected FEN<TAB>value",
                n + 1
            )));
        };
        all.push((n + 1, fen, value.trim()));
    }
    if all.is_empty() {
        return Err(Error::Usage(format!("{path}: no positions")));
    }
    Ok(all)
}

fn position<B: koma::board::Bitboard>(
    rules: &std::sync::Arc<koma::rules::Rules<B>>,
    fen: &str,
) -> Result<Position<B>, String> {
    let setup = Setup::parse_fen(fen).map_err(|e| e.to_string())?;
    Position::new(rules, &setup).map_err(|e| e.to_string())
}

/// Plays the self-play games and writes their positions with the results.
fn write_games<B: koma::board::Bitboard>(
    rules: &std::sync::Arc<koma::rules::Rules<B>>,
    params: &Params,
    options: &SelfPlay,
    path: &str,
) -> Result<(), Error> {
    let file = std::fs::File::create(path).map_err(Error::io(format!("create {path}")))?;
    let mut file = std::io::BufWriter::new(file);
    let mut failed = None;
    let mut score = [0usize; 3];
    self_play(&Position::start(rules), params, options, |g, game| {
        let result = match game.result {
            r if r > 0.75 => "1-0",
            r if r < 0.25 => "0-1",
            _ => "1/2-1/2",
        };
        score[if result == "1-0" {
            0
        } else if result == "0-1" {
            2
        } else {
            1
        }] += 1;
        for pos in &game.positions {
            if let Err(e) = writeln!(file, "{}\t{result}", pos.to_setup().to_fen()) {
                failed.get_or_insert(e);
            }
        }
        if (g + 1) % 50 == 0 || g + 1 == options.games {
            eprintln!(
                "self-play: {} games (sente {} wins, {} draws, gote {} wins)",
                g + 1,
                score[0],
                score[1],
                score[2]
            );
        }
    });
    if let Some(e) = failed {
        return Err(Error::io(format!("write {path}"))(e));
    }
    file.flush().map_err(Error::io(format!("write {path}")))
}

fn print_fit(out: &mut dyn Write, result: &Fit, log: &[String]) -> Result<(), Error> {
    for l in log {
        emit(out, format_args!("# {l}"))?;
    }
    emit(
        out,
        format_args!(
            "# {} positions; loss {:.6} -> {:.6}; koma's scores times {:.4} through the curve",
            result.positions, result.loss_before, result.loss_after, result.scale
        ),
    )?;
    print_weights(out, &result.params)
}

/// The weights as a weights file: a `name = value` line each.
fn print_weights(out: &mut dyn Write, params: &Params) -> Result<(), Error> {
    for name in Params::NAMES {
        emit(
            out,
            format_args!("{name} = {}", params.get(name).unwrap_or(0)),
        )?;
    }
    Ok(())
}
