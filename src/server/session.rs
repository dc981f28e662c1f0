//! Games kept between requests: bounded in number, forgotten when unused,
//! and what the page is told about a position.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::board::{Color, Square};
use crate::notation::Notation;
use crate::position::{AnyPosition, Move, Outcome};
use crate::record::{GameRecord, GameResult};
use crate::render::{Labels, piece_svg};

/// One game.
pub(super) struct Session {
    pub pos: AnyPosition,
    /// The record the game was opened from: its headers, comments, move
    /// times and result go into the game's record again.
    pub opened: Option<GameRecord>,
    last_used: Instant,
}

impl Session {
    /// The game as a record: the opened record's headers always; its
    /// comments, times and result while the moves are still its moves (a
    /// result of the rules, once the game has one, wins over it).
    pub fn record(&self) -> GameRecord {
        let mut rec = GameRecord::from_position(&self.pos);
        if let Some(opened) = &self.opened {
            rec.headers = opened.headers.clone();
            let same = opened.moves.iter().map(|m| m.mv).eq(self.pos.history());
            if same && opened.start == rec.start {
                rec.start_comment = opened.start_comment.clone();
                rec.moves = opened.moves.clone();
                rec.result = opened.result;
            }
        }
        if let Some(o) = self.pos.outcome() {
            rec.result = Some(GameResult::from(&o));
        }
        rec
    }
}

/// The games, by id.
pub(super) struct Sessions {
    map: Mutex<HashMap<String, Session>>,
    max: usize,
    ttl: Duration,
    ids: RandomState,
    counter: std::sync::atomic::AtomicU64,
}

impl Sessions {
    pub fn new(max: usize, ttl: Duration) -> Sessions {
        Sessions {
            map: Mutex::new(HashMap::new()),
            max: max.max(1),
            ttl,
            ids: RandomState::new(),
            counter: std::sync::atomic::AtomicU64::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Session>> {
        // A panic while holding the lock leaves positions whole (every
        // change is one call): carry on with them.
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps a new game; returns its id. Expired games go first, then, if
    /// still full, the least recently used.
    pub fn insert(&self, pos: AnyPosition, opened: Option<GameRecord>) -> String {
        let n = self
            .counter
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let id = format!("{:016x}", self.ids.hash_one(n));
        let mut map = self.lock();
        let now = Instant::now();
        map.retain(|_, s| now.duration_since(s.last_used) < self.ttl);
        while map.len() >= self.max {
            let Some(oldest) = map
                .iter()
                .min_by_key(|(_, s)| s.last_used)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            map.remove(&oldest);
        }
        map.insert(
            id.clone(),
            Session {
                pos,
                opened,
                last_used: now,
            },
        );
        id
    }

    /// Runs `f` on a game, if it is kept and not expired.
    pub fn with<T>(&self, id: &str, f: impl FnOnce(&mut Session) -> T) -> Option<T> {
        let mut map = self.lock();
        let now = Instant::now();
        let s = map.get_mut(id)?;
        if now.duration_since(s.last_used) >= self.ttl {
            map.remove(id);
            return None;
        }
        s.last_used = now;
        Some(f(s))
    }
}

fn color_name(c: Color) -> &'static str {
    c.name()
}

fn square(pos: &AnyPosition, sq: Square) -> String {
    pos.topology().usi_name(sq)
}

/// A move as the page needs it: its USI text, where from (or which role
/// is dropped), where to, and whether it promotes.
pub(super) fn move_json(pos: &AnyPosition, mv: Move) -> Value {
    let usi = pos.format_move(mv, Notation::Usi);
    match mv {
        Move::Normal { from, to, promote } => json!({
            "usi": usi, "from": square(pos, from), "to": square(pos, to), "promote": promote,
        }),
        Move::Drop { role, to } => json!({
            "usi": usi, "drop": role.index(), "to": square(pos, to), "promote": false,
        }),
        Move::MultiLeg {
            from,
            via,
            to,
            promote,
        } => json!({
            "usi": usi, "from": square(pos, from), "via": square(pos, via), "to": square(pos, to), "promote": promote,
        }),
    }
}

/// The moves that led to the position, in `notation`.
pub(super) fn history(pos: &AnyPosition, notation: Notation) -> Vec<String> {
    let moves = pos.history();
    let mut p = pos.clone();
    for _ in &moves {
        p.undo();
    }
    moves
        .iter()
        .map(|&mv| {
            let s = p.format_move(mv, notation);
            let _ = p.try_play(mv);
            s
        })
        .collect()
}

/// Moves in USI played one after the other from `pos` (a principal variation).
pub(super) fn line_usi(pos: &AnyPosition, moves: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &mv in moves {
        out.push(p.format_move(mv, Notation::Usi));
        if p.try_play(mv).is_err() {
            break;
        }
    }
    out
}

pub(super) fn outcome_json(o: &Outcome) -> Value {
    let text = match o.winner() {
        Some(w) => format!("{} wins: {}", color_name(w), o.reason()),
        None => format!("draw: {}", o.reason()),
    };
    json!({
        "winner": o.winner().map(color_name),
        "reason": o.reason().as_str(),
        "text": text,
    })
}

/// The roles of the game: names, letters and each one's piece drawing.
pub(super) fn roles_json(pos: &AnyPosition) -> Value {
    let roles: Vec<Value> = pos
        .roles()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let role = crate::rules::Role(i as u16);
            json!({
                "index": i,
                "name": r.name,
                "letter": r.id.to_string(),
                "promoted": r.promoted,
                "kanji": r.kanji,
                "betza": r.betza,
                "svg": piece_svg(pos, role, Labels::Kanji),
            })
        })
        .collect();
    Value::Array(roles)
}

