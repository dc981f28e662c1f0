//! JKF, the JSON Kifu Format of json-kifu-format: `header` (KIF's header
//! keys), `initial` (`preset` `HIRATE`, or `OTHER` with `data`: board,
//! side, hands), `moves` (the first holds the comments before the first
//! move; each other a `move` with `from`/`to` places, `piece` as a CSA code,
//! `promote`, `color`; `time`; `comments`; or a `special` ending such as
//! `TORYO`). Its pieces are CSA codes, so koma reads and writes it for the
//! same games as CSA (9×9, every piece with a `csa` code). Forks are not
//! read: the main line is.

use serde_json::{Map, Value, json};

/// The header in which koma names a record's variant (other readers keep
/// it as an unknown header).
const VARIANT_HEADER: &str = "koma-variant";

use super::{
    Draft, DraftMove, DraftStart, Format, GameRecord, MoveText, RecordError, csa_ready, csa_result,
    csa_role, csa_special,
};
use crate::board::Color;
use crate::notation::japanese::{from_numbers, numbers};
use crate::position::{AnyPosition, Game, Move};
use crate::rules::Role;
use crate::setup::{Setup, SetupPiece};

/// The line of the text where a JSON error is, for messages.
fn json_error(e: serde_json::Error) -> RecordError {
    RecordError::at(e.line(), format!("not JSON Kifu Format: {e}"))
}

/// The lines of the `"move"` keys of the text, in order (a key inside a
/// string has its quotes escaped, so it is not counted): JSON values keep
/// no places, and a move's error should name its line.
fn move_lines(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut line = 1;
    let bytes = text.as_bytes();
    let key = b"\"move\"";
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            line += 1;
        } else if bytes[i..].starts_with(key) && (i == 0 || bytes[i - 1] != b'\\') {
            let rest = text[i + key.len()..].trim_start();
            if rest.starts_with(':') {
                out.push(line);
            }
        }
    }
    out
}

