//! The limits of a variant file, each one named constant that the
//! validator, its messages and `variants/README.md` quote.
//!
//! Two more limits live with what they bound: the squares of a board
//! ([`crate::position::MAX_SQUARES`], the widest bitboard) and the piece
//! kinds ([`crate::rules::MAX_ROLES`], promoted sides included).

/// The most ranks a board may have (files are named `a` to `z`).
pub const MAX_RANKS: u32 = 26;

/// The most files a board may have (one letter each, `a` to `z`).
pub const MAX_FILES: u32 = 26;

/// How deep parents may nest before the chain is refused.
pub const MAX_PARENT_DEPTH: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::MAX_SQUARES;
    use crate::rules::MAX_ROLES;

    #[test]
    fn the_readme_quotes_each_limit() {
        let readme = include_str!("../../variants/README.md");
        for quote in [
            format!("number of ranks (1–{MAX_RANKS})"),
            format!("number of files (1–{MAX_FILES}); rows × cols ≤ {MAX_SQUARES}"),
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
