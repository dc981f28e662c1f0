//! Sets of roles: one bit per role index, in as many 64-bit words as the
//! game's width carries.
//!
//! The generator and the attack test walk the roles a side has on the
//! board, and the rules keep masks of roles (riders, royals, roles that
//! promote, roles in hand). Each bitboard width names the role set it runs
//! with ([`Bitboard::Roles`](super::Bitboard::Roles)): one word (64 roles)
//! for the boards of up to 256 squares, eight (512, the most a variant may
//! have) for the widest. A game with
//! more roles than its board's width holds runs on a wider one (see
//! `Game::compile`), so a small game pays for one word only.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A set of role indices, `N` words of 64.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct RoleWords<const N: usize>([u64; N]);

/// The set of every role a variant may have: the one a rule's role list
/// (outside the hot paths) is kept in.
pub type AnyRoles = RoleWords<8>;

impl<const N: usize> RoleWords<N> {
    /// How many roles the set can hold.
    pub const CAPACITY: usize = 64 * N;
    /// The empty set.
    pub const EMPTY: Self = RoleWords([0; N]);

    /// The set holding only `i` (below [`RoleWords::CAPACITY`]).
    #[inline]
    pub fn only(i: usize) -> Self {
        let mut s = Self::EMPTY;
        s.insert(i);
        s
    }
    /// Adds role `i`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    /// Takes role `i` out.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    /// Whether role `i` is in the set (false past the capacity).
    #[inline]
    pub fn contains(self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 != 0)
    }
    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    /// The roles of the set, lowest index first.
    #[inline]
    pub fn iter(self) -> RoleIter<N> {
        RoleIter {
            words: self.0,
            at: 0,
        }
    }
}

impl<const N: usize> Default for RoleWords<N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const N: usize> FromIterator<usize> for RoleWords<N> {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
        let mut s = Self::EMPTY;
        for i in iter {
            s.insert(i);
        }
        s
    }
}

impl<const N: usize> Debug for RoleWords<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<const N: usize> BitAnd for RoleWords<N> {
    type Output = Self;
    #[inline]
    fn bitand(self, o: Self) -> Self {
        RoleWords(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }
}
impl<const N: usize> BitOr for RoleWords<N> {
    type Output = Self;
    #[inline]
    fn bitor(self, o: Self) -> Self {
        RoleWords(std::array::from_fn(|k| self.0[k] | o.0[k]))
    }
}
impl<const N: usize> Not for RoleWords<N> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        RoleWords(self.0.map(|w| !w))
    }
}
impl<const N: usize> BitAndAssign for RoleWords<N> {
    #[inline]
    fn bitand_assign(&mut self, o: Self) {
        *self = *self & o;
    }
}
impl<const N: usize> BitOrAssign for RoleWords<N> {
    #[inline]
    fn bitor_assign(&mut self, o: Self) {
        *self = *self | o;
    }
}

/// The roles of a [`RoleWords`], lowest first.
pub struct RoleIter<const N: usize> {
    words: [u64; N],
    at: usize,
}

impl<const N: usize> Iterator for RoleIter<N> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.at < N {
            let w = &mut self.words[self.at];
            if *w != 0 {
                let i = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.at * 64 + i);
            }
            self.at += 1;
        }
        None
    }
}

/// The role sets a bitboard width may carry, for its bound.
pub trait RoleSet:
    Copy
    + Eq
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + FromIterator<usize>
{
    /// How many roles it can hold.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;
    /// Adds role `i`.
    fn insert(&mut self, i: usize);
    /// Takes role `i` out.
    fn remove(&mut self, i: usize);
    /// Whether role `i` is in the set.
    fn contains(self, i: usize) -> bool;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// The roles, lowest first.
    fn iter(self) -> impl Iterator<Item = usize>;
}

impl<const N: usize> RoleSet for RoleWords<N> {
    const CAPACITY: usize = RoleWords::<N>::CAPACITY;
    const EMPTY: Self = RoleWords::<N>::EMPTY;
    #[inline]
    fn insert(&mut self, i: usize) {
        RoleWords::insert(self, i)
    }
    #[inline]
    fn remove(&mut self, i: usize) {
        RoleWords::remove(self, i)
    }
    #[inline]
    fn contains(self, i: usize) -> bool {
        RoleWords::contains(self, i)
    }
    #[inline]
    fn is_empty(self) -> bool {
        RoleWords::is_empty(self)
    }
    #[inline]
    fn iter(self) -> impl Iterator<Item = usize> {
        RoleWords::iter(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn check<const N: usize>() {
        // A fixed pseudo-random walk of inserts and removes, against a set.
        let mut s = RoleWords::<N>::EMPTY;
        let mut model = BTreeSet::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = (x % (64 * N as u64)) as usize;
            if x & 1 << 40 != 0 {
                s.insert(i);
                model.insert(i);
            } else {
                s.remove(i);
                model.remove(&i);
            }
            assert_eq!(s.is_empty(), model.is_empty());
            assert_eq!(s.contains(i), model.contains(&i));
        }
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            model.iter().copied().collect::<Vec<_>>()
        );
        let other: RoleWords<N> = (0..64 * N).step_by(3).collect();
        let and: Vec<_> = (s & other).iter().collect();
        let want: Vec<_> = model.iter().copied().filter(|i| i % 3 == 0).collect();
        assert_eq!(and, want);
        let or = (s | other).iter().count();
        assert_eq!(
            or,
            model.iter().filter(|i| *i % 3 != 0).count() + (64 * N).div_ceil(3)
        );
        assert_eq!((!s).iter().count(), 64 * N - model.len());
        assert!(!s.contains(64 * N), "past the capacity nothing is held");
    }

    #[test]
    fn sets_of_one_two_and_eight_words_agree_with_a_model() {
        check::<1>();
        check::<2>();
        check::<8>();
    }

    #[test]
    fn the_highest_role_of_each_word_is_kept() {
        let s: RoleWords<8> = [0, 63, 64, 127, 448, 511].into_iter().collect();
        assert_eq!(s.iter().collect::<Vec<_>>(), [0, 63, 64, 127, 448, 511]);
    }
}
