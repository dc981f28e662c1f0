//! CSA records (the Computer Shogi Association's format, V2.2 and V3.0).
//!
//! CSA squares are two digits (file, rank: `77`), so the format holds 9×9
//! boards only, and its pieces are two-letter codes: koma reads and writes
//! it for a 9×9 variant whose every piece has a `csa` code in its file, and
//! says so otherwise. Read: `V2`/`V3` lines, `N+`/`N-` players, `$KEY:value`
//! headers, the position (`PI` with pieces taken off, `P1`..`P9` rows,
//! `P+`/`P-` pieces and hands, the side to move), moves `+7776FU` with times
//! `T12`, `%` endings, `'*` comments (others `'` are skipped); statements
//! may share a line, separated by commas. koma writes the variant's slug in
//! a comment `'koma-variant: SLUG` and reads it back (other readers skip it).

use std::fmt::Write;

use super::{
    Draft, DraftMove, DraftStart, Format, GameRecord, MoveText, RecordError, csa_ready, csa_result,
    csa_role, csa_special,
};
use crate::board::{Color, PieceId};
use crate::notation::japanese::{from_numbers, numbers};
use crate::position::{AnyPosition, Game, Move};
use crate::rules::Role;
use crate::setup::{Setup, SetupPiece};

/// The comment line in which koma names a record's variant.
const VARIANT_COMMENT: &str = "'koma-variant:";

/// Reads a CSA record.
pub fn parse(text: &str) -> Result<Draft, RecordError> {
    let mut draft = Draft::new(Format::Csa);
    draft.csa_pieces = true;
    let mut position: Vec<(usize, String)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim_end_matches('\r').trim_start_matches('\u{feff}');
        if let Some(c) = raw.strip_prefix("'*") {
            draft.comment(c.trim_start_matches(' '));
            continue;
        }
        // koma's own comment naming the variant, for games CSA cannot tell
        // apart by their pieces (a 9×9 variant of shogi's pieces).
        if let Some(v) = raw.strip_prefix(VARIANT_COMMENT) {
            draft.variant = Some((v.trim().to_string(), line));
            continue;
        }
        if raw.starts_with('\'') {
            continue;
        }
        for stmt in raw.split(',') {
            let t = stmt.trim();
            if t.is_empty() || t.starts_with('V') {
                continue;
            }
            let h = &mut draft.headers;
            if let Some(n) = t.strip_prefix("N+") {
                h.sente = Some(n.to_string());
            } else if let Some(n) = t.strip_prefix("N-") {
                h.gote = Some(n.to_string());
            } else if let Some(kv) = t.strip_prefix('$') {
                let (k, v) = kv.split_once(':').unwrap_or((kv, ""));
                let v = v.to_string();
                match k {
                    "EVENT" => h.event = Some(v),
                    "SITE" => h.site = Some(v),
                    "START_TIME" => h.date = Some(v),
                    "TIME_LIMIT" | "TIME" => h.time_control = Some(v),
                    _ => h.other.push((k.to_string(), v)),
                }
            } else if t.starts_with('P') || ((t == "+" || t == "-") && draft.moves.is_empty()) {
                // The position, and the side to move after it.
                position.push((line, t.to_string()));
            } else if t.starts_with(['+', '-']) {
                draft.moves.push(DraftMove {
                    text: MoveText::Csa(t.to_string()),
                    line,
                    comment: None,
                    time: None,
                });
            } else if let Some(secs) = t.strip_prefix('T') {
                let secs: f64 = secs.parse().map_err(|_| {
                    RecordError::at(line, format!("'{t}': a time is T and seconds, as T12"))
                })?;
                if let Some(m) = draft.moves.last_mut() {
                    m.time = Some(secs.max(0.0).min(u32::MAX as f64) as u32);
                }
            } else if let Some(word) = t.strip_prefix('%') {
                draft.result = csa_result(word);
                if draft.result.is_none() {
                    return Err(RecordError::at(
                        line,
                        format!("'%{word}' is not a CSA ending (TORYO, CHUDAN, SENNICHITE, ...)"),
                    ));
                }
            } else {
                return Err(RecordError::at(
                    line,
                    format!(
                        "'{t}' is not a CSA statement (a move such as +7776FU, P1.., N+, $KEY:, T12 or %TORYO)"
                    ),
                ));
            }
        }
    }
    draft.start = DraftStart::Csa(position);
    Ok(draft)
}

