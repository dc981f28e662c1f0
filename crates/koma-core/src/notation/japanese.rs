//! Japanese move notation, as KIF and KI2 records write it: `▲７六歩`,
//! `同　銀(68)`, `５五角打`, `２二角成`, `３八金寄`, from the names the
//! variant file gives its pieces (`kif`, else `kanji`; a piece with neither,
//! or whose names another piece has too, is written with its letter).
//!
//! Squares are the USI numbers in Japanese: the file in full-width digits
//! counted from sente's right, the rank in kanji numerals from the top
//! (`７六` is USI `7f`). A board of more than nine files or ranks writes each
//! number whole (`１２十一` is file 12, rank 11: full-width digits for the
//! file, kanji numerals for the rank, as the nine-file board does), and KIF's
//! origin in parentheses then gives each number with two digits (`(1211)`);
//! boards of nine or fewer keep one digit (`(77)`). This is koma's choice:
//! no convention for larger boards (lishogi's chushogi records included) was
//! at hand to check it against.
//!
//! KI2 tells apart two pieces of a kind that can reach the same square with
//! the words of the Japan Shogi Association, from the mover's side: `直`
//! (straight forward), `上` / `引` / `寄` (forward, backward, sideways),
//! `右` / `左` (the rightmost or leftmost of them), `打` (a drop where a piece
//! on the board could go too). Where no such word tells them apart, the
//! origin is added as KIF writes it.

use super::{MoveError, illegal, unreadable};
use crate::board::{Bitboard, Color, Square, Topology};
use crate::position::{Move, Position};
use crate::rules::{Role, RoleInfo};

/// Which record's form of the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum JapaneseStyle {
    /// KIF: no side mark, the origin in parentheses (`７六歩(77)`), `打` on
    /// every drop, `同　` with a full-width space, no `不成` (KIF has none).
    Kif,
    /// KI2: the side's mark, relative words where needed (`▲７六歩`).
    Ki2,
}

const FULL_DIGITS: [char; 10] = ['０', '１', '２', '３', '４', '５', '６', '７', '８', '９'];
const KANJI_DIGITS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The side's mark: ▲ for sente, △ for gote.
pub fn mark(color: Color) -> char {
    match color {
        Color::Sente => '▲',
        Color::Gote => '△',
    }
}

/// A number in full-width digits (`１２`).
pub fn full_width(n: u32) -> String {
    n.to_string()
        .chars()
        .map(|c| FULL_DIGITS[c.to_digit(10).unwrap_or(0) as usize])
        .collect()
}

/// A number in kanji numerals (`十一`), 1 to 99.
pub fn kanji_number(n: u32) -> String {
    let (tens, ones) = (n / 10, n % 10);
    let mut s = String::new();
    if tens > 1 {
        s.push(KANJI_DIGITS[tens as usize % 10]);
    }
    if tens > 0 {
        s.push('十');
    }
    if ones > 0 || n == 0 {
        s.push(KANJI_DIGITS[ones as usize]);
    }
    s
}

/// The file and rank numbers of a square as records count them (file from
/// sente's right, rank from the top, both from 1).
pub fn numbers(t: Topology, sq: Square) -> (u32, u32) {
    ((t.cols - t.file(sq)) as u32, (t.rows - t.rank(sq)) as u32)
}

/// The square with these record numbers, if on the board.
pub fn from_numbers(t: Topology, file: u32, rank: u32) -> Option<Square> {
    if file == 0 || rank == 0 || file > t.cols as u32 || rank > t.rows as u32 {
        return None;
    }
    t.square(t.cols as i32 - file as i32, t.rows as i32 - rank as i32)
}

/// A square in Japanese (`７六`).
pub fn square_name(t: Topology, sq: Square) -> String {
    let (f, r) = numbers(t, sq);
    format!("{}{}", full_width(f), kanji_number(r))
}

/// KIF's origin of a move, `(77)`; two digits each on a board of more than
/// nine files or ranks.
pub fn origin(t: Topology, sq: Square) -> String {
    let (f, r) = numbers(t, sq);
    if t.cols > 9 || t.rows > 9 {
        format!("({f:02}{r:02})")
    } else {
        format!("({f}{r})")
    }
}

