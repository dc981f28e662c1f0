//! The Python module `koma`: koma's variants, positions, moves, records,
//! diagrams and search, called in process instead of through a subprocess.
//!
//! Two ways in, as pyffish users expect and as koma adds:
//! - functions of a variant name, a FEN and a list of moves (`legal_moves`,
//!   `get_fen`, `gives_check`, `is_capture`, `game_result`, `perft`...),
//!   each rebuilding the position from its arguments;
//! - a `Position` object that keeps its state between calls (`push`, `pop`,
//!   `legal_moves`, `best_move`, `record`, `svg`...).
//!
//! Every error is an exception of the family `koma.KomaError`, its message
//! koma's own (a variant file's mistakes with file, line and column).
//! `koma.pyi` beside this crate's `pyproject.toml` types every call.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use koma::Game;
use koma::board::Color;
use koma::engine::{Engine, Limits};
use koma::notation::Notation;
use koma::position::{AnyPosition, Move, Outcome};
use koma::record::{self, Format, GameRecord};
use koma::render::{Labels, SvgOptions};
use koma::setup::Setup;
use koma::with_position;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    koma,
    KomaError,
    PyException,
    "Any error koma reports: its message says what is wrong and where."
);
create_exception!(
    koma,
    VariantError,
    KomaError,
    "A variant that cannot be found, read or compiled (with file, line and column)."
);
create_exception!(
    koma,
    FenError,
    KomaError,
    "A FEN or SFEN that cannot be read, or that is not a position of the variant."
);
create_exception!(
    koma,
    MoveError,
    KomaError,
    "A move that cannot be read, is illegal, or comes after the end of the game."
);
create_exception!(
    koma,
    RecordError,
    KomaError,
    "A game record that cannot be read, or a format that cannot hold the game."
);
create_exception!(
    koma,
    OptionError,
    KomaError,
    "An argument outside what the call accepts (a notation, a format, a depth)."
);

/// Variants loaded with `load_variant`, by slug, before the built-in ones.
fn loaded() -> &'static Mutex<HashMap<String, Game>> {
    static LOADED: OnceLock<Mutex<HashMap<String, Game>>> = OnceLock::new();
    LOADED.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Compiled built-in variants and files, by the name they were asked for.
fn compiled() -> &'static Mutex<HashMap<String, Game>> {
    static COMPILED: OnceLock<Mutex<HashMap<String, Game>>> = OnceLock::new();
    COMPILED.get_or_init(|| Mutex::new(HashMap::new()))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic cannot happen while a map is held (inserts and lookups only),
    // so a poisoned lock still holds a whole map.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The game a name means: one loaded with `load_variant`, a built-in slug
/// or alias, or the path of a variant file.
fn game(name: &str) -> PyResult<Game> {
    if let Some(g) = lock(loaded()).get(name) {
        return Ok(g.clone());
    }
    if let Some(g) = lock(compiled()).get(name) {
        return Ok(g.clone());
    }
    let g = Game::load(name).map_err(|e| VariantError::new_err(e.to_string()))?;
    lock(compiled()).insert(name.to_string(), g.clone());
    Ok(g)
}

fn notation(name: &str) -> PyResult<Notation> {
    match name.to_ascii_lowercase().as_str() {
        "fairy" | "uci" => Ok(Notation::Fairy),
        "usi" => Ok(Notation::Usi),
        "japanese" | "ki2" => Ok(Notation::Japanese),
        _ => Err(OptionError::new_err(format!(
            "unknown notation '{name}': use 'fairy', 'usi' or 'japanese'"
        ))),
    }
}

fn labels(name: &str) -> PyResult<Labels> {
    match name.to_ascii_lowercase().as_str() {
        "kanji" => Ok(Labels::Kanji),
        "latin" | "letters" => Ok(Labels::Latin),
        _ => Err(OptionError::new_err(format!(
            "unknown labels '{name}': use 'kanji' or 'latin'"
        ))),
    }
}

