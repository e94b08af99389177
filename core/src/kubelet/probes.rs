//! The prober (`pkg/kubelet/prober`): one worker per container and probe type. Each ticks every
//! `periodSeconds` from when the pod sync added the pod (before its containers ran), probes
//! once the container has run `initialDelaySeconds`, and turns a run of `failureThreshold`
//! failures or `successThreshold` successes into a result: a startup probe gates the other
//! two (`started`), a readiness result sets `ready`, a liveness (or startup) failure makes the
//! kubelet kill the container, which its restart policy then restarts. Every failed probe is
//! an `Unhealthy` event (`Liveness probe failed: HTTP probe failed with statuscode: 404`); the
//! trace records only what changes a container, not each probe that passes.
//!
//! A readiness probe is also run at once when a status update finds its container started
//! but not ready (`UpdatePodStatus`' manual trigger), so a probe without an initial delay
//! makes the container ready within a second of its start.

use super::handlers::{self, Target};
use super::{Action, EventType, Kubelet, Lane, State, Which, RESYNC_MS};
use crate::api::value::Value;
use crate::cluster::component::Ctx;
use crate::controllers::podutil::At;
use crate::kernel::Millis;

/// A probe type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Startup,
    Liveness,
    Readiness,
}

impl Kind {
    fn field(self) -> &'static str {
        match self {
            Kind::Startup => "startupProbe",
            Kind::Liveness => "livenessProbe",
            Kind::Readiness => "readinessProbe",
        }
    }

    /// As the prober's events name it.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Startup => "Startup",
            Kind::Liveness => "Liveness",
            Kind::Readiness => "Readiness",
        }
    }

    pub fn lower(self) -> &'static str {
        match self {
            Kind::Startup => "startup",
            Kind::Liveness => "liveness",
            Kind::Readiness => "readiness",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A container's probe of one type, with the API's defaults.
#[derive(Clone, Debug)]
pub struct Probe {
    pub kind: Kind,
    pub spec: Value,
    pub initial_delay_ms: Millis,
    pub period_ms: Millis,
    pub timeout_ms: Millis,
    pub success_threshold: u32,
    pub failure_threshold: u32,
    /// The probe's own `terminationGracePeriodSeconds` (liveness and startup).
    pub grace_s: Option<u64>,
}

impl Probe {
    pub fn of(container: &Value, kind: Kind) -> Option<Probe> {
        let p = container.get(kind.field()).filter(|p| p.is_object())?;
        let n = |k: &str, d: u64| p.get(k).and_then(Value::as_u64).unwrap_or(d);
        Some(Probe {
            kind,
            spec: p.clone(),
            initial_delay_ms: n("initialDelaySeconds", 0) * 1000,
            period_ms: n("periodSeconds", 10).max(1) * 1000,
            timeout_ms: n("timeoutSeconds", 1).max(1) * 1000,
            success_threshold: n("successThreshold", 1).max(1) as u32,
            failure_threshold: n("failureThreshold", 3).max(1) as u32,
            grace_s: p
                .get("terminationGracePeriodSeconds")
                .and_then(Value::as_u64),
        })
    }
}

/// What one probe run gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Success,
    /// `probe.Failure` with the prober's output.
    Failure(String),
    /// The probe could not be run (a named port that does not exist).
    Errored(String),
}

/// Runs `probe` against the container, `since_start` after it started.
pub fn run(
    probe: &Probe,
    t: &Target,
    pod: &Value,
    container: &str,
    since_start: Millis,
) -> Outcome {
    let forced = handlers::forced_failure(pod, container, probe.kind.lower(), since_start);
    let p = &probe.spec;
    if let Some(exec) = p.get("exec") {
        let cmd = handlers::command(exec);
        if forced {
            return Outcome::Failure(String::new());
        }
        return match super::behaviour::exec_outcome(&cmd) {
            Some((ms, 0)) if ms <= probe.timeout_ms => Outcome::Success,
            Some((ms, _)) if ms <= probe.timeout_ms => Outcome::Failure(String::new()),
            _ => Outcome::Failure(format!("command {:?} timed out", cmd.join(" "))),
        };
    }
    if let Some(get) = p.get("httpGet") {
        return match t.http_get(get) {
            Err(e) => Outcome::Errored(e),
            Ok(Err(e)) => Outcome::Failure(e),
            Ok(Ok(_)) if forced => {
                Outcome::Failure("HTTP probe failed with statuscode: 500".into())
            }
            Ok(Ok(code)) if (200..400).contains(&code) => Outcome::Success,
            Ok(Ok(code)) => Outcome::Failure(format!("HTTP probe failed with statuscode: {code}")),
        };
    }
    if let Some(tcp) = p.get("tcpSocket") {
        return match t.tcp(tcp) {
            Err(e) => Outcome::Errored(e),
            Ok(Err(e)) => Outcome::Failure(e),
            Ok(Ok(())) if forced => {
                let port = t.port(tcp.get("port").unwrap_or(&Value::Null)).unwrap_or(0);
                Outcome::Failure(format!(
                    "dial tcp {}:{port}: connect: connection refused",
                    t.pod_ip
                ))
            }
            Ok(Ok(())) => Outcome::Success,
        };
    }
    if let Some(grpc) = p.get("grpc") {
        let port = grpc.get("port").and_then(Value::as_u64).unwrap_or(0) as u16;
        return if !t.open(port) {
            Outcome::Failure(format!(
                "timeout: failed to connect service \"{}:{port}\" within {}s: context deadline exceeded",
                t.pod_ip,
                probe.timeout_ms / 1000
            ))
        } else if forced {
            Outcome::Failure("service unhealthy (responded with \"NOT_SERVING\")".into())
        } else {
            Outcome::Success
        };
    }
    Outcome::Errored(format!("missing probe handler for {container}"))
}

