//! KIF and KI2, the Japanese records (Kakinoki's formats), for any board.
//!
//! KIF numbers its moves and gives each origin (`   1 ７六歩(77)   ( 0:01/00:00:01)`);
//! KI2 writes moves with their side's mark and KI2's relative words
//! (`▲７六歩　△３四歩`). Both start with headers (`先手：`, `棋戦：`,
//! `手合割：`) and give the start either by its `手合割` (the variant
//! file's `engine.records.kif_handicap`: `平手`, `5五将棋`) or as a BOD
//! diagram of any size, with the hands (`先手の持駒：角　歩二`) and the side
//! to move (`後手番`). Piece names are the variant file's (`kif`, else
//! `kanji`). Comments are `*` lines; a variation (`変化：`) ends the main
//! line, which is all koma reads. koma writes `#koma-variant: SLUG` (a
//! comment to every other reader) so that a diagram of a variant without a
//! `手合割` reads back as its variant.

use std::fmt::Write;

use super::{
    Decision, Draft, DraftMove, DraftResult, DraftStart, Ending, Format, GameRecord, GameResult,
    MoveText, RecordError,
};
use crate::board::Color;
use crate::notation::japanese::{
    self, JapaneseStyle, full_width, kanji_number, role_name, take_role,
};
use crate::position::{AnyPosition, Game};
use crate::rules::{Role, RoleInfo};
use crate::setup::{Setup, SetupPiece};
use crate::with_position;

/// The `手合割` a KIF record without one has (the format's default: an even game).
pub const DEFAULT_HANDICAP: &str = "平手";

/// The comment line koma writes to name the variant.
const VARIANT_LINE: &str = "#koma-variant:";

/// The words of a KIF move line that end the game, with what they mean for
/// the side to move.
const TERMINALS: &[(&str, DraftResultWord)] = &[
    ("投了", DraftResultWord::Side(false, Ending::Resignation)),
    ("詰み", DraftResultWord::Side(false, Ending::Checkmate)),
    ("切れ負け", DraftResultWord::Side(false, Ending::Time)),
    ("時間切れ", DraftResultWord::Side(false, Ending::Time)),
    ("反則勝ち", DraftResultWord::Side(true, Ending::IllegalMove)),
    (
        "反則負け",
        DraftResultWord::Side(false, Ending::IllegalMove),
    ),
    ("入玉勝ち", DraftResultWord::Side(true, Ending::Impasse)),
    ("宣言勝ち", DraftResultWord::Side(true, Ending::Impasse)),
    ("千日手", DraftResultWord::Draw(Ending::Repetition)),
    ("持将棋", DraftResultWord::Draw(Ending::Impasse)),
    ("中断", DraftResultWord::None(Ending::Abort)),
    ("不詰", DraftResultWord::None(Ending::Unknown)),
];

#[derive(Copy, Clone)]
enum DraftResultWord {
    Side(bool, Ending),
    Draw(Ending),
    None(Ending),
}

impl DraftResultWord {
    fn result(self) -> DraftResult {
        match self {
            DraftResultWord::Side(won, e) => DraftResult::SideToMove(won, e),
            DraftResultWord::Draw(e) => DraftResult::Known(GameResult::draw(e)),
            DraftResultWord::None(e) => DraftResult::Known(GameResult::undecided(e)),
        }
    }
}

/// Whether a line is a KIF move line: a number, spaces, then a move or a
/// word that ends the game.
pub fn is_move_line(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    if digits == 0 {
        return false;
    }
    let rest = &t[digits..];
    rest.starts_with([' ', '\t'])
        && rest
            .trim_start_matches([' ', '\t'])
            .starts_with(|c: char| !c.is_ascii())
}

/// Splits `key：value` (full-width or ASCII colon).
fn header(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once('：').or_else(|| line.split_once(':'))?;
    let k = k.trim();
    (!k.is_empty() && !k.contains(' ')).then_some((k, v.trim()))
}

