//! Lifecycle hooks and the kubelet killing a container (`pkg/kubelet/lifecycle/handlers.go`,
//! `kuberuntime_container.go`). postStart runs right after StartContainer and the pod sync waits
//! for it: the container is reported running only once it succeeded; when it fails the
//! kubelet records `FailedPostStartHook`, kills the container (`Killing`, message
//! `FailedPostStartHook`) and shows it waiting with `PostStartHookError` until the restart.
//! preStop runs when the kubelet kills a container (pod deletion, a failed liveness or
//! startup probe, a changed image), within the grace period and before StopContainer sends
//! SIGTERM; a failure is only an event (`FailedPreStopHook`). exec handlers end as their
//! command does, httpGet handlers fail only when nothing listens (the status code is not
//! looked at), `sleep` waits.

use super::handlers::{self, Target};
use super::{behaviour, short, Action, EventType, Kubelet, Lane, Which, STOP_SERVER_MS};
use crate::api::value::Value;
use crate::cluster::component::Ctx;
use crate::controllers::podutil::At;
use crate::kernel::Millis;

/// Why the kubelet killed a container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KillCause {
    Liveness,
    Startup,
    /// The postStart hook failed, with the hook runner's message.
    PostStart(String),
    /// Its spec changed (a new image): it is started again from the new spec.
    Changed,
}

/// The `lifecycle.<hook>` handler of a container spec (`postStart`, `preStop`).
pub(super) fn handler(spec: &Value, hook: &str) -> Option<Value> {
    spec.get("lifecycle")
        .and_then(|l| l.get(hook))
        .filter(|h| h.is_object())
        .cloned()
}

/// What running a hook handler does.
pub(super) struct HookRun {
    /// How long it takes (`None`: it never ends).
    pub took: Option<Millis>,
    /// The hook runner's failure message.
    pub error: Option<String>,
    /// What ran, for the trace.
    pub what: String,
}

/// Runs `h` against the container (`HandlerRunner.Run`).
pub(super) fn run(h: &Value, t: &Target, container: &str, pod_ref: &str) -> HookRun {
    let failed = |kind: &str, what: &str, err: &str| {
        format!(
            "{kind} lifecycle hook ({what}) for Container \"{container}\" in Pod \"{pod_ref}\" failed - error: {err}"
        )
    };
    if let Some(exec) = h.get("exec") {
        let cmd = handlers::command(exec);
        let what = format!("exec {}", handlers::go_list(&cmd));
        return match behaviour::exec_outcome(&cmd) {
            None => HookRun {
                took: None,
                error: None,
                what,
            },
            Some((ms, 0)) => HookRun {
                took: Some(ms),
                error: None,
                what,
            },
            Some((ms, code)) => {
                let err = format!("command '{}' exited with {code}: ", cmd.join(" "));
                HookRun {
                    took: Some(ms),
                    error: Some(format!(
                        "{}, message: \"\"",
                        failed("Exec", &handlers::go_list(&cmd), &err)
                    )),
                    what,
                }
            }
        };
    }
    if let Some(get) = h.get("httpGet") {
        let path = get.get("path").and_then(Value::as_str).unwrap_or("");
        let what = format!("httpGet {path}");
        let error = match t.http_get(get) {
            Err(e) | Ok(Err(e)) => Some(failed("HTTP", path, &e)),
            Ok(Ok(_)) => None,
        };
        return HookRun {
            took: Some(handlers::NETWORK_MS),
            error,
            what,
        };
    }
    if let Some(sleep) = h.get("sleep") {
        let s = sleep.get("seconds").and_then(Value::as_u64).unwrap_or(0);
        return HookRun {
            took: Some(s * 1000),
            error: None,
            what: format!("sleep {s}s"),
        };
    }
    HookRun {
        took: Some(0),
        error: Some("Cannot run handler: invalid handler".into()),
        what: "an unsupported handler".into(),
    }
}

