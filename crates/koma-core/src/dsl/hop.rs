//! Hops over a screen (Betza's `p` and `g`): their checks and their
//! compiled form.

use super::compile::{Mode, compile_part};
use super::{Atom, DslError, Part, Span};

/// How a hopper passes the piece it jumps over (its screen).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HopKind {
    /// `p`: on along the line beyond the screen, to any empty square before
    /// the next piece, or to that piece (a xiangqi cannon's capture).
    Beyond,
    /// `g`: to the square just beyond the screen (a grasshopper).
    Next,
}

/// A move along a line over one piece, from sente's side: the piece rides
/// to the first piece on the line (the screen, which stays), jumps it, and
/// lands beyond it as its kind says.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hopper {
    /// File offset of one step along the line, as in [`Step`].
    pub dx: i8,
    /// Rank offset of one step along the line, as in [`Step`].
    pub dy: i8,
    /// The farthest it may land, in steps from its square (0: no limit).
    pub max: u8,
    /// Move, capture or both (where it lands).
    pub mode: Mode,
    /// Where it lands beyond the screen.
    pub kind: HopKind,
}

/// A part with `p` or `g` (`pR`, `cpR`, `pB2`, `gQ`): a rider along
/// orthogonal or diagonal lines that jumps one screen. Its directions and
/// mode are read as for any part; a `p` range limits how far from its
/// square it lands (counting the screen's square), which must leave room
/// beyond the screen; a `g` lands next to the screen, so takes no range.
pub(super) fn compile_hop(part: &Part) -> Result<Vec<Hopper>, Vec<DslError>> {
    let mut errors = Vec::new();
    let mut kind: Option<(char, Span)> = None;
    for &(c, span) in &part.modifiers {
        if c != 'p' && c != 'g' {
            continue;
        }
        match kind {
            Some((k, _)) if k != c => errors.push(DslError {
                message: "'p' and 'g' together: a hop lands anywhere beyond its screen (p) or just beyond it (g), not both".into(),
                span,
            }),
            _ => kind = Some((c, span)),
        }
    }
    let Some((letter, _)) = kind else {
        return Ok(Vec::new());
    };
    if let Some(leg) = part.later_legs.first() {
        errors.push(DslError {
            message: format!("'{letter}' (a hop over a screen) cannot be part of a move in legs"),
            span: leg.separator,
        });
    }
    let lines = match part.atom {
        Atom::Rider { dx, dy } | Atom::Leaper { dx, dy } => {
            (dx, dy) == (0, 1) || (dx, dy) == (1, 1)
        }
        Atom::King | Atom::Queen => true,
    };
    let rides = matches!(part.atom, Atom::Rider { .. } | Atom::Queen) || part.range.is_some();
    if !lines {
        errors.push(DslError {
            message: format!(
                "'{letter}' hops along orthogonal or diagonal lines: use it with R, B or Q, not '{}'",
                part.atom_text
            ),
            span: part.atom_span,
        });
    } else if !rides {
        errors.push(DslError {
            message: format!(
                "'{letter}' needs a rider: '{}' is a single step, which cannot pass a screen (write R, B or Q)",
                part.atom_text
            ),
            span: part.atom_span,
        });
    }
    match (letter, part.range) {
        ('g', Some((_, span))) => errors.push(DslError {
            message: "a grasshopper ('g') lands just beyond its screen: it takes no range".into(),
            span,
        }),
        ('p', Some((1, span))) => errors.push(DslError {
            message: "range 1 leaves a 'p' hopper no move: its screen takes the first square (a grasshopper is 'g')".into(),
            span,
        }),
        _ => {}
    }
    let plain = Part {
        modifiers: part
            .modifiers
            .iter()
            .copied()
            .filter(|&(c, _)| c != 'p' && c != 'g')
            .collect(),
        later_legs: Vec::new(),
        atom: part.atom,
        atom_text: part.atom_text.clone(),
        atom_span: part.atom_span,
        range: part.range,
    };
    let steps = match compile_part(&plain) {
        Ok(s) => s,
        Err(mut e) => {
            errors.append(&mut e);
            Vec::new()
        }
    };
    if !errors.is_empty() {
        errors.sort_by_key(|e| e.span.start);
        return Err(errors);
    }
    let kind = if letter == 'p' {
        HopKind::Beyond
    } else {
        HopKind::Next
    };
    Ok(steps
        .into_iter()
        .map(|s| Hopper {
            dx: s.dx,
            dy: s.dy,
            max: if kind == HopKind::Next { 0 } else { s.max },
            mode: s.mode,
            kind,
        })
        .collect())
}
