# What each kind of trace record means, for someone who knows what a container is but not how
# Kubernetes works inside. Read by kubeplay-core (core/src/explain.rs).
#
# Every record kind has three messages. Their ids are the record's `explain` key with each dot
# made a hyphen (Fluent ids cannot contain dots): `etcd.txn` is `etcd-txn-title`,
# `etcd-txn-body` and `etcd-txn-docs`.
#   -title  a few words
#   -body   two to four sentences: what happened, why, and what would make it fail
#   -docs   the kubernetes.io page to read next (in zh-CN and zh-TW: the /zh-cn/docs/ page)
# A line break inside a body joins with a space (none next to a Chinese character).
# The entries follow the order a request meets them.

## kubectl, on your machine

kubectl-kubeconfig-title = kubectl picks a context
kubectl-kubeconfig-body =
    kubectl reads its kubeconfig to learn which cluster to talk to and which credentials to present.
    In the playground that is the cluster admin, `kubernetes-admin`, whose client certificate puts it in the `system:masters` group;
    `--as` asks the apiserver to treat the request as another user's.
    With no usable kubeconfig, kubectl has no cluster to talk to and fails before it sends anything.
kubectl-kubeconfig-docs = /docs/concepts/configuration/organize-cluster-access-kubeconfig/

kubectl-read-title = kubectl reads the manifest
kubectl-read-body =
    kubectl splits the file at `---` into documents and parses each as YAML (or JSON).
    This happens on your machine, so the cluster never receives a file it cannot read.
    A document that is not valid YAML stops kubectl here, with the line of the error, before anything is sent.
kubectl-read-docs = /docs/reference/kubectl/generated/kubectl_apply/

kubectl-validate-title = kubectl checks the object
kubectl-validate-body =
    Before sending anything, kubectl checks that each object says which API it belongs to (`apiVersion`) and what it is (`kind`).
    Without them it cannot know where to send the object, so it stops with `apiVersion not set` or `kind not set`.
kubectl-validate-docs = /docs/reference/kubectl/generated/kubectl_apply/

kubectl-discovery-title = Discovery maps a kind to a resource
kubectl-discovery-body =
    The API is organised by groups, versions and resources.
    kubectl asks the apiserver which resources it serves and maps the object's `apiVersion` and `kind` (apps/v1, Deployment) to a URL path (`/apis/apps/v1/.../deployments`).
    A kind nobody serves fails here with `no matches for kind`.
kubectl-discovery-docs = /docs/concepts/overview/kubernetes-api/

## kube-apiserver: the request pipeline

request-title = An HTTP request to kube-apiserver
request-body =
    Every component, kubectl included, changes or reads the cluster only by sending a REST request to kube-apiserver.
    Nobody talks to etcd or to another component directly; that is what keeps the cluster consistent.
    While the apiserver cannot be reached, no object in the cluster can be read or changed.
request-docs = /docs/concepts/overview/components/#kube-apiserver

authenticate-title = Authentication: who is asking?
authenticate-body =
    The apiserver first finds out who sent the request, from a client certificate, a service account token or another method.
    The result is a user name and groups, which the next steps use to decide what the request may do.
    A request with invalid credentials gets 401 Unauthorized.
authenticate-docs = /docs/reference/access-authn-authz/authentication/

impersonate-title = Impersonation (`kubectl --as`)
impersonate-body =
    A user allowed to impersonate can ask the apiserver to handle a request as if another user had sent it.
    The apiserver checks that the real user may use the `impersonate` verb on that user or group;
    the rest of the pipeline, authorization included, then sees the impersonated user.
    Without that permission the request fails with 403 Forbidden.
impersonate-docs = /docs/reference/access-authn-authz/user-impersonation/

authorize-title = Authorization: may they do this?
authorize-body =
    RBAC decides whether the user may perform this verb on this resource in this namespace.
    It looks for a RoleBinding or ClusterRoleBinding that gives the user, one of their groups or their service account a role with a matching rule.
    Without one the answer is 403 Forbidden.
