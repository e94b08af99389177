//! Fuzz target `apply_objects`: arbitrary bytes as a scenario; if it parses, the cluster applies
//! it and runs for a bounded virtual time, then kubectl and etcdctl read the result back.
//! The work is in `core/tests/fuzz_harness/mod.rs`, shared with `core/tests/fuzz_regressions.rs`.

#![no_main]

#[path = "../../core/tests/fuzz_harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::apply_objects(data));
