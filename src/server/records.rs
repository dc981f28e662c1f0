//! Records in the page: a game as a record file to download, a record
//! opened as a game, and a game looked at move by move.

use serde_json::json;

use super::api::{Reply, no_game, query_number, query_value, requested_game};
use super::session::state_json;
use super::{Failure, Shared};
use crate::record::{self, Format};

/// The position after the first `ply` moves of the game, to look at (the
/// game stays where it is).
pub(super) fn game_at(shared: &Shared, id: &str, query: &str) -> Result<Reply, Failure> {
    let ply = query_number(query, "ply")?
        .ok_or_else(|| Failure::bad("give 'ply', the number of moves to look at"))?;
    shared
        .sessions
        .with(id, |s| {
            let moves = s.pos.history();
            if ply > moves.len() as u64 {
                return Err(Failure::bad(format!(
                    "ply {ply} is past the game's {} moves",
                    moves.len()
                )));
            }
            let mut pos = s.pos.clone();
            for _ in ply as usize..moves.len() {
                pos.undo();
            }
            let mut state = state_json(id, &pos, false);
            state["ply"] = json!(ply);
            state["plies"] = json!(moves.len());
            Ok(Reply::json(&state))
        })
        .ok_or_else(|| no_game(id))?
}

/// The game as a record file in `format` (KIF unless given), to download.
pub(super) fn game_record(shared: &Shared, id: &str, query: &str) -> Result<Reply, Failure> {
    let name = query_value(query, "format").unwrap_or("kif");
    let format = Format::from_name(name).ok_or_else(|| {
        Failure::bad(format!(
            "unknown record format '{name}' (koma, usi, kif, ki2, csa, pgn or jkf)"
        ))
    })?;
    let (slug, text) = shared
        .sessions
        .with(id, |s| {
            let rec = s.record();
            record::write(&rec, format)
                .map(|t| (s.pos.slug().to_string(), t))
                .map_err(|e| {
                    Failure::new(
                        422,
                        format!("a {} record cannot hold this game: {e}", format.name()),
                    )
                })
        })
        .ok_or_else(|| no_game(id))??;
    let content_type = match format {
        Format::Jkf => "application/json; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    };
    Ok(Reply::text(content_type, &text)
        .attachment(format!("{slug}.{}", download_extension(format))))
}

/// A downloaded record's file extension: KIF and KI2 are sent in UTF-8, so
/// `.kifu`/`.ki2u` as the formats name their UTF-8 files.
fn download_extension(format: Format) -> &'static str {
    match format {
        Format::Koma | Format::Usi => "txt",
        Format::Kif => "kifu",
        Format::Ki2 => "ki2u",
        f => f.name(),
    }
}

/// A new game from a record's bytes (any format koma reads, UTF-8 or
/// Shift_JIS): at the record's last position, its moves the game's history.
/// The game is the one the record names, among the embedded variants only
/// (a record never makes the server read a file); one that names none is
/// read as `?variant=` if given.
pub(super) fn open_record(shared: &Shared, bytes: &[u8], query: &str) -> Result<Reply, Failure> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Failure::bad("the record is empty"));
    }
    let (text, _) = record::decode(bytes);
    let format = record::detect(&text);
    let rec = match record::read_embedded(&text, format, "record", None) {
        Ok(rec) => rec,
        Err(first) => {
            let names_none = record::parse(&text, format)
                .is_ok_and(|d| d.variant.is_none() && d.handicap.is_none());
            match query_value(query, "variant") {
                Some(slug) if names_none => {
                    let game = requested_game(shared, &json!({ "variant": slug }))?;
                    record::read_embedded(&text, format, "record", Some(&game))
                        .map_err(|e| Failure::bad(e.to_string()))?
                }
                _ => return Err(Failure::bad(first.to_string())),
            }
        }
    };
    let pos = rec.position();
    let mut state = state_json("", &pos, true);
    state["headers"] = json!({
        "sente": rec.headers.sente,
        "gote": rec.headers.gote,
        "event": rec.headers.event,
        "date": rec.headers.date,
    });
    state["record_result"] = json!(rec.result.map(|r| r.to_string()));
    let id = shared.sessions.insert(pos, Some(rec));
    state["id"] = json!(id);
    Ok(Reply::json(&state))
}