/// Two digits of a CSA square, `00` being the hand.
fn square_digits(text: &str) -> Option<(u32, u32)> {
    let mut c = text.chars();
    Some((c.next()?.to_digit(10)?, c.next()?.to_digit(10)?))
}

/// Reads CSA position lines on a game.
pub fn read_position(lines: &[(usize, String)], game: &Game) -> Result<Setup, RecordError> {
    let pos = AnyPosition::start(game);
    let t = pos.topology();
    let first = lines.first().map_or(0, |(l, _)| *l);
    csa_ready(game).map_err(|e| RecordError::at(first, e))?;
    let code = |line: usize, c: &str| -> Result<SetupPiece, RecordError> {
        let color = match c.chars().next() {
            Some('+') => Color::Sente,
            Some('-') => Color::Gote,
            _ => {
                return Err(RecordError::at(
                    line,
                    format!("'{c}': a piece is +XX or -XX"),
                ));
            }
        };
        let role = csa_role(&pos, &c[1..]).ok_or_else(|| {
            RecordError::at(
                line,
                format!("'{}' is no piece's CSA code in {}", &c[1..], game.title()),
            )
        })?;
        let info = pos.role(role);
        Ok(SetupPiece {
            color,
            id: info.id,
            promoted: info.promoted,
        })
    };
    let mut board: Vec<Vec<Option<SetupPiece>>> =
        vec![vec![None; t.cols as usize]; t.rows as usize];
    let mut hands: Vec<(Color, PieceId, u32)> = Vec::new();
    let mut turn = Color::Sente;
    let put = |board: &mut Vec<Vec<Option<SetupPiece>>>, f: u32, r: u32, p: Option<SetupPiece>| {
        if let Some(sq) = from_numbers(t, f, r) {
            board[(t.rows - 1 - t.rank(sq)) as usize][t.file(sq) as usize] = p;
            true
        } else {
            false
        }
    };
    if lines.iter().all(|(_, l)| l == "+" || l == "-") {
        // No position at all: the variant's start.
        let mut s = game.start_setup().clone();
        if lines.iter().any(|(_, l)| l == "-") {
            s.turn = Color::Gote;
        }
        return Ok(s);
    }
    for (line, l) in lines {
        let line = *line;
        if l == "+" || l == "-" {
            turn = if l == "+" { Color::Sente } else { Color::Gote };
        } else if let Some(rest) = l.strip_prefix("PI") {
            board = game.start_setup().ranks.clone();
            for chunk in rest.as_bytes().chunks(4) {
                let c = std::str::from_utf8(chunk).unwrap_or("");
                let (f, r) = square_digits(c).ok_or_else(|| {
                    RecordError::at(
                        line,
                        format!("'{c}' in PI: expected a square and a code, as 82HI"),
                    )
                })?;
                if !put(&mut board, f, r, None) {
                    return Err(RecordError::at(line, format!("'{c}' in PI: not a square")));
                }
            }
        } else if let Some(rest) = l.strip_prefix("P+").or_else(|| l.strip_prefix("P-")) {
            let color = if l.starts_with("P+") { "+" } else { "-" };
            for chunk in rest.as_bytes().chunks(4) {
                let c = std::str::from_utf8(chunk).unwrap_or("");
                let (f, r) = square_digits(c).ok_or_else(|| {
                    RecordError::at(
                        line,
                        format!("'{c}': expected a square and a code, as 00FU"),
                    )
                })?;
                if c.get(2..) == Some("AL") {
                    continue;
                }
                let p = code(line, &format!("{color}{}", c.get(2..).unwrap_or("")))?;
                if (f, r) == (0, 0) {
                    match hands
                        .iter_mut()
                        .find(|(hc, l, _)| *hc == p.color && *l == p.id)
                    {
                        Some(h) => h.2 += 1,
                        None => hands.push((p.color, p.id, 1)),
                    }
                } else if !put(&mut board, f, r, Some(p)) {
                    return Err(RecordError::at(line, format!("'{c}': not a square")));
                }
            }
        } else if let Some(rest) = l.strip_prefix('P') {
            let rank: usize = rest
                .get(..1)
                .and_then(|d| d.parse().ok())
                .filter(|r| (1..=t.rows as usize).contains(r))
                .ok_or_else(|| RecordError::at(line, format!("'{l}': expected P1 to P9")))?;
            let cells = &rest[1..];
            let mut row = Vec::new();
            for chunk in cells.as_bytes().chunks(3) {
                let c = std::str::from_utf8(chunk).unwrap_or("");
                row.push(if c.trim() == "*" || c == " * " {
                    None
                } else {
                    Some(code(line, c)?)
                });
            }
            if row.len() != t.cols as usize {
                return Err(RecordError::at(
                    line,
                    format!("'{l}': {} squares, expected {}", row.len(), t.cols),
                ));
            }
            board[rank - 1] = row;
        }
    }
    Ok(Setup {
        ranks: board,
        // A CSA board cannot write a hole: the board's own are meant.
        holes: t.holes_as_written(),
        hands,
        turn,
        move_number: 1,
        capture_square: None,
    })
}