authorize-docs = /docs/reference/access-authn-authz/rbac/

admission-mutating-title = Mutating admission and defaults
admission-mutating-body =
    Defaults fill in what the manifest left out (a Deployment's strategy, a container's imagePullPolicy),
    then mutating admission plugins may change the object: ServiceAccount mounts the pod's token,
    and DefaultTolerationSeconds lets pods stay 300 s on an unreachable node.
    This is why `kubectl get -o yaml` shows more than you wrote.
    A mutating plugin can also refuse: ServiceAccount rejects a pod whose service account does not exist.
admission-mutating-docs = /docs/reference/access-authn-authz/admission-controllers/

validate-title = Validation
validate-body =
    The apiserver checks the object against the API's rules: names must be valid DNS names,
    a Deployment's selector must match its template's labels, replicas cannot be negative.
    Any violation returns 422 Invalid with the field path, and nothing is stored.
    The apiserver does not rely on kubectl's checks, so every client is held to the same rules.
validate-docs = /docs/reference/using-api/api-concepts/

admission-validating-title = Validating admission
admission-validating-body =
    Validating plugins run once the object is complete and can only accept or refuse it, never change it.
    ResourceQuota refuses an object that would push a namespace past its quota, with 403 `exceeded quota`, and nothing is stored.
admission-validating-docs = /docs/concepts/policy/resource-quotas/

## etcd

etcd-txn-title = Written to etcd
etcd-txn-body =
    The apiserver stores the object in etcd in a transaction: a create only succeeds if the key does not exist,
    an update only if the key is still at the revision the client read.
    Every write raises etcd's global revision, which becomes the object's `resourceVersion`.
    Creating a name that already exists fails here with 409 AlreadyExists.
etcd-txn-docs = /docs/concepts/overview/components/#etcd

etcd-range-title = Read from etcd
etcd-range-body =
    A GET or LIST is a range read of keys under `/registry/<resource>/`.
    The object's `resourceVersion` is the key's mod_revision, and a list's is the store's current revision.
    A key that is not there gives 404 NotFound.
etcd-range-docs = /docs/reference/using-api/api-concepts/#resource-versions

etcd-conflict-title = Optimistic concurrency: 409 Conflict
etcd-conflict-body =
    An update carries the resourceVersion the client last read.
    If someone else wrote the object since, the transaction's compare fails and the client gets 409 Conflict,
    so it must read again and retry.
    No locks are ever held.
etcd-conflict-docs = /docs/reference/using-api/api-concepts/#resource-versions

etcd-lease-title = Leases expire keys
etcd-lease-body =
    etcd can attach a key to a lease with a time to live, and deletes the key when the lease expires.
    The apiserver attaches Events to a one-hour lease (`--event-ttl`), so old events disappear without anyone deleting them.
etcd-lease-docs = /docs/reference/command-line-tools-reference/kube-apiserver/

response-title = The apiserver answers
response-body =
    The client gets the stored object back (201 Created or 200 OK, with its new resourceVersion) or a Status explaining the failure.
    kubectl turns that into the line you see in the terminal.
response-docs = /docs/reference/using-api/api-concepts/

kubectl-output-title = What kubectl prints
kubectl-output-body =
    kubectl reports each object's outcome (`created`, `configured`, `unchanged`) or the error the apiserver returned,
    and exits with a non-zero status when any object failed.
    `configured` means the apply changed something, `unchanged` that the cluster already matched the file.
kubectl-output-docs = /docs/reference/kubectl/

## Watches and controllers

watch-start-title = A watch begins
watch-start-body =
    Components do not poll: they list a resource once and then keep a watch open from that list's resourceVersion,
    so they receive every later change, in order, exactly once.
    When a watch breaks, or its resourceVersion is too old (410 Gone, after etcd compacted it), the component lists again and starts a new watch.
watch-start-docs = /docs/reference/using-api/api-concepts/#efficient-detection-of-changes

