//! Game records: one model ([`GameRecord`]) read from and written to every
//! format koma knows.
//!
//! | format | read | write | boards |
//! | --- | --- | --- | --- |
//! | koma's own ([`koma`]) | yes | yes | any |
//! | USI `position` lines | yes (as koma's own) | yes | any |
//! | KIF / KIFU ([`kif`]), Shift_JIS or UTF-8 | yes | yes | any: `手合割` or a BOD diagram |
//! | KI2 ([`kif`]) | yes | yes | any |
//! | CSA V2.2 / V3 ([`csa`]) | yes | yes | 9×9 with CSA codes for every piece |
//! | PGN with `[Variant]` and `[FEN]`/`[SFEN]` ([`pgn`]) | yes | yes | any |
//! | JKF, JSON Kifu Format ([`jkf`]) | yes | yes | 9×9 with CSA codes for every piece |
//!
//! Reading goes in two steps: a format's parser turns the text into a
//! [`Draft`] (headers, the variant's name or `手合割`, the start as written,
//! the moves as written, each with its line); [`read`] then chooses the game,
//! reads the start on it and resolves every move against the position it is
//! played in, so that each error names its line.

pub mod csa;
pub mod jkf;
pub mod kif;
pub mod koma;
pub mod pgn;

use std::fmt;

use crate::Error;
use crate::board::Color;
use crate::notation::Notation;
use crate::position::{AnyPosition, Game, Move, Outcome, Reason};
use crate::setup::Setup;
use crate::variant;

/// The formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// koma's own records.
    Koma,
    /// A USI `position` line.
    Usi,
    /// KIF (Kakinoki).
    Kif,
    /// KI2 (KIF without origins, with relative words).
    Ki2,
    /// CSA.
    Csa,
    /// PGN as Fairy-Stockfish and pychess-variants write it.
    Pgn,
    /// JSON Kifu Format.
    Jkf,
}

impl Format {
    /// Every format, in the order `--to` lists them.
    pub const ALL: [Format; 7] = [
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Pgn,
        Format::Jkf,
        Format::Koma,
        Format::Usi,
    ];

    /// The format's name as `--to` takes it (and its usual file extension).
    pub fn name(self) -> &'static str {
        match self {
            Format::Koma => "koma",
            Format::Usi => "usi",
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Pgn => "pgn",
            Format::Jkf => "jkf",
        }
    }

    /// The format a name or file extension stands for (`kifu` is KIF).
    pub fn from_name(name: &str) -> Option<Format> {
        let n = name.to_ascii_lowercase();
        match n.as_str() {
            "kifu" => Some(Format::Kif),
            "ki2u" => Some(Format::Ki2),
            "txt" | "record" => Some(Format::Koma),
            "json" => Some(Format::Jkf),
            _ => Format::ALL.into_iter().find(|f| f.name() == n),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who and what: the information around a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers {
    /// Sente's player.
    pub sente: Option<String>,
    /// Gote's player.
    pub gote: Option<String>,
    /// The event (棋戦).
    pub event: Option<String>,
    /// Where it was played (場所).
    pub site: Option<String>,
    /// When it started (開始日時), as written.
    pub date: Option<String>,
    /// The time control (持ち時間), as written.
    pub time_control: Option<String>,
    /// Any other header, key and value as written.
    pub other: Vec<(String, String)>,
}

/// How a game ended, as records say it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A player resigned.
    Resignation,
    /// Checkmate.
    Checkmate,
    /// The same position repeated (sennichite).
    Repetition,
    /// A repetition in which one side checked with every move.
    PerpetualCheck,
    /// Impasse (jishogi), a declaration (nyugyoku) or a points count.
    Impasse,
    /// A player ran out of time.
    Time,
    /// An illegal move or action.
    IllegalMove,
    /// The game was stopped (中断).
    Abort,
    /// The side to move had no legal move.
    NoLegalMove,
    /// A royal piece was captured.
    RoyalCaptured,
    /// A piece reached the last rank (a try).
    ReachedLastRank,
    /// A check was given where giving check wins.
    Check,
    /// Any other or unknown ending.
    Unknown,
}

impl Ending {
    const WORDS: [(Ending, &'static str); 13] = [
        (Ending::Resignation, "resignation"),
        (Ending::Checkmate, "checkmate"),
        (Ending::Repetition, "repetition"),
        (Ending::PerpetualCheck, "perpetual check"),
        (Ending::Impasse, "impasse"),
        (Ending::Time, "time"),
        (Ending::IllegalMove, "illegal move"),
        (Ending::Abort, "abort"),
        (Ending::NoLegalMove, "no legal move"),
        (Ending::RoyalCaptured, "royal piece captured"),
        (Ending::ReachedLastRank, "reached the last rank"),
        (Ending::Check, "check"),
        (Ending::Unknown, "unknown"),
    ];

    /// The ending in words ("resignation").
    pub fn as_str(self) -> &'static str {
        Ending::WORDS
            .iter()
            .find(|(e, _)| *e == self)
            .map_or("unknown", |(_, w)| w)
    }

    /// The ending these words name.
    pub fn from_words(words: &str) -> Option<Ending> {
        let w = words.trim().to_ascii_lowercase();
        Ending::WORDS.iter().find(|(_, n)| *n == w).map(|(e, _)| *e)
    }
}

impl From<Reason> for Ending {
    fn from(r: Reason) -> Ending {
        match r {
            Reason::Checkmate => Ending::Checkmate,
            Reason::NoLegalMove => Ending::NoLegalMove,
            Reason::Repetition => Ending::Repetition,
            Reason::PerpetualCheck => Ending::PerpetualCheck,
            Reason::ReachedLastRank => Ending::ReachedLastRank,
            Reason::RoyalCaptured => Ending::RoyalCaptured,
            Reason::Resignation => Ending::Resignation,
            Reason::Check => Ending::Check,
        }
    }
}

/// Who the result favours.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// This side won.
    Win(Color),
    /// Nobody won.
    Draw,
    /// No result (aborted, unknown).
    Undecided,
}

