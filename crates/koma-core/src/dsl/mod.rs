//! The movement DSL: Betza's notation, parsed with pest into a typed AST
//! with spans, checked (every error collected), then compiled to move vectors.
//!
//! Meaning, from the mover's side (`f` = toward the opponent):
//! - atoms: `W` (0,1) `F` (1,1) `D` (0,2) `N` (1,2) `A` (2,2) `H` (0,3)
//!   `C` (1,3) `Z` (2,3) `G` (3,3), in every direction; `K` = `WF`;
//!   riders `R` = `WW`, `B` = `FF`, `Q` = `RB`; a doubled leaper rides.
//! - a range after an atom limits a rider (`R2`) or makes a leaper ride (`W0`
//!   rides without limit, `W3` at most three steps).
//! - modes: `m` only to an empty square, `c` only to capture.
//! - directions: `f` `b` `l` `r`, `v` (= f+b), `s` (= l+r). On orthogonal atoms
//!   each letter adds its direction (`fsW` = forward and sideways steps). On
//!   diagonal atoms a vertical and a horizontal letter side by side name one
//!   diagonal (`rbB` = the right-back diagonal), a single letter the two on that
//!   side (`fF` = both forward diagonals). On oblique atoms (N C Z) a single
//!   letter selects the moves that go mainly that way (`fN` = the two narrow
//!   forward knight jumps, as Fairy-Stockfish reads it; `ff` is the same); a pair
//!   names the minor then the major direction (`fsN` = the two wide forward
//!   jumps, `rfN` = the narrow jump forward and right).
//!   `h` after a letter means that half of the board (`fhN` = all four jumps
//!   that go forward at all).
//! - legs (XBetza's `a`, "and then"): `caK` is a king step that captures,
//!   then a second king step from there; the modifiers before the first `a`
//!   belong to the first leg, those after it to the second. A first leg goes
//!   to an empty square unless marked `c`; on the second, `f` repeats the
//!   first leg's step, `b` comes back, and the square left counts as empty
//!   (`cabK` captures without moving, `mabK` passes). Two legs at most, each
//!   a single step of a leaper or `K`.
//! - hops (Betza's `p` and `g`): a `p` rider jumps over the first piece on
//!   its line (the screen) and then goes on as a rider to an empty square
//!   or to the next piece, which it may capture (`mRcpR` is a xiangqi
//!   cannon); a `g` rider lands on the square just beyond the screen (a
//!   grasshopper). A range limits how far from its square a `p` rider may
//!   land (`pB2`: over a neighbour to the square behind it).

mod ast;
mod compile;
mod hop;

pub use ast::{Atom, LaterLeg, Movement, Part, Span};
pub use compile::{Leg, Mode, Moves, Step, TwoLegs, compile};
pub use hop::{HopKind, Hopper};

use pest::Parser;

/// The pest parser generated from `grammar/betza.pest`.
mod parser {
    #![allow(missing_docs)]
    use pest_derive::Parser;

    #[derive(Parser)]
    #[grammar = "../../../grammar/betza.pest"]
    pub struct BetzaParser;
}
use parser::{BetzaParser, Rule};

/// A problem in a movement string, located by byte offsets inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DslError {
    /// What is wrong, in words.
    pub message: String,
    /// Where, as byte offsets into the movement string.
    pub span: Span,
}

impl std::fmt::Display for DslError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (at character {})", self.message, self.span.start + 1)
    }
}

/// Parses a movement string into its AST.
pub fn parse(text: &str) -> Result<Movement, DslError> {
    let pairs = BetzaParser::parse(Rule::movement, text).map_err(|e| syntax_error(text, e))?;
    Ok(ast::build(pairs))
}

/// Parses, checks and compiles a movement string into move vectors and
/// two-leg moves. Every problem found is returned, not only the first.
pub fn moves(text: &str) -> Result<Moves, Vec<DslError>> {
    let movement = parse(text).map_err(|e| vec![e])?;
    compile(&movement)
}

fn syntax_error(text: &str, e: pest::error::Error<Rule>) -> DslError {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let message = match text[pos..].chars().next() {
        None if text.is_empty() => {
            "the movement is empty: expected at least one atom such as W, F or R".to_string()
        }
        None => "the movement ends after a modifier: expected an atom (W F D N A H C Z G K R B Q)"
            .to_string(),
        Some(c) if c.is_ascii_uppercase() => {
            format!("'{c}' is not a supported atom: expected one of W F D N A H C Z G K R B Q")
        }
        Some(c) if c.is_ascii_lowercase() => format!(
            "'{c}' is not a supported modifier: expected f b l r v s h (directions), m c (modes), p g (hops) or a (next leg), followed by an atom"
        ),
        Some(c) if c.is_ascii_digit() => {
            format!("a range ('{c}') must follow an atom")
        }
        Some(c) => format!("unexpected character '{c}': expected modifiers and an atom such as fW"),
    };
    let len = text[pos..].chars().next().map_or(0, char::len_utf8);
    DslError {
        message,
        span: Span {
            start: pos,
            end: pos + len,
        },
    }
}

#[cfg(test)]
mod tests;
