//! koma: shogi variants as data.
//!
//! A variant is a Markdown document with YAML front matter (see `variants/`).
//! [`variant`] reads it (with inheritance), [`dsl`] compiles piece movements,
//! [`rules::Rules`] holds the compiled tables, [`position`] plays on them.
//!
//! ```
//! let game = koma::Game::load("judkins-shogi").unwrap();
//! koma::with_rules!(&game, rules => {
//!     let pos = koma::position::Position::start(rules);
//!     assert_eq!(pos.legal_moves().len(), 21);
//! });
//! ```

#![warn(missing_docs)]

pub mod board;
pub mod dsl;
pub mod engine;
pub mod error;
pub mod notation;
pub mod play;
pub mod position;
pub mod protocol;
pub mod record;
pub mod render;
pub mod rules;
pub mod variant;

pub use error::Error;

use rules::Rules;
use variant::Variant;

/// The largest text file koma reads (a variant file or a game record): 4 MiB.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// Reads a text file of at most [`MAX_FILE_BYTES`], so that a device or a
/// huge file given by mistake is refused instead of filling the memory.
pub fn read_text_file(path: &std::path::Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB: not a variant file or game record",
            MAX_FILE_BYTES >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        )
    })
}

/// The next line of `input` with its end of line, `None` at the end of the
/// input. Bytes that are not UTF-8 become U+FFFD: a person's or a GUI's
/// stray byte makes a line that is refused, never the end of a session.
pub fn read_line_lossy(
    input: &mut (impl std::io::BufRead + ?Sized),
) -> std::io::Result<Option<String>> {
    let mut line = Vec::new();
    if input.read_until(b'\n', &mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}

/// A compiled variant on the narrowest bitboard that holds its board.
#[derive(Clone, Debug)]
pub enum Game {
    /// Up to 64 squares.
    Narrow(Rules<u64>),
    /// Up to 128 squares.
    Wide(Rules<u128>),
    /// Up to [`board::MAX_SQUARES`] (256) squares.
    Large(Rules<board::Bitboard256>),
}

impl Game {
    /// Loads a variant by slug or path and compiles it.
    pub fn load(name: &str) -> Result<Game, Error> {
        let v = variant::load(name)?;
        Game::compile(&v)
    }

    /// Compiles a loaded variant, choosing the bitboard width from its board.
    pub fn compile(v: &Variant) -> Result<Game, Error> {
        let t = &v.engine.topology;
        let located = |e: rules::RulesError| {
            Error::Variant(variant::VariantError::Diagnostics(
                variant::locate_problems(&e.problems, &v.sources),
            ))
        };
        // A board beyond the widest bitboard is refused by the compiler.
        let squares = (t.rows as u64) * (t.cols as u64);
        if squares <= u64::BITS as u64 {
            Ok(Game::Narrow(rules::compile(v).map_err(located)?))
        } else if squares <= u128::BITS as u64 {
            Ok(Game::Wide(rules::compile(v).map_err(located)?))
        } else {
            Ok(Game::Large(rules::compile(v).map_err(located)?))
        }
    }
}

/// Runs a block with `$rules` bound to the game's `&Rules<B>`, whatever its width.
#[macro_export]
macro_rules! with_rules {
    ($game:expr, $rules:ident => $body:expr) => {
        match $game {
            $crate::Game::Narrow($rules) => $body,
            $crate::Game::Wide($rules) => $body,
            $crate::Game::Large($rules) => $body,
        }
    };
}
