//! Loading: the embedded catalogue, a variant by name or path, a document's text.

use std::path::{Path, PathBuf};

use serde_yaml::Value;

use super::document::split;
use super::inherit::resolve;
use super::{Validated, Variant, VariantError, locate_problems, validate};

mod catalogue {
    include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));
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
        if let Some(Value::Sequence(names)) = doc.front.get("aliases") {
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
        let text = crate::text::read_text_file(path).map_err(|e| VariantError::Io {
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
    let own = doc.front.clone();
    let body = doc.body.clone();
    let mut sources = Vec::new();
    let mut chain = vec![origin.to_string()];
    let front = resolve(doc, origin, dir.as_deref(), &mut chain, &mut sources)?;
    let Validated {
        engine,
        pieces,
        start,
    } = validate(&front)
        .map_err(|problems| VariantError::Diagnostics(locate_problems(&problems, &sources)))?;
    let stem = Path::new(origin)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(origin);
    let get = |key: &str| own.get(key).and_then(Value::as_str).map(str::to_string);
    let slug = get("slug").unwrap_or_else(|| stem.to_string());
    let title = get("title").unwrap_or_else(|| slug.clone());
    Ok(Variant {
        slug,
        title,
        origin: origin.to_string(),
        front,
        engine,
        pieces,
        start,
        body,
        sources,
    })
}
