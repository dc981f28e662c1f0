//! PGN for shogi variants, as Fairy-Stockfish's tools and pychess-variants
//! write it: the `[Variant]` tag names the game, `[FEN]` (Fairy-Stockfish's
//! FEN) or `[SFEN]` gives the start, White is the first mover (sente, `w`
//! in the FEN). koma writes moves in Fairy-Stockfish's coordinates (`a2a3`,
//! `P@c3`, `e1a5+`), and reads those, USI, and SAN (`Pe4`, `Nxc3+`,
//! `+Bc4`, `Sd2=`, `P@e4`, with a file or rank to tell two pieces apart:
//! `+` after the square promotes when the piece can, else it is a check).
//! Comments `{...}` follow their move; `{[%emt 0:00:05]}` gives its time.
//! NAGs, `;` comments and variations are skipped. `[Result]` and
//! `[Termination]` give the result.

use std::fmt::Write;

use super::{
    Decision, Draft, DraftMove, DraftResult, DraftStart, Ending, Format, GameRecord, GameResult,
    MoveText, RecordError, pgn_variant,
};
use crate::board::Color;
use crate::notation::Notation;
use crate::position::{AnyPosition, Move};

/// Reads a PGN record (its first game).
pub fn parse(text: &str) -> Result<Draft, RecordError> {
    let mut draft = Draft::new(Format::Pgn);
    let mut result: Option<Decision> = None;
    let mut termination: Option<String> = None;
    let mut in_moves = false;
    let mut depth = 0usize;
    let mut chars = text.char_indices().peekable();
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    while let Some((at, c)) = chars.next() {
        let line = line_of(at);
        match c {
            '[' if !in_moves && depth == 0 => {
                // [Name "value"], the value with \" and \\ escapes (and any ']').
                let rest = &text[at + 1..];
                let open = rest.find('"').ok_or_else(|| {
                    RecordError::at(line, "a tag has no quoted value: expected [Name \"value\"]")
                })?;
                let key = rest[..open].trim();
                let mut value = String::new();
                let mut close = None;
                let mut escaped = false;
                for (i, ch) in rest[open + 1..].char_indices() {
                    match (escaped, ch) {
                        (true, _) => {
                            value.push(ch);
                            escaped = false;
                        }
                        (false, '\\') => escaped = true,
                        (false, '"') => {
                            close = Some(open + 1 + i);
                            break;
                        }
                        (false, '\n') => break,
                        (false, _) => value.push(ch),
                    }
                }
                let close = close.ok_or_else(|| {
                    RecordError::at(
                        line,
                        format!("tag '{key}': its value is not closed by a quote"),
                    )
                })?;
                let end = rest[close..]
                    .find(']')
                    .filter(|e| rest[close + 1..close + e].trim().is_empty())
                    .map(|e| at + 1 + close + e)
                    .ok_or_else(|| {
                        RecordError::at(line, format!("tag '{key}' is not closed by ']'"))
                    })?;
                if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(RecordError::at(line, format!("'{key}' is not a tag name")));
                }
                let h = &mut draft.headers;
                // PGN's placeholders for "not known".
                if matches!(value.as_str(), "?" | "????.??.??" | "-") && key != "Result" {
                    while chars.peek().is_some_and(|(i, _)| *i <= end) {
                        chars.next();
                    }
                    continue;
                }
                match key {
                    "Variant" => draft.variant = Some((value, line)),
                    "FEN" => draft.start = DraftStart::Fen(value, line),
                    "SFEN" => draft.start = DraftStart::Sfen(value, line),
                    "White" => h.sente = Some(value),
                    "Black" => h.gote = Some(value),
                    "Event" => h.event = Some(value),
                    "Site" => h.site = Some(value),
                    "Date" => h.date = Some(value),
                    "TimeControl" => h.time_control = Some(value),
                    "Result" => {
                        result = match value.as_str() {
                            "1-0" => Some(Decision::Win(Color::Sente)),
                            "0-1" => Some(Decision::Win(Color::Gote)),
                            "1/2-1/2" => Some(Decision::Draw),
                            _ => None,
                        }
                    }
                    "Termination" => termination = Some(value),
                    "SetUp" | "Round" => {}
                    _ => h.other.push((key.to_string(), value)),
                }
                while chars.peek().is_some_and(|(i, _)| *i <= end) {
                    chars.next();
                }
            }
            '[' if depth == 0 => {
                return Err(RecordError::at(
                    line,
                    "a tag after the moves: a record holds one game (is this a file of several?)",
                ));
            }
            '{' => {
                let end = text[at..]
                    .find('}')
                    .map(|e| at + e)
                    .ok_or_else(|| RecordError::at(line, "a comment '{' is not closed by '}'"))?;
                let inner = text[at + 1..end].trim();
                if depth == 0 {
                    comment(&mut draft, inner);
                }
                while chars.peek().is_some_and(|(i, _)| *i <= end) {
                    chars.next();
                }
            }
            ';' => {
                while chars.peek().is_some_and(|(_, c)| *c != '\n') {
                    chars.next();
                }
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() => {}
            _ => {
                in_moves = true;
                let mut end = at + c.len_utf8();
                while let Some(&(i, d)) = chars.peek() {
                    if d.is_whitespace() || matches!(d, '{' | '(' | ')' | ';') {
                        break;
                    }
                    end = i + d.len_utf8();
                    chars.next();
                }
                let token = &text[at..end];
                if depth > 0 || token.starts_with('$') {
                    continue;
                }
                match token {
                    "1-0" | "0-1" | "1/2-1/2" | "*" => break,
                    _ => {}
                }
                // Move numbers: "12." or "12..." alone, or glued to the move.
                let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
                let token = if token.len() < text[at..end].len() {
                    token.trim_start_matches('.')
                } else {
                    token
                };
                let token = token.trim_end_matches(['!', '?']);
                if token.is_empty() {
                    continue;
                }
                draft.moves.push(DraftMove {
                    text: MoveText::San(token.to_string()),
                    line,
                    comment: None,
                    time: None,
                });
            }
        }
    }
    let ending = termination.as_deref().and_then(ending_words);
    draft.result = match (result, ending) {
        (Some(Decision::Win(w)), Some(e)) => Some(DraftResult::Known(GameResult::win(w, e))),
        (Some(Decision::Win(w)), None) => Some(DraftResult::Winner(w)),
        (Some(Decision::Draw), e) => Some(DraftResult::Known(GameResult::draw(
            e.unwrap_or(Ending::Unknown),
        ))),
        (_, Some(Ending::Abort)) => Some(DraftResult::Known(GameResult::undecided(Ending::Abort))),
        _ => None,
    };
    Ok(draft)
}

