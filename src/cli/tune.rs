//! `koma tune`: fits the evaluation's weights to positions scored by another
//! engine (tests/engine/make_evals.py writes such a file) and prints them as
//! a weights file (`name = value` lines, as `koma::engine::Params::parse`
//! reads them and the USI/UCI options set them).

use std::io::Write;

use clap::Args;
use koma::engine::{Params, fit};
use koma::position::Position;
use koma::setup::Setup;
use koma::{Error, Game, with_rules};

use super::emit;

/// Arguments of `koma tune`.
#[derive(Args)]
pub struct TuneArgs {
    /// Variant: a slug from `variants/` (embedded) or a path to a variant file.
    #[arg(long, short = 'v', default_value = "judkins-shogi")]
    variant: String,
    /// Scored positions: `FEN<TAB>score` lines, the score in centipawns for
    /// the side to move.
    #[arg(long)]
    data: String,
    /// Start from these weights (a weights file) instead of the defaults.
    #[arg(long)]
    params: Option<String>,
    /// Rounds of coordinate descent at most.
    #[arg(long, default_value_t = 20)]
    rounds: usize,
}

/// Reads the data, fits, prints the weights.
pub fn run(args: &TuneArgs, out: &mut dyn Write) -> Result<(), Error> {
    let game = Game::load(&args.variant)?;
    let read =
        |path: &str| std::fs::read_to_string(path).map_err(Error::io(format!("read {path}")));
    let start = match &args.params {
        Some(path) => {
            Params::parse(&read(path)?).map_err(|e| Error::Usage(format!("{path}: {e}")))?
        }
        None => Params::default(),
    };
    let text = read(&args.data)?;
    with_rules!(&game, rules => {
        let mut samples = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let bad = |why: String| Error::Usage(format!("{}:{}: {why}", args.data, n + 1));
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((fen, score)) = line.split_once('\t') else {
                return Err(bad("expected FEN<TAB>score".to_string()));
            };
            let score = score.trim().parse().map_err(|_| bad(format!("'{score}' is not a score")))?;
            let setup = Setup::parse_fen(fen).map_err(|e| bad(e.to_string()))?;
            let pos = Position::new(rules, &setup).map_err(|e| bad(e.to_string()))?;
            samples.push((pos, score));
        }
        if samples.is_empty() {
            return Err(Error::Usage(format!("{}: no positions", args.data)));
        }
        emit(out, format_args!("# koma tune --variant {} --data {} ({} positions)", args.variant, args.data, samples.len()))?;
        let mut lines = Vec::new();
        let result = fit(&mut samples, &start, args.rounds, |l| {
            eprintln!("{l}");
            lines.push(l.to_string());
        });
        for l in &lines {
            emit(out, format_args!("# {l}"))?;
        }
        emit(out, format_args!("# loss {:.6} -> {:.6}; koma's scores times {:.2} match the data's", result.loss_before, result.loss_after, result.scale))?;
        for name in Params::NAMES {
            emit(out, format_args!("{name} = {}", result.params.get(name).unwrap_or(0)))?;
        }
        Ok(())
    })
}
