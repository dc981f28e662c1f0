//! Problems with a variant, tied to the YAML path of the key they concern,
//! and their diagnostics: each problem shown at its place in the files.

use super::Source;

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
    pub(super) fn at(
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

    pub(super) fn whole(origin: &str, line: usize, text: &str, message: String) -> Diagnostic {
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
