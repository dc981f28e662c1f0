//! koma's core: shogi variants as data, up to positions and notation.
//!
//! The modules are layers, each using only those before it in this list:
//! [`text`] and [`board`] (squares, topology, bitboards), [`dsl`] (the
//! movement notation), [`setup`] (FEN and SFEN), [`variant`] (the document,
//! inheritance, the validator), [`rules`] (the compiled tables), [`position`]
//! (positions, move generation, outcomes; [`Game`] and
//! [`position::AnyPosition`] over the bitboard widths), [`notation`],
//! [`error`]. The crates above it (`koma-engine`, `koma`) build on these;
//! `koma` re-exports them under the same paths, and its test
//! `tests/koma/layers.rs` holds every crate's modules to the layers.

#![warn(missing_docs)]

pub mod board;
pub mod dsl;
pub mod error;
pub mod notation;
pub mod position;
pub mod rules;
pub mod setup;
pub mod text;
pub mod variant;

pub use error::Error;
pub use position::Game;
