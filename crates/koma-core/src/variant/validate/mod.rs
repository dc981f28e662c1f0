//! The validator: the one place that judges a variant's `engine:` section.
//!
//! It walks the merged front matter and collects every problem with the
//! path of the key it concerns: unknown keys (with a guess at the one
//! meant), missing ones, kinds, ranges and the limits of
//! [`crate::variant::limits`], the letters, the movements, the setup and the
//! royal pieces of the start. What it accepts is typed by
//! [`crate::variant::schema`] and handed on with what checking it produced
//! (the pieces' compiled movements, the setup read), so that nothing is
//! parsed twice and the rules compiler (a layer above) assumes valid input.

mod borrow;
mod keys;
#[cfg(test)]
mod keys_agree;
mod pieces;
mod setup;
mod shape;
mod special;
#[cfg(test)]
mod tests;

use serde_yaml::Value;

use crate::board::{MAX_SQUARES, PieceId};
use crate::dsl::Moves;
use crate::setup::Setup;
use crate::variant::Problem;
use crate::variant::limits::{MAX_FILES, MAX_RANKS};
use crate::variant::schema::{EngineSpec, PieceSpec, PromotionSpec};
use keys::{
    DECLARATION, ENGINE, EVAL, PROMOTION_RULES, RECORDS, RENDER, REPETITION, REPETITION_RESULTS,
    RULES, TOPOLOGY, TOPOLOGY_TYPES,
};
use shape::Checker;

/// The largest weight `engine.eval` takes (either sign).
pub const EVAL_LIMIT: i64 = 100_000;

/// A piece as the validator accepted it: its entry of `engine.pieces`,
/// typed, with its letter and its movements compiled.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// Its name: the key in `engine.pieces`.
    pub name: String,
    /// Its ID, upper case; no other piece has it.
    pub id: PieceId,
    /// The entry as written.
    pub spec: PieceSpec,
    /// How it moves: `spec.betza` compiled.
    pub moves: Moves,
    /// How its promoted side moves, if it has one: `spec.promotion`'s
    /// `betza` compiled.
    promoted_moves: Option<Moves>,
}

impl PieceDef {
    /// Its promoted side, with how that side moves.
    pub fn promotion(&self) -> Option<(&PromotionSpec, &Moves)> {
        self.spec
            .promotion
            .as_ref()
            .zip(self.promoted_moves.as_ref())
    }
}

/// A variant's `engine:` section as the validator accepted it.
#[derive(Clone, Debug)]
pub struct Validated {
    /// The section, typed.
    pub engine: EngineSpec,
    /// Its pieces in the order declared.
    pub pieces: Vec<PieceDef>,
    /// Its start, `engine.setup`, read.
    pub start: Setup,
}

/// Judges the `engine` section of merged front matter: every problem found,
/// or the section typed with what checking it produced.
pub fn validate(front: &Value) -> Result<Validated, Vec<Problem>> {
    let Some(engine) = front.get("engine") else {
        return Err(vec![Problem::document(
            "the front matter has no 'engine' section (nor does any parent)".into(),
        )]);
    };
    let mut c = Checker::default();
    let Some(e) = c.map(engine, "engine", ENGINE, &["topology", "setup", "pieces"]) else {
        return Err(c.problems);
    };
    let (rows, cols) = match e.get("topology") {
        Some(t) => c.topology(t),
        None => (None, None),
    };
    if let Some(players) = e.get("players") {
        c.players(players);
    }
    let board = rows.zip(cols).filter(|(r, k)| r * k <= MAX_SQUARES as i64);
    let start = c.setup(e, board);
    if let Some(r) = e.get("render") {
        c.render(r);
    }
    let pieces = match e.get("pieces") {
        Some(p) => c.pieces(p),
        None => Vec::new(),
    };
    if let Some(r) = e.get("rules") {
        c.rules(r, rows);
    }
    if let Some(r) = e.get("records") {
        c.records(r);
    }
    if let Some(w) = e.get("eval").filter(|w| !w.is_null()) {
        c.eval(w);
    }
    if !c.problems.is_empty() {
        return Err(c.problems);
    }
    let engine: EngineSpec = serde_yaml::from_value(engine.clone())
        .map_err(|e| vec![Problem::value("engine", format!("in 'engine': {e}"))])?;
    // A setup that was not read was reported, so this is never taken.
    let Some(start) = start else {
        let message = "engine.setup could not be read".to_string();
        return Err(vec![Problem::value("engine.setup", message)]);
    };
    c.royals(&pieces, &start);
    c.check_wins(&engine, &pieces);
    c.trade_limits(&engine, &pieces);
    c.bare_royal(&engine, &pieces);
    c.move_as_friend(&engine, &pieces);
    if !c.problems.is_empty() {
        return Err(c.problems);
    }
    Ok(Validated {
        engine,
        pieces,
        start,
    })
}

impl Checker {
    /// `engine.topology`: its kind and size; the ranks and files if each is
    /// in range.
    fn topology(&mut self, t: &Value) -> (Option<i64>, Option<i64>) {
        let path = "engine.topology";
        let Some(t) = self.map(t, path, TOPOLOGY, &["type", "rows", "cols"]) else {
            return (None, None);
        };
        self.choice(t, path, "type", TOPOLOGY_TYPES);
        let rows = self.int(t, path, "rows", 1, MAX_RANKS.into());
        let cols = self.int(t, path, "cols", 1, MAX_FILES.into());
        if let (Some(r), Some(k)) = (rows, cols)
            && r * k > MAX_SQUARES as i64
        {
            self.value(
                "engine.topology.cols",
                format!(
                    "engine.topology: {k}×{r} = {} squares, more than the {MAX_SQUARES} koma supports",
                    r * k
                ),
            );
        }
        (rows, cols)
    }