/// A probe worker's state (`worker.go`): the result the kubelet holds, the current run of
/// equal results, and whether it is on hold after its failure killed the container.
#[derive(Clone, Debug, Default)]
pub struct ProbeState {
    pub result: Option<bool>,
    pub last: Option<bool>,
    pub run: u32,
    pub on_hold: bool,
}

/// The startup, liveness and readiness workers of a container.
#[derive(Clone, Debug, Default)]
pub struct ProbeStates(pub [ProbeState; 3]);

/// The first tick of a ticker started at `t0` with `period` that is at or after `at`.
fn next_tick(t0: Millis, period: Millis, at: Millis) -> Millis {
    if at <= t0 {
        return t0;
    }
    t0 + (at - t0).div_ceil(period) * period
}

impl Kubelet {
    /// A timer of a pod worker; `periodic` ones do not keep the cluster from being quiet.
    fn timer(
        &mut self,
        ctx: &mut Ctx<'_>,
        delay: Millis,
        key: &str,
        uid: &str,
        action: Action,
        periodic: bool,
    ) {
        let tag = self.next_tag;
        self.next_tag += 1;
        self.timers
            .insert(tag, (key.to_string(), uid.to_string(), action));
        ctx.after(delay, tag, periodic);
    }

    fn container(&self, key: &str, which: Which) -> &super::Ctr {
        let w = &self.workers[key];
        match which {
            Which::Init(i) => &w.init[i],
            Which::App(i) => &w.app[i],
        }
    }

    /// The outcome of probe `kind` of the container if it ran at `at`.
    fn predict(&self, key: &str, which: Which, probe: &Probe, at: Millis) -> Outcome {
        let w = &self.workers[key];
        let c = self.container(key, which);
        let started_at = match c.state {
            State::Running { started_at } => started_at,
            _ => at,
        };
        let ip = w.ip.clone().unwrap_or_default();
        let t = Target {
            container: c.spec(&w.pod),
            pod_ip: &ip,
        };
        run(probe, &t, &w.pod, &c.name, at.saturating_sub(started_at))
    }

    /// Sets the next run of probe `kind` at the first tick at or after `at` at which the
    /// container has run its initial delay (`manual`: exactly at `at`, if it has).
    fn schedule_probe(
        &mut self,
        ctx: &mut Ctx<'_>,
        key: &str,
        which: Which,
        kind: Kind,
        at: Millis,
        manual: bool,
    ) {
        let now = ctx.now();
        let c = self.container(key, which);
        let Some(probe) = Probe::of(c.spec(&self.workers[key].pod), kind) else {
            return;
        };
        let State::Running { started_at } = c.state else {
            return;
        };
        let earliest = at.max(started_at + probe.initial_delay_ms).max(now);
        let when = if manual {
            if at < started_at + probe.initial_delay_ms {
                return;
            }
            at.max(now)
        } else {
            next_tick(self.workers[key].probe_t0, probe.period_ms, earliest)
        };
        // A probe that will not change anything is periodic work, like a heartbeat (its
        // first run always counts, so a failing probe shows its first `Unhealthy`).
        let ok = self.predict(key, which, &probe, when) == Outcome::Success;
        let st = &c.probes.0[kind.index()];
        let quiet = st.result == Some(ok) && st.last.is_some();
        let (epoch, uid) = (c.restarts, self.workers[key].uid.clone());
        self.timer(
            ctx,
            when - now,
            key,
            &uid,
            Action::Probe(which, kind, epoch, manual),
            quiet,
        );
    }