watch-title = A watch event is delivered
watch-body =
    When etcd records a change, the apiserver sends an ADDED, MODIFIED or DELETED event to every client watching that resource.
    Controllers update their local cache (an informer) and put the object's key on their work queue.
watch-docs = /docs/reference/using-api/api-concepts/#efficient-detection-of-changes

reconcile-title = A controller reconciles
reconcile-body =
    A controller compares what should exist with what its cache says exists and makes one change through the apiserver to close the gap.
    It never assumes the change worked: it waits for the watch to confirm it.
    When the change fails (a conflict, a refusal), the key goes back on the queue and is retried with a back-off.
reconcile-docs = /docs/concepts/architecture/controller/

event-title = An Event is recorded
event-body =
    Components report what they did or what went wrong as Event objects, written through the apiserver like any other object.
    `kubectl get events` and `kubectl describe` show them; they expire after an hour.
event-docs = /docs/reference/kubernetes-api/cluster-resources/event-v1/

gc-background-title = Background cascading deletion
gc-background-body =
    An object whose owners (its `ownerReferences`) are all gone is garbage: the garbage collector in kube-controller-manager deletes it.
    Deleting a Deployment this way (the default, `--cascade=background`) removes the Deployment at once,
    then its ReplicaSets, then their pods.
gc-background-docs = /docs/concepts/architecture/garbage-collection/#background-deletion

gc-foreground-title = Foreground cascading deletion
gc-foreground-body =
    With `--cascade=foreground` the owner is not removed at once: it gets a deletionTimestamp and the `foregroundDeletion` finalizer,
    and stays visible while the garbage collector deletes its dependents (pods before their ReplicaSet).
    Only when no dependent with `blockOwnerDeletion: true` is left does the garbage collector remove the finalizer,
    and the apiserver deletes the owner.
gc-foreground-docs = /docs/concepts/architecture/garbage-collection/#foreground-deletion

gc-orphan-title = Orphaning the dependents
gc-orphan-body =
    With `--cascade=orphan` the owner gets the `orphan` finalizer: the garbage collector removes the owner's entry from each dependent's `ownerReferences`,
    then the finalizer, and the owner goes away.
    The dependents stay, ownerless, and keep working: an orphaned ReplicaSet still keeps its pods running.
gc-orphan-docs = /docs/concepts/architecture/garbage-collection/#orphaned-dependents

fault-title = A fault is injected
fault-body =
    The scenario breaks something on purpose (a node stops, a container is killed) so you can watch how the cluster notices and recovers.
    Nothing in Kubernetes announces a failure: components find out from missed heartbeats, failed probes and exit codes.
fault-docs = /docs/concepts/architecture/nodes/#node-status

## kube-scheduler

schedule-title = The scheduler picks a node
schedule-body =
    kube-scheduler takes an unscheduled pod off its queue and runs its plugins over the nodes:
    filters drop the nodes the pod cannot run on (not enough cpu, an untolerated taint, a selector mismatch),
    then scores rank the rest from 0 to 100, each multiplied by its plugin's weight.
    The node with the highest total wins, ties broken at random, and the scheduler binds the pod to it.
    When no node fits, the pod stays Pending with `PodScheduled=False` and the reasons counted per node,
    and it waits for the cluster to change.
schedule-docs = /docs/concepts/scheduling-eviction/kube-scheduler/

## kubelet and the container runtime

kubelet-admit-title = The kubelet admits the pod
kubelet-admit-body =
    The kubelet on the pod's node sees the pod bound to it through its watch (`fieldSelector=spec.nodeName=<node>`) and starts a pod worker.
    It checks that the pod fits on the node, works out its QoS class, and prepares the pod's directories and volumes.
    A pod that does not fit is rejected here instead of started.
kubelet-admit-docs = /docs/concepts/workloads/pods/pod-lifecycle/