/// Reads a setup: `None` or `startpos` is the variant's start.
fn setup(game: &Game, text: Option<&str>, sfen: bool) -> PyResult<Setup> {
    let text = match text.map(str::trim) {
        None | Some("startpos") => return Ok(game.start_setup().clone()),
        Some(t) => t,
    };
    let (kind, read) = if sfen {
        ("SFEN", Setup::parse_sfen(text))
    } else {
        ("FEN", Setup::parse_fen(text))
    };
    read.map_err(|e| FenError::new_err(format!("cannot read the {kind} '{text}': {e}")))
}

/// The position a setup and moves reach.
fn reach(game: &Game, setup: &Setup, moves: &[String]) -> PyResult<AnyPosition> {
    AnyPosition::from_moves(game, setup, moves).map_err(|e| match e {
        koma::notation::ReplayError::Position { .. } => FenError::new_err(e.to_string()),
        koma::notation::ReplayError::Move { .. } => MoveError::new_err(e.to_string()),
    })
}

fn position(variant: &str, fen: Option<&str>, moves: &[String]) -> PyResult<AnyPosition> {
    let g = game(variant)?;
    let s = setup(&g, fen, false)?;
    reach(&g, &s, moves)
}

fn legal_list(pos: &AnyPosition, notation: Notation) -> Vec<String> {
    pos.legal_moves()
        .into_iter()
        .map(|m| pos.format_move(m, notation))
        .collect()
}

fn parse(pos: &AnyPosition, text: &str) -> PyResult<Move> {
    pos.parse_move(text)
        .map_err(|e| MoveError::new_err(e.to_string()))
}

fn result_text(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "*",
        Some(Outcome::Draw { .. }) => "1/2-1/2",
        Some(Outcome::Win {
            winner: Color::Sente,
            ..
        }) => "1-0",
        Some(Outcome::Win { .. }) => "0-1",
    }
}

fn outcome_tuple(outcome: Option<Outcome>) -> Option<(Option<&'static str>, String)> {
    outcome.map(|o| (o.winner().map(|c| c.name()), o.reason().to_string()))
}

/// The slugs of every variant: the built-in ones, then those loaded with
/// `load_variant` that are not built in.
#[pyfunction]
fn variants() -> Vec<String> {
    let mut list: Vec<String> = koma::variant::catalogue()
        .into_iter()
        .map(String::from)
        .collect();
    let mut extra: Vec<String> = lock(loaded())
        .keys()
        .filter(|k| !list.contains(k))
        .cloned()
        .collect();
    extra.sort();
    list.extend(extra);
    list
}

/// Loads a variant from a file's path or from a document's text (text
/// starts with `---`), compiles it and makes it known under its slug, ahead
/// of a built-in variant of that slug. Returns the slug.
#[pyfunction]
#[pyo3(signature = (source, name = None))]
fn load_variant(source: &str, name: Option<&str>) -> PyResult<String> {
    let err = |e: koma::variant::VariantError| VariantError::new_err(e.to_string());
    let g = if source.trim_start().starts_with("---") {
        let v = koma::variant::from_text(source, name.unwrap_or("<text>"), None).map_err(err)?;
        Game::compile(&v).map_err(err)?
    } else {
        Game::load(source).map_err(err)?
    };
    let slug = g.slug().to_string();
    lock(loaded()).insert(slug.clone(), g);
    Ok(slug)
}

/// The variant's title.
#[pyfunction]
fn title(variant: &str) -> PyResult<String> {
    Ok(game(variant)?.title().to_string())
}

/// The variant's start as a Fairy-Stockfish FEN.
#[pyfunction]
fn start_fen(variant: &str) -> PyResult<String> {
    Ok(game(variant)?.start_setup().to_fen())
}

/// The variant's start as an SFEN.
#[pyfunction]
fn start_sfen(variant: &str) -> PyResult<String> {
    Ok(game(variant)?.start_setup().to_sfen())
}