/// The name a role is written with: its first KIF name, else its letter.
/// A name that another role has too is passed over (it could not be read
/// back); a role left with no name of its own is written with its letter
/// (`+L` for a promoted side).
pub fn role_name(roles: &[RoleInfo], role: Role) -> String {
    let info = &roles[role.index()];
    let shared = |n: &String| {
        roles
            .iter()
            .enumerate()
            .any(|(i, r)| i != role.index() && r.kif.contains(n))
    };
    match info.kif.iter().find(|n| !shared(n)) {
        Some(n) => n.clone(),
        None if info.promoted => format!("+{}", info.id),
        None => info.id.to_string(),
    }
}

/// Every name of every role, longest first (to be matched greedily).
pub fn role_names(roles: &[RoleInfo]) -> Vec<(String, Role)> {
    let mut names = Vec::new();
    for (i, info) in roles.iter().enumerate() {
        let role = Role(i as u16);
        for n in &info.kif {
            names.push((n.clone(), role));
        }
        let written = role_name(roles, role);
        if !info.kif.contains(&written) {
            names.push((written, role));
        }
    }
    names.sort_by_key(|(n, _)| std::cmp::Reverse(n.chars().count()));
    names
}

/// The role a name at the start of `text` names, with the rest of the text.
/// Two roles with the same name make it ambiguous: an error naming both.
pub fn take_role<'t>(roles: &[RoleInfo], text: &'t str) -> Result<(Role, &'t str), String> {
    let names = role_names(roles);
    let Some((name, role)) = names.iter().find(|(n, _)| text.starts_with(n.as_str())) else {
        let mut all: Vec<String> = names.iter().map(|(n, _)| n.clone()).collect();
        all.dedup();
        return Err(format!(
            "'{}' does not start with a piece of this variant ({})",
            text,
            all.join(" ")
        ));
    };
    if let Some((_, other)) = names.iter().find(|(n, r)| n == name && r != role) {
        return Err(format!(
            "'{name}' names both the {} and the {}: give one a `kif` name in the variant file",
            roles[role.index()].name,
            roles[other.index()].name
        ));
    }
    Ok((*role, &text[name.len()..]))
}

/// How far forward a square is for `color` (0 at its own back rank).
fn ahead<B: Bitboard>(pos: &Position<B>, color: Color, sq: Square) -> i32 {
    let t = pos.rules().topology;
    match color {
        Color::Sente => t.rank(sq) as i32,
        Color::Gote => t.rows as i32 - 1 - t.rank(sq) as i32,
    }
}

/// How far right a square is for `color`, as it faces the board.
fn rightward<B: Bitboard>(pos: &Position<B>, color: Color, sq: Square) -> i32 {
    let t = pos.rules().topology;
    match color {
        Color::Sente => t.file(sq) as i32,
        Color::Gote => t.cols as i32 - 1 - t.file(sq) as i32,
    }
}

/// The word for the way a piece goes from `from` to `to`: 上, 引 or 寄.
fn direction<B: Bitboard>(pos: &Position<B>, from: Square, to: Square) -> char {
    let us = pos.turn();
    match ahead(pos, us, to).cmp(&ahead(pos, us, from)) {
        std::cmp::Ordering::Greater => '上',
        std::cmp::Ordering::Less => '引',
        std::cmp::Ordering::Equal => '寄',
    }
}

fn straight<B: Bitboard>(pos: &Position<B>, from: Square, to: Square) -> bool {
    let t = pos.rules().topology;
    t.file(from) == t.file(to) && direction(pos, from, to) == '上'
}

