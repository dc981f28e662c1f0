//! The library's error type: one place, so every command's messages read alike.

use thiserror::Error;

use crate::notation::ReplayError;
use crate::rules::RulesError;
use crate::setup::SetupError;
use crate::variant::VariantError;

/// Anything that can go wrong when koma is given input.
#[derive(Debug, Error)]
pub enum Error {
    /// The variant file could not be loaded.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// The variant file loaded but its rules are wrong.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A FEN or SFEN could not be read.
    #[error("cannot read the {kind} '{text}': {source}")]
    Setup {
        /// "FEN" or "SFEN".
        kind: &'static str,
        /// The text given.
        text: String,
        /// What is wrong.
        source: SetupError,
    },
    /// A position (a setup and moves) is not one of the variant: the setup
    /// breaks its rules, or a move cannot be played.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// An input checked by `validate` is not valid (the details were given).
    #[error("{0}")]
    Invalid(String),
    /// A command was used wrongly.
    #[error("{0}")]
    Usage(String),
    /// A stream or file could not be read or written (the output closed, the
    /// disk full): not the input's fault nor the command line's.
    #[error("cannot {what}: {source}")]
    Io {
        /// What koma was doing ("write the output", "write game.svg").
        what: String,
        /// The system's reason.
        source: std::io::Error,
    },
}

impl Error {
    /// An I/O failure while doing `what`.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let what = what.into();
        move |source| Error::Io { what, source }
    }
}
