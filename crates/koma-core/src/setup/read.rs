//! Reading FEN (as Fairy-Stockfish writes it, or pyffish's `[-]` form) and SFEN.

use super::{MAX_MOVE_NUMBER, Setup, SetupError, SetupPiece};
use crate::board::{Color, PieceId, read_written_id};

fn err(column: usize, message: impl Into<String>) -> SetupError {
    SetupError {
        column,
        message: message.into(),
    }
}

/// A whitespace-separated field with its starting character position.
fn fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// The ranks of a board field, with its holes (`*`) as (rank, file).
type Board = (Vec<Vec<Option<SetupPiece>>>, Vec<(usize, usize)>);

fn parse_board(text: &str, at: usize) -> Result<Board, SetupError> {
    let mut ranks = vec![Vec::new()];
    let mut holes = Vec::new();
    let mut promoted_at: Option<usize> = None;
    let mut number = String::new();
    let flush = |number: &mut String,
                 rank: &mut Vec<Option<SetupPiece>>,
                 col: usize|
     -> Result<(), SetupError> {
        if !number.is_empty() {
            let n: usize = number
                .parse()
                .map_err(|_| err(col, "bad number of empty squares"))?;
            if n == 0 || n > 64 {
                return Err(err(
                    col,
                    format!("{n} empty squares in a rank is out of range"),
                ));
            }
            rank.extend(std::iter::repeat_n(None, n));
            number.clear();
        }
        Ok(())
    };
    let mut next = 0;
    while let Some(c) = text[next..].chars().next() {
        let i = next;
        next += c.len_utf8();
        let col = at + i;
        let rank_index = ranks.len() - 1;
        let rank = ranks.last_mut().expect("ranks starts non-empty");
        if c.is_ascii_digit() {
            if promoted_at.is_some() {
                return Err(err(col, "'+' must be followed by a piece letter"));
            }
            number.push(c);
            continue;
        }
        flush(&mut number, rank, col)?;
        match c {
            '/' => {
                if let Some(p) = promoted_at {
                    return Err(err(p, "'+' must be followed by a piece letter"));
                }
                ranks.push(Vec::new());
            }
            '+' => {
                if promoted_at.is_some() {
                    return Err(err(col, "a second '+' before one piece"));
                }
                promoted_at = Some(col);
            }
            '*' => {
                if promoted_at.is_some() {
                    return Err(err(
                        col,
                        "'+' must be followed by a piece letter, not a hole '*'",
                    ));
                }
                holes.push((rank_index, rank.len()));
                rank.push(None);
            }
            c if c.is_ascii_alphabetic() || c == '(' => {
                let (id, color, used) = read_written_id(&text[i..]).map_err(|m| err(col, m))?;
                next = i + used;
                rank.push(Some(SetupPiece {
                    color,
                    id,
                    promoted: promoted_at.take().is_some(),
                }));
            }
            c => {
                return Err(err(
                    col,
                    format!(
                        "unexpected '{c}' in the board: expected piece letters (an ID of more letters in parentheses), digits, '+', '*' (a hole) or '/'"
                    ),
                ));
            }
        }
        if ranks.len() > 64 || ranks.last().is_some_and(|r| r.len() > 64) {
            return Err(err(col, "the board is too large"));
        }
    }
    let end = at + text.len();
    if let Some(p) = promoted_at {
        return Err(err(p, "'+' must be followed by a piece letter"));
    }
    let rank = ranks.last_mut().expect("ranks starts non-empty");
    flush(&mut number, rank, end)?;
    Ok((ranks, holes))
}

/// Hands as Fairy-Stockfish writes them: letters, each one piece (`PPb`), or
/// SFEN's counts before letters (`2Pb`); an ID of more letters in
/// parentheses (`2(FD)`).
fn parse_hand(
    text: &str,
    at: usize,
    allow_dash: bool,
) -> Result<Vec<(Color, PieceId, u32)>, SetupError> {
    let mut hands: Vec<(Color, PieceId, u32)> = Vec::new();
    if allow_dash && text == "-" {
        return Ok(hands);
    }
    let mut count = String::new();
    let mut next = 0;
    while let Some(c) = text[next..].chars().next() {
        let i = next;
        next += c.len_utf8();
        let col = at + i;
        if c.is_ascii_digit() {
            count.push(c);
            continue;
        }
        if !c.is_ascii_alphabetic() && c != '(' {
            return Err(err(
                col,
                format!(
                    "unexpected '{c}' in a hand: expected piece letters (or IDs of more letters in parentheses), each optionally after a count"
                ),
            ));
        }
        let (id, color, used) = read_written_id(&text[i..]).map_err(|m| err(col, m))?;
        next = i + used;
        let n: u32 = if count.is_empty() {
            1
        } else {
            count
                .parse()
                .ok()
                .filter(|n| (1..=255).contains(n))
                .ok_or_else(|| err(col, format!("hand count {count} is out of range")))?
        };
        count.clear();
        match hands.iter_mut().find(|(co, l, _)| *co == color && *l == id) {
            Some(h) => h.2 = (h.2 + n).min(255),
            None => hands.push((color, id, n)),
        }
    }
    if !count.is_empty() {
        return Err(err(
            at + text.len(),
            "a hand count must be followed by a piece letter",
        ));
    }
    Ok(hands)
}

