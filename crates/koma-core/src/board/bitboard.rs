//! Bitboards: one bit per square, in an integer as wide as the board needs.
//!
//! The engine is generic over the width: a variant whose board has at most
//! 64 squares runs on `u64`, one of up to 128 squares on `u128`, one of up
//! to 256 on [`Bitboard256`], a larger one (up to
//! [`MAX_SQUARES`](super::MAX_SQUARES) = 1,296, 36×36) on [`Bitboard1344`].
//! Bit `i` is square `i` (see [`Square`]).

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::Square;
use super::role_set::{RoleSet, RoleWords};

/// A set of squares. Implemented for `u64`, `u128`, [`Bitboard256`] and
/// [`Bitboard1344`].
pub trait Bitboard:
    Copy
    + Eq
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares the integer can hold.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;
    /// A piece code per square of a board this width holds (a position's
    /// board), so that a small board's position stays small.
    type Cells: Copy + Send + Sync + 'static + AsRef<[Self::Cell]> + AsMut<[Self::Cell]>;
    /// One cell of [`Cells`](Self::Cells): a byte where the width's role set
    /// is 64 roles (codes to 129), so that the lookahead copies of a
    /// position stay small; 16 bits on the widest.
    type Cell: CellCode;
    /// The set of roles a game of this width runs with (see
    /// [`RoleWords`](super::RoleWords)).
    type Roles: RoleSet;
    /// A table with an entry per role of a game of this width (a position's
    /// pieces by role, its hands): an array of the role set's capacity
    /// where that is small, else a slice as long as the game has roles, so
    /// that copying a position costs what its game uses.
    type PerRole<T: Copy + Default + Send + Sync + 'static>: Clone
        + Send
        + Sync
        + AsRef<[T]>
        + AsMut<[T]>;
    /// A table of `roles` entries (at most the role set's capacity), each
    /// the default.
    fn per_role<T: Copy + Default + Send + Sync + 'static>(roles: usize) -> Self::PerRole<T>;
    /// Every cell 0.
    const EMPTY_CELLS: Self::Cells;

    /// The set holding only `sq`.
    fn from_square(sq: Square) -> Self;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// Whether `sq` is in the set.
    fn contains(self, sq: Square) -> bool;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// The lowest square of a non-empty set.
    fn lsb(self) -> Square;
    /// The highest square of a non-empty set.
    fn msb(self) -> Square;
    /// Whether the set has more than one square.
    fn more_than_one(self) -> bool;
    /// Every square moved `delta` places up the numbering (down when
    /// negative); squares moved past either end are lost. `|delta|` is
    /// below [`Bitboard::CAPACITY`].
    fn shifted(self, delta: i32) -> Self;
    /// Removes and returns the lowest square of a non-empty set (each width
    /// its own way: the cheapest differs between one word and two).
    fn pop_lsb(&mut self) -> Square;

    /// Whether the set is not empty.
    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// The squares of the set, lowest first.
    #[inline]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// Iterator over the squares of a bitboard, lowest first.
pub struct Squares<B>(B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lsb())
        }
    }
}

/// The roles of the widths up to 256 squares: one word of 64 roles, tables
/// of 64 entries, and a byte a cell (codes to 129).
macro_rules! one_word_of_roles {
    () => {
        type Cell = u8;
        type Roles = RoleWords<1>;
        type PerRole<T: Copy + Default + Send + Sync + 'static> = [T; 64];
        #[inline]
        fn per_role<T: Copy + Default + Send + Sync + 'static>(_: usize) -> [T; 64] {
            [T::default(); 64]
        }
    };
}

macro_rules! impl_bitboard {
    ($t:ty, $bit:expr, $count:expr, $pop:expr) => {
        impl Bitboard for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const EMPTY: Self = 0;
            type Cells = [u8; <$t>::BITS as usize];
            one_word_of_roles!();
            const EMPTY_CELLS: Self::Cells = [0; <$t>::BITS as usize];

            #[inline]
            fn from_square(sq: Square) -> Self {
                $bit(sq)
            }
            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline]
            fn contains(self, sq: Square) -> bool {
                self >> sq.index() & 1 != 0
            }
            #[inline]
            fn count(self) -> u32 {
                $count(self)
            }
            #[inline]
            fn lsb(self) -> Square {
                Square::new(self.trailing_zeros() as u16)
            }
            #[inline]
            fn msb(self) -> Square {
                Square::new((<$t>::BITS - 1 - self.leading_zeros()) as u16)
            }
            #[inline]
            fn more_than_one(self) -> bool {
                self & self.wrapping_sub(1) != 0
            }
            #[inline]
            fn pop_lsb(&mut self) -> Square {
                $pop(self)
            }
            #[inline]
            fn shifted(self, delta: i32) -> Self {
                if delta >= 0 {
                    self << delta
                } else {
                    self >> -delta
                }
            }
        }
    };
}