/// Whether a header key reads back as one: no colon, space or control
/// character, no ASCII first character, not the start of a comment,
/// diagram, move or closing line.
fn header_key(k: &str) -> bool {
    !k.is_empty()
        && !k
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == ':' || c == '：')
        // An ASCII start could be read as another format's line (CSA's V2,
        // P1, N+, %TORYO; PGN's tag).
        && !k.starts_with(|c: char| c.is_ascii())
        && !k.starts_with(['▲', '△', '☗', '☖', '▽', '▼'])
        && !k.starts_with(|c: char| ('０'..='９').contains(&c))
        && !["まで", "変化", "手数", "同"]
            .iter()
            .any(|w| k.starts_with(w))
        && !k.ends_with("の持駒")
        && ![
            "開始日時",
            "棋戦",
            "場所",
            "持ち時間",
            "先手",
            "後手",
            "下手",
            "上手",
            "手合割",
        ]
        .contains(&k)
}

/// Seconds in a KIF time `( 0:01/00:00:01)`: the move's own time.
fn kif_time(text: &str) -> Option<u32> {
    let inner = text.trim().strip_prefix('(')?.split(')').next()?;
    let own = inner.split('/').next()?.trim();
    let mut secs: u32 = 0;
    for part in own.split(':') {
        secs = secs
            .checked_mul(60)?
            .checked_add(part.trim().parse().ok()?)?;
    }
    Some(secs)
}

/// The result a closing line says (`まで94手で後手の勝ち`).
fn summary(line: &str) -> Option<DraftResult> {
    let rest = line.strip_prefix("まで")?;
    let side = |s: &str| {
        if s.contains("先手") || s.contains("下手") {
            Some(Color::Sente)
        } else if s.contains("後手") || s.contains("上手") {
            Some(Color::Gote)
        } else {
            None
        }
    };
    if rest.contains("中断") {
        return Some(DraftResult::Known(GameResult::undecided(Ending::Abort)));
    }
    if rest.contains("千日手") {
        return Some(DraftResult::Known(GameResult::draw(Ending::Repetition)));
    }
    if rest.contains("持将棋") {
        return Some(DraftResult::Known(GameResult::draw(Ending::Impasse)));
    }
    if rest.contains("引き分け") {
        return Some(DraftResult::Known(GameResult::draw(Ending::Unknown)));
    }
    let named = side(rest)?;
    let winner = if rest.contains("負け") {
        named.opposite()
    } else {
        named
    };
    let ending = if rest.contains("時間切れ") || rest.contains("切れ負け") {
        Ending::Time
    } else if rest.contains("反則") {
        Ending::IllegalMove
    } else if rest.contains("入玉") || rest.contains("宣言") {
        Ending::Impasse
    } else if rest.contains("詰") {
        Ending::Checkmate
    } else {
        return Some(DraftResult::Winner(winner));
    };
    Some(DraftResult::Known(GameResult::win(winner, ending)))
}