impl Kubelet {
    fn hook_target_run(&self, key: &str, which: Which, hook: &str) -> Option<HookRun> {
        let w = &self.workers[key];
        let c = match which {
            Which::Init(i) => &w.init[i],
            Which::App(i) => &w.app[i],
        };
        let spec = c.spec(&w.pod);
        let h = handler(spec, hook)?;
        let ip = w.ip.clone().unwrap_or_default();
        let t = Target {
            container: spec,
            pod_ip: &ip,
        };
        Some(run(&h, &t, &c.name, &w.pod_ref()))
    }

    /// Right after StartContainer: the postStart hook runs and the pod sync waits for it.
    pub(super) fn run_post_start(&mut self, ctx: &mut Ctx<'_>, key: &str, which: Which) {
        let now = ctx.now();
        let Some(run) = self.hook_target_run(key, which, "postStart") else {
            return;
        };
        let w = self.workers.get_mut(key).expect("worker");
        let (uid, pod) = (w.uid.clone(), w.pod.clone());
        let c = w.ctr(which);
        c.hook_started = Some(now);
        let (name, epoch) = (c.name.clone(), c.restarts);
        let when = match run.took {
            Some(0) => "it ends at once".to_string(),
            Some(ms) => format!("it takes {}", super::images::go_duration(ms)),
            None => "it never ends, so the container never shows as running".into(),
        };
        self.lane_record(
            ctx,
            Lane::Kubelet,
            "kubelet.hook",
            &pod,
            format!("PostStart hook of {name}: {}; {when}", run.what),
        );
        if let Some(ms) = run.took {
            self.after(
                ctx,
                ms.max(1),
                key,
                &uid,
                Action::PostStartDone(which, epoch),
            );
        }
    }

    pub(super) fn post_start_done(
        &mut self,
        ctx: &mut Ctx<'_>,
        key: &str,
        which: Which,
        epoch: u32,
    ) {
        let w = self.workers.get_mut(key).expect("worker");
        let pod = w.pod.clone();
        let grace = pod
            .at(&["spec", "terminationGracePeriodSeconds"])
            .and_then(Value::as_u64)
            .unwrap_or(30);
        let uid = w.uid.clone();
        let c = w.ctr(which);
        let Some(started_at) = c.hook_started else {
            return;
        };
        if c.restarts != epoch {
            return;
        }
        let name = c.name.clone();
        let Some(run) = self.hook_target_run(key, which, "postStart") else {
            return;
        };
        let Some(msg) = run.error else {
            self.running(ctx, key, which, started_at);
            return;
        };
        self.lane_record(
            ctx,
            Lane::Kubelet,
            "kubelet.hook",
            &pod,
            format!("PostStart hook of {name} failed: {msg}; the kubelet kills the container"),
        );
        // The event leaves the message out, so that secrets do not leak into it.
        self.ctr_event(
            ctx,
            key,
            which,
            EventType::Warning,
            "FailedPostStartHook",
            "PostStartHook failed",
        );
        let ms = self.stop_container(ctx, key, which, grace, "FailedPostStartHook");
        self.after(
            ctx,
            ms,
            key,
            &uid,
            Action::Killed(which, epoch, KillCause::PostStart(msg)),
        );
    }

