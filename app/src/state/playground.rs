//! The page's live state: the player (not reactive itself) with a version counter the views
//! track, playback driven by `requestAnimationFrame` in slices of a few milliseconds, and what
//! is selected (a record, a pod, an etcd key), shared by every view.

use crate::state::player::{ConsoleEntry, Player, Tool};
use kubeplay_core::scenario::Scenario;
use leptos::prelude::*;

/// How long one animation frame may spend simulating, in ms, when the views redraw after it.
pub const FRAME_BUDGET_MS: f64 = 8.0;
/// ... and when they do not (a big cluster's views redraw only every few frames, see
/// [`Pacing`]): most of the frame, so the simulation is not left waiting for the next one.
pub const UNSEEN_FRAME_BUDGET_MS: f64 = 13.0;

/// A tab's WebAssembly memory stops at 4 GiB (wasm32) and never shrinks. A run that grows it
/// past this is paused while there is still room to show why, instead of failing later when an
/// allocation finds none (which stops the page's wasm without a word).
pub const MEMORY_CEILING: u64 = 3584 << 20;

thread_local! {
    static CEILING: std::cell::Cell<u64> = const { std::cell::Cell::new(MEMORY_CEILING) };
}

/// Sets the memory ceiling (a test hook: the end-to-end tests lower it to see the pause).
pub fn set_memory_ceiling(bytes: u64) {
    CEILING.with(|c| c.set(bytes));
}

/// The size of this page's WebAssembly memory, in bytes (a u64: wasm32's whole 4 GiB does not
/// fit in its usize).
pub fn wasm_memory() -> u64 {
    #[cfg(target_arch = "wasm32")]
    let bytes = core::arch::wasm32::memory_size(0) as u64 * 65536;
    #[cfg(not(target_arch = "wasm32"))]
    let bytes = 0;
    bytes
}

/// Whether a slice that took the memory from `before` to `after` bytes stops the run: it grew
/// the memory to the ceiling. (A memory left big by an earlier run does not count: the
/// allocator reuses it, and only growth comes nearer the limit.)
pub fn memory_exhausted(before: u64, after: u64, ceiling: u64) -> bool {
    after > before && after >= ceiling
}

/// The speeds offered, in virtual seconds per real second.
pub const SPEEDS: &[f64] = &[0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];

/// The tabs of the views area below the Flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Cluster,
    Etcd,
    Scheduler,
    Pod,
    Events,
}

impl Tab {
    pub const ALL: [Tab; 5] = [
        Tab::Cluster,
        Tab::Etcd,
        Tab::Scheduler,
        Tab::Pod,
        Tab::Events,
    ];
    pub fn id(self) -> &'static str {
        match self {
            Tab::Cluster => "cluster",
            Tab::Etcd => "etcd",
            Tab::Scheduler => "scheduler",
            Tab::Pod => "pod",
            Tab::Events => "events",
        }
    }
    /// The tab a link's `view=` (or a saved draft) names; `flow` is not a tab.
    pub fn from_id(id: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|t| t.id() == id)
    }
    /// The `ui.ftl` message of the tab's name.
    pub fn message_id(self) -> &'static str {
        match self {
            Tab::Cluster => "view-cluster",
            Tab::Etcd => "view-etcd",
            Tab::Scheduler => "view-scheduler",
            Tab::Pod => "view-pod",
            Tab::Events => "view-events",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Tab::Cluster => "Cluster",
            Tab::Etcd => "etcd",
            Tab::Scheduler => "Scheduler",
            Tab::Pod => "Pod",
            Tab::Events => "Events",
        }
    }
}

/// How often the views are redrawn while the cluster runs. A small cluster's views redraw in
/// a millisecond or two, every frame; a big one's can take far longer than a frame, so they are
/// redrawn only as often as keeps drawing under a fifth of the time, and the rest of the frames
/// go to the simulation. A redraw runs at the start of its frame and the browser lays out and
/// paints right after it; the simulation's slice is a task of its own after that, so the time
/// from the frame's start to the slice is the redraw's whole cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pacing {
    /// When the last redraw started.
    last_shown: Option<f64>,
    /// The next slice measures that redraw.
    measuring: bool,
    /// A redraw's cost, as last measured (ms).
    cost: f64,
    /// The player changed since the last redraw.
    pub skipped: bool,
}

