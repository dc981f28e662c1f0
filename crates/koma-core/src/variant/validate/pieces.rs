//! `engine.pieces`: each piece's keys and values, its letter, its movements
//! (each Betza string parsed and compiled here, once), and how many piece
//! kinds they make.

use serde_yaml::{Mapping, Value};

use super::PieceDef;
use super::keys::{PIECE, PROMOTION};
use super::shape::{Checker, join, kind};
use crate::board::{MAX_ID_LETTERS, PieceId};
use crate::dsl::{self, Moves};
use crate::variant::Problem;
use crate::variant::limits::MAX_ROLES;
use crate::variant::schema::PieceSpec;

/// The record names given so far, with the path that gave each.
#[derive(Default)]
struct RecordNames {
    kif: Vec<(String, String)>,
    csa: Vec<(String, String)>,
}

/// The largest material value a piece may be given, either way.
const MAX_VALUE: i64 = 1_000_000;

impl Checker {
    /// Checks `engine.pieces`; the pieces found sound, typed, in order.
    pub(super) fn pieces(&mut self, v: &Value) -> Vec<PieceDef> {
        let Value::Mapping(m) = v else {
            self.value(
                "engine.pieces",
                format!(
                    "engine.pieces must map piece names to pieces, not {}",
                    kind(v)
                ),
            );
            return Vec::new();
        };
        if m.is_empty() {
            self.value("engine.pieces", "engine.pieces declares no piece".into());
        }
        let mut out = Vec::new();
        let mut letters: Vec<(PieceId, &str)> = Vec::new();
        let mut kinds = 0;
        let mut names = RecordNames::default();
        for (name, piece) in m {
            let Some(name) = name.as_str() else {
                self.value(
                    "engine.pieces",
                    format!("a piece name is {}, not text", kind(name)),
                );
                continue;
            };
            let before = self.problems.len();
            let path = format!("engine.pieces.{name}");
            let Some(p) = self.map(piece, &path, PIECE, &["letter", "betza"]) else {
                continue;
            };
            kinds += 1 + usize::from(p.contains_key("promotion"));
            let letter = self.letter(p, &path, name, &mut letters);
            let steps = self.betza(p, &path);
            self.string(p, &path, "kanji");
            self.record_names(p, &path, &mut names);
            for key in [
                "royal",
                "drop_mate_illegal",
                "wins_on_last_rank",
                "trade_limited",
                "promotes_capturing_in_zone",
            ] {
                self.boolean(p, &path, key);
            }
            if p.get("max_per_file").and_then(Value::as_i64) == Some(0) {
                let mp = join(&path, "max_per_file");
                self.value(
                    &mp,
                    format!("{mp}: 0 would forbid the piece; omit it for no limit"),
                );
            } else {
                self.int(p, &path, "max_per_file", 1, u8::MAX.into());
            }
            self.int(p, &path, "value", -MAX_VALUE, MAX_VALUE);
            self.int(p, &path, "hand_value", -MAX_VALUE, MAX_VALUE);
            self.int(p, &path, "declaration_points", 0, 1000);
            let promoted_steps = match p.get("promotion") {
                None => Some(None),
                Some(pr) => self
                    .promotion(pr, &join(&path, "promotion"), &mut names)
                    .map(Some),
            };
            if self.problems.len() > before {
                continue;
            }
            // Each `None` above came with a problem, so none is left here.
            let (Some(letter), Some(moves), Some(promoted_moves)) = (letter, steps, promoted_steps)
            else {
                continue;
            };
            match serde_yaml::from_value::<PieceSpec>(piece.clone()) {
                Ok(spec) => out.push(PieceDef {
                    name: name.to_string(),
                    id: letter,
                    spec,
                    moves,
                    promoted_moves,
                }),
                Err(e) => self.value(&path, format!("in '{path}': {e}")),
            }
        }
        if kinds > MAX_ROLES {
            self.value(
                "engine.pieces",
                format!(
                    "engine.pieces: {kinds} piece kinds (promoted included), more than {MAX_ROLES}"
                ),
            );
        }
        out
    }

    /// A piece's ID (its `letter`): one to four ASCII letters that no piece
    /// before it has, in either case.
    fn letter<'n>(
        &mut self,
        p: &Mapping,
        path: &str,
        name: &'n str,
        letters: &mut Vec<(PieceId, &'n str)>,
    ) -> Option<PieceId> {
        let l = self.string(p, path, "letter")?;
        let lp = join(path, "letter");
        let Some(letter) = PieceId::new(l) else {
            self.value(
                &lp,
                format!(
                    "{lp}: '{l}' must be a piece ID: one to {MAX_ID_LETTERS} ASCII letters (`P`, `FD`)"
                ),
            );
            return None;
        };
        if let Some((_, other)) = letters.iter().find(|(l, _)| *l == letter) {
            self.value(
                &lp,
                format!("{lp}: '{letter}' is already the ID of {other}"),
            );
            return None;
        }
        letters.push((letter, name));
        Some(letter)
    }

    /// A piece's promoted side; its moves.
    fn promotion(&mut self, v: &Value, path: &str, names: &mut RecordNames) -> Option<Moves> {
        let pm = self.map(v, path, PROMOTION, &["name", "betza"])?;
        self.string(pm, path, "name");
        let steps = self.betza(pm, path);
        self.string(pm, path, "kanji");
        self.record_names(pm, path, names);
        self.boolean(pm, path, "royal");
        self.boolean(pm, path, "trade_limited");
        self.int(pm, path, "value", -MAX_VALUE, MAX_VALUE);
        steps
    }

    /// A piece's (or promoted side's) names in records: `kif`, names
    /// without ASCII, space-separated, that no other piece has; `csa`, two
    /// upper-case ASCII letters that no other piece has.
    fn record_names(&mut self, m: &Mapping, path: &str, names: &mut RecordNames) {
        if let Some(kif) = self.string(m, path, "kif") {
            let p = join(path, "kif");
            if kif.split_whitespace().next().is_none() {
                self.value(&p, format!("{p} names nothing: omit it to use the kanji"));
            }
            for name in kif.split_whitespace() {
                if name.chars().any(|c| c.is_ascii() || c.is_numeric()) {
                    self.value(
                        &p,
                        format!("{p}: '{name}' has a digit or an ASCII character, which moves use for squares"),
                    );
                } else if let Some((_, other)) = names.kif.iter().find(|(n, _)| n == name) {
                    self.value(&p, format!("{p}: '{name}' is already a name of {other}"));
                } else {
                    names.kif.push((name.to_string(), path.to_string()));
                }
            }
        }
        if let Some(csa) = self.string(m, path, "csa") {
            let p = join(path, "csa");
            if csa.len() != 2 || !csa.chars().all(|c| c.is_ascii_uppercase()) {
                self.value(
                    &p,
                    format!("{p}: '{csa}' must be two upper-case letters, as FU"),
                );
            } else if let Some((_, other)) = names.csa.iter().find(|(n, _)| n == csa) {
                self.value(&p, format!("{p}: '{csa}' is already the code of {other}"));
            } else {
                names.csa.push((csa.to_string(), path.to_string()));
            }
        }
    }

    /// The movement at `path.betza`, parsed and compiled; each error at its
    /// characters.
    fn betza(&mut self, m: &Mapping, path: &str) -> Option<Moves> {
        let text = self.string(m, path, "betza")?;
        match dsl::moves(text) {
            Ok(moves) => Some(moves),
            Err(errors) => {
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
                None
            }
        }
    }
}