runtime-pull-title = The container runtime pulls an image
runtime-pull-body =
    The kubelet asks the container runtime (containerd, through the CRI) to pull an image it does not have,
    or always with `imagePullPolicy: Always`.
    The time depends on the image's size; an image the registry does not have fails with `ErrImagePull`
    and is retried with a growing back-off (`ImagePullBackOff`).
runtime-pull-docs = /docs/concepts/containers/images/

runtime-sandbox-title = RunPodSandbox: the pod's sandbox starts
runtime-sandbox-body =
    The runtime starts the pause container, which holds the Linux namespaces the pod's containers share
    (network and IPC; PID too with `shareProcessNamespace`).
    Its image, `registry.k8s.io/pause`, is pulled the first time a node needs it.
    When the sandbox cannot be created (the network plugin fails, say), the pod stays in `ContainerCreating` with `FailedCreatePodSandBox` events.
runtime-sandbox-docs = /docs/concepts/architecture/cri/

cni-add-title = CNI ADD: the pod gets its network
cni-add-body =
    The network plugin creates a veth pair, puts one end into the sandbox's network namespace and gives it the next free address of the node's podCIDR.
    From now on the pod has its own IP, reachable from every other pod, and its condition `PodReadyToStartContainers` is True.
    When the plugin fails (no free address, no plugin configured), the sandbox is torn down and tried again, with `FailedCreatePodSandBox` events.
cni-add-docs = /docs/concepts/cluster-administration/networking/

cni-del-title = CNI DEL: the pod's network is removed
cni-del-body =
    When the sandbox stops, the network plugin removes the veth pair and releases the pod's address,
    which another pod may get later.
cni-del-docs = /docs/concepts/cluster-administration/networking/

runtime-create-title = CreateContainer
runtime-create-body =
    The runtime creates the container inside the pod's sandbox from its image, command, environment and mounts,
    and the kubelet records the `Created` event.
    A container whose configuration cannot be built (a ConfigMap key it needs is missing) is not created:
    it waits with `CreateContainerConfigError`.
runtime-create-docs = /docs/concepts/architecture/cri/

runtime-start-title = StartContainer
runtime-start-body =
    The runtime starts the container's process and the kubelet records the `Started` event.
    A container without a readiness probe counts as ready as soon as it runs; with one, once the probe passes.
    When the command cannot be started (its binary is not in the image), the container ends with `StartError` and is restarted like after a crash.
runtime-start-docs = /docs/concepts/workloads/pods/pod-lifecycle/#container-states

runtime-exit-title = A container exits
runtime-exit-body =
    The container's main process ended with an exit code: 0 is `Completed`, anything else `Error`,
    and a process killed for using too much memory is `OOMKilled`.
    The pod's `restartPolicy` decides whether the kubelet starts it again.
runtime-exit-docs = /docs/concepts/workloads/pods/pod-lifecycle/#restart-policy

runtime-stop-title = StopContainer: SIGTERM, then SIGKILL
runtime-stop-body =
    The pod is being deleted: the kubelet records `Killing` and asks the runtime to send the container SIGTERM.
    A process that is still running when the grace period (30 s by default) ends is killed with SIGKILL.
runtime-stop-docs = /docs/concepts/workloads/pods/pod-lifecycle/#pod-termination

runtime-stop_sandbox-title = StopPodSandbox
runtime-stop_sandbox-body =
    With all containers stopped, the runtime stops the pause container and the network plugin tears down the pod's network.
runtime-stop_sandbox-docs = /docs/concepts/architecture/cri/

runtime-remove_sandbox-title = RemovePodSandbox
runtime-remove_sandbox-body =
    The runtime removes the stopped sandbox; then the kubelet deletes the pod object with a grace period of 0,
    which removes it from etcd.
runtime-remove_sandbox-docs = /docs/concepts/workloads/pods/pod-lifecycle/#pod-termination

