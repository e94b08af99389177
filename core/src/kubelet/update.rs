//! An update of a pod the kubelet already runs (`computePodActions`, `kuberuntime_manager.go`).
//! The only container field that may change is its image, and with it the container's spec
//! hash. A running container whose hash changed is killed (`Killing`, `Container <name>
//! definition changed, will be restarted`) and started again from the new spec in the same pod
//! sync, whatever the restart policy; its restart count goes up. A container that has not
//! started (its pull failed, or it waits out the back-off) tries the new image at once: the
//! image back-off is keyed by the image and the crash back-off by the spec hash, and the new
//! ones have none. A regular init container that runs is left alone, as the kubelet does.

use super::hooks::KillCause;
use super::{Action, Kubelet, Lane, State, Which};
use crate::api::value::Value;
use crate::cluster::component::Ctx;
use crate::controllers::podutil::At;

impl Kubelet {
    /// The pod of worker `key` was updated (and is not being deleted): the pod sync it
    /// triggers acts on the containers whose image changed.
    pub(super) fn pod_updated(&mut self, ctx: &mut Ctx<'_>, key: &str) {
        let w = &self.workers[key];
        let mut changed: Vec<(Which, String)> = Vec::new();
        for (field, ctrs, which) in [
            ("initContainers", &w.init, Which::Init as fn(usize) -> Which),
            ("containers", &w.app, Which::App),
        ] {
            let specs = w.pod["spec"][field].as_array().into_iter().flatten();
            for (i, (c, spec)) in ctrs.iter().zip(specs).enumerate() {
                let image = spec["image"].as_str().unwrap_or("");
                if image != c.spec_image {
                    changed.push((which(i), image.to_string()));
                }
            }
        }
        for (which, image) in changed {
            self.image_changed(ctx, key, which, image);
        }
    }

    fn image_changed(&mut self, ctx: &mut Ctx<'_>, key: &str, which: Which, image: String) {
        let w = self.workers.get_mut(key).expect("worker");
        let (uid, pod) = (w.uid.clone(), w.pod.clone());
        let grace = pod
            .at(&["spec", "terminationGracePeriodSeconds"])
            .and_then(Value::as_u64)
            .unwrap_or(30);
        let c = w.ctr(which);
        let live = c.running() || c.hook_started.is_some();
        if live && matches!(which, Which::Init(_)) {
            return;
        }
        c.spec_image = image.clone();
        c.pull_backoff = 0;
        c.crash_backoff = 0;
        let (name, epoch) = (c.name.clone(), c.restarts);
        if live {
            // Its probe workers stop with it.
            for st in c.probes.0.iter_mut() {
                st.on_hold = true;
            }
            let old = c.image.clone();
            self.lane_record(
                ctx,
                Lane::Kubelet,
                "kubelet.changed",
                &pod,
                format!(
                    "container {name}: its image changed from {old} to {image}: the kubelet kills the container and starts it again"
                ),
            );
            let message = format!("Container {name} definition changed, will be restarted");
            let ms = self.stop_container(ctx, key, which, grace, &message);
            self.after(
                ctx,
                ms,
                key,
                &uid,
                Action::Killed(which, epoch, KillCause::Changed),
            );
            return;
        }
        let (launched, waiting) = (c.launched, matches!(c.state, State::Waiting { .. }));
        if !launched || waiting {
            c.image = image.clone();
        }
        if !launched {
            // The pod sync has not got to it yet: it will start the new spec.
            self.sync_status(ctx, key);
            return;
        }
        let restart = self.cancel_steps(key, which);
        if !restart && !waiting {
            // It ended and its restart policy does not start it again.
            return;
        }
        self.lane_record(
            ctx,
            Lane::Kubelet,
            "kubelet.changed",
            &pod,
            format!("container {name}: its image changed to {image}: the kubelet starts it at once, without the old image's back-off"),
        );
        if restart {
            self.after(ctx, 0, key, &uid, Action::Restart(which));
        } else {
            self.begin(ctx, key, which);
        }
    }

    /// Drops the pending pod-sync steps of a container (its pull, create, start and restart
    /// timers); says whether a restart was among them.
    fn cancel_steps(&mut self, key: &str, which: Which) -> bool {
        let mut restart = false;
        self.timers.retain(|_, (k, _, action)| {
            let of = match action {
                Action::Pull(x)
                | Action::PullDone(x)
                | Action::PullFailed(x)
                | Action::PullBackOff(x)
                | Action::Create(x)
                | Action::Start(x)
                | Action::Restart(x)
                | Action::CrashBackOff(x, _) => *x,
                _ => return true,
            };
            if k != key || of != which {
                return true;
            }
            restart |= matches!(action, Action::Restart(_));
            false
        });
        restart
    }
}
