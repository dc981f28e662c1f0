//! Checks a movement AST and turns it into move vectors.

use super::hop::{Hopper, compile_hop};
use super::{Atom, DslError, Movement, Part, Span};

/// Whether a move may go to an empty square, capture, or both.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// To an empty square or capturing.
    Both,
    /// Only to an empty square (`m`).
    MoveOnly,
    /// Only capturing (`c`).
    CaptureOnly,
}

impl Mode {
    /// The squares a move of this mode may end on: of the `empty` ones and
    /// those holding the opponent's pieces (`theirs`).
    #[inline]
    pub fn open<B: crate::board::Bitboard>(self, empty: B, theirs: B) -> B {
        match self {
            Mode::Both => empty | theirs,
            Mode::MoveOnly => empty,
            Mode::CaptureOnly => theirs,
        }
    }
}

/// One compiled move vector from sente's side: `dy > 0` is forward.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// File offset (positive = to sente's right, toward file `a`'s far side).
    pub dx: i8,
    /// Rank offset (positive = toward the opponent).
    pub dy: i8,
    /// How many times the step may repeat: 1 for a leap, 0 without limit.
    pub max: u8,
    /// Move, capture or both.
    pub mode: Mode,
}

/// One leg of a multi-leg move: a single step from sente's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Leg {
    /// File offset, as in [`Step`].
    pub dx: i8,
    /// Rank offset, as in [`Step`].
    pub dy: i8,
    /// What the square where the leg ends must hold: empty (`MoveOnly`), a
    /// piece of the opponent (`CaptureOnly`, which the move captures) or either.
    pub mode: Mode,
}

/// A move in two legs (`caK`): the second leg starts where the first ends.
/// The square the piece left counts as empty, so a second leg may come back
/// to it (capturing without moving, or passing).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TwoLegs {
    /// The first leg, from the piece's square.
    pub first: Leg,
    /// The second leg, from where the first ended.
    pub second: Leg,
}

/// A compiled movement: its one-leg steps, its two-leg moves and its hops.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    /// Leaps and rides.
    pub steps: Vec<Step>,
    /// Moves in two legs.
    pub two_legs: Vec<TwoLegs>,
    /// Moves over a screen (`p`, `g`).
    pub hoppers: Vec<Hopper>,
}

/// The largest range a rider may be given (beyond any board koma plays on).
const MAX_RANGE: u32 = 64;

