#![no_main]
//! cargo-fuzz target `csa`: the body is `targets::csa` (tests/fuzz/targets.rs),
//! which `cargo test` also runs on the kept corpus and regressions.

#[path = "../targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::csa(data));