/// Where the pieces of `role` that can legally reach `to` stand.
fn origins<B: Bitboard>(pos: &Position<B>, legal: &[Move], role: Role, to: Square) -> Vec<Square> {
    let mut out: Vec<Square> = legal
        .iter()
        .filter_map(|m| match *m {
            Move::Normal { from, to: t, .. }
                if t == to && pos.piece_at(from).is_some_and(|p| p.role == role) =>
            {
                Some(from)
            }
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// KI2's words telling the piece on `from` apart from the others in
/// `origins` (which holds it), if some tell it apart.
fn relative<B: Bitboard>(
    pos: &Position<B>,
    from: Square,
    to: Square,
    origins: &[Square],
) -> Option<String> {
    if origins.len() < 2 {
        return Some(String::new());
    }
    let us = pos.turn();
    let others: Vec<Square> = origins.iter().copied().filter(|&s| s != from).collect();
    if straight(pos, from, to) && !others.iter().any(|&s| straight(pos, s, to)) {
        return Some("直".into());
    }
    let dir = direction(pos, from, to);
    let same_dir: Vec<Square> = others
        .iter()
        .copied()
        .filter(|&s| direction(pos, s, to) == dir)
        .collect();
    if same_dir.is_empty() {
        return Some(dir.to_string());
    }
    let x = rightward(pos, us, from);
    let side = |among: &[Square]| {
        if among.iter().all(|&s| rightward(pos, us, s) < x) {
            Some('右')
        } else if among.iter().all(|&s| rightward(pos, us, s) > x) {
            Some('左')
        } else {
            None
        }
    };
    if let Some(c) = side(&others) {
        return Some(c.to_string());
    }
    side(&same_dir).map(|c| format!("{c}{dir}"))
}

/// Writes a legal move of the position in Japanese.
pub fn format<B: Bitboard>(pos: &Position<B>, mv: Move, style: JapaneseStyle) -> String {
    let rules = pos.rules();
    let t = rules.topology;
    let to = mv.to();
    let same = pos.last_move().is_some_and(|m| m.to() == to);
    let mut s = String::new();
    if style == JapaneseStyle::Ki2 {
        s.push(mark(pos.turn()));
    }
    match (same, style) {
        (true, JapaneseStyle::Kif) => s.push_str("同　"),
        (true, JapaneseStyle::Ki2) => s.push('同'),
        (false, _) => s.push_str(&square_name(t, to)),
    }
    match mv {
        // No Japanese convention for a move in two legs is known here: the
        // piece, both squares it passes, and its origin, e.g. ５五獅子(4d)(66).
        Move::MultiLeg {
            from, via, promote, ..
        } => {
            if let Some(piece) = pos.piece_at(from) {
                s.push_str(&role_name(&rules.roles, piece.role));
            }
            if promote {
                s.push('成');
            }
            s.push_str(&format!("({})", t.usi_name(via)));
            s.push_str(&origin(t, from));
        }
        Move::Drop { role, .. } => {
            s.push_str(&role_name(&rules.roles, role));
            let legal = pos.legal_moves();
            if style == JapaneseStyle::Kif || !origins(pos, &legal, role, to).is_empty() {
                s.push('打');
            }
        }
        Move::Normal { from, promote, .. } => {
            let Some(piece) = pos.piece_at(from) else {
                return s;
            };
            s.push_str(&role_name(&rules.roles, piece.role));
            let legal = pos.legal_moves();
            let mut with_origin = style == JapaneseStyle::Kif;
            if style == JapaneseStyle::Ki2 {
                match relative(pos, from, to, &origins(pos, &legal, piece.role, to)) {
                    Some(words) => s.push_str(&words),
                    None => with_origin = true,
                }
            }
            let other = Move::Normal {
                from,
                to,
                promote: !promote,
            };
            // KIF has no 不成: a move written without 成 does not promote.
            if promote {
                s.push('成');
            } else if style == JapaneseStyle::Ki2 && legal.contains(&other) {
                s.push_str("不成");
            }
            if with_origin {
                s.push_str(&origin(t, from));
            }
        }
    }
    s
}

/// Reads a number of full- or half-width digits; the number, the rest.
fn digits(text: &str) -> (Option<u32>, &str) {
    let mut n: Option<u32> = None;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let d = FULL_DIGITS
            .iter()
            .position(|&f| f == c)
            .map(|d| d as u32)
            .or_else(|| c.to_digit(10));
        let Some(d) = d else { break };
        n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d));
        rest = &rest[c.len_utf8()..];
    }
    (n, rest)
}

/// Reads a number in kanji numerals (`十一`); the number, the rest.
fn kanji(text: &str) -> (Option<u32>, &str) {
    let mut n = 0u32;
    let mut current = 0u32;
    let mut seen = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '十' {
            n += current.max(1) * 10;
            current = 0;
        } else if let Some(d) = KANJI_DIGITS.iter().position(|&k| k == c) {
            current = current * 10 + d as u32;
        } else {
            break;
        }
        seen = true;
        rest = &rest[c.len_utf8()..];
    }
    (seen.then_some(n + current), rest)
}