// Taking the lowest square off: by `x & (x - 1)` on one word; on two,
// word by word (cheaper than either that or `x ^ (1 << lsb)` on `u128`:
// measured in instructions on shogi's perft).
impl_bitboard!(
    u64,
    |sq: Square| 1 << sq.index(),
    u64::count_ones,
    |b: &mut u64| {
        let sq = Square::new(b.trailing_zeros() as u16);
        *b &= b.wrapping_sub(1);
        sq
    }
);
/// The number of squares of a `u128` set: with the CPU's bit count where
/// the build may use it, else the two words' counts summed nibble by nibble
/// before the one multiply (fewer instructions than two counts).
#[inline]
fn count_128(b: u128) -> u32 {
    if cfg!(target_feature = "popcnt") {
        return b.count_ones();
    }
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    const H01: u64 = 0x0101_0101_0101_0101;
    let pairs = |w: u64| {
        let w = w - ((w >> 1) & M1);
        (w & M2) + ((w >> 2) & M2)
    };
    // Each nibble of either word holds at most 4, of the sum at most 8.
    let s = pairs(b as u64) + pairs((b >> 64) as u64);
    let s = (s & M4) + ((s >> 4) & M4);
    (s.wrapping_mul(H01) >> 56) as u32
}

/// Each square's bit on `u128`: one load, against a shift across two words.
static BITS_128: [u128; 128] = {
    let mut bits = [0; 128];
    let mut i = 0;
    while i < 128 {
        bits[i] = 1 << i;
        i += 1;
    }
    bits
};
impl_bitboard!(
    u128,
    |sq: Square| BITS_128[sq.index() & 127],
    count_128,
    |b: &mut u128| {
        let lo = *b as u64;
        if lo != 0 {
            *b ^= u128::from(lo & lo.wrapping_neg());
            Square::new(lo.trailing_zeros() as u16)
        } else {
            let hi = (*b >> 64) as u64;
            *b ^= u128::from(hi & hi.wrapping_neg()) << 64;
            Square::new(64 + hi.trailing_zeros() as u16)
        }
    }
);

/// A set of up to 256 squares: two `u128` halves, squares 0–127 in the first
/// and 128–255 in the second.
///
/// Every operation works on both halves side by side, without loops; finding
/// the lowest or highest square takes one branch (which half) and one
/// trailing- or leading-zero count of that half.
#[derive(Copy, Clone, PartialEq, Eq, Default, Hash)]
pub struct Bitboard256([u128; 2]);

impl Debug for Bitboard256 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bitboard256({:#034x}_{:032x})", self.0[1], self.0[0])
    }
}

macro_rules! impl_op {
    ($op:ident, $f:ident, $assign:ident, $fa:ident, $sym:tt) => {
        impl $op for Bitboard256 {
            type Output = Bitboard256;
            #[inline]
            fn $f(self, rhs: Bitboard256) -> Bitboard256 {
                Bitboard256([self.0[0] $sym rhs.0[0], self.0[1] $sym rhs.0[1]])
            }
        }
        impl $assign for Bitboard256 {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard256) {
                *self = *self $sym rhs;
            }
        }
    };
}

impl_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
impl_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
impl_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard256 {
    type Output = Bitboard256;
    #[inline]
    fn not(self) -> Bitboard256 {
        Bitboard256([!self.0[0], !self.0[1]])
    }
}

impl Bitboard for Bitboard256 {
    const CAPACITY: usize = 256;
    const EMPTY: Self = Bitboard256([0, 0]);
    type Cells = [u8; 256];
    // One word, as the narrower widths: a two-word set and 128-entry tables
    // cost chu shogi's perft 8% more instructions (tests/bench/roles-results.txt).
    one_word_of_roles!();
    const EMPTY_CELLS: Self::Cells = [0; 256];

