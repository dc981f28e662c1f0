//! `koma moves`: the legal moves of a position.

use std::io::Write;

use clap::Args;
use koma::notation::format_move;
use koma::{Error, with_rules};

use super::{NotationArg, PositionArgs, emit};

/// Arguments of `koma moves`.
#[derive(Args)]
pub struct MovesArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Notation of the listed moves.
    #[arg(long, value_enum, default_value_t)]
    notation: NotationArg,
}

/// Prints the legal moves, sorted, one a line.
pub fn run(args: &MovesArgs, out: &mut dyn Write) -> Result<(), Error> {
    let game = args.pos.game()?;
    with_rules!(&game, rules => {
        let pos = args.pos.position(rules)?;
        let mut list: Vec<String> = pos.legal_moves().into_iter().map(|m| format_move(&pos, m, args.notation.into())).collect();
        list.sort();
        for m in list {
            emit(out, format_args!("{m}"))?;
        }
        Ok(())
    })
}