/// The longest a redraw is taken to cost, so the views still move every few seconds.
const MAX_COST_MS: f64 = 1000.0;

/// Running to the end, the views redraw at most this often (ms): ten times a second shows the
/// run moving, and the frames between go wholly to the simulation (redrawing every frame left
/// it 8 ms of each).
const FAST_FORWARD_REDRAW_MS: f64 = 100.0;

impl Pacing {
    /// At the start of a frame at `now`: whether this frame redraws (`fast`: running to the
    /// end).
    pub fn frame(&self, now: f64, fast: bool) -> bool {
        if !self.skipped {
            return false;
        }
        let Some(at) = self.last_shown else {
            return true;
        };
        let interval = 5.0 * self.cost;
        now - at
            >= if fast {
                interval.max(FAST_FORWARD_REDRAW_MS)
            } else {
                interval
            }
    }

    /// The frame starting at `now` redraws.
    pub fn shown(&mut self, now: f64) {
        self.last_shown = Some(now);
        self.measuring = true;
        self.skipped = false;
    }

    /// A simulation slice starts at `now`: after the redraw, if its frame had one.
    pub fn slice(&mut self, now: f64) {
        if let (true, Some(at)) = (self.measuring, self.last_shown) {
            self.cost = (now - at).clamp(0.0, MAX_COST_MS);
        }
        self.measuring = false;
    }
}

fn perf_now() -> f64 {
    // The frame asks after every step of the simulation: the `Performance` object is looked
    // up once, not through `window` each time.
    thread_local! {
        static PERFORMANCE: Option<web_sys::Performance> =
            web_sys::window().and_then(|w| w.performance());
    }
    PERFORMANCE.with(|p| p.as_ref().map_or(0.0, web_sys::Performance::now))
}

#[derive(Clone, Copy)]
pub struct Playground {
    player: StoredValue<Option<Player>, LocalStorage>,
    /// Bumped after every change of the player: what the views track.
    pub version: RwSignal<u64>,
    /// Bumped when the cluster is replaced or rebuilt (a load, a console command): an etcd
    /// revision names one state only within a generation.
    pub generation: RwSignal<u64>,
    pub playing: RwSignal<bool>,
    /// The last slice stopped the run near the memory ceiling ([`MEMORY_CEILING`]).
    pub memory_full: RwSignal<bool>,
    /// Running to the end as fast as frames allow.
    pub fast_forward: RwSignal<bool>,
    pub speed: RwSignal<f64>,
    pub skip_idle: RwSignal<bool>,
    pub selected_record: RwSignal<Option<usize>>,
    /// `namespace/name`.
    pub selected_pod: RwSignal<Option<String>>,
    pub selected_key: RwSignal<Option<String>>,
    pub tab: RwSignal<Tab>,
    pub console_tab: RwSignal<Tool>,
    /// What was typed in the consoles and what it printed.
    pub console: RwSignal<Vec<ConsoleEntry>>,
    looping: StoredValue<bool>,
    last_frame: StoredValue<f64>,
    /// Frame pacing for big clusters (see [`Pacing`]).
    pacing: StoredValue<Pacing>,
    /// A virtual time to run to and stop at (a link's `t=`).
    goal: StoredValue<Option<u64>>,
}

impl Default for Playground {
    fn default() -> Self {
        Self::new()
    }
}