/// Everything the page draws a position from. The board is listed row by
/// row from sente's far side, each row from sente's left, so the page
/// lays out any size without knowing the square names' rules; a hole of
/// the board is listed with `"hole": true` and no piece.
pub(super) fn state_json(id: &str, pos: &AnyPosition, with_roles: bool) -> Value {
    let t = pos.topology();
    let mut board = Vec::with_capacity(t.len());
    for row in 0..t.rows {
        let rank = t.rows - 1 - row;
        for file in 0..t.cols {
            let Some(sq) = t.cell(file as i32, rank as i32) else {
                continue;
            };
            if t.is_hole(sq) {
                board.push(json!({"sq": square(pos, sq), "x": file, "y": row, "hole": true}));
                continue;
            }
            let piece = pos
                .piece_at(sq)
                .map(|p| json!({"role": p.role.index(), "color": color_name(p.color)}));
            board.push(json!({"sq": square(pos, sq), "x": file, "y": row, "piece": piece}));
        }
    }
    let mut hands = serde_json::Map::new();
    for color in Color::ALL {
        let hand: Vec<Value> = (0..pos.roles().len())
            .filter_map(|i| {
                let role = crate::rules::Role(i as u16);
                let n = pos.hand(color, role);
                (n > 0).then(|| json!({"role": i, "count": n}))
            })
            .collect();
        hands.insert(color_name(color).to_string(), Value::Array(hand));
    }
    let turn = pos.turn();
    let check: Vec<String> = if pos.in_check() {
        t.squares()
            .filter(|&sq| {
                pos.piece_at(sq)
                    .is_some_and(|p| p.color == turn && pos.role(p.role).royal)
            })
            .map(|sq| square(pos, sq))
            .collect()
    } else {
        Vec::new()
    };
    let outcome = pos.outcome();
    let moves: Vec<Value> = if outcome.is_some() {
        Vec::new()
    } else {
        pos.legal_moves()
            .into_iter()
            .map(|m| move_json(pos, m))
            .collect()
    };
    let last = pos.last_move().map(|mv| match mv {
        Move::Normal { from, to, .. } | Move::MultiLeg { from, to, .. } => {
            json!({"from": square(pos, from), "to": square(pos, to)})
        }
        Move::Drop { to, .. } => json!({"from": null, "to": square(pos, to)}),
    });
    let mut state = json!({
        "id": id,
        "variant": {"slug": pos.slug(), "title": pos.title()},
        "files": t.cols,
        "ranks": t.rows,
        "turn": color_name(turn),
        "sfen": pos.sfen(),
        "fen": pos.fen(),
        "move_number": pos.move_number(),
        "board": board,
        "hands": hands,
        "in_check": pos.in_check(),
        "check": check,
        "last_move": last,
        "history": history(pos, Notation::Usi),
        "history_japanese": history(pos, Notation::Japanese),
        "moves": moves,
        "outcome": outcome.as_ref().map(outcome_json),
    });
    if with_roles {
        state["roles"] = roles_json(pos);
    }
    state
}