kubelet-probe-title = A readiness probe passes
kubelet-probe-body =
    The kubelet probes the container as its readinessProbe says, first after `initialDelaySeconds` and then every `periodSeconds`.
    Once it passes, the container is ready, and so is the pod when all its containers are.
    Until then the pod is not Ready and Services send it no traffic.
kubelet-probe-docs = /docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-backoff-title = The kubelet backs off
kubelet-backoff-body =
    A container that keeps exiting is restarted after a back-off that starts at 10 s and doubles up to 5 minutes (`CrashLoopBackOff`);
    a failing image pull is retried the same way (`ImagePullBackOff`).
    The back-off starts over once a container has run for 10 minutes without trouble.
kubelet-backoff-docs = /docs/concepts/workloads/pods/pod-lifecycle/#container-restarts

kubelet-reject-title = The kubelet rejects the pod
kubelet-reject-body =
    Before it runs a pod, the kubelet checks again what the scheduler checked: that the pod's requests fit in what is left of the node,
    that its node selector matches and that it tolerates the node's NoExecute taints.
    A pod bound with `spec.nodeName` skipped the scheduler, so this is where it is turned away:
    it fails at once with a reason such as `OutOfcpu` and the message `Pod was rejected: ...`, and nothing of it runs.
kubelet-reject-docs = /docs/concepts/scheduling-eviction/assign-pod-node/#nodename

volume-mount-title = The volume manager mounts a volume
volume-mount-body =
    Before the pod's sandbox is created, the kubelet's volume manager sets up every volume:
    it reads ConfigMaps and Secrets through the apiserver and writes them as files, creates emptyDirs,
    and checks that a PersistentVolumeClaim is bound.
    A volume that cannot be set up (its ConfigMap does not exist yet) keeps the pod in `ContainerCreating` with `FailedMount` events,
    and is retried with a back-off from 0.5 s to about 2 minutes.
volume-mount-docs = /docs/concepts/storage/volumes/

kubelet-condition-title = A pod condition changes
kubelet-condition-body =
    The kubelet's status manager reports the pod's conditions in the order the kubelet writes them:
    `PodReadyToStartContainers` once the sandbox has its network, `Initialized` once the init containers have completed,
    `ContainersReady` and `Ready` once every container is ready.
    Services send traffic only to pods that are Ready.
kubelet-condition-docs = /docs/concepts/workloads/pods/pod-lifecycle/#pod-conditions

kubelet-hook-title = A container lifecycle hook runs
kubelet-hook-body =
    A postStart hook runs right after the container starts, and the kubelet waits for it before it reports the container as running;
    if it fails, the container is killed and restarted (`FailedPostStartHook`).
    A preStop hook runs when the container is about to be stopped, inside the grace period and before the SIGTERM.
kubelet-hook-docs = /docs/concepts/containers/container-lifecycle-hooks/

kubelet-unready-title = A readiness probe fails
kubelet-unready-body =
    The readiness probe failed `failureThreshold` times in a row (3 by default), so the kubelet marks the container not ready.
    The container keeps running, but the pod is no longer Ready and Services stop sending it traffic until the probe passes again.
kubelet-unready-docs = /docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-liveness-title = A liveness probe fails: the container is restarted
kubelet-liveness-body =
    The liveness probe failed `failureThreshold` times in a row, so the kubelet considers the container broken:
    it records `Killing`, runs the preStop hook, stops the container and, unless the pod's restartPolicy is Never, starts it again.
    Repeated restarts back off like a crash loop.
kubelet-liveness-docs = /docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-startup-title = A startup probe decides whether the container has started
kubelet-startup-body =
    While a startup probe is set, the kubelet runs no liveness or readiness probe: slow starters get time to start.
    When it passes, the container counts as started and the other probes begin;
    when it fails `failureThreshold` times, the container is killed and restarted like after a liveness failure.