/// Reads a square written in Japanese (`７六`, `76` on a small board, `１２十一`).
pub fn parse_square(t: Topology, text: &str) -> Option<(Square, &str)> {
    let (file, rest) = digits(text);
    let file = file?;
    let (rank, rest) = match kanji(rest) {
        (Some(r), rest) => (r, rest),
        // "76" on a board of at most nine files and ranks.
        (None, _) if (10..100).contains(&file) && t.cols <= 9 && t.rows <= 9 => {
            return from_numbers(t, file / 10, file % 10).map(|sq| (sq, rest));
        }
        _ => return None,
    };
    from_numbers(t, file, rank).map(|sq| (sq, rest))
}

/// The words a Japanese move can carry after the piece's name.
#[derive(Default)]
struct Words {
    drop: bool,
    promote: Option<bool>,
    straight: bool,
    direction: Option<char>,
    side: Option<char>,
    from: Option<Square>,
    /// The square a two-leg move passes, in USI (`(4d)`).
    via: Option<Square>,
}

fn words(t: Topology, text: &str, rest: &str) -> Result<Words, MoveError> {
    let mut w = Words::default();
    let mut rest = rest.trim_start_matches([' ', '　']);
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        match c {
            '打' => w.drop = true,
            '直' => w.straight = true,
            '上' | '行' | '入' => w.direction = Some('上'),
            '引' => w.direction = Some('引'),
            '寄' => w.direction = Some('寄'),
            '右' | '左' => w.side = Some(c),
            '成' => w.promote = Some(true),
            '生' => w.promote = Some(false),
            '不' if after.starts_with('成') => {
                w.promote = Some(false);
                rest = &after['成'.len_utf8()..];
                continue;
            }
            '(' | '（' => {
                let end = after
                    .find([')', '）'])
                    .ok_or_else(|| unreadable(text, "the origin in parentheses is not closed"))?;
                let inside = &after[..end];
                if let Some(via) = t.parse_usi_name(inside) {
                    w.via = Some(via);
                    let close = after[end..].chars().next().map_or(1, char::len_utf8);
                    rest = after[end + close..].trim_start();
                    continue;
                }
                let n: Vec<u32> = inside.chars().filter_map(|c| c.to_digit(10)).collect();
                let num = |d: &[u32]| d.iter().fold(0, |a, &b| a * 10 + b);
                let (f, r) = match n.len() {
                    2 => (n[0], n[1]),
                    4 => (num(&n[..2]), num(&n[2..])),
                    _ => {
                        return Err(unreadable(
                            text,
                            format!("'({inside})' is not an origin such as (77)"),
                        ));
                    }
                };
                w.from = Some(from_numbers(t, f, r).ok_or_else(|| {
                    unreadable(text, format!("'({inside})' is not a square of this board"))
                })?);
                let close = after[end..].chars().next().map_or(1, char::len_utf8);
                rest = after[end + close..].trim_start();
                continue;
            }
            ' ' | '　' => {}
            _ => {
                return Err(unreadable(
                    text,
                    format!("unexpected '{rest}' after the piece"),
                ));
            }
        }
        rest = after;
    }
    Ok(w)
}

/// Whether `text` looks like a Japanese move (it starts with a mark, a
/// digit followed by a kanji numeral, or 同).
pub fn is_japanese(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with(['▲', '△', '☗', '☖', '▽', '▼', '同'])
        || (t.chars().next().is_some_and(|c| FULL_DIGITS.contains(&c)))
        || (!t.is_ascii() && t.starts_with(|c: char| c.is_ascii_digit()))
}

