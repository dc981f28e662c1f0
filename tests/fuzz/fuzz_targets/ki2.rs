#![no_main]
//! cargo-fuzz target `ki2`: the body is `targets::ki2` (tests/fuzz/targets.rs),
//! which `cargo test` also runs on the kept corpus and regressions.

#[path = "../targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::ki2(data));
