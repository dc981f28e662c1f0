//! Game records: one model ([`GameRecord`]) read from and written to every
//! format koma knows.
//!
//! | format | read | write | boards |
//! | --- | --- | --- | --- |
//! | koma's own ([`koma`]) | yes | yes | any |
//! | USI `position` lines | yes (as koma's own) | yes | any |
//! | KIF / KIFU ([`kif`]), Shift_JIS or UTF-8 | yes | yes | any: `手合割` or a BOD diagram |
//! | KI2 ([`kif`]) | yes | yes | any |
//! | CSA V2.2 / V3 ([`csa`]) | yes | yes | 9×9 with CSA codes for every piece |
//! | PGN with `[Variant]` and `[FEN]`/`[SFEN]` ([`pgn`]) | yes | yes | any |
//! | JKF, JSON Kifu Format ([`jkf`]) | yes | yes | 9×9 with CSA codes for every piece |
//!
//! Reading goes in two steps: a format's parser turns the text into a
//! [`Draft`] (headers, the variant's name or `手合割`, the start as written,
//! the moves as written, each with its line); [`read`] then chooses the game,
//! reads the start on it and resolves every move against the position it is
//! played in, so that each error names its line.

mod detect;
mod draft;
mod model;
mod resolve;
mod special;

pub mod csa;
pub mod jkf;
pub mod kif;
pub mod koma;
pub mod pgn;

pub use detect::*;
pub use draft::*;
pub use model::*;
pub(crate) use resolve::pgn_variant;
pub use resolve::*;
pub(crate) use special::*;

/// Parses a record's text in `format` into a draft.
pub fn parse(text: &str, format: Format) -> Result<Draft, RecordError> {
    match format {
        Format::Koma | Format::Usi => koma::parse(text),
        Format::Kif => kif::parse(text, false),
        Format::Ki2 => kif::parse(text, true),
        Format::Csa => csa::parse(text),
        Format::Pgn => pgn::parse(text),
        Format::Jkf => jkf::parse(text),
    }
}

/// Writes a record in a format, or says why the format cannot hold it.
pub fn write(rec: &GameRecord, format: Format) -> Result<String, String> {
    match format {
        Format::Koma => Ok(koma::write(rec)),
        Format::Usi => Ok(koma::write_usi(rec)),
        Format::Kif => kif::write(rec, false),
        Format::Ki2 => kif::write(rec, true),
        Format::Csa => csa::write(rec),
        Format::Pgn => Ok(pgn::write(rec)),
        Format::Jkf => jkf::write(rec),
    }
}
