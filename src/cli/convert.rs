//! `koma convert`: a game record from one format to another.

use std::io::Write;

use clap::Args;
use koma::Error;
use koma::record::{self, Format};

use super::emit;

/// Arguments of `koma convert`.
#[derive(Args)]
pub struct ConvertArgs {
    /// The record to read (KIF, KIFU, KI2, CSA, PGN, JKF, koma's own, a USI
    /// position line: told apart by their content).
    input: String,
    /// Write here instead of to standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<String>,
    /// The format to write: kif, ki2, csa, pgn, jkf, koma or usi (default:
    /// from the output's extension, else koma).
    #[arg(long, value_name = "FORMAT")]
    to: Option<String>,
    /// The record's variant, when the record does not name one.
    #[arg(long, short = 'v')]
    variant: Option<String>,
}

/// Reads, converts, writes.
pub fn run(args: &ConvertArgs, out: &mut dyn Write) -> Result<(), Error> {
    let names = || {
        Format::ALL
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let format = match (&args.to, &args.output) {
        (Some(t), _) => Format::from_name(t)
            .ok_or_else(|| Error::Usage(format!("--to {t}: expected one of {}", names())))?,
        (None, Some(o)) => std::path::Path::new(o)
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_name)
            .ok_or_else(|| {
                Error::Usage(format!(
                    "{o}: the extension names no format; give --to ({})",
                    names()
                ))
            })?,
        (None, None) => Format::Koma,
    };
    let (rec, _, _) = super::load_record(&args.input, args.variant.as_deref())?;
    let text = record::write(&rec, format)
        .map_err(|e| Error::Invalid(format!("{}: cannot write {format}: {e}", args.input)))?;
    match &args.output {
        Some(path) => std::fs::write(path, text).map_err(Error::io(format!("write {path}"))),
        None => {
            let text = text.strip_suffix('\n').unwrap_or(&text);
            emit(out, format_args!("{text}"))
        }
    }
}
