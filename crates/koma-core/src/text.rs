//! Reading text from files and streams with the limits and the leniency a
//! person's or a GUI's input needs.

/// The largest text file koma reads (a variant file or a game record): 4 MiB.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// Reads a file of at most [`MAX_FILE_BYTES`], so that a device or a huge
/// file given by mistake is refused instead of filling the memory.
pub fn read_file_bytes(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB: not a variant file or game record",
            MAX_FILE_BYTES >> 20
        )));
    }
    Ok(bytes)
}

/// Reads a UTF-8 text file of at most [`MAX_FILE_BYTES`].
pub fn read_text_file(path: &std::path::Path) -> std::io::Result<String> {
    let bytes = read_file_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        )
    })
}

/// The next line of `input` with its end of line, `None` at the end of the
/// input. Bytes that are not UTF-8 become U+FFFD: a person's or a GUI's
/// stray byte makes a line that is refused, never the end of a session.
pub fn read_line_lossy(
    input: &mut (impl std::io::BufRead + ?Sized),
) -> std::io::Result<Option<String>> {
    let mut line = Vec::new();
    if input.read_until(b'\n', &mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}
