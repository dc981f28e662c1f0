//! `koma moves`: the legal moves of a position (or of many, with `--batch`).

use std::io::{BufRead, Write};

use clap::Args;
use koma::Error;
use koma::notation::Notation;
use koma::position::{AnyPosition, Game, Outcome};
use koma::setup::Setup;

use super::{NotationArg, PositionArgs, emit};

/// Arguments of `koma moves`.
#[derive(Args)]
pub struct MovesArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Notation of the listed moves.
    #[arg(long, value_enum, default_value_t)]
    notation: NotationArg,
    /// Read one FEN a line from stdin (or `startpos` for the variant's
    /// start), optionally followed by ` moves ` and moves played from it (as
    /// in a protocol's `position` command, so that repetitions count); for
    /// each print one line:
    /// `check<TAB>result<TAB>moves` (check 0/1; result `-`, `sente`, `gote` or
    /// `draw`; the sorted legal moves space-separated), or `error<TAB>message`.
    #[arg(long, conflicts_with_all = ["fen", "sfen", "moves"])]
    batch: bool,
    /// With `--batch`: the lines are SFENs (`b` = sente), not FENs (for
    /// what only an SFEN says, such as chu shogi's third field).
    #[arg(long, requires = "batch")]
    sfen_lines: bool,
}

fn sorted(pos: &AnyPosition, notation: Notation) -> Vec<String> {
    let mut list: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| pos.format_move(m, notation))
        .collect();
    list.sort();
    list
}

fn batch(game: &Game, notation: Notation, sfen: bool, out: &mut dyn Write) -> Result<(), Error> {
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(Error::io("read the input"))?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let cut = words
            .iter()
            .position(|&w| w == "moves")
            .unwrap_or(words.len());
        let fen = &words[..cut].join(" ");
        let moves = words.get(cut + 1..).unwrap_or_default();
        let read = if fen == "startpos" {
            Ok(game.start_setup().clone())
        } else if sfen {
            Setup::parse_sfen(fen)
        } else {
            Setup::parse_fen(fen)
        };
        let pos = read
            .map_err(|e| e.to_string())
            .and_then(|s| AnyPosition::from_moves(game, &s, moves).map_err(|e| e.to_string()));
        match pos {
            Err(e) => emit(out, format_args!("error\t{e}"))?,
            Ok(pos) => {
                let result = match pos.outcome() {
                    None => "-",
                    Some(Outcome::Draw { .. }) => "draw",
                    Some(Outcome::Win { winner, .. }) => winner.name(),
                };
                let check = u8::from(pos.in_check());
                emit(
                    out,
                    format_args!("{check}\t{result}\t{}", sorted(&pos, notation).join(" ")),
                )?;
            }
        }
        out.flush().map_err(Error::io("write the output"))?;
    }
    Ok(())
}

/// Prints the legal moves, sorted, one a line.
pub fn run(args: &MovesArgs, out: &mut dyn Write) -> Result<(), Error> {
    let game = args.pos.game()?;
    if args.batch {
        return batch(&game, args.notation.into(), args.sfen_lines, out);
    }
    let pos = args.pos.position(&game)?;
    for m in sorted(&pos, args.notation.into()) {
        emit(out, format_args!("{m}"))?;
    }
    Ok(())
}