/// Reads a JKF record.
pub fn parse(text: &str) -> Result<Draft, RecordError> {
    let v: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(json_error)?;
    let mut draft = Draft::new(Format::Jkf);
    draft.csa_pieces = true;
    let obj = v
        .as_object()
        .ok_or_else(|| RecordError::at(1, "a JKF record is a JSON object"))?;
    if let Some(h) = obj.get("header").and_then(Value::as_object) {
        for (k, val) in h {
            let s = match val {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let hd = &mut draft.headers;
            match k.as_str() {
                "先手" | "下手" => hd.sente = Some(s),
                "後手" | "上手" => hd.gote = Some(s),
                "棋戦" => hd.event = Some(s),
                "場所" => hd.site = Some(s),
                "開始日時" => hd.date = Some(s),
                "持ち時間" => hd.time_control = Some(s),
                "手合割" => draft.handicap = Some((s, 1)),
                // koma's own header naming the variant, for games the
                // pieces and the preset cannot tell apart.
                VARIANT_HEADER => draft.variant = Some((s, 1)),
                _ => hd.other.push((k.clone(), s)),
            }
        }
    }
    if let Some(init) = obj.get("initial") {
        match init.get("preset").and_then(Value::as_str) {
            Some("HIRATE") | None => {}
            Some("OTHER") => {
                let data = init
                    .get("data")
                    .cloned()
                    .ok_or_else(|| RecordError::at(1, "initial.preset OTHER needs initial.data"))?;
                draft.start = DraftStart::Jkf(data, 1);
            }
            Some(p) => {
                return Err(RecordError::at(
                    1,
                    format!(
                        "initial.preset '{p}' is a handicap koma does not know: give the position as OTHER with data"
                    ),
                ));
            }
        }
    }
    let moves = obj
        .get("moves")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let lines = move_lines(text);
    let mut seen = 0;
    for (i, m) in moves.iter().enumerate() {
        let line = if m.get("move").is_some() {
            seen += 1;
            lines.get(seen - 1).copied().unwrap_or(0)
        } else {
            0
        };
        let comments = m.get("comments").and_then(Value::as_array).map(|c| {
            c.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n")
        });
        if let Some(special) = m.get("special").and_then(Value::as_str) {
            draft.result = csa_result(special);
            if draft.result.is_none() {
                return Err(RecordError::at(
                    1,
                    format!("moves[{i}]: special '{special}' is not a JKF ending"),
                ));
            }
            break;
        }
        let Some(mv) = m.get("move") else {
            if let Some(c) = comments.filter(|c| !c.is_empty()) {
                draft.comment(&c);
            }
            continue;
        };
        let place = |key: &str| -> Option<(u32, u32)> {
            let p = mv.get(key)?;
            Some((p.get("x")?.as_u64()? as u32, p.get("y")?.as_u64()? as u32))
        };
        let to = place("to")
            .ok_or_else(|| RecordError::at(line, format!("moves[{i}].move has no 'to' place")))?;
        let piece = mv
            .get("piece")
            .and_then(Value::as_str)
            .ok_or_else(|| RecordError::at(line, format!("moves[{i}].move has no 'piece'")))?;
        let color = mv
            .get("color")
            .and_then(Value::as_u64)
            .map(|c| if c == 0 { Color::Sente } else { Color::Gote });
        draft.moves.push(DraftMove {
            text: MoveText::Coords {
                color,
                from: place("from"),
                to,
                piece: piece.to_string(),
                promote: mv.get("promote").and_then(Value::as_bool).unwrap_or(false),
            },
            line,
            comment: None,
            time: m.get("time").and_then(|t| t.get("now")).map(|n| {
                let g = |k| n.get(k).and_then(Value::as_u64).unwrap_or(0) as u32;
                g("h") * 3600 + g("m") * 60 + g("s")
            }),
        });
        if let Some(c) = comments.filter(|c| !c.is_empty()) {
            draft.comment(&c);
        }
    }
    Ok(draft)
}

/// Reads `initial.data` on a game.
pub fn read_initial(data: &Value, game: &Game) -> Result<Setup, String> {
    csa_ready(game)?;
    let pos = AnyPosition::start(game);
    let t = pos.topology();
    let board = data
        .get("board")
        .and_then(Value::as_array)
        .ok_or("initial.data has no board")?;
    if board.len() != t.cols as usize {
        return Err(format!(
            "initial.data.board has {} files, expected {}",
            board.len(),
            t.cols
        ));
    }
    let mut ranks = vec![vec![None; t.cols as usize]; t.rows as usize];
    for (x, column) in board.iter().enumerate() {
        let column = column
            .as_array()
            .ok_or("initial.data.board holds arrays, one a file")?;
        if column.len() != t.rows as usize {
            return Err(format!(
                "initial.data.board[{x}] has {} squares, expected {}",
                column.len(),
                t.rows
            ));
        }
        for (y, cell) in column.iter().enumerate() {
            let Some(kind) = cell.get("kind").and_then(Value::as_str) else {
                continue;
            };
            let role =
                csa_role(&pos, kind).ok_or_else(|| format!("'{kind}' is no piece's CSA code"))?;
            let info = pos.role(role);
            let color = if cell.get("color").and_then(Value::as_u64) == Some(1) {
                Color::Gote
            } else {
                Color::Sente
            };
            let sq = from_numbers(t, x as u32 + 1, y as u32 + 1).ok_or("a square off the board")?;
            ranks[(t.rows - 1 - t.rank(sq)) as usize][t.file(sq) as usize] = Some(SetupPiece {
                color,
                id: info.id,
                promoted: info.promoted,
            });
        }
    }
    let mut hands = Vec::new();
    if let Some(h) = data.get("hands").and_then(Value::as_array) {
        for (i, hand) in h.iter().take(2).enumerate() {
            let color = if i == 0 { Color::Sente } else { Color::Gote };
            for (code, n) in hand.as_object().into_iter().flatten() {
                let n = n.as_u64().unwrap_or(0) as u32;
                if n == 0 {
                    continue;
                }
                let role = csa_role(&pos, code)
                    .ok_or_else(|| format!("'{code}' is no piece's CSA code"))?;
                hands.push((color, pos.role(role).id, n));
            }
        }
    }
    let turn = if data.get("color").and_then(Value::as_u64) == Some(1) {
        Color::Gote
    } else {
        Color::Sente
    };
    Ok(Setup {
        ranks,
        // A JKF board cannot write a hole: the board's own are meant.
        holes: t.holes_as_written(),
        hands,
        turn,
        move_number: 1,
        capture_square: None,
    })
}

/// Finds the legal move a JKF move means.
pub fn resolve(
    pos: &AnyPosition,
    color: Option<Color>,
    from: Option<(u32, u32)>,
    to: (u32, u32),
    piece: &str,
    promote: bool,
) -> Result<Move, String> {
    if let Some(c) = color
        && c != pos.turn()
    {
        return Err(format!(
            "it is {}'s move, and it is {}'s turn",
            c.name(),
            pos.turn().name()
        ));
    }
    let t = pos.topology();
    let role =
        csa_role(pos, piece).ok_or_else(|| format!("'{piece}' is no piece's CSA code here"))?;
    let to_sq = from_numbers(t, to.0, to.1).ok_or("the destination is not a square")?;
    let mv = match from {
        None => Move::Drop { role, to: to_sq },
        Some((f, r)) => Move::Normal {
            from: from_numbers(t, f, r).ok_or("the origin is not a square")?,
            to: to_sq,
            promote,
        },
    };
    if let Move::Normal { from, .. } = mv {
        let (f, r) = numbers(pos.topology(), from);
        match pos.piece_at(from) {
            None => return Err(format!("there is no piece on {f}{r}")),
            Some(p) if p.role != role => {
                return Err(format!(
                    "the piece on {f}{r} is a {}, not a {piece}",
                    pos.role(p.role).name
                ));
            }
            Some(_) => {}
        }
    }
    if pos.is_legal(mv) {
        Ok(mv)
    } else {
        pos.parse_move(&pos.format_move(mv, crate::notation::Notation::Usi))
            .map_err(|e| e.reason())
            .and_then(|_| Err("it is not legal".to_string()))
    }
}

fn place(pos: &AnyPosition, sq: crate::board::Square) -> Value {
    let (x, y) = numbers(pos.topology(), sq);
    json!({ "x": x, "y": y })
}

/// Writes a record as JKF (9×9 games with CSA codes only).
pub fn write(rec: &GameRecord) -> Result<String, String> {
    csa_ready(&rec.game)?;
    let start = rec.start_position();
    let t = start.topology();
    let code = |pos: &AnyPosition, r: Role| pos.role(r).csa.clone().unwrap_or_default();
    let mut header = Map::new();
    let h = &rec.headers;
    for (k, v) in [
        ("先手", &h.sente),
        ("後手", &h.gote),
        ("棋戦", &h.event),
        ("場所", &h.site),
        ("開始日時", &h.date),
        ("持ち時間", &h.time_control),
    ] {
        if let Some(v) = v {
            header.insert(k.into(), Value::String(v.clone()));
        }
    }
    for (k, v) in &h.other {
        header.insert(k.clone(), Value::String(v.clone()));
    }
    header.insert(
        VARIANT_HEADER.into(),
        Value::String(rec.game.slug().to_string()),
    );
    let initial = if rec.starts_at_variant_start()
        && crate::with_rules!(&rec.game, r => r.kif_handicap.is_some())
    {
        json!({ "preset": "HIRATE" })
    } else {
        let mut board = Vec::new();
        for x in 1..=t.cols as u32 {
            let mut column = Vec::new();
            for y in 1..=t.rows as u32 {
                let sq = from_numbers(t, x, y).expect("on the board");
                column.push(match start.piece_at(sq) {
                    None => json!({}),
                    Some(p) => json!({ "color": p.color.index(), "kind": code(&start, p.role) }),
                });
            }
            board.push(Value::Array(column));
        }
        let hands: Vec<Value> = Color::ALL
            .iter()
            .map(|&c| {
                let mut m = Map::new();
                for (i, info) in start.roles().iter().enumerate() {
                    if !info.promoted && !info.royal {
                        m.insert(
                            code(&start, Role(i as u16)),
                            json!(start.hand(c, Role(i as u16))),
                        );
                    }
                }
                Value::Object(m)
            })
            .collect();
        json!({ "preset": "OTHER", "data": { "board": board, "color": start.turn().index(), "hands": hands } })
    };
    let comments = |c: &Option<String>| -> Option<Value> {
        c.as_ref()
            .map(|c| Value::Array(c.lines().map(|l| Value::String(l.to_string())).collect()))
    };
    let mut moves = vec![match comments(&rec.start_comment) {
        Some(c) => json!({ "comments": c }),
        None => json!({}),
    }];
    let mut pos = start;
    let mut totals = [0u32; 2];
    for m in &rec.moves {
        let mut mv = Map::new();
        let color = pos.turn();
        mv.insert("color".into(), json!(color.index()));
        let to = m.mv.to();
        mv.insert("to".into(), place(&pos, to));
        if pos.last_move().is_some_and(|l| l.to() == to) {
            mv.insert("same".into(), json!(true));
        }
        match m.mv {
            Move::MultiLeg { .. } => return Err("JKF cannot write a move in two legs".into()),
            Move::Drop { role, .. } => {
                mv.insert("piece".into(), json!(code(&pos, role)));
            }
            Move::Normal { from, promote, .. } => {
                let role = pos
                    .piece_at(from)
                    .map(|p| p.role)
                    .ok_or("a move from an empty square")?;
                mv.insert("from".into(), place(&pos, from));
                mv.insert("piece".into(), json!(code(&pos, role)));
                let other = Move::Normal {
                    from,
                    to,
                    promote: !promote,
                };
                if promote || pos.is_legal(other) {
                    mv.insert("promote".into(), json!(promote));
                }
                if let Some(c) = pos.piece_at(to) {
                    mv.insert("capture".into(), json!(code(&pos, c.role)));
                }
            }
        }
        pos.try_play(m.mv).map_err(|e| e.to_string())?;
        let mut entry = Map::new();
        entry.insert("move".into(), Value::Object(mv));
        if let Some(t) = m.time {
            let total = &mut totals[color.index()];
            *total = total.saturating_add(t);
            entry.insert(
                "time".into(),
                json!({ "now": { "m": t / 60, "s": t % 60 }, "total": { "h": *total / 3600, "m": *total / 60 % 60, "s": *total % 60 } }),
            );
        }
        if let Some(c) = comments(&m.comment) {
            entry.insert("comments".into(), c);
        }
        moves.push(Value::Object(entry));
    }
    if let Some(r) = &rec.result
        && let Some(word) = csa_special(r, pos.turn())
    {
        moves.push(json!({ "special": word }));
    }
    let doc = json!({ "header": header, "initial": initial, "moves": moves });
    serde_json::to_string_pretty(&doc)
        .map(|s| s + "\n")
        .map_err(|e| e.to_string())
}
