//! Where each key and value of a YAML document stands, by dotted path
//! (`engine.pieces.pawn.betza`), so that problems can be shown in the file.

use std::collections::HashMap;

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// A place in the document: 1-based line and column, length in characters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// 1-based line within the YAML text.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// Length in characters (at least 1).
    pub len: usize,
    /// Whether the scalar is quoted (its text starts one character later).
    pub quoted: bool,
}

/// The places of keys and values.
#[derive(Clone, Debug, Default)]
pub struct Locations {
    keys: HashMap<String, Place>,
    values: HashMap<String, Place>,
}

impl Locations {
    /// The place of the key at `path`.
    pub fn key(&self, path: &str) -> Option<Place> {
        self.keys.get(path).copied()
    }
    /// The place of the value at `path` (a scalar, or the start of a block).
    pub fn value(&self, path: &str) -> Option<Place> {
        self.values.get(path).copied()
    }
}

enum Frame {
    Map { path: String, key: Option<String> },
    Seq { path: String, index: usize },
}

struct Receiver {
    stack: Vec<Frame>,
    out: Locations,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl Receiver {
    /// The path of the value about to come, if it is a value (not a key).
    fn value_path(&mut self) -> Option<String> {
        match self.stack.last_mut() {
            None => Some(String::new()),
            Some(Frame::Map { path, key }) => key.take().map(|k| join(path, &k)),
            Some(Frame::Seq { path, index }) => {
                let p = join(path, &index.to_string());
                *index += 1;
                Some(p)
            }
        }
    }
}

impl MarkedEventReceiver for Receiver {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        let place = |len: usize, quoted: bool| Place {
            line: mark.line(),
            column: mark.col() + 1,
            len: len.max(1),
            quoted,
        };
        match ev {
            Event::Scalar(text, style, ..) => {
                let quoted = matches!(
                    style,
                    TScalarStyle::SingleQuoted | TScalarStyle::DoubleQuoted
                );
                let len = text.chars().count() + if quoted { 2 } else { 0 };
                if let Some(Frame::Map { path, key }) = self.stack.last_mut()
                    && key.is_none()
                {
                    let p = join(path, &text);
                    self.out.keys.insert(p, place(text.chars().count(), quoted));
                    *key = Some(text);
                    return;
                }
                if let Some(p) = self.value_path() {
                    self.out.values.insert(p, place(len, quoted));
                }
            }
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let p = self.value_path().unwrap_or_default();
                self.out.values.insert(p.clone(), place(1, false));
                self.stack.push(if matches!(ev, Event::MappingStart(..)) {
                    Frame::Map { path: p, key: None }
                } else {
                    Frame::Seq { path: p, index: 0 }
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
            }
            Event::Alias(_) => {
                self.value_path();
            }
            _ => {}
        }
    }
}

/// Finds the places of every key and value of a YAML text (its first document).
/// A text that does not parse yields the places found before the error.
pub fn locate(yaml: &str) -> Locations {
    let mut r = Receiver {
        stack: Vec::new(),
        out: Locations::default(),
    };
    let mut parser = Parser::new_from_str(yaml);
    let _ = parser.load(&mut r, false);
    r.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_values_are_found_in_block_and_flow_style() {
        let yaml = "title: x\nengine:\n  pieces:\n    pawn:\n      betza: \"fW\"\n      promotion: { name: tokin, betza: WfF }\n";
        let l = locate(yaml);
        assert_eq!(
            l.key("engine.pieces.pawn.betza")
                .map(|p| (p.line, p.column)),
            Some((5, 7))
        );
        let v = l.value("engine.pieces.pawn.betza").expect("value");
        assert_eq!((v.line, v.column, v.len, v.quoted), (5, 14, 4, true));
        let f = l
            .value("engine.pieces.pawn.promotion.betza")
            .expect("flow value");
        assert_eq!((f.line, f.column, f.len), (6, 40, 3));
    }

    #[test]
    fn an_alias_takes_the_place_of_a_value() {
        let l = locate("a: &x 1\nb: *x\nc: 2\n");
        assert_eq!(l.key("c").map(|p| (p.line, p.column)), Some((3, 1)));
        assert_eq!(l.value("c").map(|p| (p.line, p.column)), Some((3, 4)));
    }
}