    /// The container runs: its probe workers start over (readiness starts as failed,
    /// liveness as passed, startup as unknown).
    pub(super) fn start_probes(&mut self, ctx: &mut Ctx<'_>, key: &str, which: Which) {
        let now = ctx.now();
        let w = self.workers.get_mut(key).expect("worker");
        let pod = w.pod.clone();
        let c = w.ctr(which);
        c.probes = ProbeStates::default();
        c.probes.0[Kind::Readiness.index()].result = Some(false);
        c.probes.0[Kind::Liveness.index()].result = Some(true);
        let State::Running { started_at } = c.state else {
            return;
        };
        if Probe::of(c.spec(&pod), Kind::Startup).is_some() {
            self.schedule_probe(ctx, key, which, Kind::Startup, now, false);
        } else {
            self.schedule_probe(ctx, key, which, Kind::Liveness, now, false);
            self.schedule_probe(ctx, key, which, Kind::Readiness, now, false);
            // The status update after the start (the next PLEG relist) triggers readiness.
            self.schedule_probe(
                ctx,
                key,
                which,
                Kind::Readiness,
                started_at + RESYNC_MS,
                true,
            );
        }
    }

    /// The kubelet itself restarted (`fault: start-node`): its volume manager, probe workers
    /// and pod syncs waiting on a container's config start again.
    pub(super) fn resume_pod(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let now = ctx.now();
        let w = &self.workers[key];
        let uid = w.uid.clone();
        if w.terminating || w.admitted_at == now {
            return;
        }
        // Timers set before the stop and due after it still fire: no second chain for them.
        let pending = |this: &Self, f: &dyn Fn(&Action) -> bool| {
            this.timers
                .values()
                .any(|(k, u, a)| k == key && *u == uid && f(a))
        };
        if !w.mounted {
            if !pending(self, &|a| matches!(a, Action::Mount | Action::Proceed)) {
                self.timer(ctx, 0, key, &uid, Action::Mount, false);
            }
            return;
        }
        let waiting: Vec<Which> = (0..w.init.len())
            .map(Which::Init)
            .chain((0..w.app.len()).map(Which::App))
            .filter(|&which| {
                matches!(&self.container(key, which).state,
                    State::Waiting { reason, .. } if reason == "CreateContainerConfigError")
            })
            .collect();
        for which in waiting {
            if !pending(self, &|a| matches!(a, Action::Pull(x) if *x == which)) {
                self.timer(ctx, 0, key, &uid, Action::Pull(which), false);
            }
        }
        let w = &self.workers[key];
        let running: Vec<(Which, bool)> = (0..w.app.len())
            .map(Which::App)
            .filter_map(|which| {
                let c = self.container(key, which);
                c.running().then_some((which, c.started))
            })
            .collect();
        for (which, started) in running {
            let kinds: &[Kind] = if started {
                &[Kind::Liveness, Kind::Readiness]
            } else {
                &[Kind::Startup]
            };
            for &kind in kinds {
                let has = pending(
                    self,
                    &|a| matches!(a, Action::Probe(x, k, _, false) if *x == which && *k == kind),
                );
                if !has {
                    self.schedule_probe(ctx, key, which, kind, now, false);
                }
            }
        }
    }

