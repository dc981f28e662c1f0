#![no_main]
//! cargo-fuzz target `jkf`: the body is `targets::jkf` (tests/fuzz/targets.rs),
//! which `cargo test` also runs on the kept corpus and regressions.

#[path = "../targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::jkf(data));
