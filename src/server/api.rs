//! Routing: each request to one small function returning JSON, SVG or an
//! event stream; every failure a status and a sentence.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{Value, json};

use super::http::{Method, Request, Response, Stream};
use super::session::{line_usi, move_json, state_json};
use super::{Failure, Shared, assets, editor, read_body, read_json, records};
use crate::engine::Limits;
use crate::position::{AnyPosition, Game};
use crate::render::{SvgOptions, svg};
use crate::setup::Setup;
use crate::variant::{self, Variant, VariantError};

/// A full answer.
pub(super) struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    /// A file name to save the answer as.
    disposition: Option<String>,
}

impl Reply {
    pub(super) fn json(value: &Value) -> Reply {
        Reply {
            status: 200,
            content_type: "application/json",
            body: value.to_string().into_bytes(),
            disposition: None,
        }
    }
    pub(super) fn svg(text: String) -> Reply {
        Reply {
            status: 200,
            content_type: "image/svg+xml",
            body: text.into_bytes(),
            disposition: None,
        }
    }
    pub(super) fn text(content_type: &'static str, text: &str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: text.as_bytes().to_vec(),
            disposition: None,
        }
    }
}

impl Reply {
    /// Asks the browser to save the answer as `file`.
    pub(super) fn attachment(self, file: String) -> Reply {
        Reply {
            disposition: Some(file),
            ..self
        }
    }
}

fn respond(req: Request, reply: Reply) {
    let mut response = Response::new(reply.status, reply.content_type, reply.body)
        .header("Cache-Control", "no-store")
        .header("X-Content-Type-Options", "nosniff");
    if let Some(file) = reply.disposition {
        // Only name characters: a slug from a posted file could hold anything.
        let file: String = file
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || ".-_".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        response = response.header(
            "Content-Disposition",
            &format!("attachment; filename=\"{file}\""),
        );
    }
    // The client may have gone: nothing to do about it.
    req.respond(response);
}

fn fail(req: Request, f: Failure) {
    let body = json!({"error": f.message}).to_string().into_bytes();
    respond(
        req,
        Reply {
            status: f.status,
            content_type: "application/json",
            body,
            disposition: None,
        },
    );
}

/// Answers one request.
pub(super) fn handle(shared: &Shared, mut req: Request) {
    let url = req.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let method = req.method().clone();
    // The engine's stream writes its own answer.
    if let (Method::Get, ["api", "games", id, "think"]) = (&method, parts.as_slice()) {
        return think(shared, req, id, query);
    }
    let result = match (&method, parts.as_slice()) {
        (Method::Get, [""]) => Ok(Reply::text("text/html; charset=utf-8", assets::INDEX)),
        (Method::Get, ["app.js"]) => Ok(Reply::text(
            "application/javascript; charset=utf-8",
            assets::SCRIPT,
        )),
        (Method::Get, ["style.css"]) => Ok(Reply::text("text/css; charset=utf-8", assets::STYLE)),
        (Method::Get, ["api", "variants"]) => variants(),
        (Method::Get, ["api", "variants", slug]) => variant_text(slug),
        (Method::Post, ["api", "games"]) => read_json(&mut req).and_then(|b| new_game(shared, &b)),
        (Method::Get, ["api", "games", id]) => game_state(shared, id),
        (Method::Post, ["api", "games", id, "move"]) => {
            read_json(&mut req).and_then(|b| play(shared, id, &b))
        }
        (Method::Post, ["api", "games", id, "undo"]) => undo(shared, id),
        (Method::Get, ["api", "games", id, "svg"]) => game_svg(shared, id),
        (Method::Get, ["api", "games", id, "at"]) => records::game_at(shared, id, query),
        (Method::Get, ["api", "games", id, "record"]) => records::game_record(shared, id, query),
        (Method::Post, ["api", "records"]) => {
            read_body(&mut req).and_then(|b| records::open_record(shared, &b, query))
        }
        (Method::Post, ["api", "validate"]) => {
            read_json(&mut req).and_then(|b| editor::validate(&b))
        }
        (Method::Post, ["api", "diagram"]) => read_json(&mut req).and_then(|b| editor::diagram(&b)),
        (Method::Post, ["api", "piece"]) => read_json(&mut req).and_then(|b| editor::piece(&b)),
        (Method::Post, ["api", "perft"]) => {
            read_json(&mut req).and_then(|b| editor::perft(shared, &b))
        }
        (_, p) if known_route(p) => Err(Failure::new(
            405,
            format!("{method} is not allowed on {path}"),
        )),
        _ => Err(Failure::new(404, format!("no such page: {path}"))),
    };
    match result {
        Ok(reply) => respond(req, reply),
        Err(f) => fail(req, f),
    }
}

fn known_route(parts: &[&str]) -> bool {
    matches!(
        parts,
        [""] | ["app.js"]
            | ["style.css"]
            | ["api", "variants"]
            | ["api", "variants", _]
            | ["api", "games"]
            | ["api", "games", _]
            | [
                "api",
                "games",
                _,
                "move" | "undo" | "svg" | "think" | "at" | "record"
            ]
            | ["api", "records"]
            | ["api", "validate" | "diagram" | "piece" | "perft"]
    )
}

