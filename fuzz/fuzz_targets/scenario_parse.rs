//! Fuzz target `scenario_parse`: arbitrary bytes as a scenario file (`scenario::parse_bytes`).
//! The work is in `core/tests/fuzz_harness/mod.rs`, shared with `core/tests/fuzz_regressions.rs`.

#![no_main]

#[path = "../../core/tests/fuzz_harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::scenario_parse(data));
