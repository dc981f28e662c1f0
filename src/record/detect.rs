//! Telling the formats and the encodings apart.

use super::{Format, kif};

/// Guesses a record's format from its text.
pub fn detect(text: &str) -> Format {
    let body = text.trim_start_matches('\u{feff}').trim_start();
    if body.starts_with('{') {
        return Format::Jkf;
    }
    if body.starts_with("#KIF") {
        return Format::Kif;
    }
    let lines: Vec<&str> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines
        .iter()
        .any(|l| l.starts_with('[') && l.ends_with(']') && l.contains('"'))
    {
        return Format::Pgn;
    }
    let csa = |l: &&str| {
        let b = l.as_bytes();
        l.starts_with("V2")
            || l.starts_with("V3")
            || l.starts_with("PI")
            || l.starts_with("N+")
            || l.starts_with("N-")
            || (b.len() >= 2
                && b[0] == b'P'
                && (b[1].is_ascii_digit() || b[1] == b'+' || b[1] == b'-'))
            || (b.len() >= 7
                && (b[0] == b'+' || b[0] == b'-')
                && b[1..5].iter().all(u8::is_ascii_digit)
                && b[5].is_ascii_uppercase())
            || l.starts_with('%')
    };
    if lines.iter().any(csa) {
        return Format::Csa;
    }
    if lines
        .iter()
        .any(|l| l.starts_with("手数----") || kif::is_move_line(l))
    {
        return Format::Kif;
    }
    if lines
        .iter()
        .any(|l| l.starts_with(['▲', '△', '☗', '☖', '▽', '▼']))
    {
        return Format::Ki2;
    }
    let first = lines.iter().find(|l| !l.starts_with('#'));
    let koma_key = |l: &str| {
        l.split_once(':').is_some_and(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        })
    };
    // A KIF header without moves: a key without ASCII before a full-width colon.
    let kif_header = |l: &&str| {
        l.split_once('：')
            .is_some_and(|(k, _)| !k.is_empty() && !k.chars().any(|c| c.is_ascii()))
    };
    if !first.is_some_and(|l| koma_key(l)) && lines.iter().any(kif_header) {
        return Format::Kif;
    }
    match first {
        Some(l) if l.starts_with("position ") => Format::Usi,
        _ => Format::Koma,
    }
}

/// Decodes a record's bytes: UTF-8 (with or without a byte-order mark), else
/// Shift_JIS, as older KIF files are written. The name of the encoding used
/// is returned with the text.
pub fn decode(bytes: &[u8]) -> (String, &'static str) {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), "UTF-8"),
        Err(_) => {
            let (text, _, _) = encoding_rs::SHIFT_JIS.decode(bytes);
            (text.into_owned(), "Shift_JIS")
        }
    }
}

/// Encodes a record's text in Shift_JIS (as `.kif` and `.ki2` files are
/// by custom; `.kifu` is UTF-8), saying so in KIF's encoding line. Text
/// with a character Shift_JIS lacks is refused, with that character.
pub fn encode_shift_jis(text: &str) -> Result<Vec<u8>, String> {
    let text = text.replacen("encoding=UTF-8", "encoding=Shift_JIS", 1);
    if let Some(c) = text
        .chars()
        .find(|c| encoding_rs::SHIFT_JIS.encode(&c.to_string()).2)
    {
        return Err(format!(
            "'{c}' has no Shift_JIS code: write UTF-8 instead (a .kifu file, or --encoding utf-8)"
        ));
    }
    Ok(encoding_rs::SHIFT_JIS.encode(&text).0.into_owned())
}