impl Playground {
    pub fn new() -> Self {
        Playground {
            player: StoredValue::new_local(None),
            version: RwSignal::new(0),
            generation: RwSignal::new(0),
            playing: RwSignal::new(false),
            memory_full: RwSignal::new(false),
            fast_forward: RwSignal::new(false),
            speed: RwSignal::new(1.0),
            skip_idle: RwSignal::new(true),
            selected_record: RwSignal::new(None),
            selected_pod: RwSignal::new(None),
            selected_key: RwSignal::new(None),
            tab: RwSignal::new(Tab::Cluster),
            console_tab: RwSignal::new(Tool::Kubectl),
            console: RwSignal::new(Vec::new()),
            looping: StoredValue::new(false),
            last_frame: StoredValue::new(0.0),
            pacing: StoredValue::new(Pacing::default()),
            goal: StoredValue::new(None),
        }
    }

    /// Reads the player, tracking its changes.
    pub fn with<R>(&self, f: impl FnOnce(&Player) -> R) -> Option<R> {
        self.version.track();
        self.player.with_value(|p| p.as_ref().map(f))
    }

    /// Reads the player without tracking.
    pub fn with_untracked<R>(&self, f: impl FnOnce(&Player) -> R) -> Option<R> {
        self.player.with_value(|p| p.as_ref().map(f))
    }

    fn update<R>(&self, f: impl FnOnce(&mut Player) -> R) -> Option<R> {
        let r = self.update_unseen(f);
        self.version.update(|v| *v += 1);
        r
    }

    /// Changes the player without telling the views (they catch up at the next `update`).
    fn update_unseen<R>(&self, f: impl FnOnce(&mut Player) -> R) -> Option<R> {
        self.player
            .try_update_value(|p| p.as_mut().map(f))
            .flatten()
    }

    /// What names the cluster state shown: the generation and the etcd revision. Views that
    /// read etcd recompute only when it changes.
    pub fn state_key(&self) -> (u64, i64) {
        (
            self.generation.get(),
            self.with(|p| p.revision()).unwrap_or(0),
        )
    }

    pub fn at_end(&self) -> bool {
        self.with(|p| p.at_end()).unwrap_or(true)
    }

    /// Starts a scenario from its beginning and plays it.
    pub fn load(&self, scenario: Scenario) {
        self.load_paused(scenario);
        self.play();
    }

    /// Starts a scenario from its beginning, paused.
    pub fn load_paused(&self, scenario: Scenario) {
        self.pause();
        // A small cluster starts at once; a big one's nodes start in the first frames' slices.
        let mut player = Player::starting(scenario);
        let deadline = perf_now() + FRAME_BUDGET_MS;
        player.start(&mut || perf_now() > deadline);
        self.player.set_value(Some(player));
        self.generation.update(|g| *g += 1);
        self.clear_memory_full();
        self.selected_record.set(None);
        self.selected_pod.set(None);
        self.selected_key.set(None);
        self.fast_forward.set(false);
        self.version.update(|v| *v += 1);
    }

    /// Runs to the end at once (for tests; the page runs in slices).
    pub fn finish_now(&self) {
        self.pause();
        self.update(|p| p.run_to_end(&mut || false));
    }

    pub fn play(&self) {
        if self.with_untracked(|p| p.at_end()).unwrap_or(true) {
            return;
        }
        self.playing.set(true);
        self.start_loop();
    }

    pub fn pause(&self) {
        self.playing.set(false);
        self.fast_forward.set(false);
        self.goal.set_value(None);
    }

    /// Runs to virtual time `t_ms` as fast as frames allow and stops there, paused (a share
    /// link's `t=`): every record up to it is revealed.
    pub fn run_to_time(&self, t_ms: u64) {
        self.pause();
        self.goal.set_value(Some(t_ms));
        self.fast_forward.set(true);
        self.start_loop();
    }

    pub fn toggle(&self) {
        if self.playing.get_untracked() {
            self.pause()
        } else {
            self.play()
        }
    }

    pub fn step_forward(&self) {
        self.pause();
        self.update(|p| p.step_forward());
        self.selected_record.set(None);
    }

    pub fn step_back(&self) {
        self.pause();
        self.update(|p| p.step_back());
        self.selected_record.set(None);
    }

