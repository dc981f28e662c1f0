//! The transposition table: one entry per slot, each store replacing it
//! (keeping the best move known for the same position), shared by the
//! search threads without locks.
//!
//! An entry is three words: the position's key XOR the two others, the
//! data (depth, bound and score packed in 64 bits) and the best move. A
//! reader accepts an entry only when the three words XOR back to its key,
//! so an entry torn
//! by two threads writing at once reads as absent, never as another
//! position's (the scheme of Hyatt and Mann's lockless hashing).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::board::Square;
use crate::position::Move;
use crate::rules::Role;

use super::{MATE, MAX_PLY, Score};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub depth: i32,
    pub score: Score,
    pub bound: Bound,
    pub best: Option<Move>,
}

// The data word, low bits first: the bound (2 bits: 0 marks an empty
// slot), the depth (8 bits, unsigned), the score (the high 54 bits,
// signed). The move has a word of its own (kind 2 bits, then three 16-bit
// fields), so that squares and roles of every board fit.
const DEPTH_SHIFT: u32 = 2;
const SCORE_SHIFT: u32 = DEPTH_SHIFT + 8;
// Stored scores (mates made relative to the node) fit the score's bits.
const _: () = assert!((2 * MATE as i64) < (1 << (64 - SCORE_SHIFT - 1)));
// Each field of a packed move holds any square or role.
const _: () = assert!(crate::board::MAX_SQUARES <= 1 << 16 && crate::rules::MAX_ROLES <= 1 << 16);

fn pack_move(m: Option<Move>) -> u64 {
    let (kind, a, b, c) = match m {
        None => (0, 0, 0, 0),
        Some(Move::Normal { from, to, promote }) => (1, from.index(), to.index(), promote as usize),
        Some(Move::MultiLeg {
            from,
            via,
            to,
            promote,
        }) => (
            2,
            from.index(),
            to.index(),
            promote as usize | via.index() << 1,
        ),
        Some(Move::Drop { role, to }) => (3, role.index(), to.index(), 0),
    };
    kind | (a as u64) << 2 | (b as u64) << 18 | (c as u64) << 34
}

fn unpack_move(bits: u64) -> Option<Move> {
    let field = |shift: u32| (bits >> shift) as u16;
    let c = bits >> 34;
    match bits & 3 {
        1 => Some(Move::Normal {
            from: Square::new(field(2)),
            to: Square::new(field(18)),
            promote: c & 1 != 0,
        }),
        2 => Some(Move::MultiLeg {
            from: Square::new(field(2)),
            via: Square::new((c >> 1) as u16),
            to: Square::new(field(18)),
            promote: c & 1 != 0,
        }),
        3 => Some(Move::Drop {
            role: Role(field(2) as _),
            to: Square::new(field(18)),
        }),
        _ => None,
    }
}

/// An entry's two data words: the bound, depth and score; the move.
fn pack(e: Entry) -> [u64; 2] {
    let bound = match e.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    [
        bound
            | (e.depth.clamp(0, 255) as u64) << DEPTH_SHIFT
            | ((e.score as i64) << SCORE_SHIFT) as u64,
        pack_move(e.best),
    ]
}

fn unpack([data, mv]: [u64; 2]) -> Option<Entry> {
    let bound = match data & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Entry {
        depth: ((data >> DEPTH_SHIFT) & 0xff) as i32,
        score: ((data as i64) >> SCORE_SHIFT) as Score,
        bound,
        best: unpack_move(mv),
    })
}

pub(super) struct Table {
    /// Per slot: key ^ data ^ move, data, move.
    slots: Vec<[AtomicU64; 3]>,
}

impl Table {
    pub fn new(megabytes: usize) -> Table {
        let n = (megabytes.max(1) << 20) / std::mem::size_of::<[AtomicU64; 3]>();
        Table {
            slots: (0..n.next_power_of_two() / 2)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        }
    }

    pub fn clear(&self) {
        for word in self.slots.iter().flatten() {
            word.store(0, Ordering::Relaxed);
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &[AtomicU64; 3] {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let [k, d, m] = self.slot(key);
        let (data, mv) = (d.load(Ordering::Relaxed), m.load(Ordering::Relaxed));
        if k.load(Ordering::Relaxed) ^ data ^ mv != key {
            return None;
        }
        unpack([data, mv])
    }

    pub fn store(&self, key: u64, depth: i32, score: Score, bound: Bound, best: Option<Move>) {
        let best = best.or_else(|| self.probe(key).and_then(|e| e.best));
        let data = pack(Entry {
            depth,
            score,
            bound,
            best,
        });
        let [k, d, m] = self.slot(key);
        k.store(key ^ data[0] ^ data[1], Ordering::Relaxed);
        d.store(data[0], Ordering::Relaxed);
        m.store(data[1], Ordering::Relaxed);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_as_stored() {
        let moves = [
            None,
            Some(Move::Normal {
                from: Square::new(1295),
                to: Square::new(0),
                promote: true,
            }),
            Some(Move::MultiLeg {
                from: Square::new(7),
                via: Square::new(1294),
                to: Square::new(7),
                promote: false,
            }),
            Some(Move::Drop {
                role: Role(63),
                to: Square::new(143),
            }),
        ];
        let table = Table::new(1);
        for (i, best) in moves.into_iter().enumerate() {
            for (score, depth, bound) in [
                (-(MATE + 200), 1, Bound::Upper),
                (MATE + 200, 255, Bound::Lower),
                (-3, 40, Bound::Exact),
            ] {
                let key = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i as u64 + 1) ^ depth as u64;
                table.store(key, depth, score, bound, best);
                let e = Entry {
                    depth,
                    score,
                    bound,
                    best,
                };
                assert_eq!(table.probe(key), Some(e));
                assert_eq!(table.probe(key ^ 1 << 40), None);
            }
        }
    }

    #[test]
    fn a_torn_entry_reads_as_absent() {
        let table = Table::new(1);
        let m = Some(Move::Drop {
            role: Role(1),
            to: Square::new(2),
        });
        table.store(5, 3, 10, Bound::Exact, m);
        // Another position of the same slot writes one of its data words only.
        let other = 5 + table.slots.len() as u64;
        let written = pack(Entry {
            depth: 9,
            score: -7,
            bound: Bound::Lower,
            best: Some(Move::Normal {
                from: Square::new(1295),
                to: Square::new(3),
                promote: false,
            }),
        });
        for word in [1, 2] {
            table.store(5, 3, 10, Bound::Exact, m);
            table.slot(other)[word].store(written[word - 1], Ordering::Relaxed);
            assert_eq!(table.probe(5), None, "word {word}");
            assert_eq!(table.probe(other), None, "word {word}");
        }
    }
}
