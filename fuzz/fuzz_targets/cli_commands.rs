//! Fuzz target `cli_commands`: arbitrary text as kubectl and etcdctl command lines (one a
//! line; `etcdctl ...` lines go to etcdctl), run against the default scenario's cluster after
//! it has gone quiet, as `kubeplay run --kubectl/--etcdctl` does.
//! The work is in `core/tests/fuzz_harness/mod.rs`, shared with `core/tests/fuzz_regressions.rs`.

#![no_main]

#[path = "../../core/tests/fuzz_harness/mod.rs"]
mod harness;

use std::cell::RefCell;

thread_local! {
    /// Built once; built anew only after an input changed it.
    static CLI: RefCell<harness::CliHarness> = RefCell::new(harness::CliHarness::new());
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| CLI.with(|h| h.borrow_mut().run(data)));
