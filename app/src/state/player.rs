//! Playback of a scenario: the page drives the core's [`Cluster`] one event at a time and
//! reveals its trace record by record. Plain Rust (no browser types), so it is tested natively.
//!
//! - The *position* is the number of trace records revealed; the views show the cluster as it
//!   was after those records (etcd is an MVCC store, so every object can be read at the revision
//!   of any record).
//! - The cluster is stepped lazily: only when the virtual clock reaches its next event, so it is
//!   never more than one event ahead of what is shown, and a slice of work per animation frame
//!   keeps every frame short.
//! - Everything done to the cluster is logged as [`Op`]s; a console command typed at an earlier
//!   position rebuilds the cluster from the same scenario and seed, replays the log up to there
//!   (determinism makes it identical) and drops the old future.

use crate::state::flow::FlowIndex;
use kubeplay_core::api::Object;
use kubeplay_core::apiserver::storage::decode;
use kubeplay_core::cluster::{Cluster, MAX_RUN_MS};
use kubeplay_core::etcd::{Etcd, KeyValue};
use kubeplay_core::scenario::Scenario;
use kubeplay_core::trace::{Component, Record};
use kubeplay_core::{etcdctl, kubectl, shell};
use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// When nothing happens for longer than this (virtual ms), playback skips ahead...
pub const IDLE_SKIP_MS: u64 = 2_000;
/// ...to this long before the next event.
pub const IDLE_LEAD_MS: u64 = 500;

/// One thing done to the cluster, in order: the log a rebuild replays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// The next event of the queue (`Cluster::step_one`).
    Event,
    /// A kubectl command line typed in the console (words after `kubectl`).
    Kubectl(Vec<String>),
    /// An etcdctl command line typed in the console (words after `etcdctl`).
    Etcdctl(Vec<String>),
}

/// The trace length and etcd revision after an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Checkpoint {
    trace_len: usize,
    revision: i64,
}

/// Which console a command was typed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Kubectl,
    Etcdctl,
}

/// A command and what it printed, as a terminal shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleEntry {
    pub tool: Tool,
    pub t_ms: u64,
    pub command: String,
    pub stdout: String,
    pub stderr: String,
}

/// A key's value decoded at its mod_revision.
type DecodeCache = HashMap<Rc<str>, (i64, Rc<Object>)>;

pub struct Player {
    cluster: Cluster,
    /// The ops applied, in runs: an op and how many times in a row (a big run is millions of
    /// events, and a log of one entry each took hundreds of MiB and long copies as it grew).
    ops: Vec<(Op, usize)>,
    /// How many ops were applied (the runs' total).
    ops_len: usize,
    /// The state after the ops, one entry per trace length: most events of a big run keep no
    /// record, and only the last state of a length and the first op that reached it matter.
    checkpoints: Vec<Reached>,
    start: Checkpoint,
    position: usize,
    clock: u64,
    flow: FlowIndex,
    node_names: Vec<String>,
    /// Each key's value last decoded for a view, by its mod_revision: the views read the same
    /// objects at every frame, and parsing them again each time was most of a frame's work.
    decoded: RefCell<DecodeCache>,
    /// What the Cluster view last worked out of each node and pod.
    pub(crate) cluster_memo: crate::state::derive::ClusterMemo,
}

/// The ops from `first_op` on that left the trace at one length, and the state after the last.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Reached {
    first_op: usize,
    state: Checkpoint,
}

fn checkpoint(c: &Cluster) -> Checkpoint {
    Checkpoint {
        trace_len: c.trace.records.len(),
        revision: c.api.storage.etcd.revision(),
    }
}

/// The words of a console line, without a leading `kubectl`/`etcdctl`.
pub fn words(line: &str, tool: &str) -> Result<Vec<String>, String> {
    let line = line.trim();
    let line = line
        .strip_prefix(tool)
        .filter(|rest| rest.is_empty() || rest.starts_with(' '))
        .unwrap_or(line);
    shell::split(line.trim())
}

