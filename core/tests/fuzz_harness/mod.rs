//! What each fuzz target does with its input, shared by the cargo-fuzz targets in `fuzz/`
//! (which include this file by path) and by `tests/fuzz_regressions.rs`, so that a crash the
//! fuzzer found is replayed under plain `cargo test` through exactly the same calls.
//!
//! Every function returns normally for any input: a panic is the bug. Each input's work is
//! bounded (virtual time, events, nodes and pods) so that a slow input is a real hang, not a
//! big-but-legal scenario.

#![allow(dead_code)]

use kubeplay_core::cluster::Cluster;
use kubeplay_core::scenario::{self, limits, Scenario};
use kubeplay_core::{api::meta, etcdctl, kubectl, share, shell};

/// The file name errors are reported against.
pub const FILE: &str = "fuzz.yaml";
/// The scenario the `cli_commands` target runs its commands against.
pub const DEFAULT_SCENARIO: &str = include_str!("../../../public/scenarios/default.yaml");

/// `apply_objects` runs a scenario for at most this much virtual time...
pub const RUN_MS: u64 = 20_000;
/// ...and at most this many events (heartbeats, watch deliveries, controller syncs).
pub const MAX_EVENTS: usize = 20_000;
/// Scenarios with more nodes, or whose workloads ask for more pods, are legal but too big to
/// run once per input; `apply_objects` only parses them.
pub const MAX_FUZZ_NODES: usize = 16;
pub const MAX_FUZZ_PODS: i64 = 64;
/// `cli_commands` runs at most this many command lines per input.
pub const MAX_COMMANDS: usize = 8;

