//! The limits of a variant file, each one named constant that the
//! validator, its messages and `variants/README.md` quote.
//!
//! One more limit lives with what it bounds: the squares of a board
//! ([`crate::board::MAX_SQUARES`], the widest bitboard).

/// The most ranks a board may have: the 36 of the largest shogi
/// (taikyoku), named in USI `a` to `z`, then `aa` to `aj`
/// ([`crate::board::square_letters`]). The squares of the whole board are
/// bounded too, by [`crate::board::MAX_SQUARES`].
pub const MAX_RANKS: u32 = 36;

/// The most files a board may have: 36, named in Fairy-Stockfish
/// notation `a` to `z`, then `aa` to `aj`.
pub const MAX_FILES: u32 = 36;

/// The most piece kinds (promoted sides included) a variant may declare:
/// 512, room for taikyoku shogi's 209 kinds a side with their promoted
/// sides, and the capacity of the widest role set
/// ([`AnyRoles`](crate::board::AnyRoles)). A position stores a piece as the
/// 16-bit code `role * 2 + colour + 1` (0 is an empty square).
pub const MAX_ROLES: usize = 512;
const _: () = assert!(MAX_ROLES <= crate::board::AnyRoles::CAPACITY);
const _: () = assert!(MAX_ROLES * 2 < u16::MAX as usize);

/// How deep parents may nest before the chain is refused.
pub const MAX_PARENT_DEPTH: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::MAX_SQUARES;

    #[test]
    fn the_readme_quotes_each_limit() {
        let readme = include_str!("../../../../variants/README.md");
        for quote in [
            format!("number of ranks (1–{MAX_RANKS};"),
            format!("number of files (1–{MAX_FILES};"),
            format!("rows × cols ≤ {MAX_SQUARES}"),
            format!("at most {MAX_ROLES} kinds, promoted sides included"),
            format!("Parents may have parents (up to {MAX_PARENT_DEPTH} deep)"),
        ] {
            assert!(
                readme.contains(&quote),
                "variants/README.md should say '{quote}' (the limit is a constant)"
            );
        }
    }
}
