//! `koma perft`: leaf counts of the legal move tree.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use koma::notation::format_move;
use koma::{Error, with_rules};

use super::{NotationArg, PositionArgs, emit};

/// The deepest perft koma accepts (deeper would run for days on any variant).
const MAX_DEPTH: u32 = 20;

/// Arguments of `koma perft`.
#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Plies to search.
    #[arg(long, short = 'd')]
    depth: u32,
    /// One line `move: count` per legal move first.
    #[arg(long)]
    divide: bool,
    /// Notation of the moves in `--divide`.
    #[arg(long, value_enum, default_value_t)]
    notation: NotationArg,
    /// Also print the time taken and nodes per second (on stderr).
    #[arg(long)]
    stats: bool,
}

/// Prints the perft count (last line: `total: N`).
pub fn run(args: &PerftArgs, out: &mut dyn Write) -> Result<(), Error> {
    if args.depth > MAX_DEPTH {
        return Err(Error::Usage(format!(
            "--depth {} is too deep: at most {MAX_DEPTH}",
            args.depth
        )));
    }
    let game = args.pos.game()?;
    with_rules!(&game, rules => {
        let mut pos = args.pos.position(rules)?;
        let start = Instant::now();
        let total = if args.divide && args.depth > 0 {
            let mut lines = Vec::new();
            let mut total = 0;
            for mv in pos.legal_moves() {
                let text = format_move(&pos, mv, args.notation.into());
                pos.play(mv);
                let n = pos.perft(args.depth - 1);
                pos.undo();
                total += n;
                lines.push((text, n));
            }
            lines.sort();
            for (m, n) in lines {
                emit(out, format_args!("{m}: {n}"))?;
            }
            total
        } else {
            pos.perft(args.depth)
        };
        emit(out, format_args!("total: {total}"))?;
        if args.stats {
            let secs = start.elapsed().as_secs_f64();
            eprintln!("{total} nodes in {secs:.3} s: {:.0} nodes/s", total as f64 / secs.max(1e-9));
        }
        Ok(())
    })
}
