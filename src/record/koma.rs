//! koma's own records: a variant, a start position and moves, as text.
//!
//! ```text
//! # comments run to the end of a line
//! variant: judkins-shogi
//! sfen: rbsgkn/5p/6/6/P5/NKGSBR b - 1      (or fen: ..., or nothing: the variant's start)
//! sente: Hanako                            (gote, event, site, date, time_control too)
//! 2f5c 5a4b
//! comment: a comment on the move before    (or on the start, before the first move)
//! time: 12                                 (seconds spent on the move before)
//! 5c4b+ 3a4b                               (USI, Fairy-Stockfish or Japanese notation)
//! result: sente wins by resignation        (or: draw by repetition, aborted, unknown)
//! ```
//!
//! A USI line `position startpos|sfen ... moves ...` is read too. Move
//! numbers written as `1.` are skipped.

use std::fmt::Write;

use super::{
    Draft, DraftMove, DraftResult, DraftStart, Format, GameRecord, GameResult, MoveText,
    RecordError,
};
use crate::notation::Notation;

/// The header keys of koma's records, in the order they are written.
const HEADERS: [&str; 6] = ["sente", "gote", "event", "site", "date", "time_control"];

/// Reads a record's text.
pub fn parse(text: &str) -> Result<Draft, RecordError> {
    let mut draft = Draft::new(Format::Koma);
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        let err = |message: String| RecordError { line, message };
        if let Some((key, value)) = content
            .split_once(':')
            .filter(|(k, _)| k.chars().all(|c| c.is_ascii_alphabetic() || c == '_'))
        {
            let value = value.trim().to_string();
            let h = &mut draft.headers;
            match key.trim() {
                "variant" => draft.variant = Some((value, line)),
                "fen" => draft.start = DraftStart::Fen(value, line),
                "sfen" => draft.start = DraftStart::Sfen(value, line),
                "moves" => push_moves(&mut draft, &value, line),
                "sente" => h.sente = Some(value),
                "gote" => h.gote = Some(value),
                "event" => h.event = Some(value),
                "site" => h.site = Some(value),
                "date" => h.date = Some(value),
                "time_control" => h.time_control = Some(value),
                "header" => match value.split_once('=') {
                    Some((k, v)) => h.other.push((k.trim().to_string(), v.trim().to_string())),
                    None => {
                        return Err(err(format!(
                            "header '{value}': expected 'header: KEY = VALUE'"
                        )));
                    }
                },
                "comment" => draft.comment(&value),
                "time" => {
                    let secs: u32 = value
                        .trim_end_matches('s')
                        .parse()
                        .map_err(|_| err(format!("time '{value}': expected whole seconds")))?;
                    match draft.moves.last_mut() {
                        Some(m) => m.time = Some(secs),
                        None => return Err(err("time before the first move".into())),
                    }
                }
                "result" => {
                    let r = GameResult::parse(&value).ok_or_else(|| {
                        err(format!(
                            "result '{value}': expected 'sente wins by resignation', 'draw by repetition', 'aborted' or 'unknown'"
                        ))
                    })?;
                    draft.result = Some(DraftResult::Known(r));
                }
                other => {
                    return Err(err(format!(
                        "unknown key '{other}': expected variant, fen, sfen, moves, {}, header, comment, time or result",
                        HEADERS.join(", ")
                    )));
                }
            }
            continue;
        }
        if let Some(rest) = content.strip_prefix("position ") {
            let (setup, moves) = match rest.split_once(" moves") {
                Some((s, m)) => (s.trim(), m.trim()),
                None => (rest.trim(), ""),
            };
            if setup == "startpos" {
                draft.start = DraftStart::Variant;
            } else if let Some(sfen) = setup.strip_prefix("sfen ") {
                draft.start = DraftStart::Sfen(sfen.trim().to_string(), line);
            } else if let Some(fen) = setup.strip_prefix("fen ") {
                draft.start = DraftStart::Fen(fen.trim().to_string(), line);
            } else {
                return Err(err(format!(
                    "'position {setup}': expected 'startpos', 'sfen ...' or 'fen ...'"
                )));
            }
            draft.moves.clear();
            push_moves(&mut draft, moves, line);
            continue;
        }
        push_moves(&mut draft, content, line);
    }
    Ok(draft)
}

fn push_moves(draft: &mut Draft, text: &str, line: usize) {
    for token in text.split_whitespace() {
        let numbered = token
            .strip_suffix('.')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if !numbered {
            draft.moves.push(DraftMove {
                text: MoveText::Text(token.to_string()),
                line,
                comment: None,
                time: None,
            });
        }
    }
}

/// Writes a record that [`parse`] reads back: the variant, the start (as
/// SFEN, unless it is the variant's start), the headers, the moves in USI
/// with their comments and times, the result.
pub fn write(rec: &GameRecord) -> String {
    let mut s = String::new();
    let start = rec.start_position();
    let _ = writeln!(s, "# {} game record written by koma", start.title());
    let _ = writeln!(s, "variant: {}", start.slug());
    if !rec.starts_at_variant_start() {
        let _ = writeln!(s, "sfen: {}", start.sfen());
    }
    let h = &rec.headers;
    for (key, value) in HEADERS.iter().zip([
        &h.sente,
        &h.gote,
        &h.event,
        &h.site,
        &h.date,
        &h.time_control,
    ]) {
        if let Some(v) = value {
            let _ = writeln!(s, "{key}: {}", one_line(v));
        }
    }
    for (k, v) in &h.other {
        let key = one_line(k).replace('=', " ");
        if !key.trim().is_empty() {
            let _ = writeln!(s, "header: {} = {}", key.trim(), one_line(v));
        }
    }
    if let Some(c) = &rec.start_comment {
        for l in c.lines() {
            let _ = writeln!(s, "comment: {}", one_line(l));
        }
    }
    let mut pos = start;
    let mut line = String::new();
    for (i, m) in rec.moves.iter().enumerate() {
        if i % 2 == 0 {
            let _ = write!(line, "{}. ", i / 2 + 1);
        }
        line.push_str(&pos.format_move(m.mv, Notation::Usi));
        line.push(' ');
        if pos.try_play(m.mv).is_err() {
            break;
        }
        let notes = m.comment.is_some() || m.time.is_some();
        if i % 2 == 1 || notes || i + 1 == rec.moves.len() {
            let _ = writeln!(s, "{}", line.trim_end());
            line.clear();
        }
        if let Some(t) = m.time {
            let _ = writeln!(s, "time: {t}");
        }
        if let Some(c) = &m.comment {
            for l in c.lines() {
                let _ = writeln!(s, "comment: {}", one_line(l));
            }
        }
    }
    if let Some(r) = &rec.result {
        let _ = writeln!(s, "result: {r}");
    }
    s
}

/// The record as one USI `position` line (headers, comments and result are
/// not kept).
pub fn write_usi(rec: &GameRecord) -> String {
    let start = rec.start_position();
    let mut s = String::from("position ");
    if rec.starts_at_variant_start() {
        s.push_str("startpos");
    } else {
        s.push_str("sfen ");
        s.push_str(&start.sfen());
    }
    let moves = rec.usi_moves();
    if !moves.is_empty() {
        s.push_str(" moves ");
        s.push_str(&moves.join(" "));
    }
    s.push('\n');
    s
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r', '#'], " ")
}