    #[inline]
    fn from_square(sq: Square) -> Self {
        let i = sq.index();
        let bit = 1u128 << (i & 127);
        if i < 128 {
            Bitboard256([bit, 0])
        } else {
            Bitboard256([0, bit])
        }
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0[0] | self.0[1] == 0
    }
    #[inline]
    fn contains(self, sq: Square) -> bool {
        let i = sq.index();
        self.0[i >> 7] >> (i & 127) & 1 != 0
    }
    #[inline]
    fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones()
    }
    #[inline]
    fn lsb(self) -> Square {
        if self.0[0] != 0 {
            Square::new(self.0[0].trailing_zeros() as u16)
        } else {
            Square::new((128 + self.0[1].trailing_zeros()) as u16)
        }
    }
    #[inline]
    fn msb(self) -> Square {
        if self.0[1] != 0 {
            Square::new((255 - self.0[1].leading_zeros()) as u16)
        } else {
            Square::new((127 - self.0[0].leading_zeros()) as u16)
        }
    }
    #[inline]
    fn more_than_one(self) -> bool {
        let [lo, hi] = self.0;
        // Two squares in one half, or one in each.
        (lo & lo.wrapping_sub(1)) | (hi & hi.wrapping_sub(1)) != 0 || (lo != 0 && hi != 0)
    }
    #[inline]
    fn shifted(self, delta: i32) -> Self {
        let [lo, hi] = self.0;
        let d = delta.unsigned_abs();
        match (delta >= 0, d) {
            (_, 0) => self,
            (true, 1..128) => Bitboard256([lo << d, hi << d | lo >> (128 - d)]),
            (true, _) => Bitboard256([0, lo << (d - 128)]),
            (false, 1..128) => Bitboard256([lo >> d | hi << (128 - d), hi >> d]),
            (false, _) => Bitboard256([hi >> (d - 128), 0]),
        }
    }
    #[inline]
    fn pop_lsb(&mut self) -> Square {
        let [lo, hi] = &mut self.0;
        if *lo != 0 {
            let sq = Square::new(lo.trailing_zeros() as u16);
            *lo &= *lo - 1;
            sq
        } else {
            let sq = Square::new((128 + hi.trailing_zeros()) as u16);
            *hi &= hi.wrapping_sub(1);
            sq
        }
    }
}

/// A set of squares of any board koma holds: `W` words of 64 squares,
/// square `i` bit `i % 64` of word `i / 64`. [`Bitboard1344`] (21 words)
/// holds the 1,296 squares of a 36×36 board; the narrower boards keep
/// their faster widths.
///
/// Operations loop over the words (the compiler unrolls them); finding
/// the lowest or highest square stops at the first word that has one.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct BitboardWords<const W: usize>([u64; W]);

/// The widest bitboard: 21 words, 1,344 squares.
pub type Bitboard1344 = BitboardWords<21>;
const _: () = assert!(super::MAX_SQUARES <= 64 * 21);

impl<const W: usize> Default for BitboardWords<W> {
    fn default() -> Self {
        BitboardWords([0; W])
    }
}

impl<const W: usize> Debug for BitboardWords<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BitboardWords(")?;
        for (i, w) in self.0.iter().enumerate().rev() {
            let sep = if i == 0 { "" } else { "_" };
            write!(f, "{w:016x}{sep}")?;
        }
        write!(f, ")")
    }
}

macro_rules! impl_words_op {
    ($op:ident, $f:ident, $assign:ident, $fa:ident, $sym:tt) => {
        impl<const W: usize> $op for BitboardWords<W> {
            type Output = BitboardWords<W>;
            #[inline]
            fn $f(mut self, rhs: BitboardWords<W>) -> BitboardWords<W> {
                self $sym rhs;
                self
            }
        }
        impl<const W: usize> $assign for BitboardWords<W> {
            #[inline]
            fn $fa(&mut self, rhs: BitboardWords<W>) {
                for (a, b) in self.0.iter_mut().zip(rhs.0) {
                    *a $sym b;
                }
            }
        }
    };
}

impl_words_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
impl_words_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
impl_words_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const W: usize> Not for BitboardWords<W> {
    type Output = BitboardWords<W>;
    #[inline]
    fn not(mut self) -> BitboardWords<W> {
        for a in &mut self.0 {
            *a = !*a;
        }
        self
    }
}