/// A game's result: who, and how.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Who won, or a draw, or nothing decided.
    pub decision: Decision,
    /// How it ended.
    pub ending: Ending,
}

impl GameResult {
    /// A win of `winner` by `ending`.
    pub fn win(winner: Color, ending: Ending) -> GameResult {
        GameResult {
            decision: Decision::Win(winner),
            ending,
        }
    }

    /// A draw by `ending`.
    pub fn draw(ending: Ending) -> GameResult {
        GameResult {
            decision: Decision::Draw,
            ending,
        }
    }

    /// No decision, for `ending` (abort, unknown).
    pub fn undecided(ending: Ending) -> GameResult {
        GameResult {
            decision: Decision::Undecided,
            ending,
        }
    }

    /// Reads what [`fmt::Display`] writes: "sente wins by resignation",
    /// "draw by repetition", "aborted", "unknown".
    pub fn parse(text: &str) -> Option<GameResult> {
        let t = text.trim().to_ascii_lowercase();
        if t == "aborted" {
            return Some(GameResult::undecided(Ending::Abort));
        }
        if t == "unknown" {
            return Some(GameResult::undecided(Ending::Unknown));
        }
        if let Some(e) = t.strip_prefix("no result by ") {
            return Ending::from_words(e).map(GameResult::undecided);
        }
        if let Some(e) = t.strip_prefix("draw by ") {
            return Ending::from_words(e).map(GameResult::draw);
        }
        for c in Color::ALL {
            if let Some(e) = t.strip_prefix(&format!("{} wins by ", c.name())) {
                return Ending::from_words(e).map(|e| GameResult::win(c, e));
            }
        }
        None
    }
}

impl From<&Outcome> for GameResult {
    fn from(o: &Outcome) -> GameResult {
        match o {
            Outcome::Win { winner, reason } => GameResult::win(*winner, (*reason).into()),
            Outcome::Draw { reason } => GameResult::draw((*reason).into()),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.decision, self.ending) {
            (Decision::Win(c), e) => write!(f, "{} wins by {}", c.name(), e.as_str()),
            (Decision::Draw, e) => write!(f, "draw by {}", e.as_str()),
            (Decision::Undecided, Ending::Abort) => f.write_str("aborted"),
            (Decision::Undecided, Ending::Unknown) => f.write_str("unknown"),
            (Decision::Undecided, e) => write!(f, "no result by {}", e.as_str()),
        }
    }
}

/// One move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move, legal where it is played.
    pub mv: Move,
    /// The line it was read from (0 for a record not read from text).
    pub line: usize,
    /// A comment after it.
    pub comment: Option<String>,
    /// Seconds its player spent on it.
    pub time: Option<u32>,
}

