//! Variant files: the document split, inheritance, the schema, the catalogue.
//!
//! A variant file is Markdown with YAML front matter between `---` lines.
//! The keys the engine reads live under `engine:` (see [`schema`]); every
//! other key (title, prose fields) is kept and never an error. A document with
//! `parent: SLUG` inherits its parent's front matter as a JSON-merge-patch
//! (RFC 7386): mappings merge key by key at any depth, a `null` (`~`) removes
//! the inherited key, anything else replaces it. Parents may have parents.

mod check;
mod locate;
pub mod schema;

pub use locate::{Locations, Place, locate};

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
    /// The documents read, the variant's own first, then its parents.
    pub sources: Vec<Source>,
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

/// Where in the front matter a problem lies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum At {
    /// The document as a whole.
    Document,
    /// The key at the path.
    Key,
    /// The value at the path.
    Value,
    /// Characters inside the (text) value at the path.
    Inside {
        /// Character offset in the text.
        offset: usize,
        /// Characters.
        len: usize,
    },
}

/// A problem with a variant, tied to the path of the key it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Dotted path (`engine.pieces.pawn.betza`).
    pub path: String,
    /// Which part of it.
    pub at: At,
    /// What is wrong, in words.
    pub message: String,
}

impl Problem {
    /// A problem with a key.
    pub fn key(path: &str, message: String) -> Problem {
        Problem {
            path: path.to_string(),
            at: At::Key,
            message,
        }
    }
    /// A problem with a value.
    pub fn value(path: &str, message: String) -> Problem {
        Problem {
            path: path.to_string(),
            at: At::Value,
            message,
        }
    }
    /// A problem with characters inside a text value.
    pub fn inside(path: &str, offset: usize, len: usize, message: String) -> Problem {
        Problem {
            path: path.to_string(),
            at: At::Inside { offset, len },
            message,
        }
    }
    /// A problem with the whole document.
    pub fn document(message: String) -> Problem {
        Problem {
            path: String::new(),
            at: At::Document,
            message,
        }
    }
}

/// A problem shown in its file: `file:line:column`, the line, a caret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file.
    pub origin: String,
    /// 1-based line (0: no place known).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// How many characters the caret covers.
    pub len: usize,
    /// The text of the line.
    pub source_line: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            return write!(f, "error: {}: {}", self.origin, self.message);
        }
        let n = self.line.to_string();
        let pad = " ".repeat(n.len());
        writeln!(f, "error: {}", self.message)?;
        writeln!(f, "{pad}--> {}:{}:{}", self.origin, self.line, self.column)?;
        writeln!(f, "{pad} |")?;
        writeln!(f, "{n} | {}", self.source_line)?;
        let lead: String = self
            .source_line
            .chars()
            .take(self.column.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        write!(f, "{pad} | {lead}{}", "^".repeat(self.len.max(1)))
    }
}

impl Diagnostic {
    fn at(
        source: &Source,
        line_in_yaml: usize,
        column: usize,
        len: usize,
        message: String,
    ) -> Diagnostic {
        let line = source.first_line + line_in_yaml - 1;
        let source_line = source
            .text
            .lines()
            .nth(line - 1)
            .unwrap_or_default()
            .to_string();
        Diagnostic {
            origin: source.origin.clone(),
            line,
            column,
            len,
            source_line,
            message,
        }
    }

    fn whole(origin: &str, line: usize, text: &str, message: String) -> Diagnostic {
        let source_line = text
            .lines()
            .nth(line.saturating_sub(1))
            .unwrap_or_default()
            .to_string();
        let len = source_line.chars().count().max(1);
        Diagnostic {
            origin: origin.to_string(),
            line,
            column: 1,
            len,
            source_line,
            message,
        }
    }
}

/// Shows each problem at its place in the documents of the chain (the
/// variant's own first: the first document that defines a key is where its
/// value came from).
pub fn locate_problems(problems: &[Problem], sources: &[Source]) -> Vec<Diagnostic> {
    problems
        .iter()
        .map(|p| locate_problem(p, sources))
        .collect()
}

