//! The transposition table: buckets of two entries, shared by the search
//! threads without locks. A store for a position already in its bucket
//! replaces that entry (keeping the best move known when the new one has
//! none); otherwise it replaces the entry of the bucket worth less, its
//! depth less 8 plies per search since it was stored (the table counts
//! searches in a generation of 4 bits). Deep results of this search so survive
//! the many shallow stores near the leaves, and stale ones make room.
//!
//! An entry is two words: the position's key XOR the data, and the data
//! (depth, bound, generation, score and best move packed in 64 bits). A
//! reader accepts an entry only when the two words XOR back to its key, so
//! an entry torn by two threads writing at once reads as absent, never as
//! another position's (the scheme of Hyatt and Mann's lockless hashing).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

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

// The data word, low bits first: the move (27 bits: kind 2, then three
// bytes), the bound (2 bits: 0 marks an empty slot), the depth (8 bits,
// unsigned), the generation (4 bits), the score (the high 23 bits, signed).
const MOVE_BITS: u32 = 27;
const BOUND_SHIFT: u32 = MOVE_BITS;
const DEPTH_SHIFT: u32 = BOUND_SHIFT + 2;
const GENERATION_SHIFT: u32 = DEPTH_SHIFT + 8;
const GENERATIONS: u32 = 16;
const SCORE_SHIFT: u32 = GENERATION_SHIFT + 4;
// Stored scores (mates made relative to the node) fit the score's bits.
const _: () = assert!((2 * MATE as i64) < (1 << (64 - SCORE_SHIFT - 1)));

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
    kind | (a as u64) << 2 | (b as u64) << 10 | (c as u64) << 18
}

fn unpack_move(bits: u64) -> Option<Move> {
    let byte = |shift: u32| (bits >> shift) as u8;
    let c = (bits >> 18) & 0x1ff;
    match bits & 3 {
        1 => Some(Move::Normal {
            from: Square::new(byte(2)),
            to: Square::new(byte(10)),
            promote: c & 1 != 0,
        }),
        2 => Some(Move::MultiLeg {
            from: Square::new(byte(2)),
            via: Square::new((c >> 1) as u8),
            to: Square::new(byte(10)),
            promote: c & 1 != 0,
        }),
        3 => Some(Move::Drop {
            role: Role(byte(2)),
            to: Square::new(byte(10)),
        }),
        _ => None,
    }
}

fn pack(e: Entry, generation: u32) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    pack_move(e.best)
        | bound << BOUND_SHIFT
        | (e.depth.clamp(0, 255) as u64) << DEPTH_SHIFT
        | ((generation % GENERATIONS) as u64) << GENERATION_SHIFT
        | ((e.score as i64) << SCORE_SHIFT) as u64
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> BOUND_SHIFT) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Entry {
        depth: ((data >> DEPTH_SHIFT) & 0xff) as i32,
        score: ((data as i64) >> SCORE_SHIFT) as Score,
        bound,
        best: unpack_move(data & ((1 << MOVE_BITS) - 1)),
    })
}

/// Entries per bucket.
const WAYS: usize = 2;

pub(super) struct Table {
    /// Per slot: key ^ data, data; a bucket is `WAYS` slots in a row.
    slots: Vec<[AtomicU64; 2]>,
    /// The current search's generation.
    generation: AtomicU32,
}

impl Table {
    pub fn new(megabytes: usize) -> Table {
        let n = (megabytes.max(1) << 20) / std::mem::size_of::<[AtomicU64; 2]>();
        Table {
            slots: (0..n.next_power_of_two() / 2)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            generation: AtomicU32::new(0),
        }
    }