/// Reads a KIF (`ki2` false) or KI2 record.
pub fn parse(text: &str, ki2: bool) -> Result<Draft, RecordError> {
    let mut draft = Draft::new(if ki2 { Format::Ki2 } else { Format::Kif });
    let mut bod: Vec<(usize, String)> = Vec::new();
    let mut in_moves = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw
            .trim_end_matches(['\r', ' ', '\t'])
            .trim_start_matches('\u{feff}');
        let t = l.trim_start_matches([' ', '\t']);
        if t.is_empty() {
            continue;
        }
        if let Some(v) = t.strip_prefix(VARIANT_LINE) {
            draft.variant = Some((v.trim().to_string(), line));
            continue;
        }
        if t.starts_with('#') || t.starts_with('&') {
            continue;
        }
        if let Some(c) = t.strip_prefix('*') {
            draft.comment(c);
            continue;
        }
        if t.starts_with("変化：") || t.starts_with("変化:") {
            break;
        }
        if t.starts_with("手数----") {
            in_moves = true;
            continue;
        }
        if t.starts_with("手数＝") {
            bod.push((line, t.to_string()));
            continue;
        }
        let file_numbers = t
            .chars()
            .all(|c| c == ' ' || c == '　' || ('０'..='９').contains(&c));
        if t.starts_with('|') || t.starts_with('+') || file_numbers {
            if t.starts_with('|') {
                bod.push((line, t.to_string()));
            }
            continue;
        }
        // Display instructions for a reader's board, not part of the game.
        if t == "盤面回転" {
            continue;
        }
        if t == "先手番" || t == "下手番" || t == "後手番" || t == "上手番" {
            bod.push((line, t.to_string()));
            continue;
        }
        if let Some(r) = summary(t) {
            if draft.result.is_none() {
                draft.result = Some(r);
            }
            continue;
        }
        if !ki2 && is_move_line(t) {
            in_moves = true;
            let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
            let rest = t[digits..].trim_start_matches([' ', '\t']);
            let end = rest.find([' ', '\t']).unwrap_or(rest.len());
            let (mv, after) = rest.split_at(end);
            // "同　歩": the full-width space belongs to the move.
            let (mv, after) = if mv.ends_with('同') || mv == "同" {
                let more = after.trim_start_matches([' ', '\t']);
                let e = more.find([' ', '\t']).unwrap_or(more.len());
                (format!("{mv}{}", &more[..e]), &more[e..])
            } else {
                (mv.to_string(), after)
            };
            // A '+' after the move says that a variation branches off here.
            let mv = mv.trim_end_matches('+').to_string();
            if let Some((_, word)) = TERMINALS.iter().find(|(w, _)| mv.starts_with(w)) {
                draft.result = Some(word.result());
                continue;
            }
            let number: usize = t[..digits].parse().unwrap_or(0);
            if number != draft.moves.len() + 1 {
                return Err(RecordError::at(
                    line,
                    format!(
                        "move number {number} where {} was expected",
                        draft.moves.len() + 1
                    ),
                ));
            }
            draft.moves.push(DraftMove {
                text: MoveText::Text(mv),
                line,
                comment: None,
                time: kif_time(after),
            });
            continue;
        }
        if ki2 && t.starts_with(['▲', '△', '☗', '☖', '▽', '▼']) {
            in_moves = true;
            let mut start = None;
            for (at, c) in t.char_indices() {
                if matches!(c, '▲' | '△' | '☗' | '☖' | '▽' | '▼') {
                    if let Some(s) = start {
                        push_ki2(&mut draft, &t[s..at], line);
                    }
                    start = Some(at);
                }
            }
            if let Some(s) = start {
                push_ki2(&mut draft, &t[s..], line);
            }
            continue;
        }
        if let Some((key, value)) = header(t) {
            let h = &mut draft.headers;
            let v = || Some(value.to_string());
            match key {
                "開始日時" => h.date = v(),
                "棋戦" => h.event = v(),
                "場所" => h.site = v(),
                "持ち時間" => h.time_control = v(),
                "先手" | "下手" => h.sente = v(),
                "後手" | "上手" => h.gote = v(),
                "手合割" => draft.handicap = Some((value.to_string(), line)),
                k if k.ends_with("の持駒") => bod.push((line, t.to_string())),
                _ => h.other.push((key.to_string(), value.to_string())),
            }
            continue;
        }
        if in_moves && TERMINALS.iter().any(|(w, _)| t.starts_with(w)) {
            if let Some((_, word)) = TERMINALS.iter().find(|(w, _)| t.starts_with(w)) {
                draft.result = Some(word.result());
            }
            continue;
        }
        return Err(RecordError::at(
            line,
            format!(
                "'{t}' is not a {} line (a header 'key：value', a move, a '*' comment or a diagram)",
                if ki2 { "KI2" } else { "KIF" }
            ),
        ));
    }
    if bod.iter().any(|(_, l)| l.starts_with('|')) {
        draft.start = DraftStart::Bod(bod);
    } else if !bod.is_empty() {
        // Hands or a side to move without a board: the handicap's board with them.
        draft.start = DraftStart::Bod(bod);
    }
    Ok(draft)
}

fn push_ki2(draft: &mut Draft, token: &str, line: usize) {
    let token = token.trim_matches(|c: char| c.is_whitespace());
    if token.chars().count() <= 1 {
        return;
    }
    draft.moves.push(DraftMove {
        text: MoveText::Text(token.to_string()),
        line,
        comment: None,
        time: None,
    });
}

/// The names a diagram may use for each role: its KIF names (the kanji among
/// them), longest first.
fn diagram_name(roles: &[RoleInfo], role: Role) -> String {
    let info = &roles[role.index()];
    match &info.kanji {
        Some(k)
            if k.chars().count() == 1
                && roles
                    .iter()
                    .filter(|r| r.kanji.as_deref() == Some(k))
                    .count()
                    == 1 =>
        {
            k.clone()
        }
        _ => role_name(roles, role),
    }
}

