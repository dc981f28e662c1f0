//! koma's one integration-test binary: each module reads its cases from a
//! data folder under `tests/`, so adding a case is adding a file.

mod checked;
mod cli;
mod common;
mod compiled;
mod docs;
mod engine;
mod export;
mod fuzz;
mod holes;
mod keys;
mod layers;
mod moves;
mod notation;
mod oracle;
mod outcome;
mod perft;
mod play;
mod properties;
mod protocol;
mod records;
mod robustness;
mod roles;
mod server;
mod setup;
mod shogiops;
mod svg;
mod trades;
mod validate;
mod walkthrough;
