//! `engine.rules.move_as_friend_at` (borrowed movement) and
//! `engine.rules.immobile_moves`: the keys' kinds, then what the square
//! says against the board and the pieces.

use serde_yaml::Value;

use super::PieceDef;
use super::keys::MOVE_AS_FRIEND_AT;
use super::shape::Checker;
use crate::variant::limits::{MAX_FILES, MAX_RANKS};
use crate::variant::schema::EngineSpec;

impl Checker {
    /// `engine.rules.move_as_friend_at`: a mapping of two whole numbers.
    pub(super) fn move_as_friend_shape(&mut self, v: &Value) {
        let path = "engine.rules.move_as_friend_at";
        let Some(m) = self.map(v, path, MOVE_AS_FRIEND_AT, &[]) else {
            return;
        };
        let (ranks, files) = (i64::from(MAX_RANKS), i64::from(MAX_FILES));
        self.int(m, path, "forward", -ranks, ranks);
        self.int(m, path, "right", -files, files);
    }

    /// The lending square must be another square, one that can be on the
    /// board, and the pieces may not move in two legs (whose routes the
    /// borrowing is not defined for).
    pub(super) fn move_as_friend(&mut self, spec: &EngineSpec, pieces: &[PieceDef]) {
        let Some(at) = spec.rules.move_as_friend_at else {
            return;
        };
        let path = "engine.rules.move_as_friend_at";
        if at.forward == 0 && at.right == 0 {
            self.value(
                path,
                format!("{path}: forward 0, right 0 is the piece's own square; name the square of the friend it moves as, such as forward: -1 (the square behind it)"),
            );
        }
        let t = &spec.topology;
        if at.forward.unsigned_abs() >= t.rows {
            self.value(
                &format!("{path}.forward"),
                format!(
                    "{path}.forward: {} ranks away is off a board of {} ranks from every square",
                    at.forward, t.rows
                ),
            );
        }
        if at.right.unsigned_abs() >= t.cols {
            self.value(
                &format!("{path}.right"),
                format!(
                    "{path}.right: {} files away is off a board of {} files from every square",
                    at.right, t.cols
                ),
            );
        }
        for p in pieces {
            let legs = !p.moves.two_legs.is_empty()
                || p.promotion().is_some_and(|(_, m)| !m.two_legs.is_empty());
            if legs {
                self.value(
                    path,
                    format!("{path}: borrowed movement does not combine with moves in two legs, and the {} has them", p.name),
                );
            }
        }
    }
}
