//! `engine.rules.trade_limits` and `engine.rules.bare_royal`: the keys and
//! kinds of each, then what they say against the pieces (a marked piece to
//! limit, names of pieces that exist, an SFEN field for a remembered square).

use serde_yaml::{Mapping, Value};

use super::PieceDef;
use super::keys::{BARE_ROYAL, TRADE_LIMITS};
use super::shape::{Checker, kind};
use crate::variant::Problem;
use crate::variant::schema::EngineSpec;

/// Whether a name is a piece's or a promoted side's.
fn known(pieces: &[PieceDef], name: &str) -> bool {
    pieces
        .iter()
        .any(|p| p.name == name || p.spec.promotion.as_ref().is_some_and(|q| q.name == name))
}

impl Checker {
    /// A list of piece names at `key` (only its kinds).
    fn name_list(&mut self, m: &Mapping, path: &str, key: &str) {
        let Some(list) = m.get(key) else {
            return;
        };
        let p = format!("{path}.{key}");
        match list.as_sequence() {
            Some(items) => {
                for (i, item) in items.iter().enumerate() {
                    if !item.is_string() {
                        let ip = format!("{p}.{i}");
                        self.value(
                            &ip,
                            format!("{ip} must be a piece's name, not {}", kind(item)),
                        );
                    }
                }
            }
            None => self.value(
                &p,
                format!(
                    "{p} must be a list of piece names, such as [pawn], not {}",
                    kind(list)
                ),
            ),
        }
    }

    /// Each name of a list at `path` must be a piece's or a promoted side's.
    fn names_known(&mut self, pieces: &[PieceDef], names: &[String], path: &str) {
        for (i, name) in names.iter().enumerate() {
            if !known(pieces, name) {
                let p = format!("{path}.{i}");
                self.value(
                    &p,
                    format!("{p}: '{name}' is not the name of a piece or of a promoted side"),
                );
            }
        }
    }

    /// `engine.rules.trade_limits`: its keys and their kinds.
    pub(super) fn trade_limits_shape(&mut self, t: &Value) {
        let path = "engine.rules.trade_limits";
        let Some(t) = self.map(t, path, TRADE_LIMITS, &[]) else {
            return;
        };
        self.boolean(t, path, "distant_protected");
        self.boolean(t, path, "counterstrike");
        self.name_list(t, path, "bridge_except");
    }

    /// `engine.rules.bare_royal`: its keys and their kinds.
    pub(super) fn bare_royal_shape(&mut self, b: &Value) {
        let path = "engine.rules.bare_royal";
        let Some(b) = self.map(b, path, BARE_ROYAL, &[]) else {
            return;
        };
        self.boolean(b, path, "loses");
        self.boolean(b, path, "both_draw");
        self.name_list(b, path, "uncounted");
    }

    /// `engine.rules.bare_royal` against the pieces: its names are pieces',
    /// and some piece is royal.
    pub(super) fn bare_royal(&mut self, spec: &EngineSpec, pieces: &[PieceDef]) {
        let Some(b) = &spec.rules.bare_royal else {
            return;
        };
        let path = "engine.rules.bare_royal";
        if let Some(names) = &b.uncounted {
            self.names_known(pieces, names, &format!("{path}.uncounted"));
        }
        let royal = pieces
            .iter()
            .any(|p| p.spec.royal || p.spec.promotion.as_ref().is_some_and(|q| q.royal));
        if !royal {
            self.problems.push(Problem::key(
                path,
                format!("{path}: no piece is royal, so no royal can be bared"),
            ));
        }
    }

    /// `engine.rules.trade_limits` against the pieces: some piece is marked
    /// `trade_limited`, the bridge's names are pieces, and the square a
    /// counterstrike limit remembers can be written in an SFEN (the third
    /// field, free only where there are no hands).
    pub(super) fn trade_limits(&mut self, spec: &EngineSpec, pieces: &[PieceDef]) {
        let Some(t) = &spec.rules.trade_limits else {
            return;
        };
        let path = "engine.rules.trade_limits";
        let marked = pieces.iter().any(|p| {
            p.spec.trade_limited || p.spec.promotion.as_ref().is_some_and(|q| q.trade_limited)
        });
        if !marked {
            self.problems.push(Problem::key(
                path,
                format!("{path}: no piece is marked trade_limited, so no capture is limited"),
            ));
        }
        if let Some(names) = &t.bridge_except {
            self.names_known(pieces, names, &format!("{path}.bridge_except"));
        }
        if t.counterstrike && spec.rules.drops {
            let p = format!("{path}.counterstrike");
            self.value(
                &p,
                format!("{p}: needs engine.rules.drops: false (the square it remembers is written in the SFEN's third field, where a game with drops writes the hands)"),
            );
        }
        if t.bridge_except.is_some() && !t.distant_protected {
            let p = format!("{path}.bridge_except");
            self.value(
                &p,
                format!("{p}: lifts distant_protected, which is not set"),
            );
        }
    }
}
