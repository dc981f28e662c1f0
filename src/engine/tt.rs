//! The transposition table: one entry per slot, replaced when deeper or newer.

use crate::position::Move;

use super::{MATE, MAX_PLY, Score};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone, Debug)]
pub(super) struct Entry {
    key: u64,
    pub depth: i32,
    pub score: Score,
    pub bound: Bound,
    pub best: Option<Move>,
}

pub(super) struct Table {
    entries: Vec<Option<Entry>>,
}

impl Table {
    pub fn new(megabytes: usize) -> Table {
        let n = (megabytes.max(1) << 20) / std::mem::size_of::<Option<Entry>>();
        Table {
            entries: vec![None; n.next_power_of_two() / 2],
        }
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    pub fn store(&mut self, key: u64, depth: i32, score: Score, bound: Bound, best: Option<Move>) {
        let slot = self.slot(key);
        let keep_move = self.entries[slot]
            .filter(|e| e.key == key)
            .and_then(|e| e.best);
        self.entries[slot] = Some(Entry {
            key,
            depth,
            score,
            bound,
            best: best.or(keep_move),
        });
    }
}

/// Mate scores are stored relative to the node, not the root.
pub(super) fn to_table(score: Score, ply: usize) -> Score {
    if score > MATE - MAX_PLY as Score {
        score + ply as Score
    } else if score < -MATE + MAX_PLY as Score {
        score - ply as Score
    } else {
        score
    }
}

pub(super) fn from_table(score: Score, ply: usize) -> Score {
    if score > MATE - MAX_PLY as Score {
        score - ply as Score
    } else if score < -MATE + MAX_PLY as Score {
        score + ply as Score
    } else {
        score
    }
}