/// Reads a move in Japanese and finds the legal move it means.
pub fn parse<B: Bitboard>(pos: &Position<B>, text: &str) -> Result<Move, MoveError> {
    let rules = pos.rules();
    let t = rules.topology;
    let mut s = text.trim();
    if let Some(c) = s.chars().next() {
        let side = match c {
            '▲' | '☗' | '▼' => Some(Color::Sente),
            '△' | '☖' | '▽' => Some(Color::Gote),
            _ => None,
        };
        if let Some(side) = side {
            if side != pos.turn() {
                return Err(illegal(
                    text,
                    format!(
                        "it is marked {}'s, and it is {}'s turn",
                        side.name(),
                        pos.turn().name()
                    ),
                ));
            }
            s = &s[c.len_utf8()..];
        }
    }
    let (to, rest) = if let Some(rest) = s.strip_prefix('同') {
        let last = pos
            .last_move()
            .ok_or_else(|| illegal(text, "同 (same square) with no move before it".into()))?;
        (last.to(), rest.trim_start_matches([' ', '　']))
    } else {
        parse_square(t, s).ok_or_else(|| {
            unreadable(
                text,
                format!(
                    "it does not start with a square of this {}×{} board, as ７六",
                    t.cols, t.rows
                ),
            )
        })?
    };
    let rest = rest.trim_start_matches([' ', '　']);
    // "７六同歩": some records write the square and 同 both.
    let rest = rest
        .strip_prefix('同')
        .unwrap_or(rest)
        .trim_start_matches([' ', '　']);
    let (role, rest) = take_role(&rules.roles, rest).map_err(|e| unreadable(text, e))?;
    let w = words(t, text, rest)?;
    let legal = pos.legal_moves();
    let mut found: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| m.to() == to)
        .filter(|&m| match m {
            // A two-leg move names the square it passes (see `format`).
            Move::MultiLeg { from, via, .. } => {
                w.via == Some(via)
                    && pos.piece_at(from).is_some_and(|p| p.role == role)
                    && w.from.is_none_or(|f| f == from)
            }
            Move::Drop { role: r, .. } => r == role && w.from.is_none() && w.via.is_none(),
            Move::Normal { from, .. } => {
                w.via.is_none()
                    && !w.drop
                    && pos.piece_at(from).is_some_and(|p| p.role == role)
                    && w.from.is_none_or(|f| f == from)
            }
        })
        .collect();
    if found.iter().any(|m| matches!(m, Move::Normal { .. })) && w.via.is_none() {
        found.retain(|m| matches!(m, Move::Normal { .. }));
    }
    let promotes = |m: &Move| {
        matches!(
            m,
            Move::Normal { promote: true, .. } | Move::MultiLeg { promote: true, .. }
        )
    };
    match w.promote {
        Some(p) => found.retain(|m| matches!(m, Move::Drop { .. }) || promotes(m) == p),
        None => {
            if found.iter().any(|m| !promotes(m)) {
                found.retain(|m| !promotes(m));
            }
        }
    }
    let from_of = |m: &Move| match *m {
        Move::Normal { from, .. } | Move::MultiLeg { from, .. } => Some(from),
        Move::Drop { .. } => None,
    };
    if w.straight {
        found.retain(|m| from_of(m).is_some_and(|f| straight(pos, f, to)));
    }
    if let Some(d) = w.direction {
        found.retain(|m| from_of(m).is_some_and(|f| direction(pos, f, to) == d));
    }
    if let Some(side) = w.side {
        let us = pos.turn();
        let xs: Vec<i32> = found
            .iter()
            .filter_map(from_of)
            .map(|f| rightward(pos, us, f))
            .collect();
        let best = if side == '右' {
            xs.iter().max()
        } else {
            xs.iter().min()
        }
        .copied();
        found.retain(|m| from_of(m).map(|f| rightward(pos, us, f)) == best);
    }
    match found.as_slice() {
        [m] => Ok(*m),
        [] => {
            let name = role_name(&rules.roles, role);
            let reason = match w.from {
                Some(from) => {
                    let mv = Move::Normal {
                        from,
                        to,
                        promote: w.promote == Some(true),
                    };
                    pos.explain(mv, &legal)
                }
                None if w.drop => pos.explain(Move::Drop { role, to }, &legal),
                None => format!("no {name} can go to {} as written", square_name(t, to)),
            };
            Err(illegal(text, reason))
        }
        _ => Err(illegal(
            text,
            format!(
                "{} pieces fit it: add 右, 左, 上, 引, 寄 or 直, or the origin as (77)",
                found.len()
            ),
        )),
    }
}
