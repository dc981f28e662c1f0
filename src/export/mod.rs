//! Variants written for other engines and read from them: a Fairy-Stockfish
//! `variants.ini` section ([`ini`]), and a koma file from one
//! ([`from_ini`]).

pub mod from_ini;
pub mod ini;