/// The legal moves after `moves` from `fen` (None: the start), in
/// `notation`: 'fairy' (as pyffish writes them, the default), 'usi' or
/// 'japanese'.
#[pyfunction]
#[pyo3(signature = (variant, fen = None, moves = None, notation = "fairy"))]
fn legal_moves(
    variant: &str,
    fen: Option<&str>,
    moves: Option<Vec<String>>,
    notation: &str,
) -> PyResult<Vec<String>> {
    let n = self::notation(notation)?;
    Ok(legal_list(
        &position(variant, fen, &moves.unwrap_or_default())?,
        n,
    ))
}

/// The FEN after `moves` from `fen`.
#[pyfunction]
#[pyo3(signature = (variant, fen = None, moves = None))]
fn get_fen(variant: &str, fen: Option<&str>, moves: Option<Vec<String>>) -> PyResult<String> {
    Ok(position(variant, fen, &moves.unwrap_or_default())?.fen())
}

/// The SFEN after `moves` from `fen`.
#[pyfunction]
#[pyo3(signature = (variant, fen = None, moves = None))]
fn get_sfen(variant: &str, fen: Option<&str>, moves: Option<Vec<String>>) -> PyResult<String> {
    Ok(position(variant, fen, &moves.unwrap_or_default())?.sfen())
}

/// An SFEN written as a Fairy-Stockfish FEN (checked against the variant).
#[pyfunction]
fn sfen_to_fen(variant: &str, sfen: &str) -> PyResult<String> {
    let g = game(variant)?;
    let s = setup(&g, Some(sfen), true)?;
    Ok(reach(&g, &s, &[])?.fen())
}

/// A Fairy-Stockfish FEN written as an SFEN (checked against the variant).
#[pyfunction]
fn fen_to_sfen(variant: &str, fen: &str) -> PyResult<String> {
    Ok(position(variant, Some(fen), &[])?.sfen())
}

/// Raises FenError unless `fen` is a position of the variant.
#[pyfunction]
#[pyo3(signature = (variant, fen, sfen = false))]
fn validate_fen(variant: &str, fen: &str, sfen: bool) -> PyResult<()> {
    let g = game(variant)?;
    let s = setup(&g, Some(fen), sfen)?;
    reach(&g, &s, &[]).map(|_| ())
}

