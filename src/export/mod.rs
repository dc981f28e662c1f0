//! Variants written for other engines: a Fairy-Stockfish `variants.ini`
//! section ([`ini`]).

pub mod ini;
