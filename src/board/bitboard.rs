//! Bitboards: one bit per square, in an integer as wide as the board needs.
//!
//! The engine is generic over the width: a variant whose board has at most
//! 64 squares runs on `u64`, a larger one (up to 128 squares) on `u128`.
//! Bit `i` is square `i` (see [`Square`]).

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::Square;

/// A set of squares. Implemented for `u64` and `u128`.
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

    /// Whether the set is not empty.
    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// Removes and returns the lowest square of a non-empty set.
    #[inline]
    fn pop_lsb(&mut self) -> Square {
        let sq = self.lsb();
        *self ^= Self::from_square(sq);
        sq
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

macro_rules! impl_bitboard {
    ($t:ty) => {
        impl Bitboard for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const EMPTY: Self = 0;

            #[inline]
            fn from_square(sq: Square) -> Self {
                1 << sq.index()
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
                self.count_ones()
            }
            #[inline]
            fn lsb(self) -> Square {
                Square::new(self.trailing_zeros() as u8)
            }
            #[inline]
            fn msb(self) -> Square {
                Square::new((<$t>::BITS - 1 - self.leading_zeros()) as u8)
            }
            #[inline]
            fn more_than_one(self) -> bool {
                self & self.wrapping_sub(1) != 0
            }
        }
    };
}

impl_bitboard!(u64);
impl_bitboard!(u128);
