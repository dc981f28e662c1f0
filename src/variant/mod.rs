//! Variant files: the document split, inheritance, the schema, the catalogue.
//!
//! A variant file is Markdown with YAML front matter between `---` lines.
//! The keys the engine reads live under `engine:` (see [`schema`]); every
//! other key (title, prose fields) is kept and never an error. A document with
//! `parent: SLUG` inherits its parent's front matter as a JSON-merge-patch
//! (RFC 7386): mappings merge key by key at any depth, a `null` (`~`) removes
//! the inherited key, anything else replaces it. Parents may have parents.

pub mod schema;

use std::path::{Path, PathBuf};

use serde_yaml::Value;
use thiserror::Error;

pub use schema::EngineSpec;

mod catalogue {
    include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));
}

/// How deep parents may nest before the chain is refused.
pub const MAX_PARENT_DEPTH: usize = 16;

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
    /// The engine's part of the front matter, typed.
    pub engine: EngineSpec,
    /// The document's Markdown body (its own, not the parent's).
    pub body: String,
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
    /// The document does not start with a `---` front matter block.
    #[error("{origin}: the document must start with YAML front matter between two '---' lines")]
    NoFrontMatter {
        /// The file.
        origin: String,
    },
    /// The front matter is not valid YAML, or has the wrong shape.
    #[error("{origin}:{line}:{column}: {message}")]
    Yaml {
        /// The file.
        origin: String,
        /// 1-based line in the file.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// Something in the (merged) front matter is wrong.
    #[error("{origin}: {message}")]
    Invalid {
        /// The file.
        origin: String,
        /// What is wrong, naming the key.
        message: String,
    },
    /// A parent chain loops.
    #[error("{origin}: parents form a cycle: {chain}")]
    Cycle {
        /// The file.
        origin: String,
        /// The chain, `a -> b -> a`.
        chain: String,
    },
}

/// The slugs of the embedded variants, sorted.
pub fn catalogue() -> Vec<&'static str> {
    catalogue::CATALOGUE.iter().map(|(slug, _)| *slug).collect()
}

/// The embedded document of a slug.
pub fn embedded(slug: &str) -> Option<&'static str> {
    catalogue::CATALOGUE
        .iter()
        .find(|(s, _)| *s == slug)
        .map(|(_, text)| *text)
}

/// The other names of embedded variants (front matter `aliases`, such as
/// Fairy-Stockfish's names), as (alias, slug) pairs.
pub fn aliases() -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    for &(slug, text) in catalogue::CATALOGUE {
        let Ok(doc) = split(text, slug) else { continue };
        if let Some(Value::Sequence(names)) = doc.own.get("aliases") {
            out.extend(
                names
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|a| (a.to_string(), slug)),
            );
        }
    }
    out
}

/// Loads a variant by slug or alias (embedded) or by path to a `.md` file.
pub fn load(name: &str) -> Result<Variant, VariantError> {
    if let Some(text) = embedded(name) {
        return from_text(text, &format!("variants/{name}.md"), None);
    }
    if let Some((_, slug)) = aliases().into_iter().find(|(a, _)| a == name) {
        return load(slug);
    }
    let path = Path::new(name);
    if path.is_file() || name.ends_with(".md") || name.contains('/') {
        let text = std::fs::read_to_string(path).map_err(|e| VariantError::Io {
            path: name.to_string(),
            reason: e.to_string(),
        })?;
        return from_text(&text, name, path.parent().map(Path::to_path_buf));
    }
    Err(VariantError::Unknown {
        name: name.to_string(),
        known: catalogue().join(", "),
    })
}

/// Loads a variant from a document's text. `dir` is where sibling parent
/// files are looked for first (before the embedded catalogue).
pub fn from_text(text: &str, origin: &str, dir: Option<PathBuf>) -> Result<Variant, VariantError> {
    let doc = split(text, origin)?;
    let mut chain = vec![origin.to_string()];
    let front = resolve(doc.front, origin, dir.as_deref(), &mut chain)?;
    let engine_value = match &front {
        Value::Mapping(m) => m.get("engine").cloned(),
        _ => None,
    }
    .ok_or_else(|| VariantError::Invalid {
        origin: origin.to_string(),
        message: "the front matter has no 'engine' section (nor does any parent)".into(),
    })?;
    let engine: EngineSpec =
        serde_yaml::from_value(engine_value).map_err(|e| VariantError::Invalid {
            origin: origin.to_string(),
            message: format!("in 'engine': {e}"),
        })?;
    let stem = Path::new(origin)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(origin);
    let own = |key: &str| match &doc.own {
        Value::Mapping(m) => m.get(key).and_then(Value::as_str).map(str::to_string),
        _ => None,
    };
    let slug = own("slug").unwrap_or_else(|| stem.to_string());
    let title = own("title").unwrap_or_else(|| slug.clone());
    Ok(Variant {
        slug,
        title,
        origin: origin.to_string(),
        front,
        engine,
        body: doc.body,
    })
}