    /// `killContainer`: the `Killing` event, the preStop hook within the grace period, then
    /// StopContainer with what is left of it (at least 2 s after a hook). Returns how long
    /// until the container has stopped.
    pub(super) fn stop_container(
        &mut self,
        ctx: &mut Ctx<'_>,
        key: &str,
        which: Which,
        grace_s: u64,
        message: &str,
    ) -> Millis {
        let pre_stop = if grace_s > 0 {
            self.hook_target_run(key, which, "preStop")
        } else {
            None
        };
        self.ctr_event(ctx, key, which, EventType::Normal, "Killing", message);
        let w = self.workers.get_mut(key).expect("worker");
        let (uid, pod) = (w.uid.clone(), w.pod.clone());
        let c = w.ctr(which);
        let (name, id, epoch) = (c.name.clone(), c.id.clone().unwrap_or_default(), c.restarts);
        let (hook_ms, remaining) = match &pre_stop {
            Some(run) => {
                let ms = run.took.unwrap_or(u64::MAX).min(grace_s * 1000);
                (ms, grace_s.saturating_sub(ms / 1000).max(2))
            }
            None => (0, grace_s),
        };
        let (stop_ms, code) = if behaviour::is_shell(c.spec(&pod)) && remaining > 0 {
            (remaining * 1000, 137)
        } else {
            (STOP_SERVER_MS.min(remaining * 1000).max(1), 0)
        };
        c.stop_code = Some(code);
        c.stop_grace = remaining;
        match pre_stop {
            Some(run) => {
                let when = match run.took {
                    Some(ms) if ms <= grace_s * 1000 => {
                        format!("it takes {}", super::images::go_duration(ms))
                    }
                    _ => format!("it is cut off when the {grace_s}s grace period ends"),
                };
                self.lane_record(
                    ctx,
                    Lane::Kubelet,
                    "kubelet.hook",
                    &pod,
                    format!(
                        "PreStop hook of {name}: {}; {when}, then StopContainer",
                        run.what
                    ),
                );
                self.after(ctx, hook_ms.max(1), key, &uid, Action::PreStopDone(which, epoch));
            }
            None => self.lane_record(
                ctx,
                Lane::ContainerRuntime,
                "runtime.stop",
                &pod,
                format!(
                    "StopContainer {name} ({}): SIGTERM, then SIGKILL if it still runs after {remaining}s",
                    short(&id)
                ),
            ),
        }
        hook_ms + stop_ms
    }

    /// The preStop hook ended (or was cut off): StopContainer.
    pub(super) fn pre_stop_done(&mut self, ctx: &mut Ctx<'_>, key: &str, which: Which, epoch: u32) {
        let w = self.workers.get_mut(key).expect("worker");
        let pod = w.pod.clone();
        let c = w.ctr(which);
        if c.restarts != epoch {
            return;
        }
        let (name, id, remaining) = (
            c.name.clone(),
            c.id.clone().unwrap_or_default(),
            c.stop_grace,
        );
        let run = self.hook_target_run(key, which, "preStop");
        if let Some(HookRun {
            error: Some(msg),
            took: Some(_),
            ..
        }) = run
        {
            self.lane_record(
                ctx,
                Lane::Kubelet,
                "kubelet.hook",
                &pod,
                format!("PreStop hook of {name} failed: {msg}"),
            );
            self.ctr_event(
                ctx,
                key,
                which,
                EventType::Warning,
                "FailedPreStopHook",
                "PreStopHook failed",
            );
        }
        self.lane_record(
            ctx,
            Lane::ContainerRuntime,
            "runtime.stop",
            &pod,
            format!(
                "StopContainer {name} ({}): SIGTERM, then SIGKILL if it still runs after {remaining}s",
                short(&id)
            ),
        );
    }

    /// A container the kubelet killed has stopped.
    pub(super) fn killed(
        &mut self,
        ctx: &mut Ctx<'_>,
        key: &str,
        which: Which,
        epoch: u32,
        cause: KillCause,
    ) {
        let w = self.workers.get_mut(key).expect("worker");
        let c = w.ctr(which);
        if c.restarts != epoch || !(c.running() || c.hook_started.is_some()) {
            return;
        }
        let code = c.stop_code.take().unwrap_or(0);
        let after_post_start = matches!(cause, KillCause::PostStart(_));
        self.exited(ctx, key, which, code, Some(cause));
        // The pod sync that ran the failed hook goes on with the next containers.
        if let (true, Which::App(_)) = (after_post_start, which) {
            if self.workers.contains_key(key) {
                self.launch_next_app(ctx, key);
            }
        }
    }
}
