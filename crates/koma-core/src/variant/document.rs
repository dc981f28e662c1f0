//! The document split: a variant file's YAML front matter and its Markdown body.

use serde_yaml::Value;

use super::{Diagnostic, Source, VariantError};

/// A document read, before its parents are merged in.
pub(super) struct Document {
    /// Its front matter.
    pub front: Value,
    /// The Markdown after the front matter.
    pub body: String,
    /// The document, kept to locate problems.
    pub source: Source,
}

/// Splits a document into its front matter (parsed, a mapping) and its body.
pub(super) fn split(text: &str, origin: &str) -> Result<Document, VariantError> {
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
        let (mut line, mut column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        let text = e.to_string();
        let mut message = text
            .split(" at line ")
            .next()
            .unwrap_or_default()
            .to_string();
        // A quote left open runs to the end: the place to show is where it opened.
        if let Some((l, c)) = context_mark(&text, "while scanning a quoted scalar") {
            (line, column) = (l, c);
            message = "this quote is never closed".to_string();
        }
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

/// The line and column that a YAML error's context names (`..., while
/// scanning a quoted scalar at line 8 column 10`), if it has that context.
fn context_mark(error: &str, context: &str) -> Option<(usize, usize)> {
    let rest = &error[error.find(context)? + context.len()..];
    let rest = rest.strip_prefix(" at line ")?;
    let (line, rest) = rest.split_once(" column ")?;
    let column: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line.trim().parse().ok()?, column.parse().ok()?))
}
