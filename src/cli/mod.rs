//! The command line: clap types, one file per command. The library knows
//! nothing of clap; this module turns arguments into library calls.

mod bench;
mod convert;
mod export;
mod list;
mod moves;
mod perft;
mod play;
mod serve;
mod svg;
mod tune;
mod validate;

use std::io::{Read, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use koma::notation::Notation;
use koma::position::AnyPosition;
use koma::protocol::{Dialect, Output, serve};
use koma::setup::Setup;
use koma::{Error, Game, variant};
use std::sync::{Arc, Mutex};

/// koma: shogi variants as data. Games are read from variant files at run time.
///
/// Started without a command by a shogi or chess GUI (standard input not a
/// terminal, its first line `usi`, `uci` or `xboard`), koma speaks that protocol.
#[derive(Parser)]
#[command(name = "koma", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Measure variant loading and perft speed.
    Bench(bench::BenchArgs),
    /// Draw a position (or every variant's start) as an SVG diagram.
    Svg(svg::SvgArgs),
    /// Check variant files, or a game record with --game.
    Validate(validate::ValidateArgs),
    /// Convert a game record between formats (KIF, KI2, CSA, PGN, JKF, koma's, USI).
    Convert(convert::ConvertArgs),
    /// Speak the USI protocol on stdin/stdout (for shogi GUIs).
    Usi(ProtocolArgs),
    /// Speak UCI as Fairy-Stockfish does (UCI_Variant; FEN and its move notation).
    Uci(ProtocolArgs),
    /// Speak the XBoard / WinBoard protocol (CECP v2), as the GUIs of the large shogis want.
    Xboard(ProtocolArgs),
    /// Play a game in the terminal against the engine (or another person).
    Play(play::PlayArgs),
    /// List the embedded variants: slug, title, board (files×ranks), players.
    List,
    /// List the legal moves of a position, sorted, one a line.
    Moves(moves::MovesArgs),
    /// Count the leaf nodes of the legal move tree (perft).
    Perft(perft::PerftArgs),
    /// Play, analyse and write variants in the browser (a local web server).
    Serve(serve::ServeArgs),
    /// Fit the evaluation's weights to positions scored by another engine.
    Tune(tune::TuneArgs),
    /// Write a variant for another engine (a Fairy-Stockfish variants.ini section).
    Variant(export::VariantArgs),
}

/// Move notation for output (input accepts both).
#[derive(Copy, Clone, Debug, ValueEnum, Default)]
pub enum NotationArg {
    /// USI: 7g7f, 8h2b+, P*5e.
    #[default]
    Usi,
    /// Fairy-Stockfish: a2a3, e1a5+, P@c3.
    Fairy,
    /// Japanese, from the variant file's kanji: ▲７六歩, △同　銀, ▲５五角打.
    Japanese,
}

impl From<NotationArg> for Notation {
    fn from(n: NotationArg) -> Notation {
        match n {
            NotationArg::Usi => Notation::Usi,
            NotationArg::Fairy => Notation::Fairy,
            NotationArg::Japanese => Notation::Japanese,
        }
    }
}

/// Which game and which position: shared by the commands.
#[derive(Args, Clone, Debug)]
pub struct PositionArgs {
    /// Variant: a slug from `variants/` (embedded) or a path to a variant file
    /// [default: judkins-shogi].
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// Start from this FEN (Fairy-Stockfish style: `board[hands] w - - 0 1`, w = sente).
    #[arg(long, conflicts_with = "sfen")]
    pub fen: Option<String>,
    /// Start from this SFEN (`board b hands move`, b = sente).
    #[arg(long)]
    pub sfen: Option<String>,
    /// Moves to play first, in USI, Fairy-Stockfish or Japanese notation.
    #[arg(long, num_args = 1.., value_delimiter = ' ')]
    pub moves: Vec<String>,
}

impl PositionArgs {
    /// Loads the variant.
    pub fn game(&self) -> Result<Game, Error> {
        Ok(Game::load(
            self.variant.as_deref().unwrap_or(variant::DEFAULT_VARIANT),
        )?)
    }

    /// The position these arguments describe, on compiled rules.
    pub fn position(&self, game: &Game) -> Result<AnyPosition, Error> {
        let setup = match (&self.fen, &self.sfen) {
            (Some(fen), _) => Setup::parse_fen(fen).map_err(|source| Error::Setup {
                kind: "FEN",
                text: fen.clone(),
                source,
            })?,
            (None, Some(sfen)) => Setup::parse_sfen(sfen).map_err(|source| Error::Setup {
                kind: "SFEN",
                text: sfen.clone(),
                source,
            })?,
            (None, None) => game.start_setup().clone(),
        };
        Ok(AnyPosition::from_moves(game, &setup, &self.moves)?)
    }
}

/// Reads a game record of any format (detected by its content; UTF-8 or
/// Shift_JIS) on the game `variant` names, or the one it names itself; the
/// record, its format and the encoding it was in.
pub fn load_record(
    path: &str,
    variant: Option<&str>,
) -> Result<(koma::record::GameRecord, koma::record::Format, &'static str), Error> {
    let bytes = koma::text::read_file_bytes(std::path::Path::new(path))
        .map_err(|e| Error::Invalid(format!("cannot read {path}: {e}")))?;
    let (text, encoding) = koma::record::decode(&bytes);
    let game = variant.map(Game::load).transpose()?;
    let format = koma::record::detect(&text);
    Ok((
        koma::record::read(&text, path, game.as_ref())?,
        format,
        encoding,
    ))
}