fn locate_problem(p: &Problem, sources: &[Source]) -> Diagnostic {
    let first = &sources[0];
    if p.at == At::Document || p.path.is_empty() {
        return Diagnostic::whole(
            &first.origin,
            first.first_line - 1,
            &first.text,
            p.message.clone(),
        );
    }
    let find = |path: &str, key: bool| {
        sources.iter().find_map(|s| {
            let place = if key {
                s.locations().key(path)
            } else {
                s.locations()
                    .value(path)
                    .or_else(|| s.locations().key(path))
            };
            place.map(|pl| (s, pl))
        })
    };
    let exact = match p.at {
        At::Key => find(&p.path, true),
        _ => find(&p.path, false),
    };
    if let Some((s, pl)) = exact {
        let (column, len) = match p.at {
            At::Inside { offset, len } => (pl.column + usize::from(pl.quoted) + offset, len),
            _ => (pl.column, pl.len),
        };
        let mut message = p.message.clone();
        if s.origin != first.origin {
            message.push_str(&format!(
                " (the value is inherited from {}: set it in {})",
                s.origin, first.origin
            ));
        }
        return Diagnostic::at(s, pl.line, column, len, message);
    }
    // A missing key: show the nearest ancestor that exists.
    let mut path = p.path.as_str();
    while let Some((parent, _)) = path.rsplit_once('.') {
        path = parent;
        if let Some((s, pl)) = find(path, true) {
            return Diagnostic::at(s, pl.line, pl.column, pl.len, p.message.clone());
        }
    }
    if let Some((s, pl)) = find(path, true) {
        return Diagnostic::at(s, pl.line, pl.column, pl.len, p.message.clone());
    }
    Diagnostic {
        origin: first.origin.clone(),
        line: 0,
        column: 0,
        len: 0,
        source_line: String::new(),
        message: p.message.clone(),
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
        let text = crate::read_text_file(path).map_err(|e| VariantError::Io {
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
    let problems = check::check(&front);
    if !problems.is_empty() {
        return Err(VariantError::Diagnostics(locate_problems(
            &problems, &sources,
        )));
    }
    let engine_value = front.get("engine").cloned().unwrap_or_default();
    let engine: EngineSpec = serde_yaml::from_value(engine_value).map_err(|e| {
        VariantError::Diagnostics(locate_problems(
            &[Problem::value("engine", format!("in 'engine': {e}"))],
            &sources,
        ))
    })?;
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
        body,
        sources,
    })
}

struct Document {
    front: Value,
    body: String,
    source: Source,
}

fn split(text: &str, origin: &str) -> Result<Document, VariantError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let no_front = || {
        VariantError::Diagnostics(vec![Diagnostic::whole(
            origin,
            1,
            text,
            "the document must start with YAML front matter between two '---' lines".into(),
        )])
    };
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or_else(no_front)?;
    let mut offset = 0;
    let mut end = None;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            end = Some((offset, offset + line.len()));
            break;
        }
        offset += line.len();
    }
    let (yaml_end, body_start) = end.ok_or_else(no_front)?;
    let yaml = &rest[..yaml_end];
    let source = Source {
        origin: origin.to_string(),
        text: text.to_string(),
        first_line: 2,
        yaml: yaml.to_string(),
        locations: std::sync::OnceLock::new(),
    };
    let front: Value = serde_yaml::from_str(yaml).map_err(|e| {
        let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        let message = e
            .to_string()
            .split(" at line ")
            .next()
            .unwrap_or_default()
            .to_string();
        VariantError::Diagnostics(vec![Diagnostic::at(
            &source,
            line,
            column,
            1,
            format!("the front matter is not valid YAML: {message}"),
        )])
    })?;
    if !matches!(front, Value::Mapping(_)) {
        return Err(VariantError::Diagnostics(vec![Diagnostic::at(
            &source,
            1,
            1,
            1,
            "the front matter must be a mapping of keys to values".into(),
        )]));
    }
    Ok(Document {
        front,
        body: rest[body_start..].to_string(),
        source,
    })
}

fn resolve(
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
    if chain.iter().any(|c| slug_of(c) == parent) || chain.len() > MAX_PARENT_DEPTH {
        chain.push(parent);
        let names: Vec<String> = chain.iter().map(|c| slug_of(c)).collect();
        return Err(fail(
            sources,
            format!("parents form a cycle: {}", names.join(" -> ")),
        ));
    }
    let sibling = dir
        .map(|d| d.join(format!("{parent}.md")))
        .filter(|p| p.is_file());
    let (text, parent_origin, parent_dir) = if let Some(path) = sibling {
        let text = crate::read_text_file(&path).map_err(|e| VariantError::Io {
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