    /// `engine.players`: a list of names.
    fn players(&mut self, players: &Value) {
        let ok = players
            .as_sequence()
            .is_some_and(|s| s.iter().all(Value::is_string));
        if !ok {
            self.value(
                "engine.players",
                "engine.players must be a list of names, such as [sente, gote]".into(),
            );
        }
    }

    /// `engine.render`.
    fn render(&mut self, r: &Value) {
        if let Some(r) = self.map(r, "engine.render", RENDER, &[]) {
            self.int(r, "engine.render", "cellSize", 8, 512);
        }
    }

    /// `engine.rules`, with the promotion zone against the board's `rows`.
    fn rules(&mut self, r: &Value, rows: Option<i64>) {
        let path = "engine.rules";
        let Some(r) = self.map(r, path, RULES, &[]) else {
            return;
        };
        let zone = self.int(r, path, "promotion_zone", 0, MAX_RANKS.into());
        if let (Some(z), Some(rows)) = (zone, rows)
            && z > rows
        {
            self.value(
                "engine.rules.promotion_zone",
                format!("engine.rules.promotion_zone: {z} ranks is deeper than the board's {rows}"),
            );
        }
        self.choice(r, path, "promotion", PROMOTION_RULES);
        // Under `capture`, a capture turns a piece over wherever it is: a
        // zone would say nothing, and is refused rather than ignored.
        if r.get("promotion").and_then(Value::as_str) == Some("capture")
            && let Some(z) = zone.filter(|&z| z > 0)
        {
            self.value(
                "engine.rules.promotion_zone",
                format!("engine.rules.promotion_zone: {z} ranks mean nothing where a capture turns the piece over anywhere (promotion: capture); write 0"),
            );
        }
        for key in [
            "drops",
            "immobile_drops",
            "immobile_moves",
            "promotes_where_immobile",
            "drop_promoted",
            "check",
            "check_wins",
        ] {
            self.boolean(r, path, key);
        }
        if let Some(rep) = r.get("repetition") {
            self.repetition(rep);
        }
        if let Some(t) = r.get("trade_limits") {
            self.trade_limits_shape(t);
        }
        if let Some(b) = r.get("bare_royal") {
            self.bare_royal_shape(b);
        }
        if let Some(m) = r.get("move_as_friend_at").filter(|m| !m.is_null()) {
            self.move_as_friend_shape(m);
        }
        if let Some(d) = r.get("declaration").filter(|d| !d.is_null()) {
            self.declaration(d, rows);
        }
    }

    /// `engine.rules.declaration`.
    fn declaration(&mut self, d: &Value, rows: Option<i64>) {
        let path = "engine.rules.declaration";
        let Some(d) = self.map(d, path, DECLARATION, &["sente_points", "gote_points"]) else {
            return;
        };
        let zone = self.int(d, path, "zone", 1, MAX_RANKS.into());
        if let (Some(z), Some(rows)) = (zone, rows)
            && z > rows
        {
            self.value(
                "engine.rules.declaration.zone",
                format!(
                    "engine.rules.declaration.zone: {z} ranks is deeper than the board's {rows}"
                ),
            );
        }
        self.int(d, path, "pieces", 0, 256);
        self.int(d, path, "sente_points", 0, 100_000);
        self.int(d, path, "gote_points", 0, 100_000);
    }

    /// `engine.rules.check_wins`: a check can only be given where the
    /// check rule holds and some piece is royal.
    fn check_wins(&mut self, spec: &EngineSpec, pieces: &[PieceDef]) {
        if !spec.rules.check_wins {
            return;
        }
        let path = "engine.rules.check_wins";
        if !spec.rules.check {
            self.value(
                path,
                format!("{path}: giving check cannot win where engine.rules.check is false (royals may then be attacked and captured, and nobody is in check)"),
            );
        }
        let royal = pieces
            .iter()
            .any(|p| p.spec.royal || p.spec.promotion.as_ref().is_some_and(|q| q.royal));
        if !royal {
            self.value(
                path,
                format!("{path}: no piece is royal, so no move can give check"),
            );
        }
    }

    /// `engine.records`: names, each one line of text.
    fn records(&mut self, r: &Value) {
        let path = "engine.records";
        let Some(r) = self.map(r, path, RECORDS, &[]) else {
            return;
        };
        for key in RECORDS {
            if let Some(s) = self.string(r, path, key)
                && (s.trim().is_empty() || s.contains(['\n', '\r']))
            {
                let p = format!("{path}.{key}");
                self.value(&p, format!("{p} must be a name on one line, not '{s}'"));
            }
        }
    }

    /// `engine.eval`: whole numbers, in the range the engine's options
    /// take; `king_divisor` divides, so it is positive.
    fn eval(&mut self, w: &Value) {
        let path = "engine.eval";
        let Some(w) = self.map(w, path, EVAL, &[]) else {
            return;
        };
        for key in EVAL {
            let min = if *key == "king_divisor" {
                1
            } else {
                -EVAL_LIMIT
            };
            self.int(w, path, key, min, EVAL_LIMIT);
        }
    }

    /// `engine.rules.repetition`.
    fn repetition(&mut self, rep: &Value) {
        let path = "engine.rules.repetition";
        let Some(rep) = self.map(rep, path, REPETITION, &[]) else {
            return;
        };
        self.int(rep, path, "count", 2, 100);
        self.choice(rep, path, "result", REPETITION_RESULTS);
        self.boolean(rep, path, "perpetual_check_loses");
        self.boolean(rep, path, "counterstrike_distinguishes");
    }
}
