//! `koma svg`: diagrams of positions, or of every variant's start.

use std::io::Write;

use clap::{Args, ValueEnum};
use koma::render::{Labels, SvgOptions, movement_svg, start_diagram, svg};
use koma::{Error, variant};

use super::PositionArgs;

/// Piece names in diagrams.
#[derive(Copy, Clone, Debug, ValueEnum, Default)]
pub enum LabelArg {
    /// The kanji of the variant file.
    #[default]
    Kanji,
    /// FEN letters.
    Latin,
}

/// Arguments of `koma svg`.
#[derive(Args)]
pub struct SvgArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Write to this file instead of stdout.
    #[arg(short = 'o', long, conflicts_with = "all")]
    output: Option<String>,
    /// Write `<slug>-board.svg` of every embedded variant's start into DIR.
    #[arg(long, value_name = "DIR")]
    all: Option<String>,
    /// Piece names: kanji (from the variant file) or latin letters.
    #[arg(long, value_enum, default_value_t)]
    labels: LabelArg,
    /// The caption (default: the variant's title).
    #[arg(long)]
    title: Option<String>,
    /// Draw how this piece moves (a name or a letter, `+` before a promoted
    /// one's) on an empty board instead of the position.
    #[arg(long, value_name = "NAME", conflicts_with = "all")]
    piece: Option<String>,
}

fn write_file(path: &str, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(Error::io(format!("write {path}")))
}

/// Draws the diagram(s).
pub fn run(args: &SvgArgs, out: &mut dyn Write) -> Result<(), Error> {
    let labels = match args.labels {
        LabelArg::Kanji => Labels::Kanji,
        LabelArg::Latin => Labels::Latin,
    };
    if let Some(dir) = &args.all {
        std::fs::create_dir_all(dir).map_err(Error::io(format!("create {dir}")))?;
        for slug in variant::catalogue() {
            let path = format!("{}/{slug}-board.svg", dir.trim_end_matches('/'));
            write_file(&path, &start_diagram(slug, labels)?)?;
            writeln!(out, "{path}").map_err(Error::io("write the output"))?;
        }
        return Ok(());
    }
    let game = args.pos.game()?;
    let pos = args.pos.position(&game)?;
    let text = match &args.piece {
        Some(name) => {
            let role = pos.role_by_name(name).ok_or_else(|| {
                let names: Vec<&str> = pos.roles().iter().map(|r| r.name.as_str()).collect();
                Error::Usage(format!(
                    "no piece '{name}' in {}: its pieces are {}",
                    pos.slug(),
                    names.join(", ")
                ))
            })?;
            movement_svg(&pos, role, labels)
        }
        None => svg(
            &pos,
            &SvgOptions {
                labels,
                title: args.title.clone(),
                cell_size: None,
            },
        ),
    };
    match &args.output {
        Some(path) => write_file(path, &text),
        None => out
            .write_all(text.as_bytes())
            .map_err(Error::io("write the output")),
    }
}
