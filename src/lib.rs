//! koma: shogi variants as data.
//!
//! A variant is a Markdown document with YAML front matter (see `variants/`).
//! The modules are layers, each using only those before it in this list:
//! [`text`] and [`board`] (squares, topology, bitboards), [`dsl`] (the
//! movement notation), [`setup`] (FEN and SFEN), [`variant`] (the document,
//! inheritance, the validator), [`rules`] (the compiled tables), [`position`]
//! (positions, move generation, outcomes; [`Game`] and
//! [`position::AnyPosition`] over the bitboard widths), [`notation`],
//! [`error`], [`engine`], [`render`], [`export`], [`record`], [`protocol`], [`play`], [`server`]. A
//! test (`tests/koma/layers.rs`) holds them to it. The layers up to [`error`]
//! are the crate `koma-core`, [`engine`] is `koma-engine`, the rest is this
//! crate (`crates/` and the workspace's `Cargo.toml`); this crate re-exports
//! the others' modules under the same paths.
//!
//! ```
//! let game = koma::Game::load("judkins-shogi").unwrap();
//! let mut pos = koma::position::AnyPosition::start(&game);
//! assert_eq!(pos.legal_moves().len(), 21);
//! let mv = pos.parse_move("6e6d").unwrap();
//! pos.try_play(mv).unwrap();
//! assert_eq!(pos.sfen(), "rbsgkn/5p/6/P5/6/NKGSBR w - 2");
//! ```

#![warn(missing_docs)]

pub mod export;
pub mod play;
pub mod protocol;
pub mod record;
pub mod render;
pub mod server;

// The lower layers live in their own crates (the workspace's Cargo.toml);
// they keep their paths here, so `koma::position::Position` is what it was.
pub use koma_core::{
    Error, Game, board, dsl, error, notation, position, rules, setup, text, variant, with_position,
    with_rules,
};
pub use koma_engine::engine;

/// The book's pages in `docs/` that hold Rust examples, included here so
/// that `cargo test --doc` compiles and runs every example. A page with a
/// ```` ```rust ```` block is added by one line (`tests/koma/docs.rs` checks
/// that none is left out).
#[cfg(doctest)]
mod book {
    macro_rules! page {
        ($name:ident, $path:literal) => {
            #[doc = include_str!($path)]
            pub struct $name;
        };
    }

    page!(Library, "../docs/library.md");
}