/// A game: its variant, where it starts, its moves, its headers and result.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The variant.
    pub game: Game,
    /// The start, a position of the game.
    pub start: Setup,
    /// A comment before the first move.
    pub start_comment: Option<String>,
    /// The moves, each legal in turn.
    pub moves: Vec<RecordMove>,
    /// Players, date, event, time control.
    pub headers: Headers,
    /// The result, if the record gives one.
    pub result: Option<GameResult>,
}

impl GameRecord {
    /// The record of a game played to `pos`: its start, its moves.
    pub fn from_position(pos: &AnyPosition) -> GameRecord {
        let mut start = pos.clone();
        while start.undo().is_some() {}
        GameRecord {
            game: pos.game(),
            start: start.to_setup(),
            start_comment: None,
            moves: pos
                .history()
                .into_iter()
                .map(|mv| RecordMove {
                    mv,
                    line: 0,
                    comment: None,
                    time: None,
                })
                .collect(),
            headers: Headers::default(),
            result: None,
        }
    }

    /// The start position.
    pub fn start_position(&self) -> AnyPosition {
        AnyPosition::new(&self.game, &self.start).unwrap_or_else(|_| AnyPosition::start(&self.game))
    }

    /// The position after every move (the moves were checked when the record
    /// was made; one that is not legal stops the replay there).
    pub fn position(&self) -> AnyPosition {
        let mut pos = self.start_position();
        for m in &self.moves {
            if pos.try_play(m.mv).is_err() {
                break;
            }
        }
        pos
    }

    /// The moves in USI notation, in order.
    pub fn usi_moves(&self) -> Vec<String> {
        let mut pos = self.start_position();
        let mut out = Vec::new();
        for m in &self.moves {
            out.push(pos.format_move(m.mv, Notation::Usi));
            if pos.try_play(m.mv).is_err() {
                break;
            }
        }
        out
    }

    /// Whether the record starts at its variant's start.
    /// A game loaded under an alias with a setup of its own is compared with
    /// its variant's start, the one a reader of the record takes.
    pub fn starts_at_variant_start(&self) -> bool {
        let base = variant::aliases()
            .into_iter()
            .find(|(a, _)| a == self.game.slug())
            .and_then(|(_, slug)| Game::load(slug).ok());
        let start = AnyPosition::start(base.as_ref().unwrap_or(&self.game));
        start.to_setup() == self.start_position().to_setup()
    }
}

/// A format's text that cannot be read, at a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based line (0: the whole text).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl RecordError {
    /// An error at `line`.
    pub fn at(line: usize, message: impl Into<String>) -> RecordError {
        RecordError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for RecordError {}

/// A move as a format writes it, to be resolved against the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveText {
    /// USI, Fairy-Stockfish or Japanese notation.
    Text(String),
    /// A CSA move, `+7776FU` (the piece as it is after the move).
    Csa(String),
    /// A move given by its squares' record numbers (`from` absent for a
    /// drop), the piece's CSA code before the move and whether it promotes.
    Coords {
        /// The mover, if the format says.
        color: Option<Color>,
        /// File and rank numbers of the origin.
        from: Option<(u32, u32)>,
        /// File and rank numbers of the destination.
        to: (u32, u32),
        /// The piece's CSA code before the move.
        piece: String,
        /// Whether it promotes.
        promote: bool,
    },
    /// PGN's SAN, or a coordinate move.
    San(String),
}

impl MoveText {
    /// The move as written, for messages.
    pub fn text(&self) -> String {
        match self {
            MoveText::Text(t) | MoveText::Csa(t) | MoveText::San(t) => t.clone(),
            MoveText::Coords {
                from, to, piece, ..
            } => match from {
                Some((f, r)) => format!("{f}{r}{}{}{piece}", to.0, to.1),
                None => format!("00{}{}{piece}", to.0, to.1),
            },
        }
    }
}

/// A move as read, not yet resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraftMove {
    /// What was written.
    pub text: MoveText,
    /// Its line.
    pub line: usize,
    /// A comment after it.
    pub comment: Option<String>,
    /// Seconds spent.
    pub time: Option<u32>,
}

/// Where a record starts, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DraftStart {
    /// The variant's start.
    Variant,
    /// A Fairy-Stockfish FEN, with its line.
    Fen(String, usize),
    /// An SFEN, with its line.
    Sfen(String, usize),
    /// A setup already read (needs no game).
    Setup(Setup),
    /// A BOD diagram's lines (KIF, KI2), with their line numbers.
    Bod(Vec<(usize, String)>),
    /// CSA position lines, with their line numbers.
    Csa(Vec<(usize, String)>),
    /// JKF's `initial.data`.
    Jkf(serde_json::Value, usize),
}

