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
