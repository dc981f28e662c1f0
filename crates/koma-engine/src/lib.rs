//! koma's engine: search, move ordering, evaluation, transposition table,
//! mate search and tuning, over the positions of `koma-core`.
//!
//! Its one module keeps the path it has in the `koma` crate
//! (`koma::engine`); the core's modules are imported at this crate's root
//! under their own names, so the engine's `crate::position` paths read as in
//! the `koma` crate and `tests/koma/layers.rs` checks them the same way.

#![warn(missing_docs)]

pub mod engine;

pub(crate) use koma_core::{board, position, rules, variant, with_position};
// What only the unit tests name.
#[cfg(test)]
pub(crate) use koma_core::{Game, setup, with_rules};
