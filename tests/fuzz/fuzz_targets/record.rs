#![no_main]
//! cargo-fuzz target `record`: the body is `targets::record` (tests/fuzz/targets.rs),
//! which `cargo test` also runs on the kept corpus and regressions.

#[path = "../targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::record(data));
