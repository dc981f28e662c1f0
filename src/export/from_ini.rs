//! A koma variant file from a Fairy-Stockfish `variants.ini` section, the
//! way back of [`super::ini`]: `koma variant import FILE SECTION`.
//!
//! The section's keys are merged over its parents' (`[name:parent]`),
//! found in the same file first, then among Fairy-Stockfish's built-in
//! variants transcribed in `fairy-stockfish.ini` beside this file; a
//! section without a parent starts from Fairy-Stockfish's defaults, which
//! are chess. Each key is then read into what a koma file says; a key koma
//! has no rule for, or a value it cannot carry, is refused with its file
//! and line, so nothing is dropped silently. The file written is checked by
//! compiling it before it is given back.
//!
//! Readings (documented in docs/designer.md):
//! - a piece type is a kind of its own unless it is only ever a promoted
//!   side (a promotion target that the start does not hold unpromoted,
//!   as shogi's dragon horse), where it is only that side;
//! - a promoted side moves as the type it promotes to, and is named
//!   `promoted_` and its base's name.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// Fairy-Stockfish's built-in variants that sections inherit from.
const BUILT_IN: &str = include_str!("fairy-stockfish.ini");
/// How messages name [`BUILT_IN`].
const BUILT_IN_NAME: &str = "src/export/fairy-stockfish.ini";

/// Fairy-Stockfish's piece-type keys that koma carries, with their moves in
/// Betza notation (as Fairy-Stockfish defines them).
const PIECE_TYPES: &[(&str, &str)] = &[
    ("king", "K"),
    ("commoner", "K"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("silver", "FfW"),
    ("gold", "WfF"),
    ("bishop", "B"),
    ("rook", "R"),
    ("dragonHorse", "BW"),
    ("bers", "RF"),
    ("knight", "N"),
    ("queen", "Q"),
    ("fers", "F"),
    ("wazir", "W"),
    ("alfil", "A"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("centaur", "KN"),
    ("aiwok", "RNF"),
    ("soldier", "fsW"),
    ("cannon", "mRcpR"),
];

/// Keys that change nothing koma plays by: what a GUI shows, and rules of
/// chess that are off.
const IGNORED: &[&str] = &["pieceToCharTable", "pocketSize", "variantTemplate"];

/// Something of a section that cannot become a koma file, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportProblem {
    /// The file and line (`variants.ini:12`), or the file alone.
    pub at: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ImportProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// Why a section gives no koma file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// What the section says that koma cannot carry, each thing located.
    Refused(Vec<ImportProblem>),
    /// The section was read, but koma cannot compile the file written from
    /// it (koma's own diagnostics, and the file).
    Uncompiled {
        /// The file written.
        doc: String,
        /// Why koma cannot compile it.
        error: String,
    },
}

impl From<Vec<ImportProblem>> for ImportError {
    fn from(problems: Vec<ImportProblem>) -> ImportError {
        ImportError::Refused(problems)
    }
}

/// One value and where it was written.
#[derive(Clone, Debug)]
struct Value {
    text: String,
    file: String,
    line: usize,
}

/// One section's keys in the order written.
type Stage = Vec<(String, Value)>;

/// A section as written.
#[derive(Clone, Debug)]
struct Section {
    name: String,
    parent: Option<String>,
    keys: Vec<(String, Value)>,
    line: usize,
}

/// The sections of a variants.ini text, or each line that is not one.
fn sections(text: &str, file: &str) -> Result<Vec<Section>, Vec<ImportProblem>> {
    let mut out: Vec<Section> = Vec::new();
    let mut problems = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') || l.starts_with(';') {
            continue;
        }
        let at = format!("{file}:{line}");
        if let Some(head) = l.strip_prefix('[') {
            let Some(head) = head.strip_suffix(']') else {
                problems.push(ImportProblem {
                    at,
                    message: format!("'{l}': a section's name ends with ']'"),
                });
                continue;
            };
            let (name, parent) = match head.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim().to_string())),
                None => (head.trim(), None),
            };
            if name.is_empty() || parent.as_deref() == Some("") {
                problems.push(ImportProblem {
                    at,
                    message: format!("'{l}': write [name] or [name:parent]"),
                });
                continue;
            }
            out.push(Section {
                name: name.to_string(),
                parent,
                keys: Vec::new(),
                line,
            });
            continue;
        }
        let Some((key, value)) = l.split_once('=') else {
            problems.push(ImportProblem {
                at,
                message: format!("'{l}' is neither a section nor a key = value line"),
            });
            continue;
        };
        let Some(section) = out.last_mut() else {
            problems.push(ImportProblem {
                at,
                message: format!("'{l}' comes before any section"),
            });
            continue;
        };
        let key = key.trim().to_string();
        if let Some((_, v)) = section.keys.iter().find(|(k, _)| *k == key) {
            problems.push(ImportProblem {
                at,
                message: format!(
                    "{key} is set twice in [{}] (first on line {})",
                    section.name, v.line
                ),
            });
            continue;
        }
        section.keys.push((
            key,
            Value {
                text: value.trim().to_string(),
                file: file.to_string(),
                line,
            },
        ));
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// The keys of `name` merged over its parents', each with where it was
/// set, and each section's own keys from the first parent on (pieces and
/// the keys that name them are read section by section, as
/// Fairy-Stockfish reads a section over its parent's variant).
fn resolve(
    name: &str,
    own: &[Section],
    built_in: &[Section],
    file: &str,
) -> Result<(BTreeMap<String, Value>, Vec<Stage>), ImportProblem> {
    let mut chain: Vec<&Section> = Vec::new();
    // The next section's name, and whether to look for it in the file first
    // (a parent of a built-in variant is built in; a section without a
    // parent starts from chess, Fairy-Stockfish's defaults).
    let mut next: Option<(String, bool)> = Some((name.to_string(), true));
    while let Some((n, look_in_file)) = next {
        let in_file = if look_in_file {
            own.iter().find(|s| s.name == n)
        } else {
            None
        };
        let (s, is_own) = match in_file {
            Some(s) => (s, true),
            None => match built_in.iter().find(|s| s.name == n) {
                Some(s) => (s, false),
                None => {
                    let known: Vec<&str> = built_in
                        .iter()
                        .map(|s| s.name.as_str())
                        .filter(|n| !n.starts_with('_'))
                        .collect();
                    let whose = chain
                        .last()
                        .map_or(String::new(), |c| format!(" (the parent of [{}])", c.name));
                    return Err(ImportProblem {
                        at: file.to_string(),
                        message: format!(
                            "no section [{n}]{whose} in {file}, nor a built-in variant koma follows ({})",
                            known.join(", ")
                        ),
                    });
                }
            },
        };
        if chain.iter().any(|c| std::ptr::eq(*c, s)) {
            return Err(ImportProblem {
                at: file.to_string(),
                message: format!("[{name}] inherits from itself through [{}]", s.name),
            });
        }
        chain.push(s);
        next = match &s.parent {
            Some(p) => Some((p.clone(), is_own)),
            None if is_own || s.name != "chess" => Some(("chess".to_string(), false)),
            None => None,
        };
    }
    let mut keys = BTreeMap::new();
    let mut stages = Vec::new();
    for s in chain.iter().rev() {
        for (k, v) in &s.keys {
            keys.insert(k.clone(), v.clone());
        }
        stages.push(s.keys.clone());
    }
    Ok((keys, stages))
}