impl<const W: usize> BitboardWords<W> {
    #[inline]
    fn from_square_words(sq: Square) -> Self {
        let mut w = [0; W];
        w[sq.index() / 64] = 1 << (sq.index() % 64);
        BitboardWords(w)
    }
    #[inline]
    fn first_word(self) -> Option<usize> {
        self.0.iter().position(|&w| w != 0)
    }
    #[inline]
    fn lowest(self) -> Square {
        let i = self.first_word().unwrap_or(0);
        Square::new((i * 64) as u16 + self.0[i].trailing_zeros() as u16)
    }
    #[inline]
    fn highest(self) -> Square {
        let i = self.0.iter().rposition(|&w| w != 0).unwrap_or(0);
        Square::new((i * 64 + 63) as u16 - self.0[i].leading_zeros() as u16)
    }
    #[inline]
    fn several(self) -> bool {
        match self.first_word() {
            None => false,
            Some(i) => {
                let w = self.0[i];
                w & w.wrapping_sub(1) != 0 || self.0[i + 1..].iter().any(|&w| w != 0)
            }
        }
    }
    /// Every square `delta` places up the numbering (down when negative).
    #[inline]
    fn shifted_words(self, delta: i32) -> Self {
        let d = delta.unsigned_abs() as usize;
        let (words, bits) = (d / 64, (d % 64) as u32);
        let mut out = [0u64; W];
        let get = |i: isize| -> u64 {
            if (0..W as isize).contains(&i) {
                self.0[i as usize]
            } else {
                0
            }
        };
        for (i, o) in out.iter_mut().enumerate() {
            let i = i as isize;
            let q = words as isize;
            *o = if delta >= 0 {
                let whole = get(i - q) << bits;
                if bits == 0 {
                    whole
                } else {
                    whole | get(i - q - 1) >> (64 - bits)
                }
            } else {
                let whole = get(i + q) >> bits;
                if bits == 0 {
                    whole
                } else {
                    whole | get(i + q + 1) << (64 - bits)
                }
            };
        }
        BitboardWords(out)
    }
}

macro_rules! impl_words {
    ($w:literal) => {
        impl Bitboard for BitboardWords<$w> {
            const CAPACITY: usize = 64 * $w;
            const EMPTY: Self = BitboardWords([0; $w]);
            type Cells = [u16; 64 * $w];
            type Cell = u16;
            type Roles = RoleWords<8>;
            type PerRole<T: Copy + Default + Send + Sync + 'static> = Box<[T]>;
            #[inline]
            fn per_role<T: Copy + Default + Send + Sync + 'static>(roles: usize) -> Box<[T]> {
                vec![T::default(); roles].into_boxed_slice()
            }
            const EMPTY_CELLS: Self::Cells = [0; 64 * $w];

            #[inline]
            fn from_square(sq: Square) -> Self {
                Self::from_square_words(sq)
            }
            #[inline]
            fn is_empty(self) -> bool {
                self.0.iter().fold(0, |a, &w| a | w) == 0
            }
            #[inline]
            fn contains(self, sq: Square) -> bool {
                self.0[sq.index() / 64] >> (sq.index() % 64) & 1 != 0
            }
            #[inline]
            fn count(self) -> u32 {
                self.0.iter().map(|w| w.count_ones()).sum()
            }
            #[inline]
            fn lsb(self) -> Square {
                self.lowest()
            }
            #[inline]
            fn msb(self) -> Square {
                self.highest()
            }
            #[inline]
            fn more_than_one(self) -> bool {
                self.several()
            }
            #[inline]
            fn shifted(self, delta: i32) -> Self {
                self.shifted_words(delta)
            }
            #[inline]
            fn pop_lsb(&mut self) -> Square {
                let i = self.first_word().unwrap_or(0);
                let w = &mut self.0[i];
                let sq = Square::new((i * 64) as u16 + w.trailing_zeros() as u16);
                *w &= w.wrapping_sub(1);
                sq
            }
        }
    };
}

impl_words!(21);

/// A square's piece code as a position's board stores it: 0 for empty, else
/// `role * 2 + colour + 1`.
pub trait CellCode: Copy + Send + Sync + 'static {
    /// The most roles whose codes fit.
    const ROLES: usize;
    /// The cell of a code (one of [`ROLES`](Self::ROLES) roles' codes).
    fn from_code(code: u16) -> Self;
    /// The code the cell holds.
    fn code(self) -> u16;
}