impl Player {
    pub fn new(scenario: Scenario) -> Self {
        let mut p = Player::starting(scenario);
        p.start(&mut || false);
        p
    }

    /// A player whose cluster's node components are not all started yet (see
    /// [`Cluster::starting`]): playing starts them first, in the slices of the frames.
    pub fn starting(scenario: Scenario) -> Self {
        let node_names = kubeplay_core::cluster::node_names(&scenario);
        // The cluster keeps the scenario: a second copy of a big one took milliseconds of Apply.
        let cluster = Cluster::starting(scenario);
        let start = checkpoint(&cluster);
        Player {
            cluster,
            ops: Vec::new(),
            ops_len: 0,
            checkpoints: Vec::new(),
            start,
            position: 0,
            clock: 0,
            flow: FlowIndex::new(&node_names),
            node_names,
            decoded: RefCell::default(),
            cluster_memo: Default::default(),
        }
    }

    /// Starts what the cluster has not started yet, until `out_of_time()`; true once done.
    pub fn start(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        if self.cluster.started() {
            return true;
        }
        let started = self.cluster.start_some(out_of_time);
        // Shown meanwhile: the cluster as started so far, so the nodes appear as they register
        // and the views work out their facts a few hundred per redraw, not 5,000 at once in
        // the first redraw after the start.
        self.start = checkpoint(&self.cluster);
        if !started {
            return false;
        }
        self.flow.extend(&self.cluster.trace.records);
        true
    }