pub(super) fn str_field<'a>(body: &'a Value, key: &str) -> Result<Option<&'a str>, Failure> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(Failure::bad(format!("'{key}' must be a string"))),
    }
}

fn variants() -> Result<Reply, Failure> {
    let mut list = Vec::new();
    for slug in variant::catalogue() {
        let v = variant::load(slug).map_err(|e| Failure::new(500, e.to_string()))?;
        let game = Game::compile(&v).map_err(|e| Failure::new(500, e.to_string()))?;
        let t = AnyPosition::start(&game).topology();
        let default = slug == variant::DEFAULT_VARIANT;
        list.push(json!({"slug": slug, "title": v.title, "files": t.cols, "ranks": t.rows, "default": default}));
    }
    Ok(Reply::json(&Value::Array(list)))
}

fn variant_text(slug: &str) -> Result<Reply, Failure> {
    variant::embedded(slug)
        .map(|text| Reply::text("text/markdown; charset=utf-8", text))
        .ok_or_else(|| Failure::new(404, format!("no embedded variant '{slug}'")))
}

/// Diagnostics as the editor shows them.
pub(super) fn diagnostics_json(e: &VariantError) -> Value {
    let d = e.diagnostics();
    if d.is_empty() {
        return json!([{"line": 0, "column": 0, "len": 0, "message": e.to_string(), "source_line": ""}]);
    }
    Value::Array(
        d.iter()
            .map(|d| {
                json!({
                    "origin": d.origin, "line": d.line, "column": d.column, "len": d.len,
                    "message": d.message, "source_line": d.source_line,
                })
            })
            .collect(),
    )
}

pub(super) fn variant_failure(e: &VariantError) -> Failure {
    Failure::new(422, e.to_string())
}

/// The variant a request names: an embedded slug (never a path on this
/// machine) or a posted document.
pub(super) fn requested_variant(body: &Value) -> Result<(Variant, Game), Failure> {
    let v = match (str_field(body, "variant")?, str_field(body, "text")?) {
        (_, Some(text)) => variant::from_text(text, "posted.md", None),
        (Some(slug), None) => {
            if variant::embedded(slug).is_none()
                && !variant::aliases().iter().any(|(a, _)| a == slug)
            {
                return Err(Failure::new(
                    404,
                    format!(
                        "unknown variant '{slug}': known variants are {}",
                        variant::catalogue().join(", ")
                    ),
                ));
            }
            variant::load(slug)
        }
        (None, None) => {
            return Err(Failure::bad(
                "give 'variant' (a slug) or 'text' (a variant file)",
            ));
        }
    }
    .map_err(|e| variant_failure(&e))?;
    let game = Game::compile(&v).map_err(|e| variant_failure(&e))?;
    Ok((v, game))
}

/// The position a request describes: the start, or its FEN/SFEN, then its moves.
pub(super) fn requested_position(body: &Value, game: &Game) -> Result<AnyPosition, Failure> {
    let setup = match (str_field(body, "fen")?, str_field(body, "sfen")?) {
        (Some(fen), _) if !fen.trim().is_empty() => Setup::parse_fen(fen.trim())
            .map_err(|e| Failure::bad(format!("cannot read the FEN: {e}")))?,
        (_, Some(sfen)) if !sfen.trim().is_empty() => Setup::parse_sfen(sfen.trim())
            .map_err(|e| Failure::bad(format!("cannot read the SFEN: {e}")))?,
        _ => game.start_setup().clone(),
    };
    let moves: Vec<String> = match body.get("moves") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|m| {
                m.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| Failure::bad("'moves' must be a list of strings"))
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(Failure::bad("'moves' must be a list of strings")),
    };
    AnyPosition::from_moves(game, &setup, &moves).map_err(|e| Failure::bad(e.to_string()))
}

/// The game a request names, an embedded one compiled once for all the
/// sessions that play it.
pub(super) fn requested_game(shared: &Shared, body: &Value) -> Result<Game, Failure> {
    let slug = match (str_field(body, "variant")?, str_field(body, "text")?) {
        (Some(slug), None) => slug,
        _ => return requested_variant(body).map(|(_, game)| game),
    };
    let cached = shared.games.lock().ok().and_then(|m| m.get(slug).cloned());
    if let Some(game) = cached {
        return Ok(game);
    }
    let (_, game) = requested_variant(body)?;
    if let Ok(mut m) = shared.games.lock() {
        m.insert(slug.to_string(), game.clone());
    }
    Ok(game)
}

fn new_game(shared: &Shared, body: &Value) -> Result<Reply, Failure> {
    let game = requested_game(shared, body)?;
    let pos = requested_position(body, &game)?;
    let state = state_json("", &pos, true);
    let id = shared.sessions.insert(pos, None);
    let mut state = state;
    state["id"] = json!(id);
    Ok(Reply::json(&state))
}

pub(super) fn no_game(id: &str) -> Failure {
    Failure::new(404, format!("no game '{id}' (it may have expired)"))
}