    pub(super) fn probe_fired(
        &mut self,
        ctx: &mut Ctx<'_>,
        key: &str,
        which: Which,
        kind: Kind,
        epoch: u32,
        manual: bool,
    ) {
        let now = ctx.now();
        let w = &self.workers[key];
        if w.terminating {
            return;
        }
        let c = self.container(key, which);
        if c.restarts != epoch || !c.running() || c.probes.0[kind.index()].on_hold {
            return;
        }
        let started = c.started;
        if (kind == Kind::Startup) == started {
            return;
        }
        let Some(probe) = Probe::of(c.spec(&w.pod), kind) else {
            return;
        };
        let name = c.name.clone();
        let outcome = self.predict(key, which, &probe, now);
        let ok = outcome == Outcome::Success;
        match &outcome {
            Outcome::Success => {}
            Outcome::Failure(out) => {
                let msg = format!("{} probe failed: {out}", kind.title());
                self.ctr_event(ctx, key, which, EventType::Warning, "Unhealthy", &msg);
            }
            Outcome::Errored(e) => {
                let msg = format!(
                    "{} probe errored and resulted in unknown state: {e}",
                    kind.title()
                );
                self.ctr_event(ctx, key, which, EventType::Warning, "Unhealthy", &msg);
            }
        }
        let w = self.workers.get_mut(key).expect("worker");
        let pod = w.pod.clone();
        let policy = w.restart_policy().to_string();
        let grace = pod
            .at(&["spec", "terminationGracePeriodSeconds"])
            .and_then(Value::as_u64)
            .unwrap_or(30);
        let uid = w.uid.clone();
        let c = w.ctr(which);
        let st = &mut c.probes.0[kind.index()];
        if st.last == Some(ok) {
            st.run += 1;
        } else {
            st.last = Some(ok);
            st.run = 1;
        }
        let threshold = if ok {
            probe.success_threshold
        } else {
            probe.failure_threshold
        };
        let reached = st.run >= threshold;
        let run_len = st.run;
        if reached {
            let changed = st.result != Some(ok);
            st.result = Some(ok);
            match kind {
                Kind::Readiness if changed => {
                    c.ready = ok;
                    let (action, summary) = if ok {
                        (
                            "kubelet.probe",
                            format!("readiness probe of {name} succeeded: the container is ready"),
                        )
                    } else {
                        (
                            "kubelet.unready",
                            format!(
                                "readiness probe of {name} failed {run_len} time(s) in a row: the container is not ready"
                            ),
                        )
                    };
                    self.lane_record(ctx, Lane::Kubelet, action, &pod, summary);
                    self.sync_status(ctx, key);
                }
                Kind::Readiness => {}
                Kind::Liveness | Kind::Startup if !ok => {
                    st.on_hold = true;
                    st.run = 0;
                    let restart = policy != "Never";
                    let mut message = format!("Container {name} failed {} probe", kind.lower());
                    if restart {
                        message.push_str(", will be restarted");
                    }
                    let action = if kind == Kind::Liveness {
                        "kubelet.liveness"
                    } else {
                        "kubelet.startup"
                    };
                    let then = if restart {
                        "kills the container and starts it again"
                    } else {
                        "kills the container (restartPolicy Never: it stays stopped)"
                    };
                    self.lane_record(
                        ctx,
                        Lane::Kubelet,
                        action,
                        &pod,
                        format!(
                            "{} probe of {name} failed {run_len} time(s) in a row: the kubelet {then}",
                            kind.lower()
                        ),
                    );
                    let grace = probe.grace_s.unwrap_or(grace);
                    let ms = self.stop_container(ctx, key, which, grace, &message);
                    let cause = if kind == Kind::Liveness {
                        super::hooks::KillCause::Liveness
                    } else {
                        super::hooks::KillCause::Startup
                    };
                    self.timer(
                        ctx,
                        ms,
                        key,
                        &uid,
                        Action::Killed(which, epoch, cause),
                        false,
                    );
                    return;
                }
                Kind::Startup => {
                    // Started: the liveness and readiness workers take over.
                    c.started = true;
                    c.ready = Probe::of(c.spec(&pod), Kind::Readiness).is_none();
                    self.lane_record(
                        ctx,
                        Lane::Kubelet,
                        "kubelet.startup",
                        &pod,
                        format!(
                            "startup probe of {name} succeeded: the container has started, its liveness and readiness probes begin"
                        ),
                    );
                    self.sync_status(ctx, key);
                    self.schedule_probe(ctx, key, which, Kind::Liveness, now + 1, false);
                    self.schedule_probe(ctx, key, which, Kind::Readiness, now + 1, false);
                    self.schedule_probe(ctx, key, which, Kind::Readiness, now, true);
                    return;
                }
                Kind::Liveness => {}
            }
        }
        if !manual {
            self.schedule_probe(ctx, key, which, kind, now + probe.period_ms, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn probes_answer_as_the_container_would() {
        let c = json!({"name": "web", "image": "nginx:1.27",
            "livenessProbe": {"httpGet": {"path": "/healthz", "port": 80}},
            "readinessProbe": {"exec": {"command": ["sleep", "5"]}, "timeoutSeconds": 2}});
        let t = Target {
            container: &c,
            pod_ip: "10.244.1.2",
        };
        let pod = json!({});
        let live = Probe::of(&c, Kind::Liveness).unwrap();
        assert_eq!((live.period_ms, live.failure_threshold), (10_000, 3));
        assert_eq!(
            run(&live, &t, &pod, "web", 0),
            Outcome::Failure("HTTP probe failed with statuscode: 404".into())
        );
        let ready = Probe::of(&c, Kind::Readiness).unwrap();
        assert_eq!(
            run(&ready, &t, &pod, "web", 0),
            Outcome::Failure("command \"sleep 5\" timed out".into())
        );
        assert!(Probe::of(&c, Kind::Startup).is_none());
        assert_eq!(next_tick(100, 10_000, 5_000), 10_100);
        assert_eq!(next_tick(100, 10_000, 10_100), 10_100);
        assert_eq!(next_tick(100, 10_000, 50), 100);
    }
}
