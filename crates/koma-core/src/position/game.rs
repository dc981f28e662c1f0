//! A compiled variant on the narrowest bitboard that holds its board: the
//! one enum at the boundary, so that code above it names no width.

use std::sync::Arc;

use super::Position;
use crate::board::{Bitboard, Bitboard256, Bitboard1344};
use crate::rules::{self, Rules};
use crate::setup::Setup;
use crate::variant::{self, Problem, Variant, VariantError};

/// A compiled variant, its rules shared by every position played on them.
#[derive(Clone, Debug)]
pub enum Game {
    /// Up to 64 squares.
    #[cfg(not(feature = "one-width"))]
    Narrow(Arc<Rules<u64>>),
    /// Up to 128 squares.
    #[cfg(not(feature = "one-width"))]
    Wide(Arc<Rules<u128>>),
    /// Up to 256 squares.
    Large(Arc<Rules<Bitboard256>>),
    /// Up to [`crate::board::MAX_SQUARES`] (1,296) squares.
    Huge(Arc<Rules<Bitboard1344>>),
}

impl Game {
    /// Loads a variant by slug or path and compiles it.
    pub fn load(name: &str) -> Result<Game, VariantError> {
        let v = variant::load(name)?;
        Game::compile(&v)
    }

    /// Compiles a loaded variant, choosing the bitboard width from its
    /// board and its roles (a width carries a role set of its own: one
    /// with more roles than its board's width holds runs on a wider one),
    /// and checks that its start is a position of its rules.
    pub fn compile(v: &Variant) -> Result<Game, VariantError> {
        let t = &v.engine.topology;
        // A board beyond the widest bitboard, or more roles than the
        // widest role set, is refused by the validator.
        let squares = (t.rows as usize) * (t.cols as usize);
        let roles = v.role_count();
        let fits =
            |capacity: usize, role_capacity: usize| squares <= capacity && roles <= role_capacity;
        #[cfg(not(feature = "one-width"))]
        if fits(u64::CAPACITY, <u64 as Bitboard>::Roles::CAPACITY) {
            return Ok(Game::Narrow(checked(v, rules::compile(v))?));
        } else if fits(u128::CAPACITY, <u128 as Bitboard>::Roles::CAPACITY) {
            return Ok(Game::Wide(checked(v, rules::compile(v))?));
        }
        if fits(
            Bitboard256::CAPACITY,
            <Bitboard256 as Bitboard>::Roles::CAPACITY,
        ) {
            return Ok(Game::Large(checked(v, rules::compile(v))?));
        }
        Ok(Game::Huge(checked(v, rules::compile(v))?))
    }

    /// The variant's slug.
    pub fn slug(&self) -> &str {
        crate::with_rules!(self, r => &r.slug)
    }

    /// The variant's title.
    pub fn title(&self) -> &str {
        crate::with_rules!(self, r => &r.title)
    }

    /// The variant's start setup.
    pub fn start_setup(&self) -> &Setup {
        crate::with_rules!(self, r => &r.start)
    }
}

/// The compiled rules, once their start setup is known to be a position of them.
fn checked<B: Bitboard>(
    v: &Variant,
    compiled: Result<Rules<B>, rules::RulesError>,
) -> Result<Arc<Rules<B>>, VariantError> {
    let located = |problems: Vec<Problem>| {
        VariantError::Diagnostics(variant::locate_problems(&problems, &v.sources))
    };
    let rules = Arc::new(compiled.map_err(|e| located(e.problems))?);
    if let Err(e) = Position::new(&rules, &rules.start) {
        return Err(located(vec![Problem::value(
            "engine.setup",
            format!("engine.setup: '{}': {e}", v.engine.setup),
        )]));
    }
    Ok(rules)
}

/// Runs a block with `$rules` bound to the game's `&Arc<Rules<B>>`, whatever its width.
// Two definitions, as `with_position!` has: a macro's `cfg` is read where it is used.
#[cfg(not(feature = "one-width"))]
#[macro_export]
macro_rules! with_rules {
    ($game:expr, $rules:ident => $body:expr) => {
        match $game {
            $crate::Game::Narrow($rules) => $body,
            $crate::Game::Wide($rules) => $body,
            $crate::Game::Large($rules) => $body,
            $crate::Game::Huge($rules) => $body,
        }
    };
}

/// Runs a block with `$rules` bound to the game's `&Arc<Rules<B>>`, whatever its width.
#[cfg(feature = "one-width")]
#[macro_export]
macro_rules! with_rules {
    ($game:expr, $rules:ident => $body:expr) => {
        match $game {
            $crate::Game::Large($rules) => $body,
            $crate::Game::Huge($rules) => $body,
        }
    };
}
