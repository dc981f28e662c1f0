//! Piece IDs: the short names a variant file gives its pieces and that
//! setups, hands and drops write.

use std::fmt;

use super::Color;

/// The most letters a piece ID may have.
pub const MAX_ID_LETTERS: usize = 4;

/// A piece's ID: one to [`MAX_ID_LETTERS`] ASCII letters, kept upper case
/// (the side is the case a setup writes it in, not part of the ID). A
/// one-letter ID is written bare in setups (`P`, `p`); a longer one in
/// parentheses (`(FD)`, `(fd)`), so that a setup stays one piece per letter
/// or bracket.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PieceId {
    /// The letters, upper case, then zeros.
    bytes: [u8; MAX_ID_LETTERS],
}

impl PieceId {
    /// The ID of these letters, in either case; `None` unless they are one
    /// to [`MAX_ID_LETTERS`] ASCII letters.
    pub fn new(text: &str) -> Option<PieceId> {
        if text.is_empty()
            || text.len() > MAX_ID_LETTERS
            || !text.bytes().all(|b| b.is_ascii_alphabetic())
        {
            return None;
        }
        let mut bytes = [0; MAX_ID_LETTERS];
        for (slot, b) in bytes.iter_mut().zip(text.bytes()) {
            *slot = b.to_ascii_uppercase();
        }
        Some(PieceId { bytes })
    }

    /// The one-letter ID of an ASCII letter, in either case.
    pub fn from_letter(letter: char) -> Option<PieceId> {
        let mut buf = [0; 4];
        PieceId::new(letter.encode_utf8(&mut buf))
    }

    /// The letters, upper case: also how a drop move writes the ID (`P*5e`,
    /// `FD*5e`), bare, since the `*` or `@` that follows ends it.
    pub fn as_str(&self) -> &str {
        let len = self.len();
        std::str::from_utf8(&self.bytes[..len]).expect("IDs are ASCII letters")
    }

    /// How many letters it has.
    pub fn len(&self) -> usize {
        self.bytes.iter().take_while(|&&b| b != 0).count()
    }

    /// Never: an ID has at least one letter (for the `len` convention).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Its first letter, upper case (a one-letter stand-in where a format
    /// has room for one letter only).
    pub fn first(&self) -> char {
        char::from(self.bytes[0])
    }

    /// The ID as one letter, if it is one.
    pub fn letter(&self) -> Option<char> {
        (self.len() == 1).then(|| self.first())
    }

    /// As a setup writes it for this side: upper case for sente, lower for
    /// gote, in parentheses when it has more than one letter.
    pub fn written(&self, color: Color) -> String {
        let text = match color {
            Color::Sente => self.as_str().to_string(),
            Color::Gote => self.as_str().to_ascii_lowercase(),
        };
        if self.len() == 1 {
            text
        } else {
            format!("({text})")
        }
    }
}

impl fmt::Display for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

/// A piece ID read from the start of a setup's text: a letter, or letters in
/// parentheses. Returns the ID, whether it was upper case (sente), and how
/// many bytes it took; or what is wrong with the ID that starts `text`.
pub fn read_written_id(text: &str) -> Result<(PieceId, Color, usize), String> {
    let bytes = text.as_bytes();
    let Some(&first) = bytes.first() else {
        return Err("expected a piece letter".to_string());
    };
    if first != b'(' {
        if !first.is_ascii_alphabetic() {
            let c = text.chars().next().expect("text is not empty");
            return Err(format!("expected a piece letter, not {c:?}"));
        }
        let id = PieceId::new(&text[..1]).expect("an ASCII letter is an ID");
        let color = if first.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        return Ok((id, color, 1));
    }
    let Some(close) = text.find(')') else {
        return Err("'(' opens a piece ID that no ')' closes".to_string());
    };
    let inner = &text[1..close];
    let id = PieceId::new(inner).ok_or_else(|| {
        format!(
            "'({inner})' is not a piece ID: one to {MAX_ID_LETTERS} ASCII letters in parentheses"
        )
    })?;
    let color = if inner.bytes().all(|b| b.is_ascii_uppercase()) {
        Color::Sente
    } else if inner.bytes().all(|b| b.is_ascii_lowercase()) {
        Color::Gote
    } else {
        return Err(format!(
            "'({inner})' mixes cases: upper case is sente's piece, lower case gote's"
        ));
    };
    if id.len() == 1 {
        return Err(format!(
            "'({inner})': a one-letter piece is written bare, without parentheses"
        ));
    }
    Ok((id, color, close + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_letters_kept_upper_case() {
        let id = PieceId::new("fd").unwrap();
        assert_eq!(id.as_str(), "FD");
        assert_eq!(id.len(), 2);
        assert_eq!(id.letter(), None);
        assert_eq!(PieceId::from_letter('p').unwrap().letter(), Some('P'));
        for bad in ["", "ABCDE", "F1", "+P", "é"] {
            assert_eq!(PieceId::new(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn written_forms_read_back() {
        for text in ["FD", "P", "CSW", "ABCD"] {
            let id = PieceId::new(text).unwrap();
            for color in Color::ALL {
                let written = id.written(color);
                assert_eq!(
                    read_written_id(&written),
                    Ok((id, color, written.len())),
                    "{written}"
                );
            }
        }
        assert_eq!(PieceId::new("FD").unwrap().written(Color::Gote), "(fd)");
    }

    #[test]
    fn bad_written_ids_say_what_is_wrong() {
        for (text, says) in [
            ("(FD", "no ')'"),
            ("(F1)", "not a piece ID"),
            ("(Fd)", "mixes cases"),
            ("(P)", "written bare"),
            ("()", "not a piece ID"),
            ("1", "expected a piece letter"),
            ("é", "expected a piece letter"),
        ] {
            let message = read_written_id(text).unwrap_err();
            assert!(message.contains(says), "{text}: {message}");
        }
    }
}