/// The result as a record writes it, settled only against the final position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DraftResult {
    /// Fully known.
    Known(GameResult),
    /// A word said relative to the side to move after the last move: the
    /// side to move won (`true`) or lost (`false`), by this ending.
    SideToMove(bool, Ending),
    /// A winner whose ending the final position tells (resignation or
    /// checkmate, say).
    Winner(Color),
}

/// A record as a format's parser read it.
#[derive(Clone, Debug)]
pub struct Draft {
    /// The format.
    pub format: Format,
    /// The variant the record names (slug, alias, PGN name or title), with its line.
    pub variant: Option<(String, usize)>,
    /// KIF's `手合割`, with its line.
    pub handicap: Option<(String, usize)>,
    /// Where it starts.
    pub start: DraftStart,
    /// A comment before the first move.
    pub start_comment: Option<String>,
    /// The moves.
    pub moves: Vec<DraftMove>,
    /// The headers.
    pub headers: Headers,
    /// The result, if written.
    pub result: Option<DraftResult>,
    /// Whether only 9×9 games with CSA codes can be meant (CSA, JKF).
    pub csa_pieces: bool,
}

impl Draft {
    /// An empty draft of a format.
    pub fn new(format: Format) -> Draft {
        Draft {
            format,
            variant: None,
            handicap: None,
            start: DraftStart::Variant,
            start_comment: None,
            moves: Vec::new(),
            headers: Headers::default(),
            result: None,
            csa_pieces: false,
        }
    }

    /// Adds a comment to the last move, or before the first.
    pub fn comment(&mut self, text: &str) {
        let slot = match self.moves.last_mut() {
            Some(m) => &mut m.comment,
            None => &mut self.start_comment,
        };
        match slot {
            Some(c) => {
                c.push('\n');
                c.push_str(text);
            }
            None => *slot = Some(text.to_string()),
        }
    }
}

/// Guesses a record's format from its text.
pub fn detect(text: &str) -> Format {
    let body = text.trim_start_matches('\u{feff}').trim_start();
    if body.starts_with('{') {
        return Format::Jkf;
    }
    if body.starts_with("#KIF") {
        return Format::Kif;
    }
    let lines: Vec<&str> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines
        .iter()
        .any(|l| l.starts_with('[') && l.ends_with(']') && l.contains('"'))
    {
        return Format::Pgn;
    }
    let csa = |l: &&str| {
        let b = l.as_bytes();
        l.starts_with("V2")
            || l.starts_with("V3")
            || l.starts_with("PI")
            || l.starts_with("N+")
            || l.starts_with("N-")
            || (b.len() >= 2
                && b[0] == b'P'
                && (b[1].is_ascii_digit() || b[1] == b'+' || b[1] == b'-'))
            || (b.len() >= 7
                && (b[0] == b'+' || b[0] == b'-')
                && b[1..5].iter().all(u8::is_ascii_digit)
                && b[5].is_ascii_uppercase())
            || l.starts_with('%')
    };
    if lines.iter().any(csa) {
        return Format::Csa;
    }
    if lines
        .iter()
        .any(|l| l.starts_with("手数----") || kif::is_move_line(l))
    {
        return Format::Kif;
    }
    if lines
        .iter()
        .any(|l| l.starts_with(['▲', '△', '☗', '☖', '▽', '▼']))
    {
        return Format::Ki2;
    }
    let first = lines.iter().find(|l| !l.starts_with('#'));
    let koma_key = |l: &str| {
        l.split_once(':').is_some_and(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        })
    };
    // A KIF header without moves: a key without ASCII before a full-width colon.
    let kif_header = |l: &&str| {
        l.split_once('：')
            .is_some_and(|(k, _)| !k.is_empty() && !k.chars().any(|c| c.is_ascii()))
    };
    if !first.is_some_and(|l| koma_key(l)) && lines.iter().any(kif_header) {
        return Format::Kif;
    }
    match first {
        Some(l) if l.starts_with("position ") => Format::Usi,
        _ => Format::Koma,
    }
}

/// Decodes a record's bytes: UTF-8 (with or without a byte-order mark), else
/// Shift_JIS, as older KIF files are written. The name of the encoding used
/// is returned with the text.
pub fn decode(bytes: &[u8]) -> (String, &'static str) {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), "UTF-8"),
        Err(_) => {
            let (text, _, _) = encoding_rs::SHIFT_JIS.decode(bytes);
            (text.into_owned(), "Shift_JIS")
        }
    }
}

