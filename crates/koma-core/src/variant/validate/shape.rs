//! The checker and its judgements of single values: a mapping with known
//! keys, a whole number in range, true or false, text, one of some words.
//! Each problem is kept with the path of the key it concerns.

use serde_yaml::{Mapping, Value};

use crate::variant::Problem;

/// Collects the problems of one document.
#[derive(Default)]
pub(super) struct Checker {
    /// Every problem found so far, in the order of the walk.
    pub problems: Vec<Problem>,
}

/// How a value's kind is named in messages.
pub(super) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

/// The path of a key inside the value at `path`.
pub(super) fn join(path: &str, key: &str) -> String {
    format!("{path}.{key}")
}

impl Checker {
    /// A problem with the value at `path`.
    pub(super) fn value(&mut self, path: &str, message: String) {
        self.problems.push(Problem::value(path, message));
    }

    /// The value at `path` as a mapping whose keys are all `known` and which
    /// has every key of `required`.
    pub(super) fn map<'v>(
        &mut self,
        v: &'v Value,
        path: &str,
        known: &[&str],
        required: &[&str],
    ) -> Option<&'v Mapping> {
        let Value::Mapping(m) = v else {
            self.value(
                path,
                format!("{path} must be a mapping of keys, not {}", kind(v)),
            );
            return None;
        };
        for key in m.keys() {
            let Some(k) = key.as_str() else {
                self.value(
                    path,
                    format!("a key of {path} is {}, not a name", kind(key)),
                );
                continue;
            };
            if !known.contains(&k) {
                let best = known
                    .iter()
                    .map(|c| (strsim::damerau_levenshtein(k, c), *c))
                    .min();
                let hint = match best {
                    Some((d, c)) if d <= 2 || (d <= 3 && k.len() > 6) => {
                        format!(" (did you mean '{c}'?)")
                    }
                    _ => format!(" (known keys: {})", known.join(", ")),
                };
                self.problems.push(Problem::key(
                    &join(path, k),
                    format!("unknown key '{k}' in {path}{hint}"),
                ));
            }
        }
        for r in required {
            if !m.contains_key(*r) {
                self.value(path, format!("{path} needs the key '{r}'"));
            }
        }
        Some(m)
    }

    /// The whole number at `key`, if it is one from `min` to `max`.
    pub(super) fn int(
        &mut self,
        m: &Mapping,
        path: &str,
        key: &str,
        min: i64,
        max: i64,
    ) -> Option<i64> {
        let v = m.get(key)?;
        let p = join(path, key);
        match v.as_i64() {
            Some(n) if (min..=max).contains(&n) => Some(n),
            Some(n) => {
                self.value(
                    &p,
                    format!("{p} is {n}, out of range: expected {min} to {max}"),
                );
                None
            }
            None => {
                self.value(&p, format!("{p} must be a whole number, not {}", kind(v)));
                None
            }
        }
    }

    /// The value at `key`, if any, must be true or false.
    pub(super) fn boolean(&mut self, m: &Mapping, path: &str, key: &str) {
        if let Some(v) = m.get(key)
            && !v.is_bool()
        {
            let p = join(path, key);
            self.value(&p, format!("{p} must be true or false, not {}", kind(v)));
        }
    }

    /// The text at `key`, if it is text.
    pub(super) fn string<'v>(&mut self, m: &'v Mapping, path: &str, key: &str) -> Option<&'v str> {
        let v = m.get(key)?;
        match v.as_str() {
            Some(s) => Some(s),
            None => {
                let p = join(path, key);
                self.value(&p, format!("{p} must be text, not {}", kind(v)));
                None
            }
        }
    }

    /// The text at `key`, if any, must be one of `choices`.
    pub(super) fn choice(&mut self, m: &Mapping, path: &str, key: &str, choices: &[&str]) {
        if let Some(s) = self.string(m, path, key)
            && !choices.contains(&s)
        {
            let p = join(path, key);
            self.value(
                &p,
                format!("{p}: '{s}' is not one of {}", choices.join(", ")),
            );
        }
    }
}
