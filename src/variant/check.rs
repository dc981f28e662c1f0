//! Checks the merged front matter against the schema, collecting every
//! problem with the path of the key it concerns. What this accepts, serde
//! deserializes; what the engine still refuses is reported by the compiler.

use serde_yaml::{Mapping, Value};

use super::Problem;
use crate::board::{MAX_SIDE, MAX_SQUARES};
use crate::dsl;
use crate::position::Setup;

const ENGINE: &[&str] = &["topology", "players", "setup", "render", "pieces", "rules"];
const TOPOLOGY: &[&str] = &["type", "rows", "cols"];
const RENDER: &[&str] = &["cellSize"];
const PIECE: &[&str] = &[
    "letter",
    "betza",
    "kanji",
    "royal",
    "max_per_file",
    "drop_mate_illegal",
    "wins_on_last_rank",
    "value",
    "hand_value",
    "promotion",
];
const PROMOTION: &[&str] = &["name", "betza", "kanji", "royal", "value"];
const RULES: &[&str] = &[
    "promotion_zone",
    "promotion",
    "drops",
    "immobile_drops",
    "drop_promoted",
    "check",
    "repetition",
];
const REPETITION: &[&str] = &["count", "result", "perpetual_check_loses"];

struct Checker {
    problems: Vec<Problem>,
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

fn join(path: &str, key: &str) -> String {
    format!("{path}.{key}")
}

impl Checker {
    fn value(&mut self, path: &str, message: String) {
        self.problems.push(Problem::value(path, message));
    }

    fn map<'v>(
        &mut self,
        v: &'v Value,
        path: &str,
        known: &[&str],
        required: &[&str],
    ) -> Option<&'v Mapping> {
        let Value::Mapping(m) = v else {
            self.value(
                path,
                format!("{path} must be a mapping of keys, not {}", kind(v)),
            );
            return None;
        };
        for key in m.keys() {
            let Some(k) = key.as_str() else {
                self.value(
                    path,
                    format!("a key of {path} is {}, not a name", kind(key)),
                );
                continue;
            };
            if !known.contains(&k) {
                let best = known
                    .iter()
                    .map(|c| (strsim::damerau_levenshtein(k, c), *c))
                    .min();
                let hint = match best {
                    Some((d, c)) if d <= 2 || (d <= 3 && k.len() > 6) => {
                        format!(" (did you mean '{c}'?)")
                    }
                    _ => format!(" (known keys: {})", known.join(", ")),
                };
                self.problems.push(Problem::key(
                    &join(path, k),
                    format!("unknown key '{k}' in {path}{hint}"),
                ));
            }
        }
        for r in required {
            if !m.contains_key(*r) {
                self.value(path, format!("{path} needs the key '{r}'"));
            }
        }
        Some(m)
    }

    fn int(&mut self, m: &Mapping, path: &str, key: &str, min: i64, max: i64) -> Option<i64> {
        let v = m.get(key)?;
        let p = join(path, key);
        match v.as_i64() {
            Some(n) if (min..=max).contains(&n) => Some(n),
            Some(n) => {
                self.value(
                    &p,
                    format!("{p} is {n}, out of range: expected {min} to {max}"),
                );
                None
            }
            None => {
                self.value(&p, format!("{p} must be a whole number, not {}", kind(v)));
                None
            }
        }
    }

    fn boolean(&mut self, m: &Mapping, path: &str, key: &str) {
        if let Some(v) = m.get(key)
            && !v.is_bool()
        {
            let p = join(path, key);
            self.value(&p, format!("{p} must be true or false, not {}", kind(v)));
        }
    }

    fn string<'v>(&mut self, m: &'v Mapping, path: &str, key: &str) -> Option<&'v str> {
        let v = m.get(key)?;
        match v.as_str() {
            Some(s) => Some(s),
            None => {
                let p = join(path, key);
                self.value(&p, format!("{p} must be text, not {}", kind(v)));
                None
            }
        }
    }

    fn choice(&mut self, m: &Mapping, path: &str, key: &str, choices: &[&str]) {
        if let Some(s) = self.string(m, path, key)
            && !choices.contains(&s)
        {
            let p = join(path, key);
            self.value(
                &p,
                format!("{p}: '{s}' is not one of {}", choices.join(", ")),
            );
        }
    }

    fn betza(&mut self, m: &Mapping, path: &str) {
        let Some(text) = self.string(m, path, "betza") else {
            return;
        };
        if let Err(errors) = dsl::steps(text) {
            let p = join(path, "betza");
            for e in errors {
                let offset = text[..e.span.start.min(text.len())].chars().count();
                let len = text
                    .get(e.span.start..e.span.end)
                    .map_or(1, |s| s.chars().count())
                    .max(1);
                self.problems.push(Problem::inside(
                    &p,
                    offset,
                    len,
                    format!("{p}: {}", e.message),
                ));
            }
        }
    }

    fn pieces(&mut self, v: &Value) {
        let Value::Mapping(m) = v else {
            self.value(
                "engine.pieces",
                format!(
                    "engine.pieces must map piece names to pieces, not {}",
                    kind(v)
                ),
            );
            return;
        };
        if m.is_empty() {
            self.value("engine.pieces", "engine.pieces declares no piece".into());
        }
        for (name, piece) in m {
            let Some(name) = name.as_str() else {
                self.value(
                    "engine.pieces",
                    format!("a piece name is {}, not text", kind(name)),
                );
                continue;
            };
            let path = format!("engine.pieces.{name}");
            let Some(p) = self.map(piece, &path, PIECE, &["letter", "betza"]) else {
                continue;
            };
            if let Some(l) = self.string(p, &path, "letter") {
                let mut c = l.chars();
                if !matches!((c.next(), c.next()), (Some(ch), None) if ch.is_ascii_alphabetic()) {
                    let lp = join(&path, "letter");
                    self.value(&lp, format!("{lp}: '{l}' must be one ASCII letter"));
                }
            }
            self.betza(p, &path);
            self.string(p, &path, "kanji");
            for key in ["royal", "drop_mate_illegal", "wins_on_last_rank"] {
                self.boolean(p, &path, key);
            }
            self.int(p, &path, "max_per_file", 1, 255);
            self.int(p, &path, "value", -1_000_000, 1_000_000);
            self.int(p, &path, "hand_value", -1_000_000, 1_000_000);
            if let Some(pr) = p.get("promotion") {
                let pp = join(&path, "promotion");
                if let Some(pm) = self.map(pr, &pp, PROMOTION, &["name", "betza"]) {
                    self.string(pm, &pp, "name");
                    self.betza(pm, &pp);
                    self.string(pm, &pp, "kanji");
                    self.boolean(pm, &pp, "royal");
                    self.int(pm, &pp, "value", -1_000_000, 1_000_000);
                }
            }
        }
    }
}

