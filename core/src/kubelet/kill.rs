//! `fault: kill-container POD/CONTAINER`: the container's main process dies of SIGKILL, as
//! after `kill -9` on the node or the kernel's OOM killer. The runtime reports the container
//! exited with code 137 (128 + 9), which the kubelet shows as `Error`; its pod worker then
//! does what it does for any exit: the pod's `restartPolicy` decides, and a restart counts in
//! `restartCount` and follows the crash back-off.

use super::{status, Action, Kubelet, State, Which, RESYNC_MS};
use crate::cluster::component::Ctx;
use crate::trace::Component as Lane;

/// The exit code of a process killed by SIGKILL.
pub const SIGKILL_EXIT_CODE: i64 = 137;

impl Kubelet {
    /// Whether this kubelet runs the pod `namespace/name`.
    pub fn runs_pod(&self, key: &str) -> bool {
        self.workers.contains_key(key)
    }

    /// Kills the main process of container `name` of pod `key`; an error says why nothing
    /// could be killed.
    pub fn kill_container(
        &mut self,
        ctx: &mut Ctx<'_>,
        key: &str,
        name: &str,
    ) -> Result<(), String> {
        let now = ctx.now();
        let w = self
            .workers
            .get_mut(key)
            .ok_or_else(|| format!("pod {key:?} does not run on {}", self.node))?;
        let pod_name = crate::api::meta::name(&w.pod).to_string();
        let which = w
            .app
            .iter()
            .position(|c| c.name == name)
            .map(Which::App)
            .or_else(|| w.init.iter().position(|c| c.name == name).map(Which::Init))
            .ok_or_else(|| format!("container {name} is not valid for pod {pod_name}"))?;
        if w.terminating {
            return Err(format!("pod {pod_name:?} is terminating"));
        }
        let uid = w.uid.clone();
        let policy = w.restart_policy().to_string();
        let pod = w.pod.clone();
        let c = w.ctr(which);
        let State::Running { started_at } = c.state else {
            return Err(format!(
                "container {name:?} in pod {pod_name:?} is not running"
            ));
        };
        let id = c.id.clone().unwrap_or_default();
        let code = SIGKILL_EXIT_CODE;
        c.state = State::Terminated {
            code,
            reason: "Error".into(),
            started_at,
            finished_at: now,
            id: id.clone(),
        };
        c.ready = false;
        c.started = false;
        let backoff = c.crash_backoff;
        let epoch = c.restarts;
        let restart = match (which, policy.as_str()) {
            (Which::Init(_), _) => policy != "Never",
            (_, "Always" | "OnFailure") => true,
            _ => false,
        };
        self.lane_record(
            ctx,
            Lane::ContainerRuntime,
            "runtime.exit",
            &pod,
            format!(
                "container {name} ({}) was killed by SIGKILL: exited with code {code}",
                super::short(&id)
            ),
        );
        self.sync_status(ctx, key);
        if matches!(status::phase(&self.workers[key]), "Succeeded" | "Failed") {
            self.teardown(ctx, key);
            return Ok(());
        }
        if restart {
            if backoff == 0 {
                self.after(ctx, RESYNC_MS, key, &uid, Action::Restart(which));
            } else {
                self.after(
                    ctx,
                    RESYNC_MS,
                    key,
                    &uid,
                    Action::CrashBackOff(which, epoch),
                );
                self.after(ctx, backoff, key, &uid, Action::Restart(which));
            }
        }
        Ok(())
    }
}