/// A comment, or the time it carries (`[%emt 0:00:05]`).
fn comment(draft: &mut Draft, inner: &str) {
    let mut rest = inner.to_string();
    if let Some(i) = rest.find("[%emt ")
        && let Some(j) = rest[i..].find(']')
    {
        let t = &rest[i + 6..i + j];
        let mut secs: u32 = 0;
        let mut ok = true;
        for part in t.trim().split(':') {
            match part.parse::<u32>() {
                Ok(n) => secs = secs.saturating_mul(60).saturating_add(n),
                Err(_) => ok = false,
            }
        }
        if ok && let Some(m) = draft.moves.last_mut() {
            m.time = Some(secs);
        }
        rest = format!("{}{}", &rest[..i], &rest[i + j + 1..])
            .trim()
            .to_string();
    }
    if !rest.is_empty() {
        draft.comment(&rest);
    }
}

/// The ending a `[Termination]` names (koma's words, or the usual ones).
fn ending_words(t: &str) -> Option<Ending> {
    let w = t.trim().to_ascii_lowercase();
    Ending::from_words(&w).or(match w.as_str() {
        "normal" => None,
        "time forfeit" | "timeout" | "time-forfeit" => Some(Ending::Time),
        "abandoned" | "aborted" => Some(Ending::Abort),
        "resign" | "resigned" => Some(Ending::Resignation),
        "rules infraction" => Some(Ending::IllegalMove),
        _ => None,
    })
}

/// Finds the legal move a PGN move means: coordinates (USI or
/// Fairy-Stockfish) or SAN.
pub fn resolve(pos: &AnyPosition, text: &str) -> Result<Move, String> {
    let direct = pos.parse_move(text);
    if let Ok(m) = direct {
        return Ok(m);
    }
    let wide = pos.topology().cols > 26;
    san(pos, text).ok_or_else(|| match direct {
        Err(_) if wide && !text.contains(['@', '*']) && text.starts_with(|c: char| c.is_ascii_uppercase()) => format!(
            "SAN names a file by one letter and this board has {} files: write the move in coordinates (USI or Fairy-Stockfish, as ab2ab3)",
            pos.topology().cols
        ),
        Err(e) => e.reason(),
        Ok(_) => String::new(),
    })
}

