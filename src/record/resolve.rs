//! From a draft to a record: choosing the game, reading the start and
//! resolving every move against the position it is played in.

use crate::Error;
use crate::position::{AnyPosition, Game, Move, Outcome, Reason};
use crate::setup::Setup;
use crate::variant;

use super::{
    Decision, Draft, DraftResult, DraftStart, Ending, Format, GameRecord, GameResult, MoveText,
    RecordMove, csa, detect, jkf, kif, parse, pgn,
};

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

pub(crate) fn pgn_variant(game: &Game) -> String {
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
/// The first game that fits, preferring the one whose KIF handicap is the
/// even game's (`平手`), then one that names any: where several variants
/// share a board, pieces and start (shogi, check shogi, annan shogi, which
/// has its own 手合割), a record that names none is taken for the game its
/// format was made for.
fn first_fit(games: &[Game], fits: impl Fn(&Game) -> bool) -> Option<Game> {
    let fitting: Vec<&Game> = games.iter().filter(|g| fits(g)).collect();
    fitting
        .iter()
        .find(|g| kif_handicap(g).as_deref() == Some(kif::DEFAULT_HANDICAP))
        .or_else(|| fitting.iter().find(|g| kif_handicap(g).is_some()))
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
                | Ending::BareRoyal
                | Ending::LoneRoyals
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