/// Checks every part and compiles the movement, collecting all errors.
pub fn compile(movement: &Movement) -> Result<Moves, Vec<DslError>> {
    let mut errors = Vec::new();
    let mut steps = Vec::new();
    let mut two_legs = Vec::new();
    // A king, rook, bishop or queen written twice in a row (`KK`) is read as
    // a rider by some readers of the notation (Fairy-Stockfish: a queen for
    // `KK`) and as the same piece twice by others: refused, not guessed.
    for pair in movement.parts.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.atom_text == b.atom_text
            && matches!(a.atom_text.as_str(), "K" | "R" | "B" | "Q")
            && a.range.is_none()
            && b.modifiers.is_empty()
            && b.atom_span.start == a.atom_span.end
        {
            let atom = &a.atom_text;
            let meaning = match atom.as_str() {
                "K" => {
                    "a queen (a king that rides) to Fairy-Stockfish, a king to others: write Q or K"
                }
                _ => {
                    "a rider of its own steps to some readers, the same piece twice to others: write it once"
                }
            };
            errors.push(DslError {
                message: format!("'{atom}{atom}' is ambiguous: {meaning}"),
                span: Span {
                    start: a.atom_span.start,
                    end: b.atom_span.end,
                },
            });
        }
    }
    let mut hoppers = Vec::new();
    for part in &movement.parts {
        let compiled = if part.modifiers.iter().any(|&(c, _)| c == 'p' || c == 'g') {
            compile_hop(part).map(|mut h| hoppers.append(&mut h))
        } else if part.later_legs.is_empty() {
            compile_part(part).map(|mut s| steps.append(&mut s))
        } else {
            compile_legs(part).map(|mut l| two_legs.append(&mut l))
        };
        if let Err(mut e) = compiled {
            errors.append(&mut e);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    steps.sort();
    steps.dedup();
    two_legs.sort();
    two_legs.dedup();
    hoppers.sort();
    hoppers.dedup();
    Ok(Moves {
        steps,
        two_legs,
        hoppers,
    })
}

/// The mode letters of a leg: its mode (`default` without one) and any
/// error for `m` and `c` together.
fn leg_mode(modifiers: &[(char, Span)], default: Mode, errors: &mut Vec<DslError>) -> Mode {
    let mut mode = default;
    let mut seen: Option<char> = None;
    for &(c, span) in modifiers {
        if c != 'm' && c != 'c' {
            continue;
        }
        if seen.is_some_and(|p| p != c) {
            errors.push(DslError {
                message: "'m' and 'c' together leave no move: use neither for a piece that moves and captures".into(),
                span,
            });
        }
        seen = Some(c);
        mode = if c == 'm' {
            Mode::MoveOnly
        } else {
            Mode::CaptureOnly
        };
    }
    mode
}

/// A part in two legs (`caK`, `mafW`): both legs are single steps of the
/// atom. The first leg's directions are read as for any part; it goes to an
/// empty square unless marked `c`. The second leg's `f` continues the first
/// leg's step, `b` goes back the way it came, nothing allows every step; it
/// moves or captures unless marked `m` or `c`.
fn compile_legs(part: &Part) -> Result<Vec<TwoLegs>, Vec<DslError>> {
    let mut errors = Vec::new();
    if let Some(third) = part.later_legs.get(1) {
        errors.push(DslError {
            message: "at most two legs are supported: this 'a' starts a third".into(),
            span: third.separator,
        });
    }
    if matches!(part.atom, Atom::Rider { .. } | Atom::Queen) {
        errors.push(DslError {
            message: format!(
                "the legs of a multi-leg move are single steps: '{}' rides (use a leaper such as W, F or K)",
                part.atom_text
            ),
            span: part.atom_span,
        });
    }
    if let Some((_, span)) = part.range {
        errors.push(DslError {
            message: "a multi-leg move takes no range: its legs are single steps".into(),
            span,
        });
    }
    let first_mode = leg_mode(&part.modifiers, Mode::MoveOnly, &mut errors);
    let first_dirs: Vec<(char, Span)> = part
        .modifiers
        .iter()
        .copied()
        .filter(|&(c, _)| c != 'm' && c != 'c')
        .collect();
    let first = Part {
        modifiers: first_dirs,
        later_legs: Vec::new(),
        atom: part.atom,
        atom_text: part.atom_text.clone(),
        atom_span: part.atom_span,
        range: None,
    };
    let first_steps = match compile_part(&first) {
        Ok(s) => s,
        Err(mut e) => {
            errors.append(&mut e);
            Vec::new()
        }
    };
    let second = part
        .later_legs
        .first()
        .map_or(&[][..], |l| &l.modifiers[..]);
    let second_mode = leg_mode(second, Mode::Both, &mut errors);
    let (mut onward, mut back) = (false, false);
    for &(c, span) in second {
        match c {
            'm' | 'c' => {}
            'f' => onward = true,
            'b' => back = true,
            _ => errors.push(DslError {
                message: format!(
                    "'{c}' is not supported on a later leg: use f (the same step again), b (back the way it came) or no direction (any step)"
                ),
                span,
            }),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let shapes: Vec<(i8, i8)> = match part.atom {
        Atom::Leaper { dx, dy } => symmetric(dx, dy),
        _ => [symmetric(0, 1), symmetric(1, 1)].concat(),
    };
    let mut out = Vec::new();
    for s in &first_steps {
        for &(dx, dy) in &shapes {
            let any = !onward && !back;
            if any || (onward && (dx, dy) == (s.dx, s.dy)) || (back && (dx, dy) == (-s.dx, -s.dy)) {
                out.push(TwoLegs {
                    first: Leg {
                        dx: s.dx,
                        dy: s.dy,
                        mode: first_mode,
                    },
                    second: Leg {
                        dx,
                        dy,
                        mode: second_mode,
                    },
                });
            }
        }
    }
    Ok(out)
}

/// The axis a direction letter speaks of.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Axis {
    Vertical,
    Horizontal,
}

fn axis(c: char) -> Option<Axis> {
    match c {
        'f' | 'b' | 'v' => Some(Axis::Vertical),
        'l' | 'r' | 's' => Some(Axis::Horizontal),
        _ => None,
    }
}

/// Whether (dx, dy) goes toward the side a letter names at all.
fn half(c: char, dx: i8, dy: i8) -> bool {
    match c {
        'f' => dy > 0,
        'b' => dy < 0,
        'l' => dx < 0,
        'r' => dx > 0,
        'v' => dy != 0,
        's' => dx != 0,
        _ => false,
    }
}

/// Whether the letter's axis is the larger component of (dx, dy).
fn major(c: char, dx: i8, dy: i8) -> bool {
    match axis(c) {
        Some(Axis::Vertical) => dy.abs() > dx.abs(),
        Some(Axis::Horizontal) => dx.abs() > dy.abs(),
        None => false,
    }
}

/// A direction selector read from the modifiers.
enum Selector {
    /// One letter: on oblique atoms the moves going mainly that way, else that half.
    Single(char),
    /// A letter followed by `h`: that half of the board.
    Half(char),
    /// Two letters on different axes: minor then major on oblique atoms,
    /// one diagonal on diagonal atoms.
    Pair(char, char),
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Shape {
    Orthogonal,
    Diagonal,
    Oblique,
}

fn shape(dx: i8, dy: i8) -> Shape {
    if dx == 0 || dy == 0 {
        Shape::Orthogonal
    } else if dx.abs() == dy.abs() {
        Shape::Diagonal
    } else {
        Shape::Oblique
    }
}

impl Selector {
    fn selects(&self, dx: i8, dy: i8) -> bool {
        match *self {
            Selector::Half(c) => half(c, dx, dy),
            Selector::Single(c) => match shape(dx, dy) {
                Shape::Oblique => half(c, dx, dy) && major(c, dx, dy),
                _ => half(c, dx, dy),
            },
            Selector::Pair(a, b) => match shape(dx, dy) {
                Shape::Oblique => half(a, dx, dy) && half(b, dx, dy) && major(b, dx, dy),
                _ => half(a, dx, dy) && half(b, dx, dy),
            },
        }
    }
}

/// The vectors of an atom's base shape (dx ≤ dy) in every direction.
fn symmetric(dx: i8, dy: i8) -> Vec<(i8, i8)> {
    let mut v = Vec::new();
    for (a, b) in [(dx, dy), (dy, dx)] {
        for sa in [1, -1] {
            for sb in [1, -1] {
                let p = (a * sa, b * sb);
                if !v.contains(&p) {
                    v.push(p);
                }
            }
        }
    }
    v
}

pub(super) fn compile_part(part: &Part) -> Result<Vec<Step>, Vec<DslError>> {
    let mut errors = Vec::new();
    let mut mode = Mode::Both;
    let mut mode_seen: Option<(char, Span)> = None;
    let mut dirs: Vec<(char, Span)> = Vec::new();
    for &(c, span) in &part.modifiers {
        match c {
            'm' | 'c' => {
                if let Some((prev, _)) = mode_seen
                    && prev != c
                {
                    errors.push(DslError {
                            message: "'m' and 'c' together leave no move: use neither for a piece that moves and captures".into(),
                            span,
                        });
                }
                mode_seen = Some((c, span));
                mode = if c == 'm' {
                    Mode::MoveOnly
                } else {
                    Mode::CaptureOnly
                };
            }
            _ => dirs.push((c, span)),
        }
    }

    // (base shape, rides?) pairs the atom stands for.
    let (components, rider_atom): (Vec<(i8, i8, bool)>, bool) = match part.atom {
        Atom::Leaper { dx, dy } => (vec![(dx, dy, false)], false),
        Atom::Rider { dx, dy } => (vec![(dx, dy, true)], true),
        Atom::King => (vec![(0, 1, false), (1, 1, false)], false),
        Atom::Queen => (vec![(0, 1, true), (1, 1, true)], true),
    };
    let max: u8 = match part.range {
        None if rider_atom => 0,
        None => 1,
        Some((n, span)) if n > MAX_RANGE => {
            errors.push(DslError {
                message: format!("range {n} is too large: at most {MAX_RANGE}, or 0 for no limit"),
                span,
            });
            0
        }
        Some((n, _)) => n as u8,
    };
    for &(dx, dy, _) in &components {
        let non_primitive = (dx == 0 && dy > 1) || (dx == dy && dx > 1);
        if non_primitive && max != 1 {
            errors.push(DslError {
                message: format!(
                    "a riding {} is not supported: its path would skip squares (use it as a leaper)",
                    part.atom_text
                ),
                span: part.atom_span,
            });
        }
    }

    // Read direction selectors; how letters pair up depends on the atom's shape.
    let atom_shape = shape(components[0].0, components[0].1);
    let pairs_up = components.len() == 1 && atom_shape != Shape::Orthogonal;
    let mut selectors = Vec::new();
    let mut i = 0;
    while i < dirs.len() {
        let (c, span) = dirs[i];
        let next = dirs.get(i + 1).map(|d| d.0);
        if c == 'h' {
            errors.push(DslError {
                message: "'h' (half) must follow a direction letter, as in fhN".into(),
                span,
            });
            i += 1;
        } else if next == Some('h') {
            selectors.push(Selector::Half(c));
            i += 2;
        } else if pairs_up
            && next.is_some_and(|n| axis(n).is_some() && axis(n) != axis(c))
            && dirs.get(i + 2).map(|d| d.0) != Some('h')
        {
            selectors.push(Selector::Pair(c, next.unwrap_or(c)));
            i += 2;
        } else {
            selectors.push(Selector::Single(c));
            i += 1;
        }
    }

    let mut steps = Vec::new();
    for &(bx, by, _) in &components {
        for (dx, dy) in symmetric(bx, by) {
            if selectors.is_empty() || selectors.iter().any(|s| s.selects(dx, dy)) {
                steps.push(Step { dx, dy, max, mode });
            }
        }
    }
    if steps.is_empty() && errors.is_empty() {
        let start = part
            .modifiers
            .first()
            .map_or(part.atom_span.start, |m| m.1.start);
        errors.push(DslError {
            message: format!(
                "these direction modifiers leave {} without any move",
                part.atom_text
            ),
            span: Span {
                start,
                end: part.atom_span.end,
            },
        });
    }
    if errors.is_empty() {
        Ok(steps)
    } else {
        Err(errors)
    }
}
