//! The typed AST of a movement string. Pairs become this right away.

use pest::iterators::Pairs;

use super::Rule;

/// A byte range inside the movement string.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    fn of(pair: &pest::iterators::Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        Span {
            start: s.start(),
            end: s.end(),
        }
    }
}

/// What an atom letter stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    /// A single step of this shape (dx ≤ dy), in all symmetric directions.
    Leaper {
        /// Sideways component.
        dx: i8,
        /// Forward component.
        dy: i8,
    },
    /// `K`: the wazir and ferz steps.
    King,
    /// The same step repeated (a doubled leaper, `R`, `B`).
    Rider {
        /// Sideways component.
        dx: i8,
        /// Forward component.
        dy: i8,
    },
    /// `Q`: rook and bishop riders.
    Queen,
}

/// A leg after the first of a multi-leg part: the `a` that starts it and
/// its own modifiers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaterLeg {
    /// Where its `a` stands.
    pub separator: Span,
    /// Its modifier letters with their places.
    pub modifiers: Vec<(char, Span)>,
}

/// One part of a movement: modifiers, atom, range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The modifier letters (of the first leg) with their places.
    pub modifiers: Vec<(char, Span)>,
    /// The legs after the first (`caK`: one, with no modifiers), each
    /// moving by the same atom.
    pub later_legs: Vec<LaterLeg>,
    /// The atom.
    pub atom: Atom,
    /// The atom's letters.
    pub atom_text: String,
    /// Where the atom stands.
    pub atom_span: Span,
    /// The range suffix, if any, with its place.
    pub range: Option<(u32, Span)>,
}

/// A parsed movement string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Movement {
    /// Its parts, in order.
    pub parts: Vec<Part>,
}

fn leaper_shape(letter: char) -> Option<(i8, i8)> {
    Some(match letter {
        'W' => (0, 1),
        'F' => (1, 1),
        'D' => (0, 2),
        'N' => (1, 2),
        'A' => (2, 2),
        'H' => (0, 3),
        'C' => (1, 3),
        'Z' => (2, 3),
        'G' => (3, 3),
        _ => return None,
    })
}

pub(super) fn build(pairs: Pairs<'_, Rule>) -> Movement {
    let mut parts = Vec::new();
    for movement in pairs {
        for part in movement.into_inner() {
            if part.as_rule() != Rule::part {
                continue;
            }
            parts.push(build_part(part));
        }
    }
    Movement { parts }
}

fn build_part(part: pest::iterators::Pair<'_, Rule>) -> Part {
    let mut modifiers = Vec::new();
    let mut later_legs = Vec::new();
    let mut atom = Atom::King;
    let mut atom_text = String::new();
    let mut atom_span = Span { start: 0, end: 0 };
    let mut range = None;
    for inner in part.into_inner() {
        match inner.as_rule() {
            Rule::modifiers => modifiers = letters(inner),
            Rule::later_leg => {
                let mut leg = LaterLeg {
                    separator: Span::of(&inner),
                    modifiers: Vec::new(),
                };
                for x in inner.into_inner() {
                    match x.as_rule() {
                        Rule::leg_separator => leg.separator = Span::of(&x),
                        Rule::modifiers => leg.modifiers = letters(x),
                        _ => {}
                    }
                }
                later_legs.push(leg);
            }
            Rule::atom => {
                atom_span = Span::of(&inner);
                atom_text = inner.as_str().to_string();
                let letter = atom_text.chars().next().unwrap_or('?');
                let doubled = atom_text.len() == 2;
                atom = match (letter, leaper_shape(letter)) {
                    (_, Some((dx, dy))) if doubled => Atom::Rider { dx, dy },
                    (_, Some((dx, dy))) => Atom::Leaper { dx, dy },
                    ('R', _) => Atom::Rider { dx: 0, dy: 1 },
                    ('B', _) => Atom::Rider { dx: 1, dy: 1 },
                    ('Q', _) => Atom::Queen,
                    _ => Atom::King,
                };
            }
            Rule::range => {
                // The grammar admits only digits; a number too large for u32 is
                // kept as u32::MAX and refused by the checker.
                let n = inner.as_str().parse().unwrap_or(u32::MAX);
                range = Some((n, Span::of(&inner)));
            }
            _ => {}
        }
    }
    Part {
        modifiers,
        later_legs,
        atom,
        atom_text,
        atom_span,
        range,
    }
}

/// The letters of a `modifiers` pair with their places.
fn letters(pair: pest::iterators::Pair<'_, Rule>) -> Vec<(char, Span)> {
    pair.into_inner()
        .map(|m| (m.as_str().chars().next().unwrap_or('?'), Span::of(&m)))
        .collect()
}