/// Encodes a record's text in Shift_JIS (as `.kif` and `.ki2` files are
/// by custom; `.kifu` is UTF-8), saying so in KIF's encoding line. Text
/// with a character Shift_JIS lacks is refused, with that character.
pub fn encode_shift_jis(text: &str) -> Result<Vec<u8>, String> {
    let text = text.replacen("encoding=UTF-8", "encoding=Shift_JIS", 1);
    if let Some(c) = text
        .chars()
        .find(|c| encoding_rs::SHIFT_JIS.encode(&c.to_string()).2)
    {
        return Err(format!(
            "'{c}' has no Shift_JIS code: write UTF-8 instead (a .kifu file, or --encoding utf-8)"
        ));
    }
    Ok(encoding_rs::SHIFT_JIS.encode(&text).0.into_owned())
}

/// Parses a record's text in `format` into a draft.
pub fn parse(text: &str, format: Format) -> Result<Draft, RecordError> {
    match format {
        Format::Koma | Format::Usi => koma::parse(text),
        Format::Kif => kif::parse(text, false),
        Format::Ki2 => kif::parse(text, true),
        Format::Csa => csa::parse(text),
        Format::Pgn => pgn::parse(text),
        Format::Jkf => jkf::parse(text),
    }
}

/// Reads a record: detects its format, chooses its game (`game` if given,
/// else the one it names), reads its start and resolves its moves. `path`
/// names it in messages, each of which gives its line (`path:line: ...`).
pub fn read(text: &str, path: &str, game: Option<&Game>) -> Result<GameRecord, Error> {
    let format = detect(text);
    let draft = parse(text, format).map_err(|e| located(path, e.line, &e.message))?;
    resolve(draft, path, game)
}

/// Reads a record in a given format, choosing among the embedded variants
/// only (never a file a record names: for fuzzing and servers).
pub fn read_embedded(
    text: &str,
    format: Format,
    path: &str,
    game: Option<&Game>,
) -> Result<GameRecord, Error> {
    let draft = parse(text, format).map_err(|e| located(path, e.line, &e.message))?;
    resolve_with(draft, path, game, true)
}

fn located(path: &str, line: usize, message: &str) -> Error {
    if line == 0 {
        Error::Invalid(format!("{path}: {message}"))
    } else {
        Error::Invalid(format!("{path}:{line}: {message}"))
    }
}

/// Every embedded variant, compiled once (those that do not compile are
/// skipped); the rules are shared, so the copies are cheap.
fn embedded_games() -> Vec<Game> {
    static GAMES: std::sync::OnceLock<Vec<Game>> = std::sync::OnceLock::new();
    GAMES
        .get_or_init(|| {
            variant::catalogue()
                .iter()
                .filter_map(|s| Game::load(s).ok())
                .collect()
        })
        .clone()
}

fn kif_handicap(game: &Game) -> Option<String> {
    crate::with_rules!(game, r => r.kif_handicap.clone())
}

fn pgn_variant(game: &Game) -> String {
    crate::with_rules!(game, r => r.pgn_variant.clone().unwrap_or_else(|| r.slug.clone()))
}

/// Whether a game can be written with CSA codes: 9×9, every role coded.
pub fn csa_ready(game: &Game) -> Result<(), String> {
    crate::with_rules!(game, r => {
        if r.topology.cols != 9 || r.topology.rows != 9 {
            return Err(format!(
                "{} is played on {}×{}, and CSA and JKF records are 9×9 (their squares are two digits 1 to 9; the formats define no other board)",
                r.title, r.topology.cols, r.topology.rows
            ));
        }
        if let Some(role) = r.roles.iter().find(|i| i.csa.is_none()) {
            return Err(format!(
                "the {} of {} has no CSA code: add `csa: XX` to it in the variant file",
                role.name, r.title
            ));
        }
        Ok(())
    })
}

/// The game a draft is for.
/// The first game that fits, preferring one that names a KIF handicap:
/// where several variants share a board, pieces and start (shogi and check
/// shogi), a record that names none is taken for the game its format was
/// made for.
fn first_fit(games: &[Game], fits: impl Fn(&Game) -> bool) -> Option<Game> {
    let fitting: Vec<&Game> = games.iter().filter(|g| fits(g)).collect();
    fitting
        .iter()
        .find(|g| kif_handicap(g).is_some())
        .or(fitting.first())
        .map(|g| (*g).clone())
}

