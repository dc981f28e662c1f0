//! Loading: the embedded catalogue, a variant by name or path, a document's text.

use std::path::{Path, PathBuf};

use serde_yaml::Value;

use super::document::split;
use super::inherit::resolve;
use super::{Validated, Variant, VariantError, locate_problems, validate};

mod catalogue {
    include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));
}

/// koma's own game: the embedded variant a command, the browser page or the
/// UCI protocol starts with when none is named (the seed document's game).
pub const DEFAULT_VARIANT: &str = "judkins-shogi";

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

/// Another name of an embedded variant (front matter `aliases`), such as
/// Fairy-Stockfish's or lishogi's name for the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The name.
    pub name: String,
    /// The variant it names.
    pub slug: &'static str,
    /// The start position under this name, when it is not the variant's
    /// (another engine's setup of the same game); `None`: the variant's.
    pub setup: Option<String>,
}

/// Every alias of the embedded variants, in catalogue order. An entry of
/// `aliases` is a name, or `{ name: N, setup: S }` for a name under which the
/// game starts from the setup `S`.
pub fn alias_list() -> Vec<Alias> {
    let mut out = Vec::new();
    for &(slug, text) in catalogue::CATALOGUE {
        let Ok(doc) = split(text, slug) else { continue };
        let Some(Value::Sequence(names)) = doc.front.get("aliases") else {
            continue;
        };
        for entry in names {
            let (name, setup) = match entry {
                Value::String(n) => (Some(n.clone()), None),
                Value::Mapping(m) => (
                    m.get("name").and_then(Value::as_str).map(str::to_string),
                    m.get("setup").and_then(Value::as_str).map(str::to_string),
                ),
                _ => (None, None),
            };
            if let Some(name) = name {
                out.push(Alias { name, slug, setup });
            }
        }
    }
    out
}

/// The other names of embedded variants (front matter `aliases`, such as
/// Fairy-Stockfish's names), as (alias, slug) pairs.
pub fn aliases() -> Vec<(String, &'static str)> {
    alias_list().into_iter().map(|a| (a.name, a.slug)).collect()
}

/// Loads a variant by slug or alias (embedded) or by path to a `.md` file.
/// An alias with its own setup is the variant under that name (its slug),
/// started from that setup.
pub fn load(name: &str) -> Result<Variant, VariantError> {
    if let Some(text) = embedded(name) {
        return from_text(text, &format!("variants/{name}.md"), None);
    }
    if let Some(alias) = alias_list().into_iter().find(|a| a.name == name) {
        let Some(setup) = alias.setup else {
            return load(alias.slug);
        };
        let origin = format!("variants/{}.md", alias.slug);
        let text = embedded(alias.slug).unwrap_or_default();
        return load_text(text, &origin, None, Some((name, &setup)));
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
    load_text(text, origin, dir, None)
}

/// [`from_text`], under the name and from the setup of `alias` when given.
fn load_text(
    text: &str,
    origin: &str,
    dir: Option<PathBuf>,
    alias: Option<(&str, &str)>,
) -> Result<Variant, VariantError> {
    let doc = split(text, origin)?;
    let own = doc.front.clone();
    let body = doc.body.clone();
    let mut sources = Vec::new();
    let mut chain = vec![origin.to_string()];
    let mut front = resolve(doc, origin, dir.as_deref(), &mut chain, &mut sources)?;
    if let Some((_, setup)) = alias
        && let Some(Value::Mapping(engine)) = front.get_mut("engine")
    {
        engine.insert("setup".into(), Value::String(setup.to_string()));
    }
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
    let slug = match alias {
        Some((name, _)) => name.to_string(),
        None => get("slug").unwrap_or_else(|| stem.to_string()),
    };
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
