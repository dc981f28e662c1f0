//! The bodies of koma's fuzz targets, one per text entry point. Each takes
//! any bytes; a panic (or a hang, or unbounded memory) is a failure. Besides
//! "does not crash", they check what must hold of whatever was accepted:
//! FEN and SFEN round trips, a move's text reads back as the same move, a
//! saved or rewritten game record replays to the same position.
//!
//! Shared by the cargo-fuzz binaries (`fuzz_targets/*.rs`) and by
//! `tests/koma/fuzz.rs`, which runs every kept corpus and regression file
//! through them on each `cargo test`.

#![allow(dead_code)]

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex, OnceLock};

use koma::board::Bitboard;
use koma::notation::{Notation, format_move};
use koma::play::{PlayOptions, Player};
use koma::position::{AnyPosition, Position};
use koma::protocol::{Caps, Dialect, Output, serve_with};
use koma::record::{Format, GameRecord, detect};
use koma::render::{Style, SvgOptions, board_text, svg};
use koma::setup::{Setup, SetupError};
use koma::{Game, dsl, record, variant, with_position, with_rules};

/// Every embedded variant, compiled once.
fn games() -> &'static [Game] {
    static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
    GAMES.get_or_init(|| {
        variant::catalogue()
            .iter()
            .map(|s| Game::load(s).expect("embedded variants compile"))
            .collect()
    })
}

/// The first byte chooses a variant; the rest is the text.
fn split(data: &[u8]) -> (&'static Game, String) {
    match data.split_first() {
        Some((&b, rest)) => (
            &games()[b as usize % games().len()],
            String::from_utf8_lossy(rest).into_owned(),
        ),
        None => (&games()[0], String::new()),
    }
}

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// What every accepted position must satisfy: its FEN and SFEN read back
/// as the same position, and each legal move played and taken back
/// restores it exactly (board, hands, hash).
fn check_position<B: Bitboard>(pos: &Position<B>) {
    let rules = pos.shared_rules();
    let fen = pos.fen();
    let again = Setup::parse_fen(&fen).unwrap_or_else(|e| panic!("own FEN {fen} unreadable: {e}"));
    let again =
        Position::new(rules, &again).unwrap_or_else(|e| panic!("own FEN {fen} refused: {e}"));
    assert_eq!(again.fen(), fen, "FEN round trip");
    assert_eq!(
        again.hash(),
        pos.hash(),
        "hash after FEN round trip of {fen}"
    );
    let sfen = pos.sfen();
    let again =
        Setup::parse_sfen(&sfen).unwrap_or_else(|e| panic!("own SFEN {sfen} unreadable: {e}"));
    let again =
        Position::new(rules, &again).unwrap_or_else(|e| panic!("own SFEN {sfen} refused: {e}"));
    assert_eq!(again.sfen(), sfen, "SFEN round trip");
    let _ = (pos.in_check(), pos.outcome(), pos.repetitions());
    let mut p = pos.clone();
    for m in pos.legal_moves() {
        for notation in [Notation::Usi, Notation::Fairy, Notation::Japanese] {
            let written = format_move(pos, m, notation);
            assert_eq!(
                pos.parse_move(&written).ok(),
                Some(m),
                "move {written} in {fen}"
            );
        }
        p.play(m);
        let _ = (p.in_check(), p.outcome());
        p.undo();
        assert_eq!(p.fen(), fen, "play/undo of {m:?}");
        assert_eq!(
            p.hash(),
            pos.hash(),
            "hash after play/undo of {m:?} in {fen}"
        );
    }
}

/// A variant file with YAML front matter, parents taken from the embedded
/// variants; when it compiles, its start position is played on and drawn.
pub fn variant(data: &[u8]) {
    let text = text(data);
    let Ok(v) = variant::from_text(&text, "fuzz.md", None) else {
        return;
    };
    let Ok(game) = Game::compile(&v) else { return };
    let pos = AnyPosition::start(&game);
    with_position!(&pos, p => check_position(p));
    let _ = board_text(
        &pos,
        Style {
            kanji: true,
            color: true,
        },
    );
    let _ = svg(&pos, &SvgOptions::default());
}

/// A movement in the Betza DSL.
pub fn dsl(data: &[u8]) {
    let _ = dsl::moves(&text(data));
}

/// A FEN in a variant chosen by the first byte.
pub fn fen(data: &[u8]) {
    position_text(data, Setup::parse_fen);
}

/// An SFEN in a variant chosen by the first byte.
pub fn sfen(data: &[u8]) {
    position_text(data, Setup::parse_sfen);
}

fn position_text(data: &[u8], parse: fn(&str) -> Result<Setup, SetupError>) {
    let (game, text) = split(data);
    let Ok(setup) = parse(&text) else { return };
    with_rules!(game, rules => {
        if let Ok(pos) = Position::new(rules, &setup) {
            check_position(&pos);
        }
    });
}

/// Moves typed one after another from the start of a variant chosen by the
/// first byte; refused ones are skipped. An accepted move written back in
/// either notation reads as the same move; taking every move back returns to
/// the start.
pub fn moves(data: &[u8]) {
    let (game, text) = split(data);
    with_rules!(game, rules => {
        let mut pos = Position::start(rules);
        let start = pos.fen();
        let mut played = 0;
        for token in text.split_whitespace().take(400) {
            let Ok(m) = pos.parse_move(token) else { continue };
            for notation in [Notation::Usi, Notation::Fairy, Notation::Japanese] {
                let written = format_move(&pos, m, notation);
                assert_eq!(pos.parse_move(&written).ok(), Some(m), "{token} written as {written}");
            }
            pos.play(m);
            played += 1;
        }
        let _ = (pos.outcome(), pos.in_check());
        for _ in 0..played {
            assert!(pos.undo().is_some());
        }
        assert_eq!(pos.fen(), start);
    });
}