struct Document {
    /// The front matter with `parent` still in it.
    front: Value,
    /// The same, kept to read the document's own slug and title.
    own: Value,
    body: String,
}

fn split(text: &str, origin: &str) -> Result<Document, VariantError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or_else(|| VariantError::NoFrontMatter {
            origin: origin.to_string(),
        })?;
    let mut offset = 0;
    let mut end = None;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            end = Some((offset, offset + line.len()));
            break;
        }
        offset += line.len();
    }
    let (yaml_end, body_start) = end.ok_or_else(|| VariantError::NoFrontMatter {
        origin: origin.to_string(),
    })?;
    let yaml = &rest[..yaml_end];
    let front: Value = serde_yaml::from_str(yaml).map_err(|e| {
        let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        VariantError::Yaml {
            origin: origin.to_string(),
            // +1: the opening '---' line.
            line: line + 1,
            column,
            message: e
                .to_string()
                .split(" at line ")
                .next()
                .unwrap_or_default()
                .to_string(),
        }
    })?;
    if !matches!(front, Value::Mapping(_)) {
        return Err(VariantError::Yaml {
            origin: origin.to_string(),
            line: 2,
            column: 1,
            message: "the front matter must be a mapping of keys to values".into(),
        });
    }
    Ok(Document {
        own: front.clone(),
        front,
        body: rest[body_start..].to_string(),
    })
}

fn resolve(
    front: Value,
    origin: &str,
    dir: Option<&Path>,
    chain: &mut Vec<String>,
) -> Result<Value, VariantError> {
    let parent = match &front {
        Value::Mapping(m) => match m.get("parent") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                return Err(VariantError::Invalid {
                    origin: origin.to_string(),
                    message: "'parent' must be the slug of another variant, as a string".into(),
                });
            }
        },
        _ => None,
    };
    let Some(parent) = parent else {
        return Ok(front);
    };
    if chain.iter().any(|c| slug_of(c) == parent) || chain.len() > MAX_PARENT_DEPTH {
        chain.push(parent);
        return Err(VariantError::Cycle {
            origin: origin.to_string(),
            chain: chain
                .iter()
                .map(|c| slug_of(c))
                .collect::<Vec<_>>()
                .join(" -> "),
        });
    }
    let sibling = dir
        .map(|d| d.join(format!("{parent}.md")))
        .filter(|p| p.is_file());
    let (text, parent_origin, parent_dir) = if let Some(path) = sibling {
        let text = std::fs::read_to_string(&path).map_err(|e| VariantError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        (text, path.display().to_string(), dir.map(Path::to_path_buf))
    } else if let Some(text) = embedded(&parent) {
        (text.to_string(), format!("variants/{parent}.md"), None)
    } else {
        return Err(VariantError::Invalid {
            origin: origin.to_string(),
            message: format!(
                "unknown parent '{parent}': known variants are {}",
                catalogue().join(", ")
            ),
        });
    };
    let doc = split(&text, &parent_origin)?;
    chain.push(parent_origin.clone());
    let base = resolve(doc.front, &parent_origin, parent_dir.as_deref(), chain)?;
    Ok(merge(base, front))
}

fn slug_of(origin: &str) -> String {
    Path::new(origin)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(origin)
        .to_string()
}

/// JSON merge patch (RFC 7386) on YAML values: `patch` applied to `base`.
pub fn merge(base: Value, patch: Value) -> Value {
    match (base, patch) {
        (Value::Mapping(mut base), Value::Mapping(patch)) => {
            for (key, value) in patch {
                if value.is_null() {
                    base.remove(&key);
                } else {
                    match base.get_mut(&key) {
                        Some(old) if old.is_mapping() && value.is_mapping() => {
                            let taken = std::mem::take(old);
                            *old = merge(taken, value);
                        }
                        _ => {
                            base.insert(key, strip_nulls(value));
                        }
                    }
                }
            }
            Value::Mapping(base)
        }
        (_, patch) => strip_nulls(patch),
    }
}

fn strip_nulls(v: Value) -> Value {
    match v {
        Value::Mapping(m) => Value::Mapping(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, strip_nulls(v)))
                .collect(),
        ),
        other => other,
    }
}