impl Checker {
    /// The board of the setup against the topology and the declared letters,
    /// each problem at its character.
    fn setup_board(&mut self, setup: &str, engine: &Mapping, rows: Option<i64>) {
        let cols = engine
            .get("topology")
            .and_then(|t| t.get("cols"))
            .and_then(Value::as_i64);
        // A board that is itself wrong was reported already; its setup would only repeat it.
        let side = 1..=MAX_SIDE as i64;
        let (Some(rows), Some(cols)) = (rows, cols.filter(|c| side.contains(c))) else {
            return;
        };
        if rows * cols > MAX_SQUARES as i64 {
            return;
        }
        let rank_count = setup
            .split(['[', ' '])
            .next()
            .unwrap_or_default()
            .split('/')
            .count() as i64;
        if rank_count != rows {
            self.problems.push(Problem::value(
                "engine.setup",
                format!("engine.setup has {rank_count} ranks, the board {rows}"),
            ));
            return;
        }
        let mut widths = Vec::new();
        let mut letters: Vec<(char, bool)> = Vec::new();
        if let Some(Value::Mapping(pieces)) = engine.get("pieces") {
            for piece in pieces.values() {
                let letter = piece
                    .get("letter")
                    .and_then(Value::as_str)
                    .and_then(|l| l.chars().next());
                if let Some(l) = letter {
                    letters.push((
                        l.to_ascii_uppercase(),
                        piece.get("promotion").is_some_and(|p| !p.is_null()),
                    ));
                }
            }
        }
        let board = setup.split(['[', ' ']).next().unwrap_or_default();
        let mut rank_start = 0;
        let mut ranks = 0;
        for rank in board.split('/') {
            ranks += 1;
            let mut files = 0i64;
            let mut number = String::new();
            let mut promoted = false;
            for (i, ch) in rank.chars().enumerate() {
                if ch.is_ascii_digit() {
                    number.push(ch);
                    continue;
                }
                files += number.parse::<i64>().unwrap_or(0);
                number.clear();
                if ch == '+' {
                    promoted = true;
                    continue;
                }
                files += 1;
                let up = ch.to_ascii_uppercase();
                let at = rank_start + i;
                match letters.iter().find(|(l, _)| *l == up) {
                    None if !letters.is_empty() => self.problems.push(Problem::inside(
                        "engine.setup",
                        at,
                        1,
                        format!(
                            "engine.setup: '{ch}' is not the letter of any piece in engine.pieces"
                        ),
                    )),
                    Some((_, false)) if promoted => self.problems.push(Problem::inside(
                        "engine.setup",
                        at - 1,
                        2,
                        format!("engine.setup: '+{ch}': this piece has no promoted side"),
                    )),
                    _ => {}
                }
                promoted = false;
            }
            files += number.parse::<i64>().unwrap_or(0);
            if files != cols {
                widths.push((ranks, files, rank_start, rank.chars().count().max(1)));
            }
            rank_start += rank.chars().count() + 1;
        }
        if widths.len() > 2 {
            self.problems.push(Problem::value(
                "engine.setup",
                format!(
                    "engine.setup: {} of its {ranks} ranks do not have the board's {cols} files",
                    widths.len()
                ),
            ));
        } else {
            for (rank, files, start, len) in widths {
                self.problems.push(Problem::inside(
                    "engine.setup",
                    start,
                    len,
                    format!("engine.setup: rank {rank} from the top has {files} squares, the board {cols} files"),
                ));
            }
        }
    }
}

