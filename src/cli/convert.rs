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
    /// The output's encoding: utf-8, or shift_jis (the default for a .kif
    /// or .ki2 file, as custom has it; .kifu, .ki2u and the rest are UTF-8).
    #[arg(long, value_name = "ENCODING")]
    encoding: Option<String>,
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
    let extension = args
        .output
        .as_deref()
        .and_then(|o| std::path::Path::new(o).extension())
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let sjis = match args
        .encoding
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("utf-8" | "utf8") => false,
        Some("shift_jis" | "sjis" | "shift-jis" | "cp932") => true,
        Some(other) => {
            return Err(Error::Usage(format!(
                "--encoding {other}: expected utf-8 or shift_jis"
            )));
        }
        None => matches!(extension.as_deref(), Some("kif" | "ki2")),
    };
    let bytes = if sjis {
        record::encode_shift_jis(&text)
            .map_err(|e| Error::Invalid(format!("{}: {e}", args.input)))?
    } else {
        text.clone().into_bytes()
    };
    match &args.output {
        Some(path) => std::fs::write(path, bytes).map_err(Error::io(format!("write {path}"))),
        None if sjis => out.write_all(&bytes).map_err(Error::io("write the output")),
        None => {
            let text = text.strip_suffix('\n').unwrap_or(&text);
            emit(out, format_args!("{text}"))
        }
    }
}
