//! `koma play`: the command-line side of [`koma::play`].

use clap::{Args, ValueEnum};
use koma::Error;
use koma::play::{PlayOptions, Player};

use super::PositionArgs;

/// Who plays a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlayerArg {
    /// Moves typed at the prompt.
    Human,
    /// koma's engine.
    Engine,
}

impl From<PlayerArg> for Player {
    fn from(p: PlayerArg) -> Player {
        match p {
            PlayerArg::Human => Player::Human,
            PlayerArg::Engine => Player::Engine,
        }
    }
}

/// Arguments of `koma play`.
#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Who plays sente (moves first).
    #[arg(long, value_enum, default_value_t = PlayerArg::Human)]
    sente: PlayerArg,
    /// Who plays gote.
    #[arg(long, value_enum, default_value_t = PlayerArg::Engine)]
    gote: PlayerArg,
    /// The engine's thinking time per move, in seconds.
    #[arg(long, conflicts_with = "depth", default_value_t = 2.0)]
    time: f64,
    /// Search this many plies per move instead of by time.
    #[arg(long)]
    depth: Option<u32>,
    /// How moves are shown (moves are read in any of them).
    #[arg(long, value_enum, default_value_t)]
    notation: super::NotationArg,
    /// The engine's search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Draw pieces with the kanji of the variant file.
    #[arg(long)]
    kanji: bool,
    /// Colour gote's pieces (ANSI).
    #[arg(long)]
    color: bool,
    /// Go on with a saved game (any record format `koma convert` reads).
    #[arg(long, value_name = "RECORD", conflicts_with_all = ["fen", "sfen", "moves"])]
    load: Option<String>,
}

/// Plays a game on `input`/`out`; `save FILE` writes the file.
pub fn run(
    args: &PlayArgs,
    input: &mut dyn std::io::BufRead,
    out: &mut dyn std::io::Write,
) -> Result<(), Error> {
    let options = PlayOptions {
        sente: args.sente.into(),
        gote: args.gote.into(),
        time: args.time,
        depth: args.depth,
        kanji: args.kanji,
        color: args.color,
        hash_mb: 32,
        threads: args.threads,
        notation: args.notation.into(),
    };
    options.check()?;
    let mut save = |path: &str, text: &str| std::fs::write(path, text);
    if let Some(path) = &args.load {
        let (rec, _, _) = super::load_record(path, args.pos.variant.as_deref())?;
        return koma::play::resume(&rec, &options, input, out, &mut save);
    }
    let game = args.pos.game()?;
    let pos = args.pos.position(&game)?;
    koma::play::run(pos, &options, input, out, &mut save)
}
