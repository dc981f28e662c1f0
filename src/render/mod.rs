//! Drawing positions: text for terminals, SVG for documents.

mod svg;
mod terminal;

pub use svg::{Labels, SvgOptions, caption, movement_svg, piece_svg, start_diagram, svg};
pub use terminal::{Style, board_text};