/// Finds the legal move a CSA move (`+7776FU`) means.
pub fn resolve(pos: &AnyPosition, text: &str) -> Result<Move, String> {
    let b = text.as_bytes();
    if b.len() != 7 || !b[1..5].iter().all(u8::is_ascii_digit) {
        return Err("a CSA move is a sign, four digits and a code, as +7776FU".into());
    }
    let color = if b[0] == b'+' {
        Color::Sente
    } else {
        Color::Gote
    };
    if color != pos.turn() {
        return Err(format!(
            "it is {}'s move, and it is {}'s turn",
            color.name(),
            pos.turn().name()
        ));
    }
    let from = square_digits(&text[1..3]).unwrap_or((0, 0));
    let to = square_digits(&text[3..5]).unwrap_or((0, 0));
    let code = &text[5..];
    let role =
        csa_role(pos, code).ok_or_else(|| format!("'{code}' is no piece's CSA code here"))?;
    let t = pos.topology();
    let to_sq = from_numbers(t, to.0, to.1).ok_or("the destination is not a square")?;
    if from == (0, 0) {
        let mv = Move::Drop { role, to: to_sq };
        return if pos.is_legal(mv) {
            Ok(mv)
        } else {
            pos.parse_move(&pos.format_move(mv, crate::notation::Notation::Usi))
                .map_err(|e| e.reason())
        };
    }
    let from_sq = from_numbers(t, from.0, from.1).ok_or("the origin is not a square")?;
    let moving = pos
        .piece_at(from_sq)
        .ok_or_else(|| format!("there is no piece on {}{}", from.0, from.1))?;
    let promote = moving.role != role;
    if promote && pos.role(moving.role).other_side != Some(role) {
        return Err(format!(
            "the piece on {}{} is a {}, which does not become a {}",
            from.0,
            from.1,
            pos.role(moving.role).name,
            pos.role(role).name
        ));
    }
    let mv = Move::Normal {
        from: from_sq,
        to: to_sq,
        promote,
    };
    if pos.is_legal(mv) {
        return Ok(mv);
    }
    pos.parse_move(&pos.format_move(mv, crate::notation::Notation::Usi))
        .map_err(|e| e.reason())
        .and_then(|_| Err("it is not legal".to_string()))
}

fn code_of(pos: &AnyPosition, role: Role) -> String {
    pos.role(role).csa.clone().unwrap_or_default()
}