/// A legal move rewritten in another notation (`move` in any of them).
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, r#move, notation = "usi"))]
fn format_move(
    variant: &str,
    fen: Option<&str>,
    moves: Option<Vec<String>>,
    r#move: &str,
    notation: &str,
) -> PyResult<String> {
    let n = self::notation(notation)?;
    let pos = position(variant, fen, &moves.unwrap_or_default())?;
    let mv = parse(&pos, r#move)?;
    Ok(pos.format_move(mv, n))
}

/// Whether the side to move is in check after `moves` (as pyffish's
/// `gives_check`: the last move gave check).
#[pyfunction]
#[pyo3(signature = (variant, fen = None, moves = None))]
fn gives_check(variant: &str, fen: Option<&str>, moves: Option<Vec<String>>) -> PyResult<bool> {
    Ok(position(variant, fen, &moves.unwrap_or_default())?.in_check())
}

/// Whether the legal move `move` (after `moves`) captures.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, r#move))]
fn is_capture(
    variant: &str,
    fen: Option<&str>,
    moves: Option<Vec<String>>,
    r#move: &str,
) -> PyResult<bool> {
    let pos = position(variant, fen, &moves.unwrap_or_default())?;
    let mv = parse(&pos, r#move)?;
    Ok(with_position!(&pos, p => p.is_capture(mv)))
}

/// The game's result after `moves`: '1-0' (sente won), '0-1' (gote won),
/// '1/2-1/2' (drawn) or '*' (not over).
#[pyfunction]
#[pyo3(signature = (variant, fen = None, moves = None))]
fn game_result(
    variant: &str,
    fen: Option<&str>,
    moves: Option<Vec<String>>,
) -> PyResult<&'static str> {
    Ok(result_text(
        position(variant, fen, &moves.unwrap_or_default())?.outcome(),
    ))
}

/// How the game ended after `moves`: None while it goes on, else
/// (winner, reason) with winner 'sente', 'gote' or None for a draw.
#[pyfunction]
#[pyo3(signature = (variant, fen = None, moves = None))]
fn outcome(
    variant: &str,
    fen: Option<&str>,
    moves: Option<Vec<String>>,
) -> PyResult<Option<(Option<&'static str>, String)>> {
    Ok(outcome_tuple(
        position(variant, fen, &moves.unwrap_or_default())?.outcome(),
    ))
}

/// The number of leaves of the tree of legal moves `depth` plies deep.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, depth))]
fn perft(
    py: Python<'_>,
    variant: &str,
    fen: Option<&str>,
    moves: Option<Vec<String>>,
    depth: u32,
) -> PyResult<u64> {
    let mut pos = position(variant, fen, &moves.unwrap_or_default())?;
    Ok(py.detach(move || pos.perft(depth)))
}

/// The position as an SVG document; labels 'kanji' (default) or 'latin'.
#[pyfunction]
#[pyo3(signature = (variant, fen = None, moves = None, labels = "kanji"))]
fn svg(
    variant: &str,
    fen: Option<&str>,
    moves: Option<Vec<String>>,
    labels: &str,
) -> PyResult<String> {
    let pos = position(variant, fen, &moves.unwrap_or_default())?;
    draw(&pos, labels)
}

fn draw(pos: &AnyPosition, labels: &str) -> PyResult<String> {
    let options = SvgOptions {
        labels: self::labels(labels)?,
        ..SvgOptions::default()
    };
    Ok(koma::render::svg(pos, &options))
}

/// Reads a game record in any format koma knows (KIF, KI2, CSA, PGN, JKF,
/// USI `position` lines, koma's own) and returns the position at its end,
/// its moves as history. `variant` overrides the one the record names.
#[pyfunction]
#[pyo3(signature = (text, variant = None, name = "record"))]
fn read_record(text: &str, variant: Option<&str>, name: &str) -> PyResult<Position> {
    let g = variant.map(game).transpose()?;
    let rec =
        record::read(text, name, g.as_ref()).map_err(|e| RecordError::new_err(e.to_string()))?;
    Ok(Position {
        pos: rec.position(),
    })
}

fn limits(depth: Option<u32>, nodes: Option<u64>, movetime: Option<f64>) -> PyResult<Limits> {
    if depth.is_none() && nodes.is_none() && movetime.is_none() {
        return Err(OptionError::new_err(
            "give depth, nodes or movetime (seconds) to limit the search",
        ));
    }
    let time = match movetime {
        Some(t) if !(t.is_finite() && t > 0.0 && t < 1e7) => {
            return Err(OptionError::new_err(format!(
                "movetime must be a positive number of seconds, not {t}"
            )));
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    Ok(Limits {
        depth,
        nodes,
        time,
        ..Limits::default()
    })
}

/// The engine's best move after `moves` from `fen` (None when the game is
/// over), searched to `depth`, `nodes` or `movetime` seconds.
#[pyfunction]
#[pyo3(signature = (variant, fen = None, moves = None, *, depth = None, nodes = None, movetime = None, notation = "fairy"))]
#[allow(clippy::too_many_arguments)]
fn best_move(
    py: Python<'_>,
    variant: &str,
    fen: Option<&str>,
    moves: Option<Vec<String>>,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<f64>,
    notation: &str,
) -> PyResult<Option<String>> {
    let mut p = Position {
        pos: position(variant, fen, &moves.unwrap_or_default())?,
    };
    Ok(p.search(py, depth, nodes, movetime, notation)?
        .map(|(m, _)| m))
}

/// A position of a variant that keeps its moves: play them with `push`,
/// take them back with `pop`.
#[pyclass(module = "koma", skip_from_py_object)]
#[derive(Clone)]
struct Position {
    pos: AnyPosition,
}

#[pymethods]
impl Position {
    /// The position of `variant` reached by `moves` from `fen` (a
    /// Fairy-Stockfish FEN; None: the start) or from `sfen`.
    #[new]
    #[pyo3(signature = (variant, fen = None, moves = None, *, sfen = None))]
    fn new(
        variant: &str,
        fen: Option<&str>,
        moves: Option<Vec<String>>,
        sfen: Option<&str>,
    ) -> PyResult<Position> {
        let g = game(variant)?;
        let s = match (fen, sfen) {
            (Some(_), Some(_)) => {
                return Err(OptionError::new_err("give a fen or an sfen, not both"));
            }
            (_, Some(s)) => setup(&g, Some(s), true)?,
            (f, None) => setup(&g, f, false)?,
        };
        Ok(Position {
            pos: reach(&g, &s, &moves.unwrap_or_default())?,
        })
    }

    /// The variant's slug.
    #[getter]
    fn variant(&self) -> String {
        self.pos.slug().to_string()
    }

    /// 'sente' or 'gote': the side to move.
    #[getter]
    fn turn(&self) -> &'static str {
        self.pos.turn().name()
    }

    /// The move number (1 at the start, as an SFEN counts).
    #[getter]
    fn move_number(&self) -> u32 {
        self.pos.move_number()
    }

    /// The position as a Fairy-Stockfish FEN.
    fn fen(&self) -> String {
        self.pos.fen()
    }

    /// The position as an SFEN.
    fn sfen(&self) -> String {
        self.pos.sfen()
    }

    /// The legal moves, in `notation` ('fairy', 'usi' or 'japanese').
    #[pyo3(signature = (notation = "fairy"))]
    fn legal_moves(&self, notation: &str) -> PyResult<Vec<String>> {
        Ok(legal_list(&self.pos, self::notation(notation)?))
    }

    /// Whether `move` (any notation) is legal here.
    fn is_legal(&self, r#move: &str) -> bool {
        self.pos.parse_move(r#move).is_ok()
    }

    /// Plays a legal move written in any notation.
    fn push(&mut self, r#move: &str) -> PyResult<()> {
        let mv = parse(&self.pos, r#move)?;
        self.pos
            .try_play(mv)
            .map_err(|e| MoveError::new_err(format!("{move}: {e}", move = r#move)))
    }

    /// Takes back the last move and returns it in `notation`; raises
    /// MoveError at the start.
    #[pyo3(signature = (notation = "fairy"))]
    fn pop(&mut self, notation: &str) -> PyResult<String> {
        let n = self::notation(notation)?;
        match self.pos.undo() {
            Some(mv) => Ok(self.pos.format_move(mv, n)),
            None => Err(MoveError::new_err("no move to take back")),
        }
    }

    /// The moves played since the setup, in `notation`.
    #[pyo3(signature = (notation = "fairy"))]
    fn history(&self, notation: &str) -> PyResult<Vec<String>> {
        let n = self::notation(notation)?;
        let mut start = self.pos.clone();
        let moves = self.pos.history();
        while start.undo().is_some() {}
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            out.push(start.format_move(mv, n));
            // The history was legal when it was played.
            if start.try_play(mv).is_err() {
                break;
            }
        }
        Ok(out)
    }

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }

    /// Whether the legal move `move` captures.
    fn is_capture(&self, r#move: &str) -> PyResult<bool> {
        let mv = parse(&self.pos, r#move)?;
        Ok(with_position!(&self.pos, p => p.is_capture(mv)))
    }

    /// '1-0', '0-1', '1/2-1/2' or '*' (not over).
    fn result(&self) -> &'static str {
        result_text(self.pos.outcome())
    }

    /// None while the game goes on, else (winner or None, reason).
    fn outcome(&self) -> Option<(Option<&'static str>, String)> {
        outcome_tuple(self.pos.outcome())
    }

    /// How often this position has occurred (1 the first time).
    fn repetitions(&self) -> u32 {
        self.pos.repetitions()
    }

    /// The number of leaves of the tree of legal moves `depth` plies deep.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let mut pos = self.pos.clone();
        py.detach(move || pos.perft(depth))
    }

    /// The position as an SVG document; labels 'kanji' or 'latin'.
    #[pyo3(signature = (labels = "kanji"))]
    fn svg(&self, labels: &str) -> PyResult<String> {
        draw(&self.pos, labels)
    }

    /// The game from its setup to here as a record: 'kif', 'ki2', 'csa',
    /// 'pgn', 'jkf', 'koma' or 'usi'.
    #[pyo3(signature = (format = "koma"))]
    fn record(&self, format: &str) -> PyResult<String> {
        let f = Format::from_name(format).ok_or_else(|| {
            OptionError::new_err(format!(
                "unknown record format '{format}': use kif, ki2, csa, pgn, jkf, koma or usi"
            ))
        })?;
        record::write(&GameRecord::from_position(&self.pos), f).map_err(RecordError::new_err)
    }

    /// The engine's best move and its score (centipawns for the side to
    /// move, or ('mate', n)), searched to `depth`, `nodes` or `movetime`
    /// seconds; None when the game is over.
    #[pyo3(signature = (*, depth = None, nodes = None, movetime = None, notation = "fairy"))]
    fn best_move(
        &mut self,
        py: Python<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        notation: &str,
    ) -> PyResult<Option<(String, Score)>> {
        self.search(py, depth, nodes, movetime, notation)
    }

    /// A copy that plays on without changing this one.
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "koma.Position('{}', sfen='{}')",
            self.pos.slug(),
            self.pos.sfen()
        )
    }
}

/// A search's score: ('cp', centipawns) or ('mate', moves to mate, negative
/// when the side to move is mated).
type Score = (&'static str, i64);

impl Position {
    fn search(
        &mut self,
        py: Python<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        notation: &str,
    ) -> PyResult<Option<(String, Score)>> {
        let n = self::notation(notation)?;
        let limits = limits(depth, nodes, movetime)?;
        if self.pos.outcome().is_some() || !self.pos.has_legal_move() {
            return Ok(None);
        }
        let mut pos = self.pos.clone();
        let (best, info) = py.detach(move || {
            let mut engine = Engine::new(16);
            let stop = AtomicBool::new(false);
            let (best, info) = engine.think_any(&mut pos, limits, &stop, |_| {});
            (best, info)
        });
        Ok(best.map(|m| {
            let score = match &info {
                Some(i) => match i.mate_in() {
                    Some(moves) => ("mate", i64::from(moves)),
                    None => ("cp", i64::from(i.score)),
                },
                None => ("cp", 0),
            };
            (self.pos.format_move(m, n), score)
        }))
    }
}

/// koma: shogi variants as data.
#[pymodule]
#[pyo3(name = "koma")]
fn koma_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("KomaError", py.get_type::<KomaError>())?;
    m.add("VariantError", py.get_type::<VariantError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("OptionError", py.get_type::<OptionError>())?;
    m.add_class::<Position>()?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(load_variant, m)?)?;
    m.add_function(wrap_pyfunction!(title, m)?)?;
    m.add_function(wrap_pyfunction!(start_fen, m)?)?;
    m.add_function(wrap_pyfunction!(start_sfen, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(get_fen, m)?)?;
    m.add_function(wrap_pyfunction!(get_sfen, m)?)?;
    m.add_function(wrap_pyfunction!(sfen_to_fen, m)?)?;
    m.add_function(wrap_pyfunction!(fen_to_sfen, m)?)?;
    m.add_function(wrap_pyfunction!(validate_fen, m)?)?;
    m.add_function(wrap_pyfunction!(format_move, m)?)?;
    m.add_function(wrap_pyfunction!(gives_check, m)?)?;
    m.add_function(wrap_pyfunction!(is_capture, m)?)?;
    m.add_function(wrap_pyfunction!(game_result, m)?)?;
    m.add_function(wrap_pyfunction!(outcome, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(svg, m)?)?;
    m.add_function(wrap_pyfunction!(read_record, m)?)?;
    m.add_function(wrap_pyfunction!(best_move, m)?)?;
    Ok(())
}