/// Reads the merged keys, marking each one used.
struct Keys {
    map: BTreeMap<String, Value>,
    stages: Vec<Stage>,
    used: Vec<String>,
    problems: Vec<ImportProblem>,
}

impl Keys {
    fn get(&mut self, key: &str) -> Option<Value> {
        let v = self.map.get(key).cloned();
        if v.is_some() {
            self.used.push(key.to_string());
        }
        v
    }

    fn refuse(&mut self, v: &Value, key: &str, why: impl std::fmt::Display) {
        self.problems.push(ImportProblem {
            at: where_(v),
            message: format!("{key} = {}: {why}", v.text),
        });
    }

    fn flag(&mut self, key: &str, default: bool) -> bool {
        let Some(v) = self.get(key) else {
            return default;
        };
        match v.text.as_str() {
            "true" => true,
            "false" => false,
            _ => {
                self.refuse(&v, key, "must be true or false");
                default
            }
        }
    }

    fn number(&mut self, key: &str, default: u32) -> u32 {
        let Some(v) = self.get(key) else {
            return default;
        };
        match v.text.parse() {
            Ok(n) => n,
            Err(_) => {
                self.refuse(&v, key, "must be a whole number");
                default
            }
        }
    }
}

fn where_(v: &Value) -> String {
    let file = if v.file == "<built-in>" {
        BUILT_IN_NAME
    } else {
        &v.file
    };
    format!("{file}:{}", v.line)
}

/// A piece of the section.
struct Piece {
    /// Its Fairy-Stockfish key (`gold`, `customPiece3`).
    key: String,
    letter: char,
    betza: String,
    value: Value,
}

/// A number of files: `8` or a file letter (`h`).
fn files(text: &str) -> Option<u32> {
    match text.parse::<u32>() {
        Ok(n) => Some(n),
        Err(_) => {
            let mut c = text.chars();
            match (c.next(), c.next()) {
                (Some(l @ 'a'..='z'), None) => Some(l as u32 - 'a' as u32 + 1),
                _ => None,
            }
        }
    }
}

