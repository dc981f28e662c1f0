//! The page: plain HTML, CSS and JavaScript written for koma, embedded in
//! the binary.

/// `GET /`.
pub(super) const INDEX: &str = include_str!("assets/index.html");
/// `GET /app.js`.
pub(super) const SCRIPT: &str = include_str!("assets/app.js");
/// `GET /style.css`.
pub(super) const STYLE: &str = include_str!("assets/style.css");