    pub fn scenario(&self) -> &Scenario {
        &self.cluster.scenario
    }
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }
    pub fn etcd(&self) -> &Etcd {
        &self.cluster.api.storage.etcd
    }
    pub fn node_names(&self) -> &[String] {
        &self.node_names
    }
    pub fn flow(&self) -> &FlowIndex {
        &self.flow
    }
    /// Every record generated so far (some may not be revealed yet).
    pub fn records(&self) -> &[Record] {
        &self.cluster.trace.records
    }
    /// The records revealed.
    pub fn revealed(&self) -> &[Record] {
        &self.cluster.trace.records[..self.position]
    }
    pub fn position(&self) -> usize {
        self.position
    }
    /// The virtual clock of playback, in ms.
    pub fn clock(&self) -> u64 {
        self.clock
    }
    /// How many ops (events and commands) were applied.
    pub fn ops_applied(&self) -> usize {
        self.ops_len
    }

    /// The time of the next event, or `None` when the run is over: the cluster is quiet (only
    /// periodic work left, as `kubeplay run` stops) or past the 10-minute limit.
    pub fn next_event_time(&self) -> Option<u64> {
        if !self.cluster.started() {
            return Some(self.cluster.now());
        }
        let t = self.cluster.next_time()?;
        (t <= MAX_RUN_MS && !self.cluster.is_quiet()).then_some(t)
    }

    /// Every record revealed and nothing left to run.
    pub fn at_end(&self) -> bool {
        self.position == self.records().len() && self.next_event_time().is_none()
    }

    fn apply(&mut self, op: &Op) -> Option<ConsoleEntry> {
        self.start(&mut || false);
        let entry = match op {
            Op::Event => {
                self.cluster.step_one();
                None
            }
            Op::Kubectl(words) => {
                let o = kubectl::run(&mut self.cluster, words);
                Some(ConsoleEntry {
                    tool: Tool::Kubectl,
                    t_ms: o.t_ms,
                    command: o.command,
                    stdout: o.stdout,
                    stderr: o.stderr,
                })
            }
            Op::Etcdctl(words) => {
                let now = self.cluster.now();
                let (stdout, stderr) =
                    match etcdctl::run_mut(&mut self.cluster.api.storage.etcd, words, now) {
                        Ok(s) => (s, String::new()),
                        Err(e) => (String::new(), e),
                    };
                Some(ConsoleEntry {
                    tool: Tool::Etcdctl,
                    t_ms: now,
                    command: format!("etcdctl {}", words.join(" ")),
                    stdout,
                    stderr,
                })
            }
        };
        match self.ops.last_mut() {
            Some((Op::Event, n)) if *op == Op::Event => *n += 1,
            _ => self.ops.push((op.clone(), 1)),
        }
        self.ops_len += 1;
        let state = checkpoint(&self.cluster);
        match self.checkpoints.last_mut() {
            Some(last) if last.state.trace_len == state.trace_len => last.state = state,
            _ => self.checkpoints.push(Reached {
                first_op: self.ops_len - 1,
                state,
            }),
        }
        self.flow.extend(&self.cluster.trace.records);
        entry
    }

    /// Runs the next event; false when the run is over.
    fn next_event(&mut self) -> bool {
        if self.next_event_time().is_none() {
            return false;
        }
        self.apply(&Op::Event);
        true
    }

    /// Plays to virtual time `target`: reveals every record up to it, running the events due.
    /// Gaps longer than [`IDLE_SKIP_MS`] are skipped when `skip_idle`. Stops early (with the
    /// clock at the last record shown) when `out_of_time()` says the frame's budget is spent;
    /// returns false then.
    pub fn play_to(
        &mut self,
        target: u64,
        skip_idle: bool,
        out_of_time: &mut dyn FnMut() -> bool,
    ) -> bool {
        if !self.start(out_of_time) {
            return false;
        }
        let mut target = target.max(self.clock);
        loop {
            let len = self.records().len();
            while self.position < len && self.records()[self.position].t_ms <= target {
                self.position += 1;
            }
            if self.position < len {
                let next = self.records()[self.position].t_ms;
                if skip_idle && next > target + IDLE_SKIP_MS {
                    target = next - IDLE_LEAD_MS;
                }
                self.clock = target;
                return true;
            }
            match self.next_event_time() {
                None => {
                    self.clock = self.end_time();
                    return true;
                }
                Some(t) if t > target => {
                    if skip_idle && t > target + IDLE_SKIP_MS {
                        target = t - IDLE_LEAD_MS;
                    }
                    self.clock = target;
                    return true;
                }
                Some(_) => {}
            }
            if out_of_time() {
                let last = self.position.checked_sub(1).map(|i| self.records()[i].t_ms);
                self.clock = last.unwrap_or(self.clock).max(self.clock);
                return false;
            }
            self.next_event();
        }
    }

    /// Where the clock stands once everything is revealed.
    fn end_time(&self) -> u64 {
        let last = self.records().last().map(|r| r.t_ms).unwrap_or(0);
        last.max(self.cluster.now()).max(self.clock)
    }

    /// Reveals the next record (running events until one appears); false at the end.
    pub fn step_forward(&mut self) -> bool {
        while self.position == self.records().len() {
            if !self.next_event() {
                return false;
            }
        }
        self.position += 1;
        self.clock = self.records()[self.position - 1].t_ms;
        true
    }

    /// Hides the last revealed record; false at the start.
    pub fn step_back(&mut self) -> bool {
        if self.position == 0 {
            return false;
        }
        self.seek(self.position - 1);
        true
    }

    /// Moves to a position among the records generated so far.
    pub fn seek(&mut self, position: usize) {
        self.position = position.min(self.records().len());
        self.clock = match self.position {
            0 => 0,
            p => self.records()[p - 1].t_ms,
        };
    }

    /// Runs to the end (in slices: false when `out_of_time()` stopped it first).
    pub fn run_to_end(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        if !self.start(out_of_time) {
            return false;
        }
        loop {
            if out_of_time() {
                self.position = self.records().len();
                self.clock = self.records().last().map(|r| r.t_ms).unwrap_or(0);
                return false;
            }
            if !self.next_event() {
                break;
            }
        }
        self.position = self.records().len();
        self.clock = self.end_time();
        true
    }

    /// The etcd revision after the first `position` records.
    pub fn revision_at(&self, position: usize) -> i64 {
        let records = self.records();
        let position = position.min(records.len());
        // The last checkpoint at or before the position...
        let i = self
            .checkpoints
            .partition_point(|c| c.state.trace_len <= position);
        let base = match i {
            0 => self.start,
            i => self.checkpoints[i - 1].state,
        };
        // ...and any write after it among the revealed records.
        records[base.trace_len.min(position)..position]
            .iter()
            .filter(|r| r.component == Component::Etcd)
            .filter_map(|r| r.revision)
            .fold(base.revision, i64::max)
    }

    /// The etcd revision of what is shown.
    pub fn revision(&self) -> i64 {
        self.revision_at(self.position)
    }

    /// Every object under an etcd prefix at revision `rev`, decoded (empty when compacted).
    pub fn objects_at(&self, prefix: &str, rev: i64) -> Vec<Rc<Object>> {
        let Ok(r) = self.etcd().range_prefix(prefix, Some(rev), 0) else {
            return Vec::new();
        };
        let mut decoded = self.decoded.borrow_mut();
        r.kvs
            .iter()
            .map(|kv| match decoded.get(kv.key.as_str()) {
                Some((at, o)) if *at == kv.mod_revision => Rc::clone(o),
                _ => {
                    let o = self.object(kv);
                    decoded.insert(Rc::from(kv.key.as_str()), (kv.mod_revision, Rc::clone(&o)));
                    o
                }
            })
            .collect()
    }

    /// A stored value as an object.
    pub fn object(&self, kv: &KeyValue) -> Rc<Object> {
        // A key's latest value is usually decoded already: the apiserver's watch cache holds
        // it. Parsing thousands of changed pods again made a big run's every redraw a long task.
        self.cluster
            .api
            .storage
            .cached(kv)
            .unwrap_or_else(|| Rc::new(decode(kv)))
    }

    /// Brings the cluster to the state shown (rebuilding it when it ran ahead), so a command
    /// typed now acts on what the person sees.
    fn settle_at_position(&mut self) {
        let k = self.ops_to_reach(self.position);
        if k < self.ops_len {
            self.rebuild(k);
        }
        self.position = self.records().len();
        self.clock = self.clock.max(self.cluster.now());
    }

    /// The fewest ops after which the first `position` records all exist.
    fn ops_to_reach(&self, position: usize) -> usize {
        if position <= self.start.trace_len {
            return 0;
        }
        let i = self
            .checkpoints
            .partition_point(|c| c.state.trace_len < position);
        self.checkpoints
            .get(i)
            .map_or(self.ops_len, |c| c.first_op + 1)
    }

    /// A fresh cluster from the same scenario and seed, with the first `ops` ops replayed.
    fn rebuild(&mut self, ops: usize) {
        // The runs cut to the first `ops` ops.
        let mut log = std::mem::take(&mut self.ops);
        let mut left = ops;
        log.retain_mut(|(_, n)| {
            *n = (*n).min(left);
            left -= *n;
            *n > 0
        });
        let clock = self.clock;
        let position = self.position;
        *self = Player::new(self.cluster.scenario.clone());
        for (op, n) in &log {
            for _ in 0..*n {
                self.apply(op);
            }
        }
        self.position = position.min(self.records().len());
        self.clock = clock;
    }

    /// Runs a console command at the position shown; its requests join the trace.
    pub fn command(&mut self, tool: Tool, line: &str) -> ConsoleEntry {
        let name = match tool {
            Tool::Kubectl => "kubectl",
            Tool::Etcdctl => "etcdctl",
        };
        let words = match words(line, name) {
            Ok(w) => w,
            Err(e) => {
                return ConsoleEntry {
                    tool,
                    t_ms: self.clock,
                    command: format!("{name} {}", line.trim()),
                    stdout: String::new(),
                    stderr: format!("error: {e}\n"),
                }
            }
        };
        self.start(&mut || false);
        self.settle_at_position();
        let op = match tool {
            Tool::Kubectl => Op::Kubectl(words),
            Tool::Etcdctl => Op::Etcdctl(words),
        };
        let entry = self.apply(&op).expect("a command prints");
        self.position = self.records().len();
        self.clock = self.clock.max(self.cluster.now());
        entry
    }

    /// What the scenario's own kubectl steps printed, up to the clock.
    pub fn step_outputs(&self) -> Vec<ConsoleEntry> {
        self.cluster
            .outputs
            .iter()
            .filter(|o| self.position > 0 && o.t_ms <= self.clock)
            .map(|o| ConsoleEntry {
                tool: Tool::Kubectl,
                t_ms: o.t_ms,
                command: o.command.clone(),
                stdout: o.stdout.clone(),
                stderr: o.stderr.clone(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::scenario::{parse, DEFAULT_SCENARIO};

    fn never() -> impl FnMut() -> bool {
        || false
    }

    fn default_player() -> Player {
        Player::new(parse(DEFAULT_SCENARIO).unwrap())
    }

    #[test]
    fn playing_reveals_records_in_time_order_and_ends_when_quiet() {
        let mut p = default_player();
        assert_eq!(p.position(), 0);
        assert!(p.play_to(2, false, &mut never()));
        assert!(p.position() > 0);
        assert!(p.revealed().iter().all(|r| r.t_ms <= 2));
        assert!(!p.at_end());
        let mut t = 2;
        while !p.at_end() {
            t += 50;
            p.play_to(t, true, &mut never());
            assert!(t < 60_000, "the default scenario ends");
        }
        let mut reference = Cluster::new(parse(DEFAULT_SCENARIO).unwrap());
        reference.run(None);
        assert_eq!(p.records(), &reference.trace.records[..]);
        assert_eq!(p.revision(), reference.api.storage.etcd.revision());
    }

    #[test]
    fn a_slice_stops_when_the_frame_budget_is_spent() {
        let mut p = default_player();
        let mut calls = 0;
        let mut budget = || {
            calls += 1;
            calls > 3
        };
        assert!(!p.play_to(60_000, false, &mut budget));
        assert_eq!(p.ops_applied(), 3);
        assert_eq!(p.position(), p.records().len());
    }

    #[test]
    fn a_cluster_started_in_slices_plays_as_one_started_at_once() {
        let mut p = Player::starting(parse(DEFAULT_SCENARIO).unwrap());
        let mut slices = 0;
        // Out of time after every component started: the cluster starts over several slices,
        // and nothing is revealed or run meanwhile.
        while !p.play_to(60_000, false, &mut || true) && !p.cluster().started() {
            slices += 1;
            assert!(!p.at_end());
            assert_eq!(p.ops_applied(), 0);
            assert!(p.records().is_empty());
        }
        assert!(slices > 1, "{slices}");
        assert!(p.run_to_end(&mut never()));
        let mut whole = default_player();
        assert!(whole.run_to_end(&mut never()));
        assert_eq!(p.records(), whole.records());
        assert_eq!(p.revision(), whole.revision());
        assert_eq!(p.flow(), whole.flow());
    }

    #[test]
    fn a_cluster_starting_in_slices_shows_its_nodes_as_they_register() {
        let mut p = Player::starting(parse(DEFAULT_SCENARIO).unwrap());
        let nodes = |p: &Player| p.objects_at("/registry/minions/", p.revision()).len();
        let mut seen = vec![nodes(&p)];
        while !p.start(&mut || true) {
            seen.push(nodes(&p));
        }
        seen.push(nodes(&p));
        // One node more at a time, up to the three of the default scenario, before the
        // scenario's first record.
        assert_eq!(seen.first(), Some(&0));
        assert_eq!(seen.last(), Some(&3));
        assert!(
            seen.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1),
            "{seen:?}"
        );
        assert!(p.records().is_empty());
    }

    #[test]
    fn stepping_back_and_forward_lands_on_the_same_state() {
        let mut p = default_player();
        for _ in 0..40 {
            assert!(p.step_forward());
        }
        let (pos, clock, rev) = (p.position(), p.clock(), p.revision());
        assert!(p.step_back());
        assert_eq!(p.position(), pos - 1);
        assert!(p.step_forward());
        assert_eq!((p.position(), p.clock(), p.revision()), (pos, clock, rev));
    }

    #[test]
    fn revisions_follow_the_records_shown() {
        let mut p = default_player();
        p.run_to_end(&mut never());
        let i = p
            .records()
            .iter()
            .position(|r| {
                r.summary
                    .contains("PUT /registry/deployments/default/nginx")
            })
            .unwrap();
        let rev = p.records()[i].revision.unwrap();
        assert_eq!(p.revision_at(i + 1), rev);
        assert!(p.revision_at(i) < rev);
        let deployments = p.objects_at("/registry/deployments/", p.revision_at(i));
        assert!(deployments.is_empty());
        let deployments = p.objects_at("/registry/deployments/", rev);
        assert_eq!(deployments.len(), 1);
    }

    #[test]
    fn the_compact_op_log_answers_as_one_entry_per_op_would() {
        let mut p = default_player();
        // One (trace length, revision) per op, as the log kept them before it was compacted.
        let mut each = Vec::new();
        while p.next_event() {
            each.push(checkpoint(&p.cluster));
        }
        assert_eq!(p.ops_applied(), each.len());
        // One run of events; the events that kept no record share their length's entry.
        assert_eq!(p.ops.len(), 1);
        assert!(p.checkpoints.len() < each.len());
        for position in 0..=p.records().len() {
            let reach = if position <= p.start.trace_len {
                0
            } else {
                each.iter()
                    .position(|c| c.trace_len >= position)
                    .map_or(each.len(), |i| i + 1)
            };
            assert_eq!(p.ops_to_reach(position), reach, "position {position}");
            let before = each.iter().rfind(|c| c.trace_len <= position);
            let base = before.copied().unwrap_or(p.start);
            let revision = p.records()[base.trace_len.min(position)..position]
                .iter()
                .filter_map(|r| r.revision)
                .fold(base.revision, i64::max);
            assert_eq!(p.revision_at(position), revision, "position {position}");
        }
        // A rebuild replays a prefix of the runs and lands on the same records.
        let records: Vec<String> = p.records().iter().map(|r| r.summary.clone()).collect();
        let k = p.ops_to_reach(records.len() / 2);
        p.rebuild(k);
        assert_eq!(p.ops_applied(), k);
        let again: Vec<String> = p.records().iter().map(|r| r.summary.clone()).collect();
        assert_eq!(again[..], records[..again.len()]);
        assert!(again.len() >= records.len() / 2);
    }

    #[test]
    fn a_console_command_in_the_past_rebuilds_and_drops_the_old_future() {
        let mut p = default_player();
        p.run_to_end(&mut never());
        let end_len = p.records().len();
        let e = p.command(Tool::Kubectl, "kubectl get pods");
        assert!(e.stdout.starts_with("NAME"), "{}", e.stdout);
        assert_eq!(e.stdout.lines().count(), 4, "{}", e.stdout);
        assert!(p.records().len() > end_len, "the GET joins the trace");

        // At a position before the ReplicaSet exists there are no pods yet.
        p.seek(20);
        let e = p.command(Tool::Kubectl, "get pods");
        assert_eq!(e.stdout, "");
        assert_eq!(e.stderr, "No resources found in default namespace.\n");
        assert!(p.records().len() < end_len);
        let e = p.command(
            Tool::Etcdctl,
            "etcdctl get /registry/deployments/default/nginx --keys-only",
        );
        assert_eq!(e.stdout.trim(), "/registry/deployments/default/nginx");
        // Playing on still brings the pods up.
        p.run_to_end(&mut never());
        let e = p.command(Tool::Kubectl, "get pods --no-headers");
        assert_eq!(e.stdout.matches("Running").count(), 3, "{}", e.stdout);
    }

    #[test]
    fn console_words_drop_the_tool_name() {
        assert_eq!(
            words("kubectl get pods", "kubectl").unwrap(),
            ["get", "pods"]
        );
        assert_eq!(words("  get pods ", "kubectl").unwrap(), ["get", "pods"]);
        assert_eq!(words("kubectlx", "kubectl").unwrap(), ["kubectlx"]);
    }
}