impl CellCode for u8 {
    const ROLES: usize = (u8::MAX as usize) / 2;
    #[inline]
    fn from_code(code: u16) -> u8 {
        code as u8
    }
    #[inline]
    fn code(self) -> u16 {
        self as u16
    }
}

impl CellCode for u16 {
    const ROLES: usize = (u16::MAX as usize) / 2;
    #[inline]
    fn from_code(code: u16) -> u16 {
        code
    }
    #[inline]
    fn code(self) -> u16 {
        self
    }
}

/// Whether every role of a width's role set has a code its cells hold.
const fn cells_hold_roles<B: Bitboard>() -> bool {
    <B::Roles as RoleSet>::CAPACITY <= <B::Cell as CellCode>::ROLES
}

const _: () = assert!(cells_hold_roles::<u64>());
const _: () = assert!(cells_hold_roles::<u128>());
const _: () = assert!(cells_hold_roles::<Bitboard256>());
const _: () = assert!(cells_hold_roles::<BitboardWords<21>>());

#[cfg(test)]
mod tests {
    use super::*;

    /// Squares of a set, lowest first, read bit by bit (the slow way).
    fn members<B: Bitboard>(b: B) -> Vec<u16> {
        (0..B::CAPACITY)
            .map(|i| i as u16)
            .filter(|&i| b.contains(Square::new(i)))
            .collect()
    }

    fn set<B: Bitboard>(squares: &[u16]) -> B {
        squares
            .iter()
            .fold(B::EMPTY, |b, &s| b | B::from_square(Square::new(s)))
    }

    /// A shift, square by square (the slow way).
    fn shifted_slowly<B: Bitboard>(b: B, delta: i32) -> Vec<u16> {
        members(b)
            .into_iter()
            .map(|s| s as i32 + delta)
            .filter(|&t| (0..B::CAPACITY as i32).contains(&t))
            .map(|t| t as u16)
            .collect()
    }

    fn shifts_agree<B: Bitboard>() {
        let cap = B::CAPACITY as i32;
        let squares: Vec<u16> = [
            0, 1, 9, 62, 63, 64, 65, 126, 127, 128, 129, 200, 254, 255, 256, 700, 1295, 1343,
        ]
        .into_iter()
        .filter(|&s| (s as usize) < B::CAPACITY)
        .collect();
        let b: B = set(&squares);
        for delta in [
            0i32, 1, -1, 9, -9, 63, -63, 64, -64, 65, 127, -127, 128, -128, 129, -200, 36, -36,
            640, -641, 1295, -1343,
        ] {
            if delta.abs() < cap {
                assert_eq!(
                    members(b.shifted(delta)),
                    shifted_slowly(b, delta),
                    "{delta}"
                );
            }
        }
    }

    #[test]
    fn shifts_move_every_square_and_lose_those_past_the_ends() {
        shifts_agree::<u64>();
        shifts_agree::<u128>();
        shifts_agree::<Bitboard256>();
        shifts_agree::<Bitboard1344>();
    }

    #[test]
    fn lowest_and_highest_square_at_the_edges_of_each_word() {
        edges::<Bitboard256>();
        edges::<Bitboard1344>();
    }

    fn edges<B: Bitboard>() {
        let last = B::CAPACITY as u16 - 1;
        for s in [
            0u16, 1, 63, 64, 126, 127, 128, 129, 191, 192, 254, 255, 256, 1279, 1280, last,
        ] {
            if s > last {
                continue;
            }
            let b = B::from_square(Square::new(s));
            assert_eq!(b.lsb(), Square::new(s), "lsb of {{{s}}}");
            assert_eq!(b.msb(), Square::new(s), "msb of {{{s}}}");
            assert_eq!(b.count(), 1);
            assert!(!b.more_than_one());
            assert!(b.any() && !b.is_empty());
            assert_eq!(members(b), vec![s]);
        }
        for (lo, hi) in [
            (0u16, last),
            (0, 63),
            (63, 64),
            (64, 127),
            (127, 128),
            (128, 255),
            (0, 128),
            (255, last),
        ]
        .into_iter()
        .filter(|&(lo, hi)| lo < hi)
        {
            let b: B = set(&[lo, hi]);
            assert_eq!((b.lsb(), b.msb()), (Square::new(lo), Square::new(hi)));
            assert_eq!(b.count(), 2);
            assert!(b.more_than_one(), "{{{lo}, {hi}}}");
        }
        let full = !B::EMPTY;
        assert_eq!(
            (full.lsb(), full.msb()),
            (Square::new(0), Square::new(last))
        );
        assert_eq!(full.count() as usize, B::CAPACITY);
        assert!(B::EMPTY.is_empty() && !B::EMPTY.more_than_one());
    }

