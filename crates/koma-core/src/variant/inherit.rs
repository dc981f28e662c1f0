//! Inheritance: a document's parents are read and merged under it, as a
//! JSON merge patch (RFC 7386).

use std::path::Path;

use serde_yaml::Value;

use super::document::{Document, split};
use super::limits::MAX_PARENT_DEPTH;
use super::{Problem, Source, VariantError, catalogue, embedded, locate_problems};

/// Reads the parents of a document (siblings of `dir` first, then the
/// embedded catalogue) and merges its front matter over theirs; each document
/// read is added to `sources`, `chain` holds the names read so far.
pub(super) fn resolve(
    doc: Document,
    origin: &str,
    dir: Option<&Path>,
    chain: &mut Vec<String>,
    sources: &mut Vec<Source>,
) -> Result<Value, VariantError> {
    let Document { front, source, .. } = doc;
    sources.push(source);
    let here = sources.len() - 1;
    let fail = |sources: &[Source], message: String| {
        VariantError::Diagnostics(locate_problems(
            &[Problem::value("parent", message)],
            &sources[here..],
        ))
    };
    let parent = match front.get("parent") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            return Err(fail(
                sources,
                "'parent' must be the slug of another variant, as text".into(),
            ));
        }
    };
    let Some(parent) = parent else {
        return Ok(front);
    };
    let cycle = chain.iter().any(|c| slug_of(c) == parent);
    // The chain holds the document and the parents read so far.
    if cycle || chain.len() > MAX_PARENT_DEPTH {
        chain.push(parent);
        let names: Vec<String> = chain.iter().map(|c| slug_of(c)).collect();
        let message = if cycle {
            format!("parents form a cycle: {}", names.join(" -> "))
        } else {
            format!(
                "parents nest more than {MAX_PARENT_DEPTH} deep: {}",
                names.join(" -> ")
            )
        };
        return Err(fail(sources, message));
    }
    let sibling = dir
        .map(|d| d.join(format!("{parent}.md")))
        .filter(|p| p.is_file());
    let (text, parent_origin, parent_dir) = if let Some(path) = sibling {
        let text = crate::text::read_text_file(&path).map_err(|e| VariantError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        (text, path.display().to_string(), dir.map(Path::to_path_buf))
    } else if let Some(text) = embedded(&parent) {
        (text.to_string(), format!("variants/{parent}.md"), None)
    } else {
        return Err(fail(
            sources,
            format!(
                "unknown parent '{parent}': known variants are {}",
                catalogue().join(", ")
            ),
        ));
    };
    let _ = origin;
    let pdoc = split(&text, &parent_origin)?;
    chain.push(parent_origin.clone());
    let base = resolve(pdoc, &parent_origin, parent_dir.as_deref(), chain, sources)?;
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
                    base.shift_remove(&key);
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

#[cfg(test)]
mod tests {
    use crate::variant::limits::MAX_PARENT_DEPTH;
    use crate::variant::{embedded, load};

    /// Writes a chain of `parents` files above `child.md` in a fresh folder,
    /// the last a copy of shogi; loads the child.
    fn chain_of(parents: usize) -> Result<crate::variant::Variant, String> {
        let dir =
            std::env::temp_dir().join(format!("koma-parents-{}-{parents}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let name = |i: usize| {
            if i == 0 {
                "child".to_string()
            } else {
                format!("p{i}")
            }
        };
        for i in 0..parents {
            let text = format!("---\nparent: {}\n---\n", name(i + 1));
            std::fs::write(dir.join(format!("{}.md", name(i))), text).expect("writes");
        }
        let last = embedded("shogi").expect("shogi is embedded");
        std::fs::write(dir.join(format!("{}.md", name(parents))), last).expect("writes");
        let child = dir.join("child.md");
        let loaded = load(&child.display().to_string()).map_err(|e| e.to_string());
        let _ = std::fs::remove_dir_all(&dir);
        loaded
    }

    #[test]
    fn parents_may_nest_as_deep_as_the_limit_and_no_deeper() {
        let v = chain_of(MAX_PARENT_DEPTH).expect("as deep as the limit loads");
        assert_eq!(v.sources.len(), MAX_PARENT_DEPTH + 1);
        let e = chain_of(MAX_PARENT_DEPTH + 1).expect_err("one more is refused");
        assert!(
            e.contains(&format!(
                "error: parents nest more than {MAX_PARENT_DEPTH} deep: child -> p1 -> "
            )),
            "{e}"
        );
    }
}