/// A record's text in `format`, in the embedded variant it names or the one
/// chosen by the first byte. Whatever is read is written back in every
/// format that can hold it, and each reads back as the same game: start,
/// moves, result (and, where the format keeps them, headers and comments).
fn reader(data: &[u8], format: Format) {
    let (chosen, text) = split(data);
    let rec = match record::read_embedded(&text, format, "fuzz", None) {
        Ok(r) => r,
        Err(_) => match record::read_embedded(&text, format, "fuzz", Some(chosen)) {
            Ok(r) => r,
            Err(_) => return,
        },
    };
    round_trips(&rec);
}

/// Writes a record in every format and reads each back.
pub fn round_trips(rec: &GameRecord) {
    let moves: Vec<_> = rec.moves.iter().map(|m| m.mv).collect();
    for format in Format::ALL {
        let Ok(written) = record::write(rec, format) else {
            continue;
        };
        let again = record::read_embedded(&written, format, "rewritten", Some(&rec.game))
            .unwrap_or_else(|e| panic!("own {format} record refused: {e}\n{written}"));
        let back: Vec<_> = again.moves.iter().map(|m| m.mv).collect();
        assert_eq!(back, moves, "moves after {format}:\n{written}");
        // CSA and JKF do not number the moves of a start, and FEN numbers
        // them by full moves: the start is compared without its number.
        let unnumbered = |r: &GameRecord| {
            let s = r.start_position().sfen();
            s.rsplit_once(' ').map(|(a, _)| a.to_string()).unwrap_or(s)
        };
        assert_eq!(unnumbered(&again), unnumbered(rec), "start after {format}");
        assert_eq!(again.position().hash(), rec.position().hash(), "{format}");
        // A KI2 record without moves is a KIF record too.
        let same = |d: Format| {
            d == format || (format == Format::Ki2 && d == Format::Kif && moves.is_empty())
        };
        if format != Format::Usi {
            assert!(same(detect(&written)), "{format} not detected:\n{written}");
        }
    }
}

/// koma's own records and USI position lines, told apart by their content.
pub fn record(data: &[u8]) {
    let (_, text) = split(data);
    reader(data, detect(&text));
}

/// A KIF record.
pub fn kif(data: &[u8]) {
    reader(data, Format::Kif);
}

/// A KI2 record.
pub fn ki2(data: &[u8]) {
    reader(data, Format::Ki2);
}

/// A CSA record.
pub fn csa(data: &[u8]) {
    reader(data, Format::Csa);
}

/// A PGN record.
pub fn pgn(data: &[u8]) {
    reader(data, Format::Pgn);
}

/// A JKF record.
pub fn jkf(data: &[u8]) {
    reader(data, Format::Jkf);
}

/// A USI (even first byte) or UCI (odd) session, starting in a variant chosen
/// by the first byte. Searches are capped at about a thousand nodes and the
/// hash at 1 MiB; variants can be switched to embedded ones only.
pub fn protocol(data: &[u8]) {
    let Some((&b, rest)) = data.split_first() else {
        return;
    };
    let dialect = if b % 2 == 0 {
        Dialect::Usi
    } else {
        Dialect::Uci
    };
    let slug = variant::catalogue()[(b as usize / 2) % variant::catalogue().len()];
    let out: Output = Arc::new(Mutex::new(
        Box::new(std::io::sink()) as Box<dyn Write + Send>
    ));
    let caps = Caps {
        max_nodes: Some(1000),
        max_hash_mb: 1,
        embedded_only: true,
    };
    serve_with(
        dialect,
        Box::new(Cursor::new(rest.to_vec())),
        out,
        slug,
        caps,
    )
    .expect("embedded variant loads");
}

/// The `koma play` prompt in a variant chosen by the first byte; the second
/// chooses who plays (never engine against engine) and the board style. The
/// engine searches one ply; a saved record must replay to the game's position.
pub fn play(data: &[u8]) {
    let (game, _) = split(data);
    let (flags, rest) = match data.get(1..) {
        Some([f, rest @ ..]) => (*f, rest),
        _ => (0, &[][..]),
    };
    let (sente, gote) = match flags % 3 {
        0 => (Player::Human, Player::Engine),
        1 => (Player::Engine, Player::Human),
        _ => (Player::Human, Player::Human),
    };
    let options = PlayOptions {
        sente,
        gote,
        time: 0.05,
        depth: Some(1),
        kanji: flags & 4 != 0,
        color: flags & 8 != 0,
        hash_mb: 1,
        threads: 1,
        notation: koma::notation::Notation::Usi,
    };
    let mut save = |_: &str, written: &str| {
        record::read_embedded(written, Format::Koma, "saved", Some(game))
            .unwrap_or_else(|e| panic!("saved record refused: {e}\n{written}"));
        Ok(())
    };
    let mut input = Cursor::new(rest.to_vec());
    let mut out = std::io::sink();
    koma::play::run(
        AnyPosition::start(game),
        &options,
        &mut input,
        &mut out,
        &mut save,
    )
    .expect("valid options");
}