/// Target `scenario_parse`: bytes as a scenario file.
pub fn scenario_parse(data: &[u8]) {
    match scenario::parse_bytes(FILE, data) {
        Ok(s) => {
            for o in s.nodes.iter().chain(&s.objects) {
                let _ = o.label();
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// Whether a parsed scenario is small enough to run once per fuzz input.
pub fn small_enough(s: &Scenario) -> bool {
    if s.nodes.len() > MAX_FUZZ_NODES {
        return false;
    }
    let mut pods = 0i64;
    for o in &s.objects {
        let v = &o.object;
        let n = limits::pods_asked(meta::api_version(v), meta::kind(v), v).unwrap_or(1);
        pods = pods.saturating_add(n.max(1));
    }
    pods <= MAX_FUZZ_PODS
}

/// Runs `cluster` to [`RUN_MS`] of virtual time, or until [`MAX_EVENTS`] events have fired.
pub fn run_bounded(cluster: &mut Cluster) {
    let mut events = 0;
    while cluster.next_time().is_some_and(|t| t <= RUN_MS) {
        if events == MAX_EVENTS {
            return;
        }
        cluster.step_one();
        events += 1;
    }
    cluster.run(Some(RUN_MS));
}

/// Read-only commands run after `apply_objects`' run, so the printers see fuzzed objects.
const READ_BACK: [&[&str]; 4] = [
    &["get", "all", "-A", "-o", "wide"],
    &["get", "nodes,events", "-A", "-o", "yaml"],
    &["describe", "pods", "-A"],
    &["describe", "deployments,replicasets,services,nodes", "-A"],
];

/// Target `apply_objects`: bytes as a scenario; if it parses (and is small enough), the
/// cluster applies its objects, runs for a bounded virtual time, and kubectl and etcdctl read
/// the result back.
pub fn apply_objects(data: &[u8]) {
    let Ok(s) = scenario::parse_bytes(FILE, data) else {
        return;
    };
    if !small_enough(&s) {
        return;
    }
    let mut cluster = Cluster::new(s);
    run_bounded(&mut cluster);
    for cmd in READ_BACK {
        let words: Vec<String> = cmd.iter().map(|w| w.to_string()).collect();
        let _ = kubectl::run(&mut cluster, &words);
    }
    let words = ["get", "/registry", "--prefix", "-w", "json"].map(String::from);
    let _ = etcdctl::run(&cluster.api.storage.etcd, &words);
}

/// The default scenario, run until quiet: what `cli_commands` works on.
pub fn quiet_default_cluster() -> Cluster {
    let mut c = Cluster::from_text("default.yaml", DEFAULT_SCENARIO).expect("default parses");
    c.run(None);
    c
}

/// What a cluster must look like for a command's result to depend on the command alone.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Fingerprint {
    revision: i64,
    compact_revision: i64,
    now: u64,
    quiet: bool,
    queued: usize,
}

fn fingerprint(c: &Cluster) -> Fingerprint {
    Fingerprint {
        revision: c.api.storage.etcd.revision(),
        compact_revision: c.api.storage.etcd.compact_revision(),
        now: c.now(),
        quiet: c.is_quiet(),
        queued: c.queue.len(),
    }
}

/// Target `cli_commands`: the input's lines (at most [`MAX_COMMANDS`]) are command lines, as
/// the command line's `--kubectl` and `--etcdctl` take them: a line starting with `etcdctl` is
/// an etcdctl command, any other a kubectl command (a leading `kubectl` is dropped). They run
/// in order against the quiet default cluster.
///
/// The cluster is built once and reused while commands leave it as it was (reads); after a
/// write it is built anew, so that every input starts from the same state and a crash replays
/// from the input alone.
pub struct CliHarness {
    cluster: Option<Cluster>,
    fresh: Option<Fingerprint>,
}

impl Default for CliHarness {
    fn default() -> Self {
        Self::new()
    }
}

impl CliHarness {
    pub fn new() -> Self {
        CliHarness {
            cluster: None,
            fresh: None,
        }
    }

    pub fn run(&mut self, data: &[u8]) {
        let Ok(text) = std::str::from_utf8(data) else {
            return;
        };
        let cluster = self.cluster.get_or_insert_with(quiet_default_cluster);
        let fresh = *self.fresh.get_or_insert_with(|| fingerprint(cluster));
        let records = cluster.trace.records.len();
        let mut wrote = false;
        for line in text.lines().take(MAX_COMMANDS) {
            wrote |= run_line(cluster, line);
        }
        cluster.trace.records.truncate(records);
        if wrote || fingerprint(cluster) != fresh {
            self.cluster = None;
        }
    }
}

/// Runs one command line; true if it may have changed the cluster beyond what the
/// fingerprint shows (an etcdctl write).
fn run_line(cluster: &mut Cluster, line: &str) -> bool {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix("etcdctl") {
        if rest.is_empty() || rest.starts_with(char::is_whitespace) {
            let Ok(words) = shell::split(rest) else {
                return false;
            };
            // Reads go through the read-only entry point; what it refuses as a write runs on
            // the writable store, as `kubeplay run --etcdctl` does.
            return match etcdctl::run(&cluster.api.storage.etcd, &words) {
                Err(e) if e.contains("read-only") => {
                    let now = cluster.now();
                    let _ = etcdctl::run_mut(&mut cluster.api.storage.etcd, &words, now);
                    true
                }
                _ => false,
            };
        }
    }
    let line = line.strip_prefix("kubectl ").unwrap_or(line);
    let Ok(words) = shell::split(line) else {
        return false;
    };
    let _ = kubectl::run(cluster, &words);
    false
}

/// Target `share_link`: text as a share link's fragment (or a whole link: what follows the
/// first `#`). A link that decodes encodes back to one that decodes to the same, and its
/// scenario is parsed as the page would.
pub fn share_link(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let fragment = text.split_once('#').map_or(text, |(_, f)| f);
    let Ok(link) = share::decode_fragment(fragment) else {
        return;
    };
    let again =
        share::decode_fragment(&share::encode_fragment(&link)).expect("an encoded link decodes");
    assert_eq!(again, link, "a decoded link round-trips");
    let _ = scenario::parse(FILE, &link.scenario);
}