/// The count after a piece in a hand (`歩十八`): kanji numerals or digits.
fn hand_count(text: &str) -> Option<u32> {
    if text.is_empty() {
        return Some(1);
    }
    if let Ok(n) = text.trim().parse() {
        return Some(n);
    }
    let mut n = 0;
    let mut cur = 0;
    for c in text.chars() {
        match c {
            '十' => {
                n += cur.max(1) * 10;
                cur = 0;
            }
            _ => {
                let d = "〇一二三四五六七八九".chars().position(|k| k == c)? as u32;
                cur = cur * 10 + d;
            }
        }
    }
    Some(n + cur)
}

/// Reads a BOD diagram (board rows, hands, side to move) on a game's pieces.
/// Without board rows, the hands and side are put on the game's start.
pub fn read_bod(lines: &[(usize, String)], game: &Game) -> Result<Setup, RecordError> {
    let pos = AnyPosition::start(game);
    let roles = pos.roles().to_vec();
    let t = pos.topology();
    let mut setup = game.start_setup().clone();
    let rows: Vec<&(usize, String)> = lines.iter().filter(|(_, l)| l.starts_with('|')).collect();
    if !rows.is_empty() {
        if rows.len() != t.rows as usize {
            return Err(RecordError::at(
                rows[0].0,
                format!(
                    "the diagram has {} ranks; {} has {}",
                    rows.len(),
                    game.title(),
                    t.rows
                ),
            ));
        }
        setup.ranks.clear();
        for (line, row) in rows {
            let inner = row[1..].rsplit_once('|').map_or(&row[1..], |(a, _)| a);
            let mut rank = Vec::new();
            let mut rest = inner;
            while !rest.is_empty() {
                let mut chars = rest.chars();
                let c = chars.next().unwrap_or(' ');
                let color = match c {
                    'v' | 'V' => Color::Gote,
                    ' ' | '^' | '+' => Color::Sente,
                    '・' => {
                        rank.push(None);
                        rest = chars.as_str();
                        continue;
                    }
                    _ => {
                        return Err(RecordError::at(
                            *line,
                            format!(
                                "'{rest}': a square of the diagram starts with ' ' (sente), 'v' (gote) or is ・"
                            ),
                        ));
                    }
                };
                let after = chars.as_str();
                if let Some(empty) = after.strip_prefix('・') {
                    rank.push(None);
                    rest = empty;
                    continue;
                }
                let (role, more) =
                    take_role(&roles, after).map_err(|e| RecordError::at(*line, e))?;
                let info = &roles[role.index()];
                rank.push(Some(SetupPiece {
                    color,
                    id: info.id,
                    promoted: info.promoted,
                }));
                rest = more;
            }
            if rank.len() != t.cols as usize {
                return Err(RecordError::at(
                    *line,
                    format!(
                        "this rank of the diagram has {} squares; {} has {} files",
                        rank.len(),
                        game.title(),
                        t.cols
                    ),
                ));
            }
            setup.ranks.push(rank);
        }
        setup.hands.clear();
        setup.turn = Color::Sente;
    }
    for (line, l) in lines {
        if let Some(n) = l.strip_prefix("手数＝") {
            // The moves played before the diagram: the next is n + 1.
            let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
            let played: u32 = digits
                .parse()
                .map_err(|_| RecordError::at(*line, format!("'{l}': 手数＝ needs a number")))?;
            setup.move_number = played.saturating_add(1).min(crate::setup::MAX_MOVE_NUMBER);
        } else if l == "後手番" || l == "上手番" {
            setup.turn = Color::Gote;
        } else if l == "先手番" || l == "下手番" {
            setup.turn = Color::Sente;
        } else if let Some((key, value)) = header(l) {
            let color = if key.starts_with("後手") || key.starts_with("上手") {
                Color::Gote
            } else {
                Color::Sente
            };
            setup.hands.retain(|(c, _, _)| *c != color);
            if value == "なし" || value.is_empty() {
                continue;
            }
            for item in value.split([' ', '　']).filter(|s| !s.is_empty()) {
                let (role, count) =
                    take_role(&roles, item).map_err(|e| RecordError::at(*line, e))?;
                let n = hand_count(count).ok_or_else(|| {
                    RecordError::at(*line, format!("'{item}': the count is not a number"))
                })?;
                let info = &roles[role.index()];
                setup.hands.push((color, info.id, n));
            }
        }
    }
    Ok(setup)
}