fn game_state(shared: &Shared, id: &str) -> Result<Reply, Failure> {
    shared
        .sessions
        .with(id, |s| Reply::json(&state_json(id, &s.pos, true)))
        .ok_or_else(|| no_game(id))
}

fn play(shared: &Shared, id: &str, body: &Value) -> Result<Reply, Failure> {
    let text = str_field(body, "move")?
        .ok_or_else(|| Failure::bad("give 'move', e.g. {\"move\": \"7g7f\"}"))?;
    shared
        .sessions
        .with(id, |s| {
            if let Some(o) = s.pos.outcome() {
                return Err(Failure::new(
                    409,
                    format!("the game is over ({})", o.reason()),
                ));
            }
            let mv = s
                .pos
                .parse_move(text)
                .map_err(|e| Failure::bad(format!("move '{text}': {e}")))?;
            s.pos
                .try_play(mv)
                .map_err(|e| Failure::bad(format!("move '{text}': {e}")))?;
            Ok(Reply::json(&state_json(id, &s.pos, false)))
        })
        .ok_or_else(|| no_game(id))?
}

fn undo(shared: &Shared, id: &str) -> Result<Reply, Failure> {
    shared
        .sessions
        .with(id, |s| {
            s.pos
                .undo()
                .ok_or_else(|| Failure::new(409, "no move to take back"))?;
            Ok(Reply::json(&state_json(id, &s.pos, false)))
        })
        .ok_or_else(|| no_game(id))?
}

fn game_svg(shared: &Shared, id: &str) -> Result<Reply, Failure> {
    shared
        .sessions
        .with(id, |s| Reply::svg(svg(&s.pos, &SvgOptions::default())))
        .ok_or_else(|| no_game(id))
}

pub(super) fn busy() -> Failure {
    Failure::new(
        503,
        "the engine is busy with other searches; try again in a moment",
    )
}

pub(super) fn query_value<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

pub(super) fn query_number(query: &str, key: &str) -> Result<Option<u64>, Failure> {
    query_value(query, key)
        .filter(|v| !v.is_empty())
        .map(|v| {
            v.parse()
                .map_err(|_| Failure::bad(format!("'{key}' must be a whole number, not '{v}'")))
        })
        .transpose()
}

/// `GET /api/games/{id}/think`: searches a copy of the game's position and
/// streams what it finds as server-sent events; with `play=1` plays the
/// best move in the game (if nobody moved meanwhile).
fn think(shared: &Shared, req: Request, id: &str, query: &str) {
    let setup = || -> Result<_, Failure> {
        let time = query_number(query, "time")?.unwrap_or(1000);
        let depth = query_number(query, "depth")?;
        if depth == Some(0) {
            return Err(Failure::bad("'depth' must be at least 1"));
        }
        let play = query_value(query, "play").is_some_and(|v| v == "1" || v == "true");
        let pos = shared
            .sessions
            .with(id, |s| s.pos.clone())
            .ok_or_else(|| no_game(id))?;
        if let Some(o) = pos.outcome() {
            return Err(Failure::new(
                409,
                format!("the game is over ({})", o.reason()),
            ));
        }
        let limits = Limits {
            time: Some(Duration::from_millis(time).min(shared.config.max_search_time)),
            depth: depth.map(|d| d.min(64) as u32),
            nodes: None,
            ..Limits::default()
        };
        Ok((pos, limits, play))
    };
    let (pos, limits, play) = match setup() {
        Ok(x) => x,
        Err(f) => return fail(req, f),
    };
    let Some(_slot) = shared.slot() else {
        return fail(req, busy());
    };
    let Ok(mut out) = req.into_stream("text/event-stream") else {
        return;
    };
    let stop = AtomicBool::new(false);
    let send = |out: &mut Stream, event: &str, data: &Value| {
        let text = format!("event: {event}\ndata: {data}\n\n");
        if out.send(text.as_bytes()).is_err() {
            // The page went away: stop thinking.
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    };
    let before = pos.history().len();
    let mut search = pos.clone();
    let mut engine = shared.engine();
    let (best, _) = engine.think_any(&mut search, limits, &stop, |info| {
        let data = json!({
            "depth": info.depth, "score": info.score, "mate": info.mate_in(),
            "nodes": info.nodes, "ms": info.elapsed.as_millis() as u64,
            "pv": line_usi(&pos, &info.pv),
        });
        send(&mut out, "info", &data);
    });
    let best_json = best.map(|mv| move_json(&pos, mv));
    send(&mut out, "bestmove", &json!({"move": best_json}));
    if play && let Some(mv) = best {
        let state = shared.sessions.with(id, |s| {
            if s.pos.history().len() == before && s.pos.hash() == pos.hash() {
                let _ = s.pos.try_play(mv);
            }
            state_json(id, &s.pos, false)
        });
        if let Some(state) = state {
            send(&mut out, "state", &state);
        }
    }
    shared.give_back(engine);
    send(&mut out, "done", &json!({}));
    let _ = out.finish();
}