fn digits(pos: &AnyPosition, sq: crate::board::Square) -> String {
    let (f, r) = numbers(pos.topology(), sq);
    format!("{f}{r}")
}

/// Writes a record as CSA V2.2 (9×9 games with CSA codes only).
pub fn write(rec: &GameRecord) -> Result<String, String> {
    csa_ready(&rec.game)?;
    let start = rec.start_position();
    let t = start.topology();
    let mut s = String::from("'CSA record written by koma\nV2.2\n");
    let _ = writeln!(s, "{VARIANT_COMMENT} {}", start.slug());
    let h = &rec.headers;
    let one = |v: &str| v.replace(['\n', '\r', ','], " ");
    if let Some(n) = &h.sente {
        let _ = writeln!(s, "N+{}", one(n));
    }
    if let Some(n) = &h.gote {
        let _ = writeln!(s, "N-{}", one(n));
    }
    for (k, v) in [
        ("EVENT", &h.event),
        ("SITE", &h.site),
        ("START_TIME", &h.date),
        ("TIME_LIMIT", &h.time_control),
    ] {
        if let Some(v) = v {
            let _ = writeln!(s, "${k}:{}", one(v));
        }
    }
    for (k, v) in &h.other {
        if !k.is_empty() && k.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
            let _ = writeln!(s, "${k}:{}", one(v));
        }
    }
    for r in (0..t.rows).rev() {
        let _ = write!(s, "P{}", t.rows - r);
        for f in 0..t.cols {
            let sq = t.square(f as i32, r as i32).expect("on the board");
            match start.piece_at(sq) {
                None => s.push_str(" * "),
                Some(p) => {
                    s.push(if p.color == Color::Sente { '+' } else { '-' });
                    s.push_str(&code_of(&start, p.role));
                }
            }
        }
        s.push('\n');
    }
    for color in Color::ALL {
        let mut hand = String::new();
        for (i, info) in start.roles().iter().enumerate() {
            if info.promoted {
                continue;
            }
            for _ in 0..start.hand(color, Role(i as u16)) {
                hand.push_str("00");
                hand.push_str(&code_of(&start, Role(i as u16)));
            }
        }
        if !hand.is_empty() {
            let _ = writeln!(
                s,
                "P{}{hand}",
                if color == Color::Sente { '+' } else { '-' }
            );
        }
    }
    let _ = writeln!(
        s,
        "{}",
        if start.turn() == Color::Sente {
            '+'
        } else {
            '-'
        }
    );
    let comment = |s: &mut String, c: &Option<String>| {
        if let Some(c) = c {
            for l in c.lines() {
                let _ = writeln!(s, "'*{l}");
            }
        }
    };
    comment(&mut s, &rec.start_comment);
    let mut pos = start;
    for m in &rec.moves {
        let sign = if pos.turn() == Color::Sente { '+' } else { '-' };
        let text = match m.mv {
            Move::MultiLeg { .. } => return Err("CSA cannot write a move in two legs".into()),
            Move::Drop { role, to } => {
                format!("{sign}00{}{}", digits(&pos, to), code_of(&pos, role))
            }
            Move::Normal { from, to, promote } => {
                let role = pos
                    .piece_at(from)
                    .map(|p| p.role)
                    .ok_or("a move from an empty square")?;
                let after = if promote {
                    pos.role(role).other_side.unwrap_or(role)
                } else {
                    role
                };
                format!(
                    "{sign}{}{}{}",
                    digits(&pos, from),
                    digits(&pos, to),
                    code_of(&pos, after)
                )
            }
        };
        pos.try_play(m.mv).map_err(|e| e.to_string())?;
        let _ = writeln!(s, "{text}");
        if let Some(t) = m.time {
            let _ = writeln!(s, "T{t}");
        }
        comment(&mut s, &m.comment);
    }
    if let Some(r) = &rec.result
        && let Some(word) = csa_special(r, pos.turn())
    {
        let _ = writeln!(s, "%{word}");
    }
    Ok(s)
}