/// The hand of a side in KIF words (`飛　歩二`, `なし`).
fn hand_words(pos: &AnyPosition, color: Color) -> String {
    let roles = pos.roles();
    let mut items = Vec::new();
    for (i, info) in roles.iter().enumerate() {
        if info.promoted {
            continue;
        }
        let n = pos.hand(color, Role(i as u16)) as u32;
        if n > 0 {
            let name = role_name(roles, Role(i as u16));
            items.push(if n == 1 {
                name
            } else {
                format!("{name}{}", kanji_number(n))
            });
        }
    }
    if items.is_empty() {
        "なし".into()
    } else {
        items.join("　")
    }
}

/// The start as a BOD diagram, with hands and the side to move.
fn bod(pos: &AnyPosition) -> String {
    let t = pos.topology();
    let roles = pos.roles();
    let mut s = String::new();
    let _ = writeln!(s, "後手の持駒：{}", hand_words(pos, Color::Gote));
    let files: Vec<String> = (1..=t.cols as u32).rev().map(full_width).collect();
    let _ = writeln!(s, "  {}", files.join(" "));
    let rule = format!("+{}+", "-".repeat(t.cols as usize * 3));
    let _ = writeln!(s, "{rule}");
    for r in (0..t.rows).rev() {
        s.push('|');
        for f in 0..t.cols {
            let sq = t.square(f as i32, r as i32).expect("on the board");
            match pos.piece_at(sq) {
                None => s.push_str(" ・"),
                Some(p) => {
                    s.push(if p.color == Color::Gote { 'v' } else { ' ' });
                    s.push_str(&diagram_name(roles, p.role));
                }
            }
        }
        let _ = writeln!(s, "|{}", kanji_number((t.rows - r) as u32));
    }
    let _ = writeln!(s, "{rule}");
    let _ = writeln!(s, "先手の持駒：{}", hand_words(pos, Color::Sente));
    if pos.turn() == Color::Gote {
        let _ = writeln!(s, "後手番");
    }
    if pos.move_number() > 1 {
        let _ = writeln!(s, "手数＝{}", pos.move_number() - 1);
    }
    s
}

fn side(c: Color) -> &'static str {
    match c {
        Color::Sente => "先手",
        Color::Gote => "後手",
    }
}

/// The KIF word that ends the move list for a result, if one says it.
fn terminal(result: &GameResult, turn: Color) -> Option<&'static str> {
    let word = match (result.decision, result.ending) {
        (Decision::Win(w), e) if w != turn => match e {
            Ending::Resignation | Ending::Unknown => "投了",
            Ending::Checkmate
            | Ending::NoLegalMove
            | Ending::RoyalCaptured
            | Ending::ReachedLastRank
            | Ending::BareRoyal
            | Ending::Check => "詰み",
            Ending::Time => "切れ負け",
            Ending::IllegalMove => "反則負け",
            _ => return None,
        },
        (Decision::Win(_), Ending::IllegalMove) => "反則勝ち",
        (Decision::Win(_), Ending::Impasse) => "入玉勝ち",
        (Decision::Draw, Ending::Repetition | Ending::PerpetualCheck) => "千日手",
        (Decision::Draw, Ending::Impasse) => "持将棋",
        (Decision::Undecided, Ending::Abort) => "中断",
        _ => return None,
    };
    Some(word)
}

/// The closing line for a result (`まで94手で後手の勝ち`).
fn closing(result: &GameResult, moves: usize) -> String {
    let head = format!("まで{moves}手で");
    match (result.decision, result.ending) {
        (Decision::Win(w), Ending::Time) => format!("{head}時間切れにより{}の勝ち", side(w)),
        (Decision::Win(w), Ending::IllegalMove) => {
            format!("{head}{}の反則負け", side(w.opposite()))
        }
        (Decision::Win(w), Ending::Impasse) => format!("{head}入玉宣言により{}の勝ち", side(w)),
        (Decision::Win(w), Ending::Checkmate) => format!("{head}詰みにより{}の勝ち", side(w)),
        (Decision::Win(w), _) => format!("{head}{}の勝ち", side(w)),
        (Decision::Draw, Ending::Repetition | Ending::PerpetualCheck) => format!("{head}千日手"),
        (Decision::Draw, Ending::Impasse) => format!("{head}持将棋"),
        (Decision::Draw, _) => format!("{head}引き分け"),
        (Decision::Undecided, _) => format!("{head}中断"),
    }
}