    pub fn seek(&self, position: usize) {
        self.pause();
        self.update(|p| p.seek(position));
    }

    pub fn rewind(&self) {
        self.seek(0);
    }

    /// Runs to the end, a slice per frame.
    pub fn to_end(&self) {
        self.playing.set(false);
        self.fast_forward.set(true);
        self.start_loop();
    }

    /// Runs a console command at the position shown.
    pub fn command(&self, tool: Tool, line: &str) {
        self.pause();
        self.generation.update(|g| *g += 1);
        if let Some(entry) = self.update(|p| p.command(tool, line)) {
            self.console.update(|c| c.push(entry));
        }
        // A command that changed something sets the cluster to work: show it happen.
        self.play();
    }

    pub fn select_record(&self, i: usize) {
        self.selected_record.set(Some(i));
        let (pod, key) = self
            .with_untracked(|p| {
                p.records()
                    .get(i)
                    .map(|r| (crate::state::derive::record_pod(r), r.key.clone()))
            })
            .flatten()
            .unwrap_or((None, None));
        if let Some(pod) = pod {
            self.selected_pod.set(Some(pod));
        }
        if let Some(key) = key {
            self.selected_key.set(Some(key));
        }
    }

    /// Selects a pod (`namespace/name`) everywhere: the Scheduler and Pod views show it and
    /// the etcd view its key.
    pub fn select_pod(&self, pod: &str) {
        self.selected_pod.set(Some(pod.to_string()));
        if let Some((ns, name)) = pod.split_once('/') {
            self.selected_key
                .set(Some(format!("/registry/pods/{ns}/{name}")));
        }
    }

    fn clear_memory_full(&self) {
        if self.memory_full.get_untracked() {
            self.memory_full.set(false);
        }
    }

    fn start_loop(&self) {
        self.clear_memory_full();
        if self.looping.get_value() {
            return;
        }
        self.looping.set_value(true);
        self.last_frame.set_value(perf_now());
        self.pacing.set_value(Pacing::default());
        let pg = *self;
        request_animation_frame(move || pg.frame());
    }

    /// Playback stops, or it was stopped: the frames the views skipped are shown.
    fn stop_loop(self) {
        self.looping.set_value(false);
        if self.pacing.get_value().skipped {
            self.version.update(|v| *v += 1);
        }
    }

    fn frame(self) {
        if !self.playing.get_untracked() && !self.fast_forward.get_untracked() {
            return self.stop_loop();
        }
        let now = perf_now();
        let dt = (now - self.last_frame.get_value()).clamp(0.0, 100.0);
        self.last_frame.set_value(now);
        if self
            .pacing
            .get_value()
            .frame(now, self.fast_forward.get_untracked())
        {
            self.pacing.update_value(|p| p.shown(now));
            // The views redraw in this frame's task, and the browser renders after it; the
            // simulation's slice follows as a task of its own, so that neither makes the
            // other's task long.
            self.version.update(|v| *v += 1);
            set_timeout(
                move || self.slice(dt, FRAME_BUDGET_MS),
                std::time::Duration::ZERO,
            );
        } else {
            self.slice(dt, UNSEEN_FRAME_BUDGET_MS);
        }
    }

    /// Runs the simulation for up to `budget_ms`, covering `dt` ms of real time at the
    /// chosen speed, without redrawing (the next frame that redraws shows it).
    fn slice(self, dt: f64, budget_ms: f64) {
        let fast = self.fast_forward.get_untracked();
        if !self.playing.get_untracked() && !fast {
            return self.stop_loop();
        }
        let now = perf_now();
        self.pacing.update_value(|p| p.slice(now));
        let memory_before = wasm_memory();
        let deadline = now + budget_ms;
        let mut out_of_time = move || perf_now() > deadline;
        let speed = self.speed.get_untracked();
        let skip = self.skip_idle.get_untracked();
        let goal = self.goal.get_value();
        let ended = self
            .update_unseen(|p: &mut Player| {
                if let Some(t) = goal {
                    return p.play_to(t, false, &mut out_of_time) || p.at_end();
                }
                if fast {
                    p.run_to_end(&mut out_of_time);
                } else {
                    let target = p.clock() + (dt * speed).round() as u64;
                    p.play_to(target, skip, &mut out_of_time);
                }
                p.at_end()
            })
            .unwrap_or(true);
        self.pacing.update_value(|p| p.skipped = true);
        if memory_exhausted(memory_before, wasm_memory(), CEILING.with(|c| c.get())) {
            self.pause();
            self.memory_full.set(true);
            return self.stop_loop();
        }
        if ended {
            self.playing.set(false);
            self.fast_forward.set(false);
            self.goal.set_value(None);
            return self.stop_loop();
        }
        request_animation_frame(move || self.frame());
    }
}

