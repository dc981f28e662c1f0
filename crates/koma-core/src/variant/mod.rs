//! Variant files: the document split, inheritance, the schema, the validator,
//! the catalogue, and problems shown at their place in the files.
//!
//! A variant file is Markdown with YAML front matter between `---` lines.
//! The keys the engine reads live under `engine:` (see [`schema`]); every
//! other key (title, prose fields) is kept and never an error. A document with
//! `parent: SLUG` inherits its parent's front matter as a JSON-merge-patch
//! (RFC 7386): mappings merge key by key at any depth, a `null` (`~`) removes
//! the inherited key, anything else replaces it. Parents may have parents.

mod document;
mod inherit;
pub mod limits;
mod load;
mod locate;
mod problem;
pub mod schema;
pub mod validate;

pub use inherit::merge;
pub use load::{Alias, DEFAULT_VARIANT, alias_list, aliases, catalogue, embedded, from_text, load};
pub use locate::{Locations, Place, locate};
pub use problem::{At, Diagnostic, Problem, locate_problems};
pub use schema::EngineSpec;
pub use validate::{PieceDef, Validated, validate};

use serde_yaml::Value;
use thiserror::Error;

use crate::setup::Setup;

/// A loaded variant document, parents merged in.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Short name (`judkins-shogi`): the front matter's `slug`, else the file stem.
    pub slug: String,
    /// The title, from the front matter (falls back to the slug).
    pub title: String,
    /// Where it came from: `variants/<slug>.md` (embedded) or the path given.
    pub origin: String,
    /// The merged front matter, as read.
    pub front: Value,
    /// The engine's part of the front matter, typed (as the validator accepted it).
    pub engine: EngineSpec,
    /// The pieces of `engine.pieces`, in order, with their letters and their
    /// movements compiled.
    pub pieces: Vec<PieceDef>,
    /// The start position, `engine.setup` read.
    pub start: Setup,
    /// The document's Markdown body (its own, not the parent's).
    pub body: String,
    /// The documents read, the variant's own first, then its parents.
    pub sources: Vec<Source>,
}

impl Variant {
    /// The roles its pieces make: each piece, and its promoted side if it has one.
    pub fn role_count(&self) -> usize {
        self.pieces
            .iter()
            .map(|p| 1 + usize::from(p.promotion().is_some()))
            .sum()
    }
}

/// One document of a variant's parent chain, kept to locate problems.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file (or `variants/<slug>.md` for an embedded one).
    pub origin: String,
    /// The whole text.
    pub text: String,
    /// The line of the file where the YAML starts (after the opening `---`).
    pub first_line: usize,
    /// Its front matter.
    pub yaml: String,
    /// Where its keys and values stand, found when a problem is to be shown.
    locations: std::sync::OnceLock<Locations>,
}

impl Source {
    /// Where its keys and values stand.
    pub fn locations(&self) -> &Locations {
        self.locations.get_or_init(|| locate(&self.yaml))
    }
}

/// What can go wrong while loading a variant file.
#[derive(Debug, Error)]
pub enum VariantError {
    /// No embedded variant has this name and no such file exists.
    #[error("unknown variant '{name}': known variants are {known}")]
    Unknown {
        /// What was asked for.
        name: String,
        /// The catalogue, comma-separated.
        known: String,
    },
    /// The file could not be read.
    #[error("cannot read {path}: {reason}")]
    Io {
        /// The path.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// Problems in the file, each shown at its place.
    #[error("{}", render(.0))]
    Diagnostics(Vec<Diagnostic>),
}

fn render(diagnostics: &[Diagnostic]) -> String {
    let mut s: Vec<String> = diagnostics.iter().map(|d| d.to_string()).collect();
    if diagnostics.len() > 1 {
        s.push(format!("{} problems", diagnostics.len()));
    }
    s.join("\n\n")
}

impl VariantError {
    /// The located problems, if the error has any.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            VariantError::Diagnostics(d) => d,
            _ => &[],
        }
    }
}