fn clock(secs: u32) -> String {
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// Writes a record as KIF (`ki2` false) or KI2.
pub fn write(rec: &GameRecord, ki2: bool) -> Result<String, String> {
    let start = rec.start_position();
    let handicap = crate::with_rules!(&rec.game, r => r.kif_handicap.clone());
    let mut s = String::new();
    if !ki2 {
        let _ = writeln!(s, "#KIF version=2.0 encoding=UTF-8");
    }
    let named = handicap.is_some() && rec.starts_at_variant_start();
    if !named {
        let _ = writeln!(s, "{VARIANT_LINE} {}", start.slug());
    }
    let h = &rec.headers;
    let one = |v: &str| v.replace(['\n', '\r'], " ");
    for (key, value) in [
        ("開始日時", &h.date),
        ("棋戦", &h.event),
        ("場所", &h.site),
        ("持ち時間", &h.time_control),
    ] {
        if let Some(v) = value {
            let _ = writeln!(s, "{key}：{}", one(v));
        }
    }
    match handicap {
        Some(name) if rec.starts_at_variant_start() => {
            let _ = writeln!(s, "手合割：{name}");
        }
        _ => s.push_str(&bod(&start)),
    }
    for (key, value) in [("先手", &h.sente), ("後手", &h.gote)] {
        if let Some(v) = value {
            let _ = writeln!(s, "{key}：{}", one(v));
        }
    }
    // Only keys a KIF reader reads back as keys (headers of other formats
    // may have any text).
    for (k, v) in h.other.iter().filter(|(k, _)| header_key(k)) {
        let _ = writeln!(s, "{k}：{}", one(v));
    }
    let comment = |s: &mut String, c: &Option<String>| {
        if let Some(c) = c {
            for l in c.lines() {
                let _ = writeln!(s, "*{l}");
            }
        }
    };
    if !ki2 {
        let _ = writeln!(s, "手数----指手---------消費時間--");
    }
    comment(&mut s, &rec.start_comment);
    let mut pos = start;
    let mut totals = [0u32; 2];
    let mut line = String::new();
    for (i, m) in rec.moves.iter().enumerate() {
        let style = if ki2 {
            JapaneseStyle::Ki2
        } else {
            JapaneseStyle::Kif
        };
        let text = with_position!(&pos, p => japanese::format(p, m.mv, style));
        let mover = pos.turn();
        if pos.try_play(m.mv).is_err() {
            return Err(format!("move {} is not legal", i + 1));
        }
        if ki2 {
            line.push_str(&text);
            if m.comment.is_some() || i % 6 == 5 || i + 1 == rec.moves.len() {
                let _ = writeln!(s, "{}", line.trim_end());
                line.clear();
            } else {
                // ASCII spaces between moves: some readers take no other.
                let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
                line.push_str(&" ".repeat(14usize.saturating_sub(width).max(2)));
            }
        } else {
            let _ = write!(s, "{:>4} {text}", i + 1);
            if let Some(t) = m.time {
                let total = &mut totals[mover.index()];
                *total = total.saturating_add(t);
                let width = text.chars().count() * 2;
                let pad = 14usize.saturating_sub(width).max(1);
                let _ = write!(
                    s,
                    "{}( {}:{:02}/{})",
                    " ".repeat(pad),
                    t / 60,
                    t % 60,
                    clock(*total)
                );
            }
            s.push('\n');
        }
        comment(&mut s, &m.comment);
    }
    if let Some(r) = &rec.result {
        if !ki2 && let Some(word) = terminal(r, pos.turn()) {
            let _ = writeln!(s, "{:>4} {word}", rec.moves.len() + 1);
        }
        let _ = writeln!(s, "{}", closing(r, rec.moves.len()));
    }
    Ok(s)
}
