//! Drawing positions: text for terminals.

mod terminal;

pub use terminal::{Style, board_text};
