//! The variant editor's requests: a file checked, its start drawn, a
//! piece's movement drawn, perft counted.

use serde_json::{Value, json};

use super::api::{Reply, busy, diagnostics_json, requested_position, requested_variant, str_field};
use super::{Failure, Shared};
use crate::position::{AnyPosition, Game};
use crate::render::{Labels, SvgOptions, caption, movement_svg, svg};
use crate::variant;

pub(super) fn validate(body: &Value) -> Result<Reply, Failure> {
    let text =
        str_field(body, "text")?.ok_or_else(|| Failure::bad("give 'text', the variant file"))?;
    let result =
        variant::from_text(text, "posted.md", None).and_then(|v| Game::compile(&v).map(|g| (v, g)));
    Ok(Reply::json(&match result {
        Ok((v, game)) => {
            let pos = AnyPosition::start(&game);
            let t = pos.topology();
            let roles: Vec<Value> = pos
                .roles()
                .iter()
                .map(|r| json!({"name": r.name, "letter": r.id.to_string(), "promoted": r.promoted, "betza": r.betza}))
                .collect();
            json!({"ok": true, "slug": v.slug, "title": v.title, "files": t.cols, "ranks": t.rows,
                   "roles": roles, "diagnostics": []})
        }
        Err(e) => json!({"ok": false, "diagnostics": diagnostics_json(&e)}),
    }))
}

pub(super) fn diagram(body: &Value) -> Result<Reply, Failure> {
    let (v, game) = requested_variant(body)?;
    let title = caption(&v.body, &format!("{}-board.svg", v.slug))
        .unwrap_or_else(|| format!("{} — starting position", v.title));
    Ok(Reply::svg(svg(
        &AnyPosition::start(&game),
        &SvgOptions {
            title: Some(title),
            ..SvgOptions::default()
        },
    )))
}

pub(super) fn piece(body: &Value) -> Result<Reply, Failure> {
    let (_, game) = requested_variant(body)?;
    let name =
        str_field(body, "piece")?.ok_or_else(|| Failure::bad("give 'piece', a name or letter"))?;
    let pos = AnyPosition::start(&game);
    let role = pos.role_by_name(name).ok_or_else(|| {
        let names: Vec<&str> = pos.roles().iter().map(|r| r.name.as_str()).collect();
        Failure::new(
            404,
            format!(
                "no piece '{name}' in this variant: its pieces are {}",
                names.join(", ")
            ),
        )
    })?;
    Ok(Reply::svg(movement_svg(&pos, role, Labels::Kanji)))
}

pub(super) fn perft(shared: &Shared, body: &Value) -> Result<Reply, Failure> {
    let (_, game) = requested_variant(body)?;
    let mut pos = requested_position(body, &game)?;
    let max = shared.config.max_perft_depth;
    let depth = match body.get("depth") {
        None | Some(Value::Null) => 3,
        Some(d) => d
            .as_u64()
            .filter(|&d| (1..=max as u64).contains(&d))
            .ok_or_else(|| {
                Failure::bad(format!("'depth' must be a whole number from 1 to {max}"))
            })? as u32,
    };
    let _slot = shared.slot().ok_or_else(busy)?;
    // perft cannot be stopped once started: each depth is begun only if,
    // growing as the last one did, it should end within the search time.
    let budget = shared.config.max_search_time.as_secs_f64();
    let mut nodes: Vec<u64> = Vec::new();
    let mut stopped = None;
    let mut last_time = 0.0;
    for d in 1..=depth {
        if let [.., a, b] = nodes[..] {
            let estimate = last_time * b as f64 / (a.max(1)) as f64;
            if estimate > budget {
                stopped = Some(format!(
                    "depth {d} would take about {estimate:.1} s, more than the {budget:.1} s allowed"
                ));
                break;
            }
        }
        let start = std::time::Instant::now();
        nodes.push(pos.perft(d));
        last_time = start.elapsed().as_secs_f64();
    }
    Ok(Reply::json(
        &json!({"depth": nodes.len(), "nodes": nodes, "stopped": stopped}),
    ))
}