/// Reads SAN against the legal moves.
fn san(pos: &AnyPosition, text: &str) -> Option<Move> {
    let t = pos.topology();
    // SAN names a file by one letter, and on a wider board a file's two
    // letters could not be told from a hint and a capture's `x`: such a
    // board's moves are read in coordinates only.
    if t.cols > 26 {
        return None;
    }
    let mut s = text.trim_end_matches('#');
    let mut promoted = false;
    if let Some(r) = s.strip_prefix('+') {
        promoted = true;
        s = r;
    }
    let letter = s.chars().next().filter(char::is_ascii_uppercase);
    if letter.is_some() {
        s = &s[1..];
    }
    // The destination: the last file letter and digits before the suffix.
    let suffix_at = s.trim_end_matches(['+', '=']).len();
    let (body, suffix) = s.split_at(suffix_at);
    let bytes = body.as_bytes();
    let mut i = bytes.len();
    while i > 0 && bytes[i - 1].is_ascii_digit() {
        i -= 1;
    }
    if i == 0 || i == bytes.len() || !bytes[i - 1].is_ascii_lowercase() {
        return None;
    }
    let dest = &body[i - 1..];
    let rank: i32 = dest[1..].parse().ok()?;
    let to = t.square((bytes[i - 1] - b'a') as i32, rank - 1)?;
    let hint = body[..i - 1].trim_end_matches(['x', '-', '@']);
    let drop = body[..i - 1].ends_with('@');
    let hint_file = hint
        .chars()
        .find(char::is_ascii_lowercase)
        .map(|c| c as u8 - b'a');
    let hint_rank: Option<u8> = hint
        .trim_start_matches(|c: char| c.is_ascii_lowercase())
        .parse::<u8>()
        .ok()
        .map(|r| r.saturating_sub(1));
    let legal = pos.legal_moves();
    let fits = |m: &Move| -> bool {
        if m.to() != to {
            return false;
        }
        let (role, from) = match *m {
            // SAN has no two-leg moves; they are read in USI or Fairy notation.
            Move::MultiLeg { .. } => return false,
            Move::Drop { role, .. } => (role, None),
            Move::Normal { from, .. } => match pos.piece_at(from) {
                Some(p) => (p.role, Some(from)),
                None => return false,
            },
        };
        if drop != from.is_none() {
            return false;
        }
        let info = pos.role(role);
        if let Some(l) = letter
            && (info.id.letter() != Some(l) || info.promoted != promoted)
        {
            return false;
        }
        if let Some(f) = from
            && (hint_file.is_some_and(|h| h != t.file(f))
                || hint_rank.is_some_and(|h| h != t.rank(f)))
        {
            return false;
        }
        true
    };
    let mut found: Vec<Move> = legal.iter().copied().filter(fits).collect();
    let promotes = |m: &Move| matches!(m, Move::Normal { promote: true, .. });
    if suffix.starts_with('=') {
        found.retain(|m| !promotes(m));
    } else if suffix.starts_with('+') && found.iter().any(promotes) {
        found.retain(promotes);
    } else if found.iter().any(|m| !promotes(m)) {
        found.retain(|m| !promotes(m));
    }
    match found.as_slice() {
        [m] => Some(*m),
        _ => None,
    }
}

fn quoted(v: &str) -> String {
    format!(
        "\"{}\"",
        v.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace(['\n', '\r'], " ")
    )
}

/// Writes a record as PGN.
pub fn write(rec: &GameRecord) -> String {
    let start = rec.start_position();
    let h = &rec.headers;
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        let _ = writeln!(s, "[{k} {}]", quoted(v));
    };
    tag(&mut s, "Event", h.event.as_deref().unwrap_or("?"));
    tag(&mut s, "Site", h.site.as_deref().unwrap_or("?"));
    tag(&mut s, "Date", h.date.as_deref().unwrap_or("????.??.??"));
    tag(&mut s, "Round", "-");
    tag(&mut s, "White", h.sente.as_deref().unwrap_or("?"));
    tag(&mut s, "Black", h.gote.as_deref().unwrap_or("?"));
    let result = match rec.result.map(|r| r.decision) {
        Some(Decision::Win(Color::Sente)) => "1-0",
        Some(Decision::Win(Color::Gote)) => "0-1",
        Some(Decision::Draw) => "1/2-1/2",
        _ => "*",
    };
    tag(&mut s, "Result", result);
    tag(&mut s, "Variant", &pgn_variant(&rec.game));
    tag(&mut s, "FEN", &start.fen());
    tag(&mut s, "SetUp", "1");
    if let Some(tc) = &h.time_control {
        tag(&mut s, "TimeControl", tc);
    }
    if let Some(r) = &rec.result {
        tag(&mut s, "Termination", r.ending.as_str());
    }
    for (k, v) in &h.other {
        if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            tag(&mut s, k, v);
        }
    }
    s.push('\n');
    let mut units: Vec<String> = Vec::new();
    let brace = |c: &str| format!("{{{}}}", c.replace('}', ")").replace('{', "("));
    if let Some(c) = &rec.start_comment {
        units.push(brace(c));
    }
    let mut pos = start;
    for (i, m) in rec.moves.iter().enumerate() {
        if pos.turn() == Color::Sente || i == 0 {
            let n = pos.move_number().div_ceil(2);
            let dots = if pos.turn() == Color::Sente {
                "."
            } else {
                "..."
            };
            units.push(format!("{n}{dots}"));
        }
        units.push(pos.format_move(m.mv, Notation::Fairy));
        if pos.try_play(m.mv).is_err() {
            break;
        }
        if let Some(t) = m.time {
            units.push(format!(
                "{{[%emt {}:{:02}:{:02}]}}",
                t / 3600,
                t / 60 % 60,
                t % 60
            ));
        }
        if let Some(c) = &m.comment {
            units.push(brace(c));
        }
    }
    units.push(result.to_string());
    // Lines of at most 80 characters, broken between tokens (never in a comment).
    let mut line = String::new();
    for word in units {
        if !line.is_empty() && line.chars().count() + word.chars().count() >= 80 {
            let _ = writeln!(s, "{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    let _ = writeln!(s, "{line}");
    s
}