    #[test]
    fn operations_agree_with_sets_of_squares() {
        operations_agree::<Bitboard256>();
        operations_agree::<Bitboard1344>();
    }

    fn operations_agree<B: Bitboard>() {
        let last = B::CAPACITY as u16 - 1;
        // Random sets, dense and sparse, each checked against its list of squares.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..400 {
            let pick = |next: &mut dyn FnMut() -> u64| -> Vec<u16> {
                let density = [2, 8, 64, 250][round % 4];
                (0..=last)
                    .filter(|_| next() % 256 < density)
                    .collect::<Vec<u16>>()
            };
            let (a, b) = (pick(&mut next), pick(&mut next));
            let (x, y): (B, B) = (set(&a), set(&b));
            let has = |v: &Vec<u16>, s| v.contains(&s);
            let expect = |f: &dyn Fn(bool, bool) -> bool| -> Vec<u16> {
                (0..=last).filter(|&s| f(has(&a, s), has(&b, s))).collect()
            };
            assert_eq!(members(x & y), expect(&|p, q| p && q));
            assert_eq!(members(x | y), expect(&|p, q| p || q));
            assert_eq!(members(x ^ y), expect(&|p, q| p != q));
            assert_eq!(members(!x), expect(&|p, _| !p));
            let mut z = x;
            z &= y;
            assert_eq!(z, x & y);
            z = x;
            z |= y;
            assert_eq!(z, x | y);
            z = x;
            z ^= y;
            assert_eq!(z, x ^ y);
            assert_eq!(x.count() as usize, a.len());
            assert_eq!(x.is_empty(), a.is_empty());
            assert_eq!(x.more_than_one(), a.len() > 1);
            if let (Some(&first), Some(&last)) = (a.first(), a.last()) {
                assert_eq!((x.lsb(), x.msb()), (Square::new(first), Square::new(last)));
            }
            let listed: Vec<u16> = x.squares().map(|s| s.index() as u16).collect();
            assert_eq!(listed, a);
        }
    }

    #[test]
    fn u128_counts_agree_with_the_integer_count() {
        let mut x: u128 = 0x9e37_79b9_7f4a_7c15_d1b5_4a32_d192_ed03;
        for w in [
            0,
            1,
            u128::MAX,
            u128::MAX >> 1,
            1 << 127,
            u128::from(u64::MAX),
            !u128::from(u64::MAX),
        ] {
            assert_eq!(w.count(), w.count_ones(), "{w:#x}");
        }
        for _ in 0..1000 {
            x = x.rotate_left(17).wrapping_mul(0x2545_f491_4f6c_dd1d) ^ (x >> 3);
            assert_eq!(x.count(), x.count_ones(), "{x:#x}");
            assert_eq!((x & (x >> 5)).count(), (x & (x >> 5)).count_ones());
        }
    }

    #[test]
    fn every_width_agrees_on_the_squares_they_share() {
        for squares in [&[0u16, 5, 63][..], &[1, 2], &[63], &[]] {
            let (n, w, l): (u64, u128, Bitboard256) = (set(squares), set(squares), set(squares));
            let h: Bitboard1344 = set(squares);
            assert_eq!(members(h), squares);
            assert_eq!(h.count(), l.count());
            assert_eq!(members(n), squares);
            assert_eq!(members(w), squares);
            assert_eq!(members(l), squares);
            assert_eq!(n.count(), l.count());
            assert_eq!(n.more_than_one(), l.more_than_one());
            if !squares.is_empty() {
                assert_eq!((n.lsb(), n.msb()), (l.lsb(), l.msb()));
                assert_eq!((w.lsb(), w.msb()), (l.lsb(), l.msb()));
            }
        }
        assert_eq!(
            (
                u64::CAPACITY,
                u128::CAPACITY,
                Bitboard256::CAPACITY,
                Bitboard1344::CAPACITY
            ),
            (64, 128, 256, 1344)
        );
    }
}
