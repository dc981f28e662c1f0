//! `koma variant export`: a variant file written for another engine.

use std::io::Write;

use clap::{Args, Subcommand, ValueEnum};
use koma::export::from_ini;
use koma::export::ini::variants_ini;
use koma::{Error, Game, variant, with_rules};

/// Arguments of `koma variant`.
#[derive(Args)]
pub struct VariantArgs {
    #[command(subcommand)]
    command: VariantCommand,
}

#[derive(Subcommand)]
enum VariantCommand {
    /// Write the variant for another engine: a Fairy-Stockfish variants.ini
    /// section (what pychess-variants and pyffish's load_variant_config
    /// read), or what it cannot carry, each with its key.
    Export(ExportArgs),
    /// Write a koma variant file from a Fairy-Stockfish variants.ini
    /// section (its parents followed, in the file or among
    /// Fairy-Stockfish's built-in shogi variants), or what it cannot carry,
    /// each with its line.
    Import(ImportArgs),
}

#[derive(Args)]
struct ImportArgs {
    /// The variants.ini file.
    file: String,
    /// The section's name (`cannonshogi` for `[cannonshogi:shogi]`).
    section: String,
    /// Write to this file instead of stdout.
    #[arg(short = 'o', long)]
    output: Option<String>,
}

/// The formats `koma variant export` writes.
#[derive(Copy, Clone, Debug, ValueEnum)]
enum Format {
    /// A Fairy-Stockfish variants.ini section.
    Ini,
}

#[derive(Args)]
struct ExportArgs {
    /// A slug from `variants/` (embedded) or a path to a variant file.
    variant: String,
    /// The format to write.
    #[arg(long, value_enum)]
    to: Format,
    /// The section's name [default: `koma` and the slug's letters and
    /// digits, `komajudkinsshogi`, which no Fairy-Stockfish variant has].
    #[arg(long)]
    name: Option<String>,
    /// Write to this file instead of stdout.
    #[arg(short = 'o', long)]
    output: Option<String>,
}

/// Runs `koma variant`.
pub fn run(args: &VariantArgs, out: &mut dyn Write) -> Result<(), Error> {
    match &args.command {
        VariantCommand::Export(a) => export(a, out),
        VariantCommand::Import(a) => import(a, out),
    }
}

fn import(args: &ImportArgs, out: &mut dyn Write) -> Result<(), Error> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| Error::Usage(format!("cannot read {}: {e}", args.file)))?;
    let doc = from_ini::import(&text, &args.file, &args.section).map_err(|e| match e {
        from_ini::ImportError::Refused(problems) => {
            let list: Vec<String> = problems.iter().map(|p| format!("  {p}")).collect();
            Error::Invalid(format!(
                "[{}] cannot be written as a koma variant file:\n{}",
                args.section,
                list.join("\n")
            ))
        }
        // The file written must be one koma reads: a problem here is koma's.
        from_ini::ImportError::Uncompiled { doc, error } => Error::Invalid(format!(
            "[{}] was read, but koma cannot compile the file written from it:\n{error}\n--- the file ---\n{doc}",
            args.section
        )),
    })?;
    match &args.output {
        Some(path) => std::fs::write(path, &doc).map_err(Error::io(format!("write {path}"))),
        None => out
            .write_all(doc.as_bytes())
            .map_err(Error::io("write the output")),
    }
}

fn export(args: &ExportArgs, out: &mut dyn Write) -> Result<(), Error> {
    let v = variant::load(&args.variant)?;
    let game = Game::compile(&v)?;
    let Format::Ini = args.to;
    let text = with_rules!(&game, rules => {
        let name = args.name.clone().unwrap_or_else(|| {
            let slug: String = rules.slug.chars().filter(char::is_ascii_alphanumeric).collect();
            format!("koma{slug}")
        });
        variants_ini(rules, &name)
    });
    let text = text.map_err(|refused| {
        let list: Vec<String> = refused.iter().map(|r| format!("  {r}")).collect();
        Error::Invalid(format!(
            "{} cannot be written as a Fairy-Stockfish variants.ini section:\n{}",
            args.variant,
            list.join("\n")
        ))
    })?;
    match &args.output {
        Some(path) => std::fs::write(path, &text).map_err(Error::io(format!("write {path}"))),
        None => out
            .write_all(text.as_bytes())
            .map_err(Error::io("write the output")),
    }
}
