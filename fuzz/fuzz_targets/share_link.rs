//! Fuzz target `share_link`: arbitrary text as a share link's fragment
//! (`share::decode_fragment`); a decoded link round-trips through `share::encode_fragment`.
//! The work is in `core/tests/fuzz_harness/mod.rs`, shared with `core/tests/fuzz_regressions.rs`.

#![no_main]

#[path = "../../core/tests/fuzz_harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::share_link(data));
