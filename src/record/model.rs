//! The record model: formats, headers, results, moves and the record itself.

use std::fmt;

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
    /// A side was left with a bare royal piece.
    BareRoyal,
    /// Only a royal piece of each side was left.
    LoneRoyals,
    /// Any other or unknown ending.
    Unknown,
}

impl Ending {
    const WORDS: [(Ending, &'static str); 15] = [
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
        (Ending::BareRoyal, "bare royal"),
        (Ending::LoneRoyals, "lone royals"),
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
            Reason::BareRoyal => Ending::BareRoyal,
            Reason::LoneRoyals => Ending::LoneRoyals,
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