fn choose_game(
    draft: &Draft,
    path: &str,
    given: Option<&Game>,
    embedded_only: bool,
) -> Result<Game, Error> {
    let games = embedded_games();
    let named = |name: &str| -> Option<Game> {
        let lower = name.trim().to_ascii_lowercase();
        // An alias is read as its variant's file (an alias's own setup is
        // written as the record's start: see `starts_at_variant_start`).
        if let Some((_, slug)) = variant::aliases()
            .into_iter()
            .find(|(a, _)| a.to_ascii_lowercase() == lower)
        {
            return Game::load(slug).ok();
        }
        games
            .iter()
            .find(|g| {
                g.slug().eq_ignore_ascii_case(&lower)
                    || g.title().to_ascii_lowercase() == lower
                    || pgn_variant(g).to_ascii_lowercase() == lower
            })
            .cloned()
    };
    if let Some(g) = given {
        if let Some((name, line)) = &draft.variant
            && let Some(other) = named(name)
            && other.slug() != g.slug()
        {
            return Err(located(
                path,
                *line,
                &format!(
                    "the record is for '{}' but --variant says '{}'",
                    other.slug(),
                    g.slug()
                ),
            ));
        }
        return Ok(g.clone());
    }
    if let Some((name, line)) = &draft.variant {
        if let Some(g) = named(name) {
            return Ok(g);
        }
        if embedded_only {
            return Err(located(
                path,
                *line,
                &format!("'{name}' is no embedded variant"),
            ));
        }
        // A path or a slug the catalogue does not list.
        return Game::load(name).map_err(|e| match e {
            variant::VariantError::Diagnostics(_) => Error::Variant(e),
            other => located(path, *line, &other.to_string()),
        });
    }
    if let Some((h, line)) = &draft.handicap
        && !matches!(draft.start, DraftStart::Bod(_))
    {
        return games
            .iter()
            .find(|g| kif_handicap(g).as_deref() == Some(h.as_str()))
            .cloned()
            .ok_or_else(|| {
                located(
                    path,
                    *line,
                    &format!("手合割 '{h}' is the kif_handicap of no variant: give the start as a diagram, or the variant with --variant"),
                )
            });
    }
    if let Some((h, _)) = &draft.handicap
        && let Some(g) = games
            .iter()
            .find(|g| kif_handicap(g).as_deref() == Some(h.as_str()))
        && start_setup(draft, g, path).is_ok()
    {
        return Ok(g.clone());
    }
    if draft.csa_pieces {
        return first_fit(&games, |g| {
            csa_ready(g).is_ok() && start_setup(draft, g, path).is_ok()
        })
        .ok_or_else(|| {
            located(
                path,
                0,
                "no variant is 9×9 with CSA codes for these pieces: use --variant",
            )
        });
    }
    match &draft.start {
        DraftStart::Bod(_) => first_fit(&games, |g| start_setup(draft, g, path).is_ok())
            .ok_or_else(|| {
                let line = match &draft.start {
                    DraftStart::Bod(l) => l.first().map_or(0, |(n, _)| *n),
                    _ => 0,
                };
                located(path, line, "the diagram is the start of no variant's board and pieces: use --variant")
            }),
        // KIF's rule: a record without 手合割 is 平手 (an even game).
        DraftStart::Variant if matches!(draft.format, Format::Kif | Format::Ki2) => games
            .iter()
            .find(|g| kif_handicap(g).as_deref() == Some(kif::DEFAULT_HANDICAP))
            .cloned()
            .ok_or_else(|| {
                located(
                    path,
                    0,
                    &format!("no variant has the kif_handicap {}, which a KIF record without 手合割 means", kif::DEFAULT_HANDICAP),
                )
            }),
        _ => Err(located(
            path,
            0,
            match draft.format {
                Format::Pgn => "the record has no [Variant] tag: add one or use --variant",
                _ => "the record names no variant: add 'variant: SLUG' or use --variant",
            },
        )),
    }
}

