//! What each kind of trace record means, for someone who knows what a container is but not
//! how Kubernetes works inside. Every record's `explain` key names one of these.

/// One explanation: a title, two to four sentences, and the documentation page to read next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub key: &'static str,
    pub title: &'static str,
    pub text: &'static str,
    pub docs: &'static str,
}

const DOCS: &str = "https://kubernetes.io/docs";

macro_rules! explanations {
    ($($key:literal => $title:literal, $text:literal, $docs:literal;)*) => {
        /// Every explanation, in the order a request meets them.
        pub static EXPLANATIONS: &[Explanation] = &[
            $(Explanation { key: $key, title: $title, text: $text, docs: $docs },)*
        ];
    };
}

explanations! {
    "kubectl.kubeconfig" => "kubectl picks a context",
        "kubectl reads its kubeconfig to learn which cluster to talk to and which credentials to present. In the playground that is the cluster admin, `kubernetes-admin`, whose client certificate puts it in the `system:masters` group. `--as` asks the apiserver to treat the request as another user's.",
        "/concepts/configuration/organize-cluster-access-kubeconfig/";
    "kubectl.read" => "kubectl reads the manifest",
        "kubectl splits the file at `---` into documents and parses each as YAML. A document that is not valid YAML stops here, before anything is sent to the cluster.",
        "/reference/kubectl/generated/kubectl_apply/";
    "kubectl.validate" => "kubectl checks the object",
        "Before sending anything, kubectl checks that each object says which API it belongs to (`apiVersion`) and what it is (`kind`). Without them it cannot know where to send the object.",
        "/reference/kubectl/generated/kubectl_apply/";
    "kubectl.discovery" => "Discovery maps a kind to a resource",
        "The API is organised by groups, versions and resources. kubectl asks the apiserver which resources it serves and maps the object's `apiVersion` and `kind` (apps/v1, Deployment) to a URL path (`/apis/apps/v1/.../deployments`). A kind nobody serves fails here with `no matches for kind`.",
        "/concepts/overview/kubernetes-api/";
    "request" => "An HTTP request to kube-apiserver",
        "Every component, kubectl included, changes or reads the cluster only by sending a REST request to kube-apiserver. Nobody talks to etcd or to another component directly; that is what keeps the cluster consistent.",
        "/concepts/overview/components/#kube-apiserver";
    "authenticate" => "Authentication: who is asking?",
        "The apiserver first finds out who sent the request, from a client certificate, a service account token or another method. The result is a user name and groups. A request nobody can vouch for gets 401 Unauthorized.",
        "/reference/access-authn-authz/authentication/";
    "impersonate" => "Impersonation (`kubectl --as`)",
        "A user allowed to impersonate can ask the apiserver to handle a request as if another user had sent it. The rest of the pipeline, authorization included, then sees the impersonated user.",
        "/reference/access-authn-authz/authentication/#user-impersonation";
    "authorize" => "Authorization: may they do this?",
        "RBAC decides whether the user may perform this verb on this resource in this namespace. It looks for a RoleBinding or ClusterRoleBinding that gives the user, one of their groups or their service account a role with a matching rule. Without one the answer is 403 Forbidden.",
        "/reference/access-authn-authz/rbac/";
    "admission.mutating" => "Mutating admission and defaults",
        "Admission plugins may change an object before it is stored. Defaults fill in what the manifest left out (a Deployment's strategy, a container's imagePullPolicy), ServiceAccount mounts the pod's token, and DefaultTolerationSeconds lets pods stay 300 s on an unreachable node. This is why `kubectl get -o yaml` shows more than you wrote.",
        "/reference/access-authn-authz/admission-controllers/";
    "validate" => "Validation",
        "The apiserver checks the object against the API's rules: names must be valid DNS names, a Deployment's selector must match its template's labels, replicas cannot be negative. Any violation returns 422 Invalid with the field path and nothing is stored.",
        "/reference/using-api/api-concepts/";
    "admission.validating" => "Validating admission",
        "Validating plugins can only accept or refuse. ResourceQuota refuses an object that would push a namespace past its quota, with 403 `exceeded quota`.",
        "/concepts/policy/resource-quotas/";
    "etcd.txn" => "Written to etcd",
        "The apiserver stores the object in etcd in a transaction: a create only succeeds if the key does not exist, an update only if the key is still at the revision the client read. Every write raises etcd's global revision, which becomes the object's `resourceVersion`.",
        "/concepts/overview/components/#etcd";
    "etcd.range" => "Read from etcd",
        "A GET or LIST is a range read of keys under `/registry/<resource>/`. The object's `resourceVersion` is the key's mod_revision, and a list's is the store's current revision.",
        "/reference/using-api/api-concepts/#resource-versions";
    "etcd.conflict" => "Optimistic concurrency: 409 Conflict",
        "An update carries the resourceVersion the client last read. If someone else wrote the object since, the transaction's compare fails and the client gets 409 Conflict, so it must read again and retry. No locks are ever held.",
        "/reference/using-api/api-concepts/#resource-versions";
    "etcd.lease" => "Leases expire keys",
        "etcd can attach a key to a lease with a time to live. The apiserver attaches Events to a one-hour lease, so old events disappear by themselves.",
        "/reference/command-line-tools-reference/kube-apiserver/";
    "response" => "The apiserver answers",
        "The client gets the stored object back (201 Created or 200 OK, with its new resourceVersion) or a Status explaining the failure. kubectl turns that into the line you see in the terminal.",
        "/reference/using-api/api-concepts/";
    "kubectl.output" => "What kubectl prints",
        "kubectl reports each object's outcome (`created`, `configured`, `unchanged`) or the error the apiserver returned.",
        "/reference/kubectl/";
    "watch.start" => "A watch begins",
        "Components do not poll: they list a resource once and then keep a watch open from that list's resourceVersion, so they receive every later change, in order, exactly once.",
        "/reference/using-api/api-concepts/#efficient-detection-of-changes";
    "watch" => "A watch event is delivered",
        "When etcd records a change, the apiserver sends an ADDED, MODIFIED or DELETED event to every client watching that resource. Controllers update their local cache (an informer) and put the object's key on their work queue.",
        "/reference/using-api/api-concepts/#efficient-detection-of-changes";
    "reconcile" => "A controller reconciles",
        "A controller compares what should exist with what its cache says exists and makes one change through the apiserver to close the gap. It never assumes the change worked: it waits for the watch to confirm it.",
        "/concepts/architecture/controller/";
    "event" => "An Event is recorded",
        "Components report what they did or what went wrong as Event objects, written through the apiserver like any other object. `kubectl get events` and `kubectl describe` show them; they expire after an hour.",
        "/reference/kubernetes-api/cluster-resources/event-v1/";
    "gc.background" => "Background cascading deletion",
        "An object whose owners (its `ownerReferences`) are all gone is garbage: the garbage collector in kube-controller-manager deletes it. Deleting a Deployment this way (the default, `--cascade=background`) removes the Deployment at once, then its ReplicaSets, then their pods.",
        "/concepts/architecture/garbage-collection/#background-deletion";
    "gc.foreground" => "Foreground cascading deletion",
        "With `--cascade=foreground` the owner is not removed at once: it gets a deletionTimestamp and the `foregroundDeletion` finalizer, and stays visible while the garbage collector deletes its dependents (pods before their ReplicaSet). Only when no dependent with `blockOwnerDeletion: true` is left does the garbage collector remove the finalizer, and the apiserver deletes the owner.",
        "/concepts/architecture/garbage-collection/#foreground-deletion";
    "gc.orphan" => "Orphaning the dependents",
        "With `--cascade=orphan` the owner gets the `orphan` finalizer: the garbage collector removes the owner's entry from each dependent's `ownerReferences`, then the finalizer, and the owner goes away. The dependents stay, ownerless, and keep working: an orphaned ReplicaSet still keeps its pods running.",
        "/concepts/architecture/garbage-collection/#orphaned-dependents";
    "fault" => "A fault is injected",
        "The scenario breaks something on purpose (a node stops, a container is killed) so you can watch how the cluster notices and recovers.",
        "/concepts/architecture/nodes/#node-status";
    "schedule" => "The scheduler picks a node",
        "kube-scheduler takes an unscheduled pod off its queue and runs its plugins over the nodes: filters drop the nodes the pod cannot run on (not enough cpu, an untolerated taint, a selector mismatch), then scores rank the rest from 0 to 100, each multiplied by its plugin's weight. The node with the highest total wins, ties broken at random, and the scheduler binds the pod to it. When no node fits, the pod stays Pending with `PodScheduled=False` and the reasons counted per node, and it waits for the cluster to change.",
        "/concepts/scheduling-eviction/kube-scheduler/";
    "kubelet.admit" => "The kubelet admits the pod",
        "The kubelet on the pod's node sees the pod bound to it through its watch (`fieldSelector=spec.nodeName=<node>`) and starts a pod worker. It checks that the pod fits on the node, works out its QoS class, and prepares the pod's directories and volumes.",
        "/concepts/workloads/pods/pod-lifecycle/";
    "runtime.pull" => "The container runtime pulls an image",
        "The kubelet asks the container runtime (containerd, through the CRI) to pull an image it does not have, or always with `imagePullPolicy: Always`. The time depends on the image's size; an image the registry does not have fails with `ErrImagePull` and is retried with a growing back-off (`ImagePullBackOff`).",
        "/concepts/containers/images/";
    "runtime.sandbox" => "RunPodSandbox: the pod's sandbox starts",
        "The runtime starts the pause container, which holds the Linux namespaces (network, IPC, PID) that all of the pod's containers will share. Its image, `registry.k8s.io/pause`, is pulled the first time a node needs it.",
        "/concepts/architecture/cri/";
    "cni.add" => "CNI ADD: the pod gets its network",
        "The network plugin creates a veth pair, puts one end into the sandbox's network namespace and gives it the next free address of the node's podCIDR. From now on the pod has its own IP, reachable from every other pod, and its condition `PodReadyToStartContainers` is True.",
        "/concepts/cluster-administration/networking/";
    "cni.del" => "CNI DEL: the pod's network is removed",
        "When the sandbox stops, the network plugin removes the veth pair and releases the pod's address, which another pod may get later.",
        "/concepts/cluster-administration/networking/";
    "runtime.create" => "CreateContainer",
        "The runtime creates the container inside the pod's sandbox from its image, command, environment and mounts. The kubelet records the `Created` event.",
        "/concepts/architecture/cri/";
    "runtime.start" => "StartContainer",
        "The runtime starts the container's process and the kubelet records the `Started` event. A container without a readiness probe counts as ready as soon as it runs; with one, once the probe passes.",
        "/concepts/workloads/pods/pod-lifecycle/#container-states";
    "runtime.exit" => "A container exits",
        "The container's main process ended with an exit code: 0 is `Completed`, anything else `Error`. The pod's `restartPolicy` decides whether the kubelet starts it again.",
        "/concepts/workloads/pods/pod-lifecycle/#restart-policy";
    "runtime.stop" => "StopContainer: SIGTERM, then SIGKILL",
        "The pod is being deleted: the kubelet records `Killing` and asks the runtime to send the container SIGTERM. A process that is still running when the grace period (30 s by default) ends is killed with SIGKILL.",
        "/concepts/workloads/pods/pod-lifecycle/#pod-termination";
    "runtime.stop_sandbox" => "StopPodSandbox",
        "With all containers stopped, the runtime stops the pause container and the network plugin tears down the pod's network.",
        "/concepts/architecture/cri/";
    "runtime.remove_sandbox" => "RemovePodSandbox",
        "The runtime removes the stopped sandbox; then the kubelet deletes the pod object with a grace period of 0, which removes it from etcd.",
        "/concepts/workloads/pods/pod-lifecycle/#pod-termination";
    "kubelet.probe" => "A readiness probe passes",
        "The kubelet probes the container as its readinessProbe says, first after `initialDelaySeconds` and then every `periodSeconds`. Once it passes, the container is ready, and so is the pod when all its containers are.",
        "/concepts/configuration/liveness-readiness-startup-probes/";
    "kubelet.backoff" => "The kubelet backs off",
        "A container that keeps exiting is restarted after a back-off that starts at 10 s and doubles up to 5 minutes (`CrashLoopBackOff`); a failing image pull is retried the same way (`ImagePullBackOff`).",
        "/concepts/workloads/pods/pod-lifecycle/#container-restarts";
    "kubelet.reject" => "The kubelet rejects the pod",
        "Before it runs a pod, the kubelet checks again what the scheduler checked: that the pod's requests fit in what is left of the node, that its node selector matches and that it tolerates the node's NoExecute taints. A pod bound with `spec.nodeName` skipped the scheduler, so this is where it is turned away: it fails at once with a reason such as `OutOfcpu` and the message `Pod was rejected: ...`, and nothing of it runs.",
        "/concepts/scheduling-eviction/assign-pod-node/#nodename";
    "volume.mount" => "The volume manager mounts a volume",
        "Before the pod's sandbox is created, the kubelet's volume manager sets up every volume: it reads ConfigMaps and Secrets through the apiserver and writes them as files, creates emptyDirs, and checks that a PersistentVolumeClaim is bound. A volume that cannot be set up (its ConfigMap does not exist yet) keeps the pod in `ContainerCreating` with `FailedMount` events, and is retried with a back-off from 0.5 s to about 2 minutes.",
        "/concepts/storage/volumes/";
    "kubelet.condition" => "A pod condition changes",
        "The kubelet's status manager reports the pod's conditions in the order the kubelet writes them: `PodReadyToStartContainers` once the sandbox has its network, `Initialized` once the init containers have completed, `ContainersReady` and `Ready` once every container is ready. Services send traffic only to pods that are Ready.",
        "/concepts/workloads/pods/pod-lifecycle/#pod-conditions";
    "kubelet.hook" => "A container lifecycle hook runs",
        "A postStart hook runs right after the container starts, and the kubelet waits for it before it reports the container as running; if it fails, the container is killed and restarted (`FailedPostStartHook`). A preStop hook runs when the container is about to be stopped, inside the grace period and before the SIGTERM.",
        "/concepts/containers/container-lifecycle-hooks/";
    "kubelet.unready" => "A readiness probe fails",
        "The readiness probe failed `failureThreshold` times in a row (3 by default), so the kubelet marks the container not ready. The container keeps running, but the pod is no longer Ready and Services stop sending it traffic until the probe passes again.",
        "/concepts/configuration/liveness-readiness-startup-probes/";
    "kubelet.liveness" => "A liveness probe fails: the container is restarted",
        "The liveness probe failed `failureThreshold` times in a row, so the kubelet considers the container broken: it records `Killing`, runs the preStop hook, stops the container and, unless the pod's restartPolicy is Never, starts it again. Repeated restarts back off like a crash loop.",
        "/concepts/configuration/liveness-readiness-startup-probes/";
    "kubelet.startup" => "A startup probe decides whether the container has started",
        "While a startup probe is set, the kubelet runs no liveness or readiness probe: slow starters get time to start. When it passes, the container counts as started and the other probes begin; when it fails `failureThreshold` times, the container is killed and restarted like after a liveness failure.",
        "/concepts/configuration/liveness-readiness-startup-probes/";
    "kubelet.changed" => "A container's image changed: the kubelet restarts it",
        "A container's image is the one field of it that can be changed in a running pod (`kubectl set image pod/...`). The kubelet sees that the container's spec hash no longer matches: a running container is killed (`Killing`, `definition changed, will be restarted`) and started again with the new image, which counts as a restart. A container that never started tries the new image at once, without the old image's back-off.",
        "/concepts/containers/images/#updating-images";
    "kubelet.config_error" => "The container's configuration is incomplete",
        "The kubelet builds a container's environment from ConfigMaps and Secrets (`env.valueFrom`, `envFrom`). When one does not exist, or lacks the key, the container is not created: it waits with `CreateContainerConfigError` and the kubelet tries again at the next pod sync, about every 10 seconds.",
        "/tasks/configure-pod-container/configure-pod-configmap/";
    "iptables.sync" => "kube-proxy programs the node's iptables",
        "kube-proxy on every node watches Services and EndpointSlices and turns them into NAT rules: a jump per ClusterIP and port from `KUBE-SERVICES` to the Service's `KUBE-SVC-` chain, which picks one ready endpoint at random (`-m statistic --probability 1/n`, then 1/(n-1), ...) and jumps to its `KUBE-SEP-` chain, which DNATs the packet to the pod's IP and port. Only ready endpoints are programmed, and syncs are at least `minSyncPeriod` (1 s) apart so a burst of changes lands in one `iptables-restore`. The record holds the nat table as `iptables-save` shows it on the node.",
        "/reference/networking/virtual-ips/#proxy-mode-iptables";
    "kubelet.proxy" => "kube-apiserver connects to the kubelet",
        "Logs (and exec, attach, port-forward) are not in etcd: for `pods/log` the apiserver checks the request like any other, finds the pod's node and opens a connection to that node's kubelet on port 10250, then streams its answer back. It is the one call from the control plane to a kubelet; when the kubelet is down the request fails with `connection refused`.",
        "/concepts/architecture/control-plane-node-communication/#control-plane-to-node";
    "kubelet.logs" => "The kubelet serves a container's log",
        "The container runtime writes everything a container prints to a log file per container instance under `/var/log/pods`. The kubelet serves the current instance's file, or the one before with `--previous`, and tells why there is none when the container has not started yet (`waiting to start: ContainerCreating`).",
        "/concepts/cluster-administration/logging/";
    "node.unreachable" => "The node controller marks a node unreachable",
        "Every kubelet renews its node's Lease in `kube-node-lease` every 10 s. When a Lease has not been renewed for 40 s, the node lifecycle controller sets the node's conditions to `Unknown` (`NotReady` in `kubectl get nodes`), marks its pods not ready and taints the node `node.kubernetes.io/unreachable` (NoSchedule and NoExecute). New pods are no longer scheduled there.",
        "/concepts/architecture/nodes/#node-controller";
    "node.reachable" => "The node is reachable again",
        "The kubelet renews its Lease and posts `Ready=True` again, so the node lifecycle controller removes the `node.kubernetes.io/unreachable` taints and the node takes new pods.",
        "/concepts/architecture/nodes/#node-controller";
    "taint.eviction" => "Taint-based eviction is scheduled",
        "A NoExecute taint evicts every pod on the node that does not tolerate it. Pods get a default toleration of 300 s for `unreachable` and `not-ready`, so the taint-eviction controller deletes them when that runs out (event `TaintManagerEviction`). A pod on a stopped node then stays Terminating, because only its kubelet can finish the deletion, while its controller creates a replacement elsewhere.",
        "/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions";
}

/// The explanation for a record's `explain` key.
pub fn explain(key: &str) -> Option<&'static Explanation> {
    EXPLANATIONS.iter().find(|e| e.key == key)
}

/// The documentation link of an explanation.
pub fn docs_url(e: &Explanation) -> String {
    format!("{DOCS}{}", e.docs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_texts_are_short() {
        let mut keys: Vec<&str> = EXPLANATIONS.iter().map(|e| e.key).collect();
        keys.sort();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n, "duplicate explanation keys");
        for e in EXPLANATIONS {
            let sentences = e.text.matches(". ").count() + 1;
            assert!(
                (1..=4).contains(&sentences),
                "{}: {} sentences",
                e.key,
                sentences
            );
            assert!(docs_url(e).starts_with("https://kubernetes.io/docs/"));
        }
    }
}