    /// A new search begins: entries stored before it age by one.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    pub fn clear(&self) {
        for [k, d] in &self.slots {
            k.store(0, Ordering::Relaxed);
            d.store(0, Ordering::Relaxed);
        }
    }

    /// The slots of the key's bucket.
    #[inline]
    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]] {
        let first = (key as usize) & (self.slots.len() - 1) & !(WAYS - 1);
        &self.slots[first..first + WAYS]
    }

    /// A slot's data word if it holds the key's entry.
    #[inline]
    fn read(slot: &[AtomicU64; 2], key: u64) -> Option<u64> {
        let [k, d] = slot;
        let data = d.load(Ordering::Relaxed);
        (k.load(Ordering::Relaxed) ^ data == key && (data >> BOUND_SHIFT) & 3 != 0).then_some(data)
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key)
            .iter()
            .find_map(|slot| Self::read(slot, key))
            .and_then(unpack)
    }

    pub fn store(&self, key: u64, depth: i32, score: Score, bound: Bound, best: Option<Move>) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        // The key's own slot, else the one worth least: empty, then of the
        // oldest search, then shallowest.
        let mut target = 0;
        let mut least = i32::MAX;
        let mut known = None;
        for (i, slot) in bucket.iter().enumerate() {
            if let Some(data) = Self::read(slot, key) {
                target = i;
                known = unpack(data).and_then(|e| e.best);
                break;
            }
            let data = slot[1].load(Ordering::Relaxed);
            let worth = if (data >> BOUND_SHIFT) & 3 == 0 {
                i32::MIN
            } else {
                let stored = (data >> GENERATION_SHIFT) as u32 % GENERATIONS;
                let age = generation.wrapping_sub(stored) % GENERATIONS;
                ((data >> DEPTH_SHIFT) & 0xff) as i32 - 8 * age as i32
            };
            if worth < least {
                least = worth;
                target = i;
            }
        }
        let data = pack(
            Entry {
                depth,
                score,
                bound,
                best: best.or(known),
            },
            generation,
        );
        let [k, d] = &bucket[target];
        k.store(key ^ data, Ordering::Relaxed);
        d.store(data, Ordering::Relaxed);
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
                from: Square::new(255),
                to: Square::new(0),
                promote: true,
            }),
            Some(Move::MultiLeg {
                from: Square::new(7),
                via: Square::new(254),
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
        // Another position of the same bucket writes its data word only,
        // over the slot that the first store (in an empty bucket) took.
        let other = 5 + table.slots.len() as u64;
        let [_, d] = &table.bucket(other)[0];
        d.store(
            pack(
                Entry {
                    depth: 9,
                    score: -7,
                    bound: Bound::Lower,
                    best: None,
                },
                0,
            ),
            Ordering::Relaxed,
        );
        assert_eq!(table.probe(5), None);
        assert_eq!(table.probe(other), None);
    }

    /// Keys of one bucket: the same low bits.
    fn same_bucket(table: &Table, n: u64) -> u64 {
        7 + n * table.slots.len() as u64
    }

    #[test]
    fn a_deep_entry_outlives_shallow_stores_of_other_positions() {
        let table = Table::new(1);
        let [deep, a, b, c] = [0, 1, 2, 3].map(|n| same_bucket(&table, n));
        table.store(deep, 12, 40, Bound::Exact, None);
        for (key, depth) in [(a, 1), (b, 2), (c, 1), (a, 3)] {
            table.store(key, depth, 0, Bound::Upper, None);
            assert_eq!(table.probe(deep).map(|e| e.depth), Some(12));
            assert_eq!(table.probe(key).map(|e| e.depth), Some(depth));
        }
        // The same position is replaced whatever the depth, its move kept.
        let m = Some(Move::Drop {
            role: Role(2),
            to: Square::new(9),
        });
        table.store(deep, 13, 41, Bound::Lower, m);
        table.store(deep, 2, 5, Bound::Upper, None);
        let e = table.probe(deep).expect("the entry");
        assert_eq!((e.depth, e.score, e.bound, e.best), (2, 5, Bound::Upper, m));
    }

    #[test]
    fn an_older_search_makes_room_first() {
        let table = Table::new(1);
        let [old, deep, new] = [0, 1, 2].map(|n| same_bucket(&table, n));
        // A search back counts as 8 plies less deep.
        table.store(old, 12, 1, Bound::Exact, None);
        table.new_search();
        table.store(deep, 10, 2, Bound::Exact, None);
        table.store(new, 3, 3, Bound::Exact, None);
        assert_eq!(table.probe(old), None);
        assert_eq!(table.probe(deep).map(|e| e.score), Some(2));
        assert_eq!(table.probe(new).map(|e| e.score), Some(3));
    }
}