/// The ranks a region of whole ranks holds (`*7 *8 *9`), or None.
fn ranks(text: &str) -> Option<Vec<u32>> {
    if text == "-" {
        return Some(Vec::new());
    }
    text.split_whitespace()
        .map(|w| w.strip_prefix('*').and_then(|r| r.parse().ok()))
        .collect()
}

/// A koma name from a Fairy-Stockfish key: `shogiKnight` → `shogi_knight`.
fn snake(key: &str) -> String {
    let mut s = String::new();
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            s.push('_');
            s.push(c.to_ascii_lowercase());
        } else if c.is_ascii_digit() && !s.ends_with(|d: char| d.is_ascii_digit()) {
            s.push('_');
            s.push(c);
        } else {
            s.push(c);
        }
    }
    s
}

fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The koma variant file for section `section` of the variants.ini text
/// `text` (`file` names it in messages), or every problem, located.
pub fn import(text: &str, file: &str, section: &str) -> Result<String, ImportError> {
    let own = sections(text, file)?;
    let built_in = sections(BUILT_IN, "<built-in>").map_err(|p| {
        p.into_iter()
            .map(|mut e| {
                e.message = format!("(in {BUILT_IN_NAME}) {}", e.message);
                e
            })
            .collect::<Vec<_>>()
    })?;
    let Some(head) = own.iter().find(|s| s.name == section) else {
        let names: Vec<&str> = own.iter().map(|s| s.name.as_str()).collect();
        return Err(vec![ImportProblem {
            at: file.to_string(),
            message: format!(
                "no section [{section}]: the file has {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        }]
        .into());
    };
    let head_line = head.line;
    let parent = head.parent.clone();
    let (map, stages) = resolve(section, &own, &built_in, file).map_err(|e| vec![e])?;
    let mut k = Keys {
        map,
        stages,
        used: Vec::new(),
        problems: Vec::new(),
    };
    let doc = convert(&mut k, section, parent.as_deref(), file, head_line);
    let mut problems = k.problems;
    let unused: Vec<(String, Value)> = k
        .map
        .iter()
        .filter(|(key, _)| !k.used.contains(key) && !IGNORED.contains(&key.as_str()))
        .map(|(a, b)| (a.clone(), b.clone()))
        .collect();
    for (key, v) in unused {
        problems.push(ImportProblem {
            at: where_(&v),
            message: format!("{key} = {}: koma has no rule for this key", v.text),
        });
    }
    problems.sort_by(|a, b| a.at.cmp(&b.at));
    problems.dedup();
    match doc {
        Some(doc) if problems.is_empty() => with_values(&doc),
        _ if problems.is_empty() => Err(ImportError::Refused(vec![ImportProblem {
            at: format!("{file}:{head_line}"),
            message: format!("[{section}] cannot be read"),
        }])),
        _ => Err(ImportError::Refused(problems)),
    }
}

/// The document with a `value` for each piece that is not royal (a
/// variants.ini section gives none): `345·√m − 245`, at least 50, rounded to
/// tens, where `m` is the number of squares the piece reaches from the
/// middle of the empty board, a curve through shogi's pawn (1 square, 100)
/// and gold (6, 600) that gives its silver 530, bishop and rook 1140, dragon
/// and horse 1300. The document is compiled for that, which also checks
/// that koma plays the file written; where it cannot, the error says why.
fn with_values(doc: &str) -> Result<String, ImportError> {
    use crate::board::{Bitboard, Color};
    use crate::{Game, with_rules};
    let game = crate::variant::from_text(doc, "the imported file", None)
        .and_then(|v| Game::compile(&v))
        .map_err(|e| ImportError::Uncompiled {
            doc: doc.to_string(),
            error: e.to_string(),
        })?;
    let values: HashMap<String, u32> = with_rules!(&game, rules => {
        let t = rules.topology;
        let origin = t.middle();
        rules
            .roles
            .iter()
            .enumerate()
            .filter(|(_, info)| !info.royal)
            .map(|(i, info)| {
                let role = crate::rules::Role(i as u16);
                let here = Bitboard::from_square(origin);
                let m = rules.targets_all(Color::Sente, role, origin, here, Default::default()).count() as f64;
                let v = (345.0 * m.sqrt() - 245.0).max(50.0);
                (info.name.clone(), ((v / 10.0).round() * 10.0) as u32)
            })
            .collect()
    });
    let mut out = String::new();
    for line in doc.lines() {
        let trimmed = line.trim_start();
        // A piece's header (`    gold:`) is followed by its value; a
        // promoted side's value goes inside its braces.
        if line.starts_with("    ") && !line.starts_with("     ") && trimmed.ends_with(':') {
            out.push_str(line);
            out.push('\n');
            if let Some(v) = values.get(trimmed.trim_end_matches(':')) {
                out.push_str(&format!("      value: {v}\n"));
            }
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("promotion: { name: ")
            && let Some(name) = rest.split(',').next()
            && let Some(v) = values.get(name)
            && let Some(body) = line.strip_suffix(" }")
        {
            out.push_str(&format!("{body}, value: {v} }}\n"));
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// The document, or None where a problem is already recorded.
fn convert(
    k: &mut Keys,
    section: &str,
    parent: Option<&str>,
    file: &str,
    line: usize,
) -> Option<String> {
    let rows = k.number("maxRank", 8);
    let cols = match k.get("maxFile") {
        Some(v) => match files(&v.text) {
            Some(n) => n,
            None => {
                k.refuse(&v, "maxFile", "must be a number or a file letter");
                8
            }
        },
        None => 8,
    };

    // Pieces, section by section: a piece given the letter of another
    // replaces it, as in Fairy-Stockfish; promotions and the keys that name
    // pieces are read with the letters of their own section.
    let mut pieces: Vec<Piece> = Vec::new();
    let mut promotes: BTreeMap<String, (Option<String>, Value)> = BTreeMap::new();
    let mut named: HashMap<&'static str, (Vec<String>, Value)> = HashMap::new();
    let mut unsupported: BTreeMap<String, Value> = BTreeMap::new();
    let stages = std::mem::take(&mut k.stages);
    for stage in &stages {
        for (key, v) in stage {
            let builtin = PIECE_TYPES.iter().find(|(n, _)| n == key).map(|(_, b)| *b);
            let custom = key
                .strip_prefix("customPiece")
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|n| (1..=25).contains(n));
            if builtin.is_none() && custom.is_none() {
                if is_piece_type(key) {
                    k.used.push(key.clone());
                    unsupported.insert(key.clone(), v.clone());
                }
                continue;
            }
            k.used.push(key.clone());
            pieces.retain(|p| p.key != *key);
            if v.text == "-" {
                continue;
            }
            let (letter, betza) = match v.text.split_once(':') {
                Some((l, b)) => (l.trim(), Some(b.trim().to_string())),
                None => (v.text.as_str(), None),
            };
            let mut chars = letter.chars();
            let letter = match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_lowercase(),
                _ => {
                    k.refuse(v, key, "a piece is named by one letter");
                    continue;
                }
            };
            let betza = match (betza, builtin) {
                (Some(b), _) if !b.is_empty() => b,
                (_, Some(b)) => b.to_string(),
                _ => {
                    k.refuse(v, key, "a custom piece is written letter:betza");
                    continue;
                }
            };
            pieces.retain(|p| p.letter != letter);
            pieces.push(Piece {
                key: key.clone(),
                letter,
                betza,
                value: v.clone(),
            });
        }
        let type_of = |c: char| {
            pieces
                .iter()
                .find(|p| p.letter == c.to_ascii_lowercase())
                .map(|p| p.key.clone())
        };
        for (key, v) in stage {
            match key.as_str() {
                "promotedPieceType" => {
                    for pair in v.text.split_whitespace() {
                        let (a, b) = pair.split_once(':').unwrap_or((pair, ""));
                        let from = a.chars().next().filter(|_| a.len() == 1).and_then(type_of);
                        let to = if b == "-" {
                            Some(None)
                        } else {
                            b.chars()
                                .next()
                                .filter(|_| b.len() == 1)
                                .and_then(type_of)
                                .map(Some)
                        };
                        match (from, to) {
                            (Some(f), Some(t)) => {
                                promotes.insert(f, (t, v.clone()));
                            }
                            _ => k.refuse(
                                v,
                                key,
                                format!(
                                    "'{pair}' is not from:to with letters of pieces of the section"
                                ),
                            ),
                        }
                    }
                }
                "dropNoDoubled" | "flagPiece" | "extinctionPieceTypes" => {
                    let name: &'static str = match key.as_str() {
                        "dropNoDoubled" => "dropNoDoubled",
                        "flagPiece" => "flagPiece",
                        _ => "extinctionPieceTypes",
                    };
                    let mut types = Vec::new();
                    for c in v.text.chars().filter(|c| !c.is_whitespace() && *c != '-') {
                        match type_of(c) {
                            Some(t) => types.push(t),
                            None => k.refuse(v, key, format!("'{c}' is no piece of the section")),
                        }
                    }
                    named.insert(name, (types, v.clone()));
                }
                _ => {}
            }
        }
    }
    for (key, v) in &unsupported {
        if v.text != "-" {
            k.refuse(
                v,
                key,
                "a piece type koma does not carry (write it as a customPiece with its Betza)",
            );
        }
    }
    k.used.extend(
        [
            "promotedPieceType",
            "dropNoDoubled",
            "flagPiece",
            "extinctionPieceTypes",
        ]
        .map(String::from),
    );
    let index_of = |key: &str| pieces.iter().position(|p| p.key == key);

    // Promotions between pieces that are still there.
    let mut promotes_to: HashMap<usize, usize> = HashMap::new();
    for (from, (to, v)) in &promotes {
        let (Some(f), Some(to)) = (index_of(from), to) else {
            continue;
        };
        match index_of(to) {
            Some(t) => {
                promotes_to.insert(f, t);
            }
            None => k.refuse(
                v,
                "promotedPieceType",
                format!("{from} promotes to {to}, which a later section took away"),
            ),
        }
    }
    let promotes = promotes_to;

    // The start.
    let Some(fen) = k.get("startFen") else {
        k.problems.push(ImportProblem {
            at: format!("{file}:{line}"),
            message: format!("[{section}] has no startFen"),
        });
        return None;
    };
    let board_and_hand = fen
        .text
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string();
    let side = fen.text.split_whitespace().nth(1).unwrap_or("w");
    let (board, hand) = match board_and_hand.split_once('[') {
        Some((b, h)) => (b.to_string(), h.trim_end_matches(']').replace('-', "")),
        None => (board_and_hand.clone(), String::new()),
    };
    if side != "w" && side != "b" {
        k.refuse(&fen, "startFen", format!("'{side}' is not a side to move"));
    }

    // Kinds: the pieces the start holds, on the board (promoted or not) or
    // in hand; a type it does not hold is at most a promoted side.
    let in_start = |c: char| {
        board
            .chars()
            .chain(hand.chars())
            .any(|x| x.eq_ignore_ascii_case(&c))
    };
    let kinds: Vec<usize> = (0..pieces.len())
        .filter(|&i| in_start(pieces[i].letter))
        .collect();

    // Royalty and the end of the game.
    let checking = k.flag("checking", true);
    let extinction = k.get("extinctionValue");
    let extinct_types = named.get("extinctionPieceTypes").cloned();
    let mut royal: Option<usize> = None;
    let king = pieces.iter().position(|p| p.key == "king");
    let check;
    match (&extinction, king) {
        (None, Some(kg)) if checking => {
            royal = Some(kg);
            check = true;
        }
        (Some(e), _) if e.text == "loss" => {
            check = false;
            let Some((types, t)) = &extinct_types else {
                k.refuse(e, "extinctionValue", "needs extinctionPieceTypes");
                return None;
            };
            let star = t.text.contains('*');
            match types.as_slice() {
                [one] if !star && index_of(one).is_some() => {
                    let r = index_of(one)?;
                    // Without a king nothing is checked: the piece whose
                    // capture loses is a royal that may walk into attack.
                    if pieces[r].key == "king" && checking {
                        k.refuse(t, "extinctionPieceTypes", "the king with checking = true: koma reads a lost-on-capture piece as a royal that is not checked (checking = false, or a piece that is not the king)");
                    }
                    if king.is_some_and(|kg| kg != r) {
                        k.refuse(
                            t,
                            "extinctionPieceTypes",
                            "a king besides the piece whose capture loses",
                        );
                    }
                    royal = Some(r);
                }
                _ => k.refuse(
                    t,
                    "extinctionPieceTypes",
                    "koma carries one piece kind whose capture loses",
                ),
            }
        }
        (Some(e), _) => {
            k.refuse(
                e,
                "extinctionValue",
                "koma carries only loss (the side that has lost its royal pieces loses)",
            );
            return None;
        }
        (None, _) => {
            let what = if king.is_none() {
                "no king"
            } else {
                "checking = false without extinctionValue = loss"
            };
            k.problems.push(ImportProblem {
                at: format!("{file}:{line}"),
                message: format!("[{section}] has {what}: koma needs a royal piece (a king, or a piece whose capture loses)"),
            });
            return None;
        }
    }
    if royal.is_some_and(|r| promotes.contains_key(&r)) {
        let v = k.map.get("promotedPieceType").cloned()?;
        k.refuse(&v, "promotedPieceType", "the royal piece promotes");
    }
    let check_wins = k.flag("checkCounting", false);
    let mut last_rank: Option<usize> = None;
    if let Some((types, v)) = named.get("flagPiece").cloned() {
        let f = types.first().and_then(|t| index_of(t));
        let white = k.get("flagRegionWhite").map(|v| v.text);
        let black = k.get("flagRegionBlack").map(|v| v.text);
        let safe = k.flag("flagPieceSafe", false);
        let far = format!("*{rows}");
        if v.text != "-"
            && (f.is_none()
                || f != royal
                || white.as_deref() != Some(&far)
                || black.as_deref() != Some("*1")
                || !safe
                || check)
        {
            k.refuse(&v, "flagPiece", format!("koma carries it as the royal piece's win on reaching the far rank safely (flagRegionWhite = {far}, flagRegionBlack = *1, flagPieceSafe = true, checking = false)"));
        } else if v.text != "-" {
            last_rank = f;
        }
    }

    // Promotion.
    let white = k.get("promotionRegionWhite");
    let black = k.get("promotionRegionBlack");
    let mut zone = 0;
    let all: Vec<u32> = (1..=rows).collect();
    let (w, b) = (
        white.as_ref().and_then(|v| ranks(&v.text)),
        black.as_ref().and_then(|v| ranks(&v.text)),
    );
    let mandatory = k.flag("mandatoryPiecePromotion", false);
    let demotion = k.flag("pieceDemotion", false);
    let on_capture = k.flag("piecePromotionOnCapture", false);
    let drop_promoted = k.flag("dropPromoted", false);
    let whole = w.as_deref() == Some(&all[..]) && b.as_deref() == Some(&all[..]);
    let rule = if on_capture || demotion {
        if !(mandatory && demotion && whole) {
            let v = k
                .map
                .get(if demotion {
                    "pieceDemotion"
                } else {
                    "piecePromotionOnCapture"
                })
                .cloned()?;
            let key = if demotion {
                "pieceDemotion"
            } else {
                "piecePromotionOnCapture"
            };
            k.refuse(&v, key, "koma carries it where every square promotes and promotion is mandatory: every move (or every capture, with piecePromotionOnCapture) turns the piece over");
            return None;
        }
        if on_capture { "capture" } else { "flip" }
    } else {
        match (&w, &b) {
            (Some(w), Some(b)) => {
                let z = w.len() as u32;
                let top: Vec<u32> = (rows + 1 - z.min(rows)..=rows).collect();
                let bottom: Vec<u32> = (1..=z).collect();
                if *w != top || *b != bottom {
                    let v = white.clone()?;
                    k.refuse(&v, "promotionRegionWhite", "koma's zone is the same number of far ranks for each side: the last ranks for white, the first for black");
                }
                zone = z;
            }
            _ => {
                if let Some(v) = white.clone().or(black.clone()) {
                    k.refuse(
                        &v,
                        "promotionRegionWhite",
                        "koma reads whole ranks (*6 *7 *8), '-' for none",
                    );
                }
            }
        }
        if mandatory { "mandatory" } else { "optional" }
    };

    // Drops.
    let drops = k.flag("pieceDrops", false);
    let to_hand = k.flag("capturesToHand", false);
    if drops != to_hand {
        let v = k
            .map
            .get("pieceDrops")
            .cloned()
            .or(k.map.get("capturesToHand").cloned())?;
        k.refuse(
            &v,
            "pieceDrops",
            "koma drops exactly the pieces captured: pieceDrops and capturesToHand alike",
        );
    }
    let immobility_illegal = k.flag("immobilityIllegal", false);
    let drop_mate = k.flag("shogiPawnDropMateIllegal", false);
    let mut max_per_file: Option<(usize, u32)> = None;
    if let Some((types, v)) = named.get("dropNoDoubled").cloned() {
        match types.as_slice() {
            [] => {}
            [t] => max_per_file = index_of(t).map(|p| (p, 1)),
            _ => k.refuse(&v, "dropNoDoubled", "koma's file limit is for one kind"),
        }
    }
    let count = k.number("dropNoDoubledCount", 1);
    if let Some((_, c)) = &mut max_per_file {
        *c = count;
    }

    // Chess rules that must be off.
    for (key, off) in [
        ("castling", "false"),
        ("doubleStep", "false"),
        ("nMoveRule", "0"),
        ("stalemateValue", "loss"),
    ] {
        if let Some(v) = k.get(key)
            && v.text != off
        {
            let why = match key {
                "stalemateValue" => {
                    "koma's side without a legal move loses (stalemateValue = loss)".to_string()
                }
                "nMoveRule" => "koma has no move-count draw (nMoveRule = 0)".to_string(),
                _ => format!("koma carries no {key}: set it to false"),
            };
            k.refuse(&v, key, why);
        }
    }

    // Repetition.
    let n_fold = k.number("nFoldRule", 3);
    let value = k.get("nFoldValue");
    let absolute = k.flag("nFoldValueAbsolute", false);
    let result = match (
        value.as_ref().map(|v| v.text.as_str()).unwrap_or("draw"),
        absolute,
    ) {
        ("draw", _) => "draw",
        ("win", false) => "repeater_loses",
        ("loss", true) => "sente_loses",
        ("win", true) => "gote_loses",
        _ => {
            let v = value.clone()?;
            k.refuse(&v, "nFoldValue", "koma's repetition is a draw, a loss for the repeater (win), or a loss for one colour (nFoldValueAbsolute = true)");
            "draw"
        }
    };
    let perpetual = k.flag("perpetualCheckIllegal", false);

    if !k.problems.is_empty() {
        return None;
    }

    // The document.
    let slug: String = section
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let header = match parent {
        Some(p) => format!("[{section}:{p}]"),
        None => format!("[{section}]"),
    };
    let mut s = String::new();
    let _ = writeln!(s, "---");
    let _ = writeln!(s, "title: {}", quoted(section));
    let _ = writeln!(s, "slug: {slug}");
    let _ = writeln!(s, "board: \"{cols}×{rows}\"");
    let _ = writeln!(s, "engine:");
    let _ = writeln!(
        s,
        "  topology: {{ type: grid, rows: {rows}, cols: {cols} }}"
    );
    let mut setup = board.clone();
    if drops {
        setup.push_str(&format!("[{hand}]"));
    }
    let _ = writeln!(s, "  setup: {}", quoted(&format!("{setup} {side}")));
    let _ = writeln!(s, "  pieces:");
    for &i in &kinds {
        let p = &pieces[i];
        let name = snake(&p.key);
        let _ = writeln!(s, "    {name}:");
        let _ = writeln!(
            s,
            "      # {} = {} ({})",
            p.key,
            p.value.text,
            where_(&p.value)
        );
        let _ = writeln!(s, "      letter: {}", p.letter.to_ascii_uppercase());
        let _ = writeln!(s, "      betza: {}", quoted(&p.betza));
        if royal == Some(i) {
            let _ = writeln!(s, "      royal: true");
        }
        if last_rank == Some(i) {
            let _ = writeln!(s, "      wins_on_last_rank: true");
        }
        if drop_mate && p.key == "shogiPawn" {
            let _ = writeln!(s, "      drop_mate_illegal: true");
        }
        if let Some((_, n)) = max_per_file.filter(|(m, _)| *m == i) {
            let _ = writeln!(s, "      max_per_file: {n}");
        }
        if let Some(&t) = promotes.get(&i) {
            let _ = writeln!(
                s,
                "      promotion: {{ name: promoted_{name}, betza: {} }}",
                quoted(&pieces[t].betza)
            );
        }
    }
    let _ = writeln!(s, "  rules:");
    let _ = writeln!(s, "    promotion: {rule}");
    let _ = writeln!(s, "    promotion_zone: {zone}");
    let _ = writeln!(s, "    drops: {drops}");
    let _ = writeln!(s, "    drop_promoted: {drop_promoted}");
    let _ = writeln!(s, "    immobile_drops: {}", !immobility_illegal);
    if rule == "optional" {
        let _ = writeln!(s, "    immobile_moves: {}", !immobility_illegal);
    }
    let _ = writeln!(s, "    check: {check}");
    let _ = writeln!(s, "    check_wins: {check_wins}");
    let _ = writeln!(
        s,
        "    repetition: {{ count: {n_fold}, result: {result}, perpetual_check_loses: {perpetual} }}"
    );
    let _ = writeln!(s, "---");
    let _ = writeln!(s);
    let _ = writeln!(s, "# {section}");
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Imported by `koma variant import` from the Fairy-Stockfish section `{header}` of `{file}`; each piece's comment says the line that set it."
    );
    Some(s)
}

/// Whether a key names one of Fairy-Stockfish's piece types koma does not
/// carry (their keys are lower camel case words Fairy-Stockfish lists).
fn is_piece_type(key: &str) -> bool {
    const OTHERS: &[&str] = &[
        "pawn",
        "knibis",
        "biskni",
        "kniroo",
        "rookni",
        "clobber",
        "breakthrough",
        "immobile",
        "janggiCannon",
        "horse",
        "elephant",
        "janggiElephant",
        "banner",
        "sepahsalar",
        "knishop",
        "kniqueen",
        "fersAlfil",
    ];
    OTHERS.contains(&key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(text: &str, section: &str) -> Vec<String> {
        match import(text, "v.ini", section) {
            Ok(doc) => panic!("imported:\n{doc}"),
            Err(ImportError::Refused(p)) => p.iter().map(ToString::to_string).collect(),
            Err(e) => panic!("refused otherwise: {e:?}"),
        }
    }

    #[test]
    fn a_section_over_shogi_keeps_shogi() {
        let doc = import("[mine:shogi]\n", "v.ini", "mine").unwrap();
        assert!(
            doc.contains("topology: { type: grid, rows: 9, cols: 9 }"),
            "{doc}"
        );
        assert!(
            doc.contains(
                "setup: \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w\""
            ),
            "{doc}"
        );
        assert!(doc.contains("drop_mate_illegal: true"));
        assert!(doc.contains("max_per_file: 1"));
        // The dragon horse is only a promoted side.
        assert!(!doc.contains("dragon_horse:"), "{doc}");
        // Values from the reach on the empty 9×9 board: the pawn's 1 square
        // and the gold's 6 give 100 and 600, the horse's 20 give 1300.
        assert!(
            doc.contains("promotion: { name: promoted_bishop, betza: \"BW\", value: 1300 }"),
            "{doc}"
        );
        assert!(doc.contains("    shogi_pawn:\n      value: 100\n"), "{doc}");
        assert!(doc.contains("    gold:\n      value: 600\n"), "{doc}");
        assert!(!doc.contains("    king:\n      value"), "{doc}");
    }

    #[test]
    fn unknown_keys_and_values_are_refused_with_their_lines() {
        let text =
            "# mine\n[mine:shogi]\nmustCapture = true\nnFoldValue = loss\npieceDrops = maybe\n";
        let p = problems(text, "mine");
        assert!(
            p.contains(&"v.ini:3: mustCapture = true: koma has no rule for this key".to_string()),
            "{p:?}"
        );
        assert!(
            p.iter()
                .any(|m| m.starts_with("v.ini:4: nFoldValue = loss:")),
            "{p:?}"
        );
        assert!(
            p.contains(&"v.ini:5: pieceDrops = maybe: must be true or false".to_string()),
            "{p:?}"
        );
    }

    #[test]
    fn sections_and_parents_that_are_not_there() {
        let p = problems("[a:b]\n", "a");
        assert!(p[0].contains("no section [b] (the parent of [a])"), "{p:?}");
        let p = problems("[a:b]\n[b:a]\n", "a");
        assert!(p[0].contains("inherits from itself"), "{p:?}");
        let p = problems("[a]\n", "x");
        assert_eq!(p, vec!["v.ini: no section [x]: the file has a".to_string()]);
        let p = problems("[a:shogi]\nmaxRank = 9\nmaxRank = 8\nfoo\n", "a");
        assert!(
            p.contains(&"v.ini:3: maxRank is set twice in [a] (first on line 2)".to_string()),
            "{p:?}"
        );
        assert!(
            p.contains(&"v.ini:4: 'foo' is neither a section nor a key = value line".to_string()),
            "{p:?}"
        );
    }

    #[test]
    fn chess_is_refused_for_its_pawn_and_its_rules() {
        let p = problems("[mine]\n", "mine");
        let text = p.join("\n");
        assert!(
            text.contains("pawn = p: a piece type koma does not carry"),
            "{text}"
        );
        assert!(text.contains("castling = true"), "{text}");
        assert!(text.contains("stalemateValue = draw"), "{text}");
        assert!(
            text.contains("src/export/fairy-stockfish.ini:16: pawn = p"),
            "{text}"
        );
    }

    /// Every shipped variant that exports comes back as a file with the
    /// same moves: perft to depth 2 from the start, move by move.
    #[test]
    fn exported_variants_import_back_with_the_same_moves() {
        use crate::position::AnyPosition;
        use crate::{Game, with_rules};
        let mut checked = 0;
        for slug in crate::variant::catalogue() {
            let game = Game::load(slug).unwrap();
            let Ok(ini) = with_rules!(&game, r => super::super::ini::variants_ini(r, "back"))
            else {
                continue;
            };
            let doc = import(&ini, "back.ini", "back").unwrap_or_else(|p| panic!("{slug}: {p:?}"));
            let v = crate::variant::from_text(&doc, "back.md", None).unwrap();
            let back = Game::compile(&v).unwrap_or_else(|e| panic!("{slug}: {e}\n{doc}"));
            let mut a = AnyPosition::start(&game);
            let mut b = AnyPosition::new(&back, game.start_setup()).unwrap();
            let sorted = |p: &AnyPosition| {
                let fairy = crate::notation::Notation::Fairy;
                let mut l: Vec<String> = p
                    .legal_moves()
                    .into_iter()
                    .map(|m| p.format_move(m, fairy))
                    .collect();
                l.sort();
                l
            };
            let (moves_a, moves_b) = (sorted(&a), sorted(&b));
            assert_eq!(moves_a, moves_b, "{slug}");
            assert_eq!(a.perft(2), b.perft(2), "{slug}");
            checked += 1;
        }
        assert!(checked >= 14, "{checked} variants exported");
    }

    #[test]
    fn names() {
        assert_eq!(snake("shogiKnight"), "shogi_knight");
        assert_eq!(snake("customPiece12"), "custom_piece_12");
        assert_eq!(files("h"), Some(8));
        assert_eq!(files("10"), Some(10));
        assert_eq!(ranks("*1 *2"), Some(vec![1, 2]));
        assert_eq!(ranks("a1"), None);
    }
}