/// Runs koma with the process's arguments; returns the exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // The protocol loops share stdout with their search thread: no lock here.
    let mut out = std::io::stdout();
    let Some(command) = cli.command else {
        return finish(guess_protocol(), &mut out);
    };
    let result = match command {
        Command::Moves(args) => moves::run(&args, &mut out.lock()),
        Command::Perft(args) => perft::run(&args, &mut out.lock()),
        Command::List => list::run(&mut out.lock()),
        Command::Bench(args) => bench::run(&args, &mut out.lock()),
        Command::Tune(args) => tune::run(&args, &mut out.lock()),
        Command::Svg(args) => svg::run(&args, &mut out.lock()),
        Command::Validate(args) => validate::run(&args, &mut out.lock()),
        Command::Convert(args) => convert::run(&args, &mut out.lock()),
        Command::Usi(a) => protocol(Dialect::Usi, &a.variant(Dialect::Usi), None),
        Command::Uci(a) => protocol(Dialect::Uci, &a.variant(Dialect::Uci), None),
        Command::Xboard(a) => xboard(&a.variant(Dialect::Usi), None),
        Command::Play(args) => play::run(&args, &mut std::io::stdin().lock(), &mut out.lock()),
        Command::Serve(args) => serve::run(&args, &mut out.lock()),
        Command::Variant(args) => export::run(&args, &mut out.lock()),
    };
    finish(result, &mut out)
}

fn finish(result: Result<(), Error>, out: &mut std::io::Stdout) -> ExitCode {
    match result.and_then(|()| out.flush().map_err(Error::io("write the output"))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "koma: {e}");
            ExitCode::from(exit_code(&e))
        }
    }
}

/// Arguments of `koma usi` and `koma uci`.
#[derive(Args)]
struct ProtocolArgs {
    /// The variant until the GUI sets USI_Variant / UCI_Variant [default:
    /// shogi in USI, as shogi GUIs expect; judkins-shogi in UCI].
    #[arg(long, short = 'v')]
    variant: Option<String>,
}

impl ProtocolArgs {
    fn variant(&self, dialect: Dialect) -> String {
        self.variant
            .clone()
            .unwrap_or_else(|| default_variant(dialect).to_string())
    }
}

/// The game a protocol starts in when the GUI names none.
fn default_variant(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Usi => "shogi",
        Dialect::Uci => variant::DEFAULT_VARIANT,
    }
}

/// Serves `dialect` on standard input; `first` is a line already read from it.
fn protocol(dialect: Dialect, variant: &str, first: Option<Peeked>) -> Result<(), Error> {
    let (input, out) = protocol_streams(first);
    serve(dialect, input, out, variant)
}

/// Serves XBoard's protocol on standard input; `first` is a line already read from it.
fn xboard(variant: &str, first: Option<Peeked>) -> Result<(), Error> {
    let (input, out) = protocol_streams(first);
    koma::protocol::serve_xboard(input, out, variant)
}

/// Standard input (after `first`, a line already read from it) and
/// standard output, as the protocol loops take them.
fn protocol_streams(first: Option<Peeked>) -> (Box<dyn std::io::BufRead + Send>, Output) {
    let out: Output = Arc::new(Mutex::new(Box::new(std::io::stdout())));
    let input: Box<dyn std::io::BufRead + Send> = match first {
        Some((line, rest)) => Box::new(std::io::Cursor::new(line).chain(rest)),
        None => Box::new(std::io::BufReader::new(std::io::stdin())),
    };
    (input, out)
}

/// A line read from standard input, and the reader that read it.
type Peeked = (Vec<u8>, std::io::BufReader<std::io::Stdin>);

/// `koma` without a command: help on a terminal; otherwise the protocol the
/// first line of standard input asks for (`usi` or `uci`, as GUIs start an
/// engine), or a usage error for anything else.
fn guess_protocol() -> Result<(), Error> {
    use std::io::{BufRead, IsTerminal};
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        let mut help = <Cli as clap::CommandFactory>::command();
        let _ = help.print_help();
        return Err(Error::Usage(
            "no command given (see above; a GUI starts koma with 'usi' or 'uci' on its standard input)".into(),
        ));
    }
    let mut reader = std::io::BufReader::new(stdin);
    let mut first = Vec::new();
    // Blank lines before the first command are skipped, as the protocols do.
    loop {
        first.clear();
        let n = reader
            .read_until(b'\n', &mut first)
            .map_err(Error::io("read the standard input"))?;
        if n == 0 || !first.iter().all(u8::is_ascii_whitespace) {
            break;
        }
    }
    let line = String::from_utf8_lossy(&first);
    let dialect = match line.split_whitespace().next() {
        Some("usi") => Dialect::Usi,
        Some("uci") => Dialect::Uci,
        Some("xboard") => return xboard(default_variant(Dialect::Usi), Some((first, reader))),
        _ => {
            let shown: String = line.trim().chars().take(40).collect();
            let what = if shown.is_empty() {
                "the standard input is empty".to_string()
            } else {
                format!("its first line is '{shown}'")
            };
            return Err(Error::Usage(format!(
                "no command given and {what}: name a command (see 'koma --help'), or send 'usi', 'uci' or 'xboard' first to speak that protocol"
            )));
        }
    };
    protocol(dialect, default_variant(dialect), Some((first, reader)))
}

/// 2 for misuse of the command, 3 for a stream or file that could not be
/// read or written, 1 for bad input.
fn exit_code(e: &Error) -> u8 {
    match e {
        Error::Usage(_) => 2,
        Error::Io { .. } => 3,
        _ => 1,
    }
}

/// Writes a line, turning an I/O failure into an error.
pub fn emit(out: &mut dyn Write, line: std::fmt::Arguments<'_>) -> Result<(), Error> {
    out.write_fmt(line)
        .and_then(|()| out.write_all(b"\n"))
        .map_err(|e| {
            // The reader went away (`koma list | head`): nothing more to say.
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            Error::io("write the output")(e)
        })
}