/// The start a draft gives, read on `game`.
fn start_setup(draft: &Draft, game: &Game, path: &str) -> Result<Setup, Error> {
    let setup = match &draft.start {
        DraftStart::Variant => game.start_setup().clone(),
        DraftStart::Setup(s) => s.clone(),
        DraftStart::Fen(f, line) => Setup::parse_fen(f)
            .map_err(|e| located(path, *line, &format!("cannot read the FEN '{f}': {e}")))?,
        DraftStart::Sfen(f, line) => Setup::parse_sfen(f)
            .map_err(|e| located(path, *line, &format!("cannot read the SFEN '{f}': {e}")))?,
        DraftStart::Bod(lines) => {
            kif::read_bod(lines, game).map_err(|e| located(path, e.line, &e.message))?
        }
        DraftStart::Csa(lines) => {
            csa::read_position(lines, game).map_err(|e| located(path, e.line, &e.message))?
        }
        DraftStart::Jkf(data, line) => {
            jkf::read_initial(data, game).map_err(|e| located(path, *line, &e))?
        }
    };
    let line = match &draft.start {
        DraftStart::Fen(_, l) | DraftStart::Sfen(_, l) | DraftStart::Jkf(_, l) => *l,
        DraftStart::Bod(ls) | DraftStart::Csa(ls) => ls.first().map_or(0, |(n, _)| *n),
        _ => 0,
    };
    AnyPosition::new(game, &setup).map_err(|e| {
        located(
            path,
            line,
            &format!("the position is not valid for {}: {e}", game.slug()),
        )
    })?;
    Ok(setup)
}

/// Finds the legal move a move text means.
pub fn resolve_move(pos: &AnyPosition, text: &MoveText) -> Result<Move, String> {
    match text {
        MoveText::Text(t) => pos.parse_move(t).map_err(|e| e.reason()),
        MoveText::Csa(t) => csa::resolve(pos, t),
        MoveText::Coords {
            color,
            from,
            to,
            piece,
            promote,
        } => jkf::resolve(pos, *color, *from, *to, piece, *promote),
        MoveText::San(t) => pgn::resolve(pos, t),
    }
}

/// Turns a draft into a record on its game.
pub fn resolve(draft: Draft, path: &str, given: Option<&Game>) -> Result<GameRecord, Error> {
    resolve_with(draft, path, given, false)
}

fn resolve_with(
    draft: Draft,
    path: &str,
    given: Option<&Game>,
    embedded_only: bool,
) -> Result<GameRecord, Error> {
    let game = choose_game(&draft, path, given, embedded_only)?;
    let start = start_setup(&draft, &game, path)?;
    let mut pos = AnyPosition::new(&game, &start)
        .map_err(|e| located(path, 0, &format!("the position is not valid: {e}")))?;
    let mut moves = Vec::with_capacity(draft.moves.len());
    for (i, m) in draft.moves.iter().enumerate() {
        let text = m.text.text();
        if let Some(o) = pos.outcome() {
            return Err(located(
                path,
                m.line,
                &format!("move {}, {text}: the game was already over ({o})", i + 1),
            ));
        }
        let mv = resolve_move(&pos, &m.text)
            .map_err(|e| located(path, m.line, &format!("move {}, {text}: {e}", i + 1)))?;
        pos.try_play(mv)
            .map_err(|e| located(path, m.line, &format!("move {}, {text}: {e}", i + 1)))?;
        moves.push(RecordMove {
            mv,
            line: m.line,
            comment: m.comment.clone(),
            time: m.time,
        });
    }
    let outcome = pos.outcome();
    let result = draft.result.map(|r| settle(r, &pos, outcome.as_ref()));
    Ok(GameRecord {
        game,
        start,
        start_comment: draft.start_comment,
        moves,
        headers: draft.headers,
        result,
    })
}

/// A result as written, made whole with the final position.
fn settle(r: DraftResult, pos: &AnyPosition, outcome: Option<&Outcome>) -> GameResult {
    let turn = pos.turn();
    let result = match r {
        DraftResult::Known(g) => g,
        DraftResult::SideToMove(won, ending) => {
            let winner = if won { turn } else { turn.opposite() };
            GameResult::win(winner, ending)
        }
        DraftResult::Winner(w) => match outcome {
            Some(o) if o.winner() == Some(w) => o.into(),
            _ => GameResult::win(w, Ending::Resignation),
        },
    };
    // A repetition's meaning is the rules': a draw, a loss for one side,
    // perpetual check. An ending by the rules (詰み, %TSUMI) is what the
    // final position says: checkmate, no legal move, a royal captured, a try.
    let by_rules = |e: Ending| {
        matches!(
            e,
            Ending::Checkmate
                | Ending::NoLegalMove
                | Ending::RoyalCaptured
                | Ending::ReachedLastRank
                | Ending::Check
        )
    };
    match (result.ending, outcome) {
        (Ending::Repetition | Ending::PerpetualCheck, Some(o))
            if matches!(o.reason(), Reason::Repetition | Reason::PerpetualCheck) =>
        {
            o.into()
        }
        (e, Some(o))
            if by_rules(e)
                && by_rules(o.reason().into())
                && Decision::Win(o.winner().unwrap_or(turn)) == result.decision =>
        {
            o.into()
        }
        _ => result,
    }
}