/// Checks the `engine` section of merged front matter; every problem found.
pub fn check(front: &Value) -> Vec<Problem> {
    let mut c = Checker {
        problems: Vec::new(),
    };
    let Some(engine) = front.get("engine") else {
        return vec![Problem::document(
            "the front matter has no 'engine' section (nor does any parent)".into(),
        )];
    };
    let Some(e) = c.map(engine, "engine", ENGINE, &["topology", "setup", "pieces"]) else {
        return c.problems;
    };
    let mut rows = None;
    if let Some(t) = e.get("topology")
        && let Some(t) = c.map(t, "engine.topology", TOPOLOGY, &["type", "rows", "cols"])
    {
        c.choice(t, "engine.topology", "type", &["grid"]);
        let side = MAX_SIDE as i64;
        rows = c.int(t, "engine.topology", "rows", 1, side);
        let cols = c.int(t, "engine.topology", "cols", 1, side);
        if let (Some(r), Some(k)) = (rows, cols)
            && r * k > MAX_SQUARES as i64
        {
            c.value(
                "engine.topology.cols",
                format!(
                    "engine.topology: {k}×{r} = {} squares, more than the {MAX_SQUARES} koma supports",
                    r * k
                ),
            );
        }
    }
    if let Some(players) = e.get("players") {
        let ok = players
            .as_sequence()
            .is_some_and(|s| s.iter().all(Value::is_string));
        if !ok {
            c.value(
                "engine.players",
                "engine.players must be a list of names, such as [sente, gote]".into(),
            );
        }
    }
    if let Some(setup) = c.string(e, "engine", "setup") {
        match Setup::parse(setup) {
            Err(err) => c.problems.push(Problem::inside(
                "engine.setup",
                err.column,
                1,
                format!("engine.setup: {}", err.message),
            )),
            Ok(_) => c.setup_board(setup, e, rows),
        }
    }
    if let Some(r) = e.get("render")
        && let Some(r) = c.map(r, "engine.render", RENDER, &[])
    {
        c.int(r, "engine.render", "cellSize", 8, 512);
    }
    if let Some(p) = e.get("pieces") {
        c.pieces(p);
    }
    if let Some(r) = e.get("rules")
        && let Some(r) = c.map(r, "engine.rules", RULES, &[])
    {
        let zone = c.int(r, "engine.rules", "promotion_zone", 0, 26);
        if let (Some(z), Some(rows)) = (zone, rows)
            && z > rows
        {
            c.value(
                "engine.rules.promotion_zone",
                format!("engine.rules.promotion_zone: {z} ranks is deeper than the board's {rows}"),
            );
        }
        c.choice(
            r,
            "engine.rules",
            "promotion",
            &["optional", "mandatory", "flip"],
        );
        for key in ["drops", "immobile_drops", "drop_promoted", "check"] {
            c.boolean(r, "engine.rules", key);
        }
        if let Some(rep) = r.get("repetition")
            && let Some(rep) = c.map(rep, "engine.rules.repetition", REPETITION, &[])
        {
            c.int(rep, "engine.rules.repetition", "count", 2, 100);
            c.choice(
                rep,
                "engine.rules.repetition",
                "result",
                &["draw", "sente_loses", "gote_loses", "repeater_loses"],
            );
            c.boolean(rep, "engine.rules.repetition", "perpetual_check_loses");
        }
    }
    c.problems
}