#[cfg(test)]
mod tests {
    use super::{memory_exhausted, Pacing, MEMORY_CEILING};

    const FRAME_MS: f64 = 1000.0 / 60.0;

    #[test]
    fn cheap_redraws_happen_every_frame() {
        let mut p = Pacing::default();
        let mut t = 0.0;
        for _ in 0..10 {
            p.skipped = true;
            assert!(p.frame(t, false));
            p.shown(t);
            p.slice(t + 2.0);
            t += FRAME_MS;
        }
    }

    #[test]
    fn a_costly_redraw_is_repeated_only_after_five_times_its_cost() {
        let mut p = Pacing {
            skipped: true,
            ..Pacing::default()
        };
        assert!(p.frame(0.0, false));
        p.shown(0.0);
        // The redraw and the rendering after it took 200 ms before the slice began.
        p.slice(200.0);
        p.skipped = true;
        assert!(!p.frame(200.0 + FRAME_MS, false));
        assert!(!p.frame(999.0, false));
        assert!(p.frame(1000.0, false));
    }

    #[test]
    fn running_to_the_end_redraws_at_most_ten_times_a_second() {
        let mut p = Pacing {
            skipped: true,
            ..Pacing::default()
        };
        assert!(p.frame(0.0, true));
        p.shown(0.0);
        p.slice(2.0);
        p.skipped = true;
        assert!(!p.frame(FRAME_MS, true));
        assert!(!p.frame(99.0, true));
        assert!(p.frame(100.0, true));
        // A costly redraw still waits five times its cost.
        p.shown(100.0);
        p.slice(150.0);
        p.skipped = true;
        assert!(!p.frame(349.0, true));
        assert!(p.frame(350.0, true));
    }

    #[test]
    fn nothing_is_redrawn_when_nothing_changed() {
        let mut p = Pacing::default();
        assert!(!p.frame(0.0, false));
        p.skipped = true;
        assert!(p.frame(0.0, false));
        p.shown(0.0);
        p.slice(1.0);
        assert!(!p.frame(100.0, false));
    }

    #[test]
    fn a_slice_without_a_redraw_before_it_measures_nothing() {
        let mut p = Pacing {
            skipped: true,
            ..Pacing::default()
        };
        p.shown(0.0);
        p.slice(40.0);
        // Later slices of frames that did not redraw leave the cost as measured.
        p.slice(500.0);
        p.skipped = true;
        assert!(!p.frame(199.0, false));
        assert!(p.frame(200.0, false));
    }

    #[test]
    fn only_a_slice_that_grows_the_memory_to_the_ceiling_stops_the_run() {
        const MIB: u64 = 1 << 20;
        let c = MEMORY_CEILING;
        assert!(memory_exhausted(c - MIB, c, c));
        assert!(memory_exhausted(c, c + 64 * 1024, c));
        // Growing below the ceiling, or staying in a memory an earlier run left big.
        assert!(!memory_exhausted(MIB, 2 * MIB, c));
        assert!(!memory_exhausted(c + MIB, c + MIB, c));
        // The ceiling leaves a tab's 4 GiB half a GiB to show the pause in.
        assert_eq!((4u64 << 30) - MEMORY_CEILING, 512 * MIB);
    }
}