/// Writes a record in a format, or says why the format cannot hold it.
pub fn write(rec: &GameRecord, format: Format) -> Result<String, String> {
    match format {
        Format::Koma => Ok(koma::write(rec)),
        Format::Usi => Ok(koma::write_usi(rec)),
        Format::Kif => kif::write(rec, false),
        Format::Ki2 => kif::write(rec, true),
        Format::Csa => csa::write(rec),
        Format::Pgn => Ok(pgn::write(rec)),
        Format::Jkf => jkf::write(rec),
    }
}

/// Words of the formats that say a result relative to the side to move
/// (CSA's `%TORYO`, JKF's `TORYO`): the word, whether the side to move won,
/// and the ending. A word for a draw or no result has `None`.
pub(crate) const CSA_SPECIALS: &[(&str, Option<bool>, Ending)] = &[
    ("TORYO", Some(false), Ending::Resignation),
    ("TSUMI", Some(false), Ending::Checkmate),
    ("TIME_UP", Some(false), Ending::Time),
    ("ILLEGAL_MOVE", Some(false), Ending::IllegalMove),
    ("KACHI", Some(true), Ending::Impasse),
    ("SENNICHITE", None, Ending::Repetition),
    ("JISHOGI", None, Ending::Impasse),
    ("HIKIWAKE", None, Ending::Unknown),
    // CSA V3: the game reached its move limit (a draw).
    ("MAX_MOVES", None, Ending::Unknown),
    ("CHUDAN", None, Ending::Abort),
    ("FUZUMI", None, Ending::Unknown),
    ("ERROR", None, Ending::Unknown),
    ("MATTA", None, Ending::Unknown),
];

/// The CSA word for a result after the last move (`TORYO`), or `None`
/// when the result is not what any word says from there.
pub(crate) fn csa_special(result: &GameResult, turn: Color) -> Option<String> {
    match result.decision {
        Decision::Win(w) => {
            let won = w == turn;
            let ending = match result.ending {
                Ending::NoLegalMove
                | Ending::RoyalCaptured
                | Ending::ReachedLastRank
                | Ending::Check => Ending::Checkmate,
                Ending::Repetition | Ending::PerpetualCheck => {
                    return Some("SENNICHITE".into());
                }
                Ending::IllegalMove => {
                    // The loser's sign: +ILLEGAL_ACTION when sente loses.
                    let sign = if w == Color::Sente { '-' } else { '+' };
                    return Some(format!("{sign}ILLEGAL_ACTION"));
                }
                e => e,
            };
            CSA_SPECIALS
                .iter()
                .find(|(_, side, e)| *side == Some(won) && *e == ending)
                .or_else(|| (!won).then_some(&CSA_SPECIALS[0]))
                .map(|(w, _, _)| w.to_string())
        }
        Decision::Draw => Some(match result.ending {
            Ending::Impasse => "JISHOGI".into(),
            Ending::Repetition | Ending::PerpetualCheck => "SENNICHITE".into(),
            _ => "HIKIWAKE".into(),
        }),
        Decision::Undecided => Some("CHUDAN".into()),
    }
}

/// The result a CSA word says.
pub(crate) fn csa_result(word: &str) -> Option<DraftResult> {
    match word {
        "+ILLEGAL_ACTION" => {
            return Some(DraftResult::Known(GameResult::win(
                Color::Gote,
                Ending::IllegalMove,
            )));
        }
        "-ILLEGAL_ACTION" => {
            return Some(DraftResult::Known(GameResult::win(
                Color::Sente,
                Ending::IllegalMove,
            )));
        }
        _ => {}
    }
    let (_, side, ending) = CSA_SPECIALS.iter().find(|(w, _, _)| *w == word)?;
    Some(match side {
        Some(won) => DraftResult::SideToMove(*won, *ending),
        None if matches!(ending, Ending::Abort | Ending::Unknown)
            && !matches!(word, "HIKIWAKE" | "MAX_MOVES") =>
        {
            DraftResult::Known(GameResult::undecided(*ending))
        }
        None => DraftResult::Known(GameResult::draw(*ending)),
    })
}