/// Whether a field has the form of a USI square's name: digits (no leading
/// zero) then one lower-case letter.
fn looks_like_square(field: &str) -> bool {
    let digits = field.len() - 1;
    field.len() >= 2
        && !field.starts_with('0')
        && field[..digits].bytes().all(|b| b.is_ascii_digit())
        && field.as_bytes()[digits].is_ascii_lowercase()
}

impl Setup {
    /// Reads a FEN as Fairy-Stockfish writes it: `board[hands] w|b ...`, where
    /// `w` is sente. Only the board is required; what follows may be
    /// `- - halfmove fullmove`.
    pub fn parse_fen(text: &str) -> Result<Setup, SetupError> {
        let f = fields(text);
        let Some(&(at, board_field)) = f.first() else {
            return Err(err(0, "the FEN is empty"));
        };
        let mut setup = Setup::default();
        let (board, hand) = match board_field.find('[') {
            Some(open) => {
                let close = board_field
                    .rfind(']')
                    .filter(|&c| c > open)
                    .ok_or_else(|| err(at + open, "'[' of the hands is not closed by ']'"))?;
                if close + 1 != board_field.len() {
                    return Err(err(at + close + 1, "nothing may follow the hands' ']'"));
                }
                (
                    &board_field[..open],
                    Some((at + open + 1, &board_field[open + 1..close])),
                )
            }
            None => (board_field, None),
        };
        (setup.ranks, setup.holes) = parse_board(board, at)?;
        if let Some((hat, h)) = hand {
            // `[-]` is how pyffish writes empty hands.
            setup.hands = parse_hand(h, hat, true)?;
        }
        if let Some(&(col, side)) = f.get(1) {
            setup.turn = match side {
                "w" => Color::Sente,
                "b" => Color::Gote,
                _ => {
                    return Err(err(
                        col,
                        format!(
                            "'{side}' is not a side to move: expected 'w' (sente) or 'b' (gote)"
                        ),
                    ));
                }
            };
        }
        // Then `- -` (castling, en passant: always empty in shogi) may be left
        // out, as pyffish does; the numbers are the half-move count and the move number.
        let mut numbers = Vec::new();
        for (i, &(col, field)) in f.iter().enumerate().skip(2) {
            if field == "-" && numbers.is_empty() && i < 4 {
                continue;
            }
            let n: u32 = field.parse().map_err(|_| {
                err(col, format!("unexpected '{field}': after the side to move a FEN has '- -', a half-move count and a move number"))
            })?;
            if numbers.len() == 2 {
                return Err(err(col, format!("unexpected '{field}' after the FEN")));
            }
            numbers.push(n);
        }
        let gote = u32::from(setup.turn == Color::Gote);
        if let (Some(&n), Some(&(col, _))) = (numbers.get(1), f.last())
            && n > MAX_MOVE_NUMBER / 2
        {
            let most = MAX_MOVE_NUMBER / 2;
            return Err(err(
                col,
                format!("move number {n} is too large: at most {most}"),
            ));
        }
        setup.move_number = match numbers.get(1) {
            // FEN counts full moves; a setup counts plies as SFEN does.
            Some(&n) => 2 * (n.max(1) - 1) + 1 + gote,
            None => 1 + gote,
        };
        Ok(setup)
    }
    /// Reads an SFEN: `board b|w hands move-number`, where `b` is sente.
    pub fn parse_sfen(text: &str) -> Result<Setup, SetupError> {
        let f = fields(text);
        let Some(&(at, board)) = f.first() else {
            return Err(err(0, "the SFEN is empty"));
        };
        let (ranks, holes) = parse_board(board, at)?;
        let mut setup = Setup {
            ranks,
            holes,
            ..Setup::default()
        };
        let Some(&(col, side)) = f.get(1) else {
            return Err(err(
                text.len(),
                "the SFEN has no side to move: expected 'b' (sente) or 'w' (gote)",
            ));
        };
        setup.turn = match side {
            "b" => Color::Sente,
            "w" => Color::Gote,
            _ => {
                return Err(err(
                    col,
                    format!("'{side}' is not a side to move: expected 'b' (sente) or 'w' (gote)"),
                ));
            }
        };
        if let Some(&(col, hand)) = f.get(2) {
            setup.hands = parse_hand(hand, col, true)?;
            if looks_like_square(hand) {
                setup.capture_square = Some(hand.to_string());
            }
        }
        if let Some(&(col, n)) = f.get(3) {
            let number = n
                .parse::<u32>()
                .map_err(|_| err(col, format!("'{n}' is not a move number")))?;
            if number > MAX_MOVE_NUMBER {
                return Err(err(
                    col,
                    format!("move number {number} is too large: at most {MAX_MOVE_NUMBER}"),
                ));
            }
            setup.move_number = number.max(1);
        }
        if let Some(&(col, extra)) = f.get(4) {
            return Err(err(col, format!("unexpected '{extra}' after the SFEN")));
        }
        Ok(setup)
    }

    /// Reads a variant file's setup string: a FEN (or just its board part).
    pub fn parse(text: &str) -> Result<Setup, SetupError> {
        Setup::parse_fen(text)
    }
}