kubelet-startup-docs = /docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-changed-title = A container's image changed: the kubelet restarts it
kubelet-changed-body =
    A container's image is the one field of it that can be changed in a running pod (`kubectl set image pod/...`).
    The kubelet sees that the container's spec hash no longer matches: a running container is killed
    (`Killing`, `definition changed, will be restarted`) and started again with the new image, which counts as a restart.
    A container that never started tries the new image at once, without the old image's back-off.
kubelet-changed-docs = /docs/concepts/containers/images/#updating-images

kubelet-config_error-title = The container's configuration is incomplete
kubelet-config_error-body =
    The kubelet builds a container's environment from ConfigMaps and Secrets (`env.valueFrom`, `envFrom`).
    When one does not exist, or lacks the key, the container is not created:
    it waits with `CreateContainerConfigError` and the kubelet tries again at the next pod sync, about every 10 seconds.
kubelet-config_error-docs = /docs/tasks/configure-pod-container/configure-pod-configmap/

## kube-proxy

iptables-sync-title = kube-proxy programs the node's iptables
iptables-sync-body =
    kube-proxy on every node watches Services and EndpointSlices and turns them into NAT rules:
    a jump per ClusterIP and port from `KUBE-SERVICES` to the Service's `KUBE-SVC-` chain,
    which picks one ready endpoint at random (`-m statistic --probability 1/n`, then 1/(n-1), ...)
    and jumps to its `KUBE-SEP-` chain, which DNATs the packet to the pod's IP and port.
    Only ready endpoints are programmed, and syncs are at least `minSyncPeriod` (1 s) apart so a burst of changes lands in one `iptables-restore`.
    The record holds the nat table as `iptables-save` shows it on the node.
iptables-sync-docs = /docs/reference/networking/virtual-ips/#proxy-mode-iptables

## Logs: the apiserver calls a kubelet

kubelet-proxy-title = kube-apiserver connects to the kubelet
kubelet-proxy-body =
    Logs (and exec, attach, port-forward) are not in etcd: for `pods/log` the apiserver checks the request like any other,
    finds the pod's node and opens a connection to that node's kubelet on port 10250, then streams its answer back.
    It is the one call from the control plane to a kubelet; when the kubelet is down the request fails with `connection refused`.
kubelet-proxy-docs = /docs/concepts/architecture/control-plane-node-communication/#control-plane-to-node

kubelet-logs-title = The kubelet serves a container's log
kubelet-logs-body =
    The container runtime writes everything a container prints to a log file per container instance under `/var/log/pods`.
    The kubelet serves the current instance's file, or the one before with `--previous`,
    and tells why there is none when the container has not started yet (`waiting to start: ContainerCreating`).
kubelet-logs-docs = /docs/concepts/cluster-administration/logging/

## Node failure

node-unreachable-title = The node controller marks a node unreachable
node-unreachable-body =
    Every kubelet renews its node's Lease in `kube-node-lease` every 10 s.
    When a Lease has not been renewed for 40 s, the node lifecycle controller sets the node's conditions to `Unknown` (`NotReady` in `kubectl get nodes`),
    marks its pods not ready and taints the node `node.kubernetes.io/unreachable` (NoSchedule and NoExecute).
    New pods are no longer scheduled there.
node-unreachable-docs = /docs/concepts/architecture/nodes/#node-controller

node-reachable-title = The node is reachable again
node-reachable-body =
    The kubelet renews its Lease and posts `Ready=True` again,
    so the node lifecycle controller removes the `node.kubernetes.io/unreachable` taints and the node takes new pods.
node-reachable-docs = /docs/concepts/architecture/nodes/#node-controller

taint-eviction-title = Taint-based eviction is scheduled
taint-eviction-body =
    A NoExecute taint evicts every pod on the node that does not tolerate it.
    Pods get a default toleration of 300 s for `unreachable` and `not-ready`,
    so the taint-eviction controller deletes them when that runs out (event `TaintManagerEviction`).
    A pod on a stopped node then stays Terminating, because only its kubelet can finish the deletion,
    while its controller creates a replacement elsewhere.
taint-eviction-docs = /docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions
