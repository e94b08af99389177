//! The decode table: every Go struct the apiserver decodes, with its JSON fields and what
//! each holds. GENERATED from the `k8s-openapi` types by `schema_gen.rs`: do not edit.
//! Regenerate with `UPDATE_SCHEMA=1 cargo test -p kubeplay-core schema`.

use super::decode::{Field, Struct, Ty};
use Ty::*;

/// The root struct of each kind the apiserver has a Go type for.
pub(super) fn root_of(kind: &str) -> Option<u16> {
    Some(match kind {
        "Namespace" => 0,
        "Node" => 7,
        "Pod" => 25,
        "PodTemplate" => 149,
        "Service" => 151,
        "Endpoints" => 161,
        "ConfigMap" => 166,
        "Secret" => 167,
        "Event" => 168,
        "ServiceAccount" => 171,
        "PersistentVolume" => 172,
        "PersistentVolumeClaim" => 188,
        "ResourceQuota" => 192,
        "LimitRange" => 197,
        "ReplicationController" => 200,
        "Deployment" => 204,
        "ReplicaSet" => 210,
        "StatefulSet" => 214,
        "DaemonSet" => 222,
        "ControllerRevision" => 228,
        "Job" => 229,
        "CronJob" => 240,
        "Lease" => 244,
        "EndpointSlice" => 246,
        "Ingress" => 253,
        "NetworkPolicy" => 266,
        "PodDisruptionBudget" => 273,
        "Role" => 276,
        "RoleBinding" => 278,
        "ClusterRole" => 281,
        "ClusterRoleBinding" => 283,
        "PriorityClass" => 284,
        "StorageClass" => 285,
        _ => return None,
    })
}

pub(super) static STRUCTS: [Struct; 288] = [
    // 0
    Struct { name: "Namespace", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Namespace", go_type: Some("v1.Namespace") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(4) },
        Field { name: "status", ty: Struct(5) },
    ] },
    // 1
    Struct { name: "ObjectMeta", required: &[], fields: &[
        Field { name: "annotations", ty: Map("map[string]string", &String) },
        Field { name: "creationTimestamp", ty: Opt(&Time) },
        Field { name: "deletionGracePeriodSeconds", ty: Int64 },
        Field { name: "deletionTimestamp", ty: Opt(&Time) },
        Field { name: "finalizers", ty: Seq("[]string", &String) },
        Field { name: "generateName", ty: String },
        Field { name: "generation", ty: Int64 },
        Field { name: "labels", ty: Map("map[string]string", &String) },
        Field { name: "managedFields", ty: Seq("[]v1.ManagedFieldsEntry", &Struct(2)) },
        Field { name: "name", ty: String },
        Field { name: "namespace", ty: String },
        Field { name: "ownerReferences", ty: Seq("[]v1.OwnerReference", &Struct(3)) },
        Field { name: "resourceVersion", ty: String },
        Field { name: "selfLink", ty: String },
        Field { name: "uid", ty: String },
    ] },
    // 2
    Struct { name: "ManagedFieldsEntry", required: &[], fields: &[
        Field { name: "apiVersion", ty: String },
        Field { name: "fieldsType", ty: String },
        Field { name: "fieldsV1", ty: Any },
        Field { name: "manager", ty: String },
        Field { name: "operation", ty: String },
        Field { name: "subresource", ty: String },
        Field { name: "time", ty: Opt(&Time) },
    ] },
    // 3
    Struct { name: "OwnerReference", required: &[], fields: &[
        Field { name: "apiVersion", ty: String },
        Field { name: "blockOwnerDeletion", ty: Bool },
        Field { name: "controller", ty: Bool },
        Field { name: "kind", ty: String },
        Field { name: "name", ty: String },
        Field { name: "uid", ty: String },
    ] },
    // 4
    Struct { name: "NamespaceSpec", required: &[], fields: &[
        Field { name: "finalizers", ty: Seq("[]string", &String) },
    ] },
    // 5
    Struct { name: "NamespaceStatus", required: &[], fields: &[
        Field { name: "conditions", ty: Seq("[]v1.Condition", &Struct(6)) },
        Field { name: "phase", ty: String },
    ] },
    // 6
    Struct { name: "NamespaceCondition", required: &[], fields: &[
        Field { name: "lastTransitionTime", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "reason", ty: String },
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 7
    Struct { name: "Node", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Node", go_type: Some("v1.Node") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(8) },
        Field { name: "status", ty: Struct(12) },
    ] },
    // 8
    Struct { name: "NodeSpec", required: &[], fields: &[
        Field { name: "configSource", ty: Struct(9) },
        Field { name: "externalID", ty: String },
        Field { name: "podCIDR", ty: String },
        Field { name: "podCIDRs", ty: Seq("[]string", &String) },
        Field { name: "providerID", ty: String },
        Field { name: "taints", ty: Seq("[]v1.Taint", &Struct(11)) },
        Field { name: "unschedulable", ty: Bool },
    ] },
    // 9
    Struct { name: "NodeConfigSource", required: &[], fields: &[
        Field { name: "configMap", ty: Struct(10) },
    ] },
    // 10
    Struct { name: "ConfigMapNodeConfigSource", required: &[], fields: &[
        Field { name: "kubeletConfigKey", ty: String },
        Field { name: "name", ty: String },
        Field { name: "namespace", ty: String },
        Field { name: "resourceVersion", ty: String },
        Field { name: "uid", ty: String },
    ] },
    // 11
    Struct { name: "Taint", required: &[], fields: &[
        Field { name: "effect", ty: String },
        Field { name: "key", ty: String },
        Field { name: "timeAdded", ty: Opt(&Time) },
        Field { name: "value", ty: String },
    ] },
    // 12
    Struct { name: "NodeStatus", required: &[], fields: &[
        Field { name: "addresses", ty: Seq("[]v1.NodeAddress", &Struct(13)) },
        Field { name: "allocatable", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "capacity", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "conditions", ty: Seq("[]v1.NodeCondition", &Struct(14)) },
        Field { name: "config", ty: Struct(15) },
        Field { name: "daemonEndpoints", ty: Struct(16) },
        Field { name: "declaredFeatures", ty: Seq("[]string", &String) },
        Field { name: "features", ty: Struct(18) },
        Field { name: "images", ty: Seq("[]string", &Struct(19)) },
        Field { name: "nodeInfo", ty: Struct(20) },
        Field { name: "phase", ty: String },
        Field { name: "runtimeHandlers", ty: Seq("[]string", &Struct(22)) },
        Field { name: "volumesAttached", ty: Seq("[]string", &Struct(24)) },
        Field { name: "volumesInUse", ty: Seq("[]string", &String) },
    ] },
    // 13
    Struct { name: "NodeAddress", required: &[], fields: &[
        Field { name: "address", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 14
    Struct { name: "NodeCondition", required: &[], fields: &[
        Field { name: "lastHeartbeatTime", ty: Opt(&Time) },
        Field { name: "lastTransitionTime", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "reason", ty: String },
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 15
    Struct { name: "NodeConfigStatus", required: &[], fields: &[
        Field { name: "active", ty: Struct(9) },
        Field { name: "assigned", ty: Struct(9) },
        Field { name: "error", ty: String },
        Field { name: "lastKnownGood", ty: Struct(9) },
    ] },
    // 16
    Struct { name: "NodeDaemonEndpoints", required: &[], fields: &[
        Field { name: "kubeletEndpoint", ty: Struct(17) },
    ] },
    // 17
    Struct { name: "DaemonEndpoint", required: &[], fields: &[
        Field { name: "Port", ty: Int32 },
    ] },
    // 18
    Struct { name: "NodeFeatures", required: &[], fields: &[
        Field { name: "supplementalGroupsPolicy", ty: Bool },
    ] },
    // 19
    Struct { name: "ContainerImage", required: &[], fields: &[
        Field { name: "names", ty: Seq("[]string", &String) },
        Field { name: "sizeBytes", ty: Int64 },
    ] },
    // 20
    Struct { name: "NodeSystemInfo", required: &[], fields: &[
        Field { name: "architecture", ty: String },
        Field { name: "bootID", ty: String },
        Field { name: "containerRuntimeVersion", ty: String },
        Field { name: "kernelVersion", ty: String },
        Field { name: "kubeProxyVersion", ty: String },
        Field { name: "kubeletVersion", ty: String },
        Field { name: "machineID", ty: String },
        Field { name: "operatingSystem", ty: String },
        Field { name: "osImage", ty: String },
        Field { name: "swap", ty: Struct(21) },
        Field { name: "systemUUID", ty: String },
    ] },
    // 21
    Struct { name: "NodeSwapStatus", required: &[], fields: &[
        Field { name: "capacity", ty: Int64 },
    ] },
    // 22
    Struct { name: "NodeRuntimeHandler", required: &[], fields: &[
        Field { name: "features", ty: Struct(23) },
        Field { name: "name", ty: String },
    ] },
    // 23
    Struct { name: "NodeRuntimeHandlerFeatures", required: &[], fields: &[
        Field { name: "recursiveReadOnlyMounts", ty: Bool },
        Field { name: "userNamespaces", ty: Bool },
    ] },
    // 24
    Struct { name: "AttachedVolume", required: &[], fields: &[
        Field { name: "devicePath", ty: String },
        Field { name: "name", ty: String },
    ] },
    // 25
    Struct { name: "Pod", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Pod", go_type: Some("v1.Pod") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(26) },
        Field { name: "status", ty: Struct(132) },
    ] },
    // 26
    Struct { name: "PodSpec", required: &[], fields: &[
        Field { name: "activeDeadlineSeconds", ty: Int64 },
        Field { name: "affinity", ty: Struct(27) },
        Field { name: "automountServiceAccountToken", ty: Bool },
        Field { name: "containers", ty: Seq("[]v1.Container", &Struct(39)) },
        Field { name: "dnsConfig", ty: Struct(73) },
        Field { name: "dnsPolicy", ty: String },
        Field { name: "enableServiceLinks", ty: Bool },
        Field { name: "ephemeralContainers", ty: Seq("[]v1.EphemeralContainer", &Struct(75)) },
        Field { name: "hostAliases", ty: Seq("[]v1.HostAlias", &Struct(76)) },
        Field { name: "hostIPC", ty: Bool },
        Field { name: "hostNetwork", ty: Bool },
        Field { name: "hostPID", ty: Bool },
        Field { name: "hostUsers", ty: Bool },
        Field { name: "hostname", ty: String },
        Field { name: "hostnameOverride", ty: String },
        Field { name: "imagePullSecrets", ty: Seq("[]v1.LocalObjectReference", &Struct(77)) },
        Field { name: "initContainers", ty: Seq("[]v1.Container", &Struct(39)) },
        Field { name: "nodeName", ty: String },
        Field { name: "nodeSelector", ty: Map("map[string]string", &String) },
        Field { name: "os", ty: Struct(78) },
        Field { name: "overhead", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "preemptionPolicy", ty: String },
        Field { name: "priority", ty: Int32 },
        Field { name: "priorityClassName", ty: String },
        Field { name: "readinessGates", ty: Seq("[]v1.PodReadinessGate", &Struct(79)) },
        Field { name: "resourceClaims", ty: Seq("[]string", &Struct(80)) },
        Field { name: "resources", ty: Struct(61) },
        Field { name: "restartPolicy", ty: String },
        Field { name: "runtimeClassName", ty: String },
        Field { name: "schedulerName", ty: String },
        Field { name: "schedulingGates", ty: Seq("[]v1.PodSchedulingGate", &Struct(81)) },
        Field { name: "securityContext", ty: Struct(82) },
        Field { name: "serviceAccount", ty: String },
        Field { name: "serviceAccountName", ty: String },
        Field { name: "setHostnameAsFQDN", ty: Bool },
        Field { name: "shareProcessNamespace", ty: Bool },
        Field { name: "subdomain", ty: String },
        Field { name: "terminationGracePeriodSeconds", ty: Int64 },
        Field { name: "tolerations", ty: Seq("[]v1.Toleration", &Struct(84)) },
        Field { name: "topologySpreadConstraints", ty: Seq("[]v1.TopologySpreadConstraint", &Struct(85)) },
        Field { name: "volumes", ty: Seq("[]v1.Volume", &Struct(86)) },
        Field { name: "workloadRef", ty: Struct(131) },
    ] },
    // 27
    Struct { name: "Affinity", required: &[], fields: &[
        Field { name: "nodeAffinity", ty: Struct(28) },
        Field { name: "podAffinity", ty: Struct(33) },
        Field { name: "podAntiAffinity", ty: Struct(38) },
    ] },
    // 28
    Struct { name: "NodeAffinity", required: &[], fields: &[
        Field { name: "preferredDuringSchedulingIgnoredDuringExecution", ty: Seq("[]string", &Struct(29)) },
        Field { name: "requiredDuringSchedulingIgnoredDuringExecution", ty: Struct(32) },
    ] },
    // 29
    Struct { name: "PreferredSchedulingTerm", required: &[], fields: &[
        Field { name: "preference", ty: Struct(30) },
        Field { name: "weight", ty: Int32 },
    ] },
    // 30
    Struct { name: "NodeSelectorTerm", required: &[], fields: &[
        Field { name: "matchExpressions", ty: Seq("[]v1.LabelSelectorRequirement", &Struct(31)) },
        Field { name: "matchFields", ty: Seq("[]string", &Struct(31)) },
    ] },
    // 31
    Struct { name: "NodeSelectorRequirement", required: &[], fields: &[
        Field { name: "key", ty: String },
        Field { name: "operator", ty: String },
        Field { name: "values", ty: Seq("[]string", &String) },
    ] },
    // 32
    Struct { name: "NodeSelector", required: &[], fields: &[
        Field { name: "nodeSelectorTerms", ty: Seq("[]v1.NodeSelectorTerm", &Struct(30)) },
    ] },
    // 33
    Struct { name: "PodAffinity", required: &[], fields: &[
        Field { name: "preferredDuringSchedulingIgnoredDuringExecution", ty: Seq("[]string", &Struct(34)) },
        Field { name: "requiredDuringSchedulingIgnoredDuringExecution", ty: Seq("[]string", &Struct(35)) },
    ] },
    // 34
    Struct { name: "WeightedPodAffinityTerm", required: &[], fields: &[
        Field { name: "podAffinityTerm", ty: Struct(35) },
        Field { name: "weight", ty: Int32 },
    ] },
    // 35
    Struct { name: "PodAffinityTerm", required: &[], fields: &[
        Field { name: "labelSelector", ty: Struct(36) },
        Field { name: "matchLabelKeys", ty: Seq("[]string", &String) },
        Field { name: "mismatchLabelKeys", ty: Seq("[]string", &String) },
        Field { name: "namespaceSelector", ty: Struct(36) },
        Field { name: "namespaces", ty: Seq("[]string", &String) },
        Field { name: "topologyKey", ty: String },
    ] },
    // 36
    Struct { name: "LabelSelector", required: &[], fields: &[
        Field { name: "matchExpressions", ty: Seq("[]v1.LabelSelectorRequirement", &Struct(37)) },
        Field { name: "matchLabels", ty: Map("map[string]string", &String) },
    ] },
    // 37
    Struct { name: "LabelSelectorRequirement", required: &[], fields: &[
        Field { name: "key", ty: String },
        Field { name: "operator", ty: String },
        Field { name: "values", ty: Seq("[]string", &String) },
    ] },
    // 38
    Struct { name: "PodAntiAffinity", required: &[], fields: &[
        Field { name: "preferredDuringSchedulingIgnoredDuringExecution", ty: Seq("[]string", &Struct(34)) },
        Field { name: "requiredDuringSchedulingIgnoredDuringExecution", ty: Seq("[]string", &Struct(35)) },
    ] },
    // 39
    Struct { name: "Container", required: &[], fields: &[
        Field { name: "args", ty: Seq("[]string", &String) },
        Field { name: "command", ty: Seq("[]string", &String) },
        Field { name: "env", ty: Seq("[]v1.EnvVar", &Struct(40)) },
        Field { name: "envFrom", ty: Seq("[]v1.EnvFromSource", &Struct(47)) },
        Field { name: "image", ty: String },
        Field { name: "imagePullPolicy", ty: String },
        Field { name: "lifecycle", ty: Struct(50) },
        Field { name: "livenessProbe", ty: Struct(57) },
        Field { name: "name", ty: String },
        Field { name: "ports", ty: Seq("[]v1.ContainerPort", &Struct(59)) },
        Field { name: "readinessProbe", ty: Struct(57) },
        Field { name: "resizePolicy", ty: Seq("[]string", &Struct(60)) },
        Field { name: "resources", ty: Struct(61) },
        Field { name: "restartPolicy", ty: String },
        Field { name: "restartPolicyRules", ty: Seq("[]string", &Struct(63)) },
        Field { name: "securityContext", ty: Struct(65) },
        Field { name: "startupProbe", ty: Struct(57) },
        Field { name: "stdin", ty: Bool },
        Field { name: "stdinOnce", ty: Bool },
        Field { name: "terminationMessagePath", ty: String },
        Field { name: "terminationMessagePolicy", ty: String },
        Field { name: "tty", ty: Bool },
        Field { name: "volumeDevices", ty: Seq("[]v1.VolumeDevice", &Struct(71)) },
        Field { name: "volumeMounts", ty: Seq("[]v1.VolumeMount", &Struct(72)) },
        Field { name: "workingDir", ty: String },
    ] },
    // 40
    Struct { name: "EnvVar", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "value", ty: String },
        Field { name: "valueFrom", ty: Struct(41) },
    ] },
    // 41
    Struct { name: "EnvVarSource", required: &[], fields: &[
        Field { name: "configMapKeyRef", ty: Struct(42) },
        Field { name: "fieldRef", ty: Struct(43) },
        Field { name: "fileKeyRef", ty: Struct(44) },
        Field { name: "resourceFieldRef", ty: Struct(45) },
        Field { name: "secretKeyRef", ty: Struct(46) },
    ] },
    // 42
    Struct { name: "ConfigMapKeySelector", required: &[], fields: &[
        Field { name: "key", ty: String },
        Field { name: "name", ty: String },
        Field { name: "optional", ty: Bool },
    ] },
    // 43
    Struct { name: "ObjectFieldSelector", required: &[], fields: &[
        Field { name: "apiVersion", ty: String },
        Field { name: "fieldPath", ty: String },
    ] },
    // 44
    Struct { name: "FileKeySelector", required: &[], fields: &[
        Field { name: "key", ty: String },
        Field { name: "optional", ty: Bool },
        Field { name: "path", ty: String },
        Field { name: "volumeName", ty: String },
    ] },
    // 45
    Struct { name: "ResourceFieldSelector", required: &[], fields: &[
        Field { name: "containerName", ty: String },
        Field { name: "divisor", ty: Quantity },
        Field { name: "resource", ty: String },
    ] },
    // 46
    Struct { name: "SecretKeySelector", required: &[], fields: &[
        Field { name: "key", ty: String },
        Field { name: "name", ty: String },
        Field { name: "optional", ty: Bool },
    ] },
    // 47
    Struct { name: "EnvFromSource", required: &[], fields: &[
        Field { name: "configMapRef", ty: Struct(48) },
        Field { name: "prefix", ty: String },
        Field { name: "secretRef", ty: Struct(49) },
    ] },
    // 48
    Struct { name: "ConfigMapEnvSource", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "optional", ty: Bool },
    ] },
    // 49
    Struct { name: "SecretEnvSource", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "optional", ty: Bool },
    ] },
    // 50
    Struct { name: "Lifecycle", required: &[], fields: &[
        Field { name: "postStart", ty: Struct(51) },
        Field { name: "preStop", ty: Struct(51) },
        Field { name: "stopSignal", ty: String },
    ] },
    // 51
    Struct { name: "LifecycleHandler", required: &[], fields: &[
        Field { name: "exec", ty: Struct(52) },
        Field { name: "httpGet", ty: Struct(53) },
        Field { name: "sleep", ty: Struct(55) },
        Field { name: "tcpSocket", ty: Struct(56) },
    ] },
    // 52
    Struct { name: "ExecAction", required: &[], fields: &[
        Field { name: "command", ty: Seq("[]string", &String) },
    ] },
    // 53
    Struct { name: "HTTPGetAction", required: &[], fields: &[
        Field { name: "host", ty: String },
        Field { name: "httpHeaders", ty: Seq("[]string", &Struct(54)) },
        Field { name: "path", ty: String },
        Field { name: "port", ty: Opt(&IntOrString) },
        Field { name: "scheme", ty: String },
    ] },
    // 54
    Struct { name: "HTTPHeader", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "value", ty: String },
    ] },
    // 55
    Struct { name: "SleepAction", required: &[], fields: &[
        Field { name: "seconds", ty: Int64 },
    ] },
    // 56
    Struct { name: "TCPSocketAction", required: &[], fields: &[
        Field { name: "host", ty: String },
        Field { name: "port", ty: Opt(&IntOrString) },
    ] },
    // 57
    Struct { name: "Probe", required: &[], fields: &[
        Field { name: "exec", ty: Struct(52) },
        Field { name: "failureThreshold", ty: Int32 },
        Field { name: "grpc", ty: Struct(58) },
        Field { name: "httpGet", ty: Struct(53) },
        Field { name: "initialDelaySeconds", ty: Int32 },
        Field { name: "periodSeconds", ty: Int32 },
        Field { name: "successThreshold", ty: Int32 },
        Field { name: "tcpSocket", ty: Struct(56) },
        Field { name: "terminationGracePeriodSeconds", ty: Int64 },
        Field { name: "timeoutSeconds", ty: Int32 },
    ] },
    // 58
    Struct { name: "GRPCAction", required: &[], fields: &[
        Field { name: "port", ty: Int32 },
        Field { name: "service", ty: String },
    ] },
    // 59
    Struct { name: "ContainerPort", required: &[], fields: &[
        Field { name: "containerPort", ty: Int32 },
        Field { name: "hostIP", ty: String },
        Field { name: "hostPort", ty: Int32 },
        Field { name: "name", ty: String },
        Field { name: "protocol", ty: String },
    ] },
    // 60
    Struct { name: "ContainerResizePolicy", required: &[], fields: &[
        Field { name: "resourceName", ty: String },
        Field { name: "restartPolicy", ty: String },
    ] },
    // 61
    Struct { name: "ResourceRequirements", required: &[], fields: &[
        Field { name: "claims", ty: Seq("[]string", &Struct(62)) },
        Field { name: "limits", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "requests", ty: Map("v1.ResourceList", &Quantity) },
    ] },
    // 62
    Struct { name: "ResourceClaim", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "request", ty: String },
    ] },
    // 63
    Struct { name: "ContainerRestartRule", required: &[], fields: &[
        Field { name: "action", ty: String },
        Field { name: "exitCodes", ty: Struct(64) },
    ] },
    // 64
    Struct { name: "ContainerRestartRuleOnExitCodes", required: &[], fields: &[
        Field { name: "operator", ty: String },
        Field { name: "values", ty: Seq("[]string", &Int32) },
    ] },
    // 65
    Struct { name: "SecurityContext", required: &[], fields: &[
        Field { name: "allowPrivilegeEscalation", ty: Bool },
        Field { name: "appArmorProfile", ty: Struct(66) },
        Field { name: "capabilities", ty: Struct(67) },
        Field { name: "privileged", ty: Bool },
        Field { name: "procMount", ty: String },
        Field { name: "readOnlyRootFilesystem", ty: Bool },
        Field { name: "runAsGroup", ty: Int64 },
        Field { name: "runAsNonRoot", ty: Bool },
        Field { name: "runAsUser", ty: Int64 },
        Field { name: "seLinuxOptions", ty: Struct(68) },
        Field { name: "seccompProfile", ty: Struct(69) },
        Field { name: "windowsOptions", ty: Struct(70) },
    ] },
    // 66
    Struct { name: "AppArmorProfile", required: &[], fields: &[
        Field { name: "localhostProfile", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 67
    Struct { name: "Capabilities", required: &[], fields: &[
        Field { name: "add", ty: Seq("[]string", &String) },
        Field { name: "drop", ty: Seq("[]string", &String) },
    ] },
    // 68
    Struct { name: "SELinuxOptions", required: &[], fields: &[
        Field { name: "level", ty: String },
        Field { name: "role", ty: String },
        Field { name: "type", ty: String },
        Field { name: "user", ty: String },
    ] },
    // 69
    Struct { name: "SeccompProfile", required: &[], fields: &[
        Field { name: "localhostProfile", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 70
    Struct { name: "WindowsSecurityContextOptions", required: &[], fields: &[
        Field { name: "gmsaCredentialSpec", ty: String },
        Field { name: "gmsaCredentialSpecName", ty: String },
        Field { name: "hostProcess", ty: Bool },
        Field { name: "runAsUserName", ty: String },
    ] },
    // 71
    Struct { name: "VolumeDevice", required: &[], fields: &[
        Field { name: "devicePath", ty: String },
        Field { name: "name", ty: String },
    ] },
    // 72
    Struct { name: "VolumeMount", required: &[], fields: &[
        Field { name: "mountPath", ty: String },
        Field { name: "mountPropagation", ty: String },
        Field { name: "name", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "recursiveReadOnly", ty: String },
        Field { name: "subPath", ty: String },
        Field { name: "subPathExpr", ty: String },
    ] },
    // 73
    Struct { name: "PodDNSConfig", required: &[], fields: &[
        Field { name: "nameservers", ty: Seq("[]string", &String) },
        Field { name: "options", ty: Seq("[]string", &Struct(74)) },
        Field { name: "searches", ty: Seq("[]string", &String) },
    ] },
    // 74
    Struct { name: "PodDNSConfigOption", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "value", ty: String },
    ] },
    // 75
    Struct { name: "EphemeralContainer", required: &[], fields: &[
        Field { name: "args", ty: Seq("[]string", &String) },
        Field { name: "command", ty: Seq("[]string", &String) },
        Field { name: "env", ty: Seq("[]v1.EnvVar", &Struct(40)) },
        Field { name: "envFrom", ty: Seq("[]v1.EnvFromSource", &Struct(47)) },
        Field { name: "image", ty: String },
        Field { name: "imagePullPolicy", ty: String },
        Field { name: "lifecycle", ty: Struct(50) },
        Field { name: "livenessProbe", ty: Struct(57) },
        Field { name: "name", ty: String },
        Field { name: "ports", ty: Seq("[]v1.ContainerPort", &Struct(59)) },
        Field { name: "readinessProbe", ty: Struct(57) },
        Field { name: "resizePolicy", ty: Seq("[]string", &Struct(60)) },
        Field { name: "resources", ty: Struct(61) },
        Field { name: "restartPolicy", ty: String },
        Field { name: "restartPolicyRules", ty: Seq("[]string", &Struct(63)) },
        Field { name: "securityContext", ty: Struct(65) },
        Field { name: "startupProbe", ty: Struct(57) },
        Field { name: "stdin", ty: Bool },
        Field { name: "stdinOnce", ty: Bool },
        Field { name: "targetContainerName", ty: String },
        Field { name: "terminationMessagePath", ty: String },
        Field { name: "terminationMessagePolicy", ty: String },
        Field { name: "tty", ty: Bool },
        Field { name: "volumeDevices", ty: Seq("[]v1.VolumeDevice", &Struct(71)) },
        Field { name: "volumeMounts", ty: Seq("[]v1.VolumeMount", &Struct(72)) },
        Field { name: "workingDir", ty: String },
    ] },
    // 76
    Struct { name: "HostAlias", required: &[], fields: &[
        Field { name: "hostnames", ty: Seq("[]string", &String) },
        Field { name: "ip", ty: String },
    ] },
    // 77
    Struct { name: "LocalObjectReference", required: &[], fields: &[
        Field { name: "name", ty: String },
    ] },
    // 78
    Struct { name: "PodOS", required: &[], fields: &[
        Field { name: "name", ty: String },
    ] },
    // 79
    Struct { name: "PodReadinessGate", required: &[], fields: &[
        Field { name: "conditionType", ty: String },
    ] },
    // 80
    Struct { name: "PodResourceClaim", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "resourceClaimName", ty: String },
        Field { name: "resourceClaimTemplateName", ty: String },
    ] },
    // 81
    Struct { name: "PodSchedulingGate", required: &[], fields: &[
        Field { name: "name", ty: String },
    ] },
    // 82
    Struct { name: "PodSecurityContext", required: &[], fields: &[
        Field { name: "appArmorProfile", ty: Struct(66) },
        Field { name: "fsGroup", ty: Int64 },
        Field { name: "fsGroupChangePolicy", ty: String },
        Field { name: "runAsGroup", ty: Int64 },
        Field { name: "runAsNonRoot", ty: Bool },
        Field { name: "runAsUser", ty: Int64 },
        Field { name: "seLinuxChangePolicy", ty: String },
        Field { name: "seLinuxOptions", ty: Struct(68) },
        Field { name: "seccompProfile", ty: Struct(69) },
        Field { name: "supplementalGroups", ty: Seq("[]int64", &Int64) },
        Field { name: "supplementalGroupsPolicy", ty: String },
        Field { name: "sysctls", ty: Seq("[]string", &Struct(83)) },
        Field { name: "windowsOptions", ty: Struct(70) },
    ] },
    // 83
    Struct { name: "Sysctl", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "value", ty: String },
    ] },
    // 84
    Struct { name: "Toleration", required: &[], fields: &[
        Field { name: "effect", ty: String },
        Field { name: "key", ty: String },
        Field { name: "operator", ty: String },
        Field { name: "tolerationSeconds", ty: Int64 },
        Field { name: "value", ty: String },
    ] },
    // 85
    Struct { name: "TopologySpreadConstraint", required: &[], fields: &[
        Field { name: "labelSelector", ty: Struct(36) },
        Field { name: "matchLabelKeys", ty: Seq("[]string", &String) },
        Field { name: "maxSkew", ty: Int32 },
        Field { name: "minDomains", ty: Int32 },
        Field { name: "nodeAffinityPolicy", ty: String },
        Field { name: "nodeTaintsPolicy", ty: String },
        Field { name: "topologyKey", ty: String },
        Field { name: "whenUnsatisfiable", ty: String },
    ] },
    // 86
    Struct { name: "Volume", required: &[], fields: &[
        Field { name: "awsElasticBlockStore", ty: Struct(87) },
        Field { name: "azureDisk", ty: Struct(88) },
        Field { name: "azureFile", ty: Struct(89) },
        Field { name: "cephfs", ty: Struct(90) },
        Field { name: "cinder", ty: Struct(91) },
        Field { name: "configMap", ty: Struct(92) },
        Field { name: "csi", ty: Struct(94) },
        Field { name: "downwardAPI", ty: Struct(95) },
        Field { name: "emptyDir", ty: Struct(97) },
        Field { name: "ephemeral", ty: Struct(98) },
        Field { name: "fc", ty: Struct(104) },
        Field { name: "flexVolume", ty: Struct(105) },
        Field { name: "flocker", ty: Struct(106) },
        Field { name: "gcePersistentDisk", ty: Struct(107) },
        Field { name: "gitRepo", ty: Struct(108) },
        Field { name: "glusterfs", ty: Struct(109) },
        Field { name: "hostPath", ty: Struct(110) },
        Field { name: "image", ty: Struct(111) },
        Field { name: "iscsi", ty: Struct(112) },
        Field { name: "name", ty: String },
        Field { name: "nfs", ty: Struct(113) },
        Field { name: "persistentVolumeClaim", ty: Struct(114) },
        Field { name: "photonPersistentDisk", ty: Struct(115) },
        Field { name: "portworxVolume", ty: Struct(116) },
        Field { name: "projected", ty: Struct(117) },
        Field { name: "quobyte", ty: Struct(125) },
        Field { name: "rbd", ty: Struct(126) },
        Field { name: "scaleIO", ty: Struct(127) },
        Field { name: "secret", ty: Struct(128) },
        Field { name: "storageos", ty: Struct(129) },
        Field { name: "vsphereVolume", ty: Struct(130) },
    ] },
    // 87
    Struct { name: "AWSElasticBlockStoreVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "partition", ty: Int32 },
        Field { name: "readOnly", ty: Bool },
        Field { name: "volumeID", ty: String },
    ] },
    // 88
    Struct { name: "AzureDiskVolumeSource", required: &[], fields: &[
        Field { name: "cachingMode", ty: String },
        Field { name: "diskName", ty: String },
        Field { name: "diskURI", ty: String },
        Field { name: "fsType", ty: String },
        Field { name: "kind", ty: String },
        Field { name: "readOnly", ty: Bool },
    ] },
    // 89
    Struct { name: "AzureFileVolumeSource", required: &[], fields: &[
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretName", ty: String },
        Field { name: "shareName", ty: String },
    ] },
    // 90
    Struct { name: "CephFSVolumeSource", required: &[], fields: &[
        Field { name: "monitors", ty: Seq("[]string", &String) },
        Field { name: "path", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretFile", ty: String },
        Field { name: "secretRef", ty: Struct(77) },
        Field { name: "user", ty: String },
    ] },
    // 91
    Struct { name: "CinderVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(77) },
        Field { name: "volumeID", ty: String },
    ] },
    // 92
    Struct { name: "ConfigMapVolumeSource", required: &[], fields: &[
        Field { name: "defaultMode", ty: Int32 },
        Field { name: "items", ty: Seq("[]v1.KeyToPath", &Struct(93)) },
        Field { name: "name", ty: String },
        Field { name: "optional", ty: Bool },
    ] },
    // 93
    Struct { name: "KeyToPath", required: &[], fields: &[
        Field { name: "key", ty: String },
        Field { name: "mode", ty: Int32 },
        Field { name: "path", ty: String },
    ] },
    // 94
    Struct { name: "CSIVolumeSource", required: &[], fields: &[
        Field { name: "driver", ty: String },
        Field { name: "fsType", ty: String },
        Field { name: "nodePublishSecretRef", ty: Struct(77) },
        Field { name: "readOnly", ty: Bool },
        Field { name: "volumeAttributes", ty: Map("map[string]string", &String) },
    ] },
    // 95
    Struct { name: "DownwardAPIVolumeSource", required: &[], fields: &[
        Field { name: "defaultMode", ty: Int32 },
        Field { name: "items", ty: Seq("[]v1.KeyToPath", &Struct(96)) },
    ] },
    // 96
    Struct { name: "DownwardAPIVolumeFile", required: &[], fields: &[
        Field { name: "fieldRef", ty: Struct(43) },
        Field { name: "mode", ty: Int32 },
        Field { name: "path", ty: String },
        Field { name: "resourceFieldRef", ty: Struct(45) },
    ] },
    // 97
    Struct { name: "EmptyDirVolumeSource", required: &[], fields: &[
        Field { name: "medium", ty: String },
        Field { name: "sizeLimit", ty: Quantity },
    ] },
    // 98
    Struct { name: "EphemeralVolumeSource", required: &[], fields: &[
        Field { name: "volumeClaimTemplate", ty: Struct(99) },
    ] },
    // 99
    Struct { name: "PersistentVolumeClaimTemplate", required: &[], fields: &[
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(100) },
    ] },
    // 100
    Struct { name: "PersistentVolumeClaimSpec", required: &[], fields: &[
        Field { name: "accessModes", ty: Seq("[]string", &String) },
        Field { name: "dataSource", ty: Struct(101) },
        Field { name: "dataSourceRef", ty: Struct(102) },
        Field { name: "resources", ty: Struct(103) },
        Field { name: "selector", ty: Struct(36) },
        Field { name: "storageClassName", ty: String },
        Field { name: "volumeAttributesClassName", ty: String },
        Field { name: "volumeMode", ty: String },
        Field { name: "volumeName", ty: String },
    ] },
    // 101
    Struct { name: "TypedLocalObjectReference", required: &[], fields: &[
        Field { name: "apiGroup", ty: String },
        Field { name: "kind", ty: String },
        Field { name: "name", ty: String },
    ] },
    // 102
    Struct { name: "TypedObjectReference", required: &[], fields: &[
        Field { name: "apiGroup", ty: String },
        Field { name: "kind", ty: String },
        Field { name: "name", ty: String },
        Field { name: "namespace", ty: String },
    ] },
    // 103
    Struct { name: "VolumeResourceRequirements", required: &[], fields: &[
        Field { name: "limits", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "requests", ty: Map("v1.ResourceList", &Quantity) },
    ] },
    // 104
    Struct { name: "FCVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "lun", ty: Int32 },
        Field { name: "readOnly", ty: Bool },
        Field { name: "targetWWNs", ty: Seq("[]string", &String) },
        Field { name: "wwids", ty: Seq("[]string", &String) },
    ] },
    // 105
    Struct { name: "FlexVolumeSource", required: &[], fields: &[
        Field { name: "driver", ty: String },
        Field { name: "fsType", ty: String },
        Field { name: "options", ty: Map("map[string]string", &String) },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(77) },
    ] },
    // 106
    Struct { name: "FlockerVolumeSource", required: &[], fields: &[
        Field { name: "datasetName", ty: String },
        Field { name: "datasetUUID", ty: String },
    ] },
    // 107
    Struct { name: "GCEPersistentDiskVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "partition", ty: Int32 },
        Field { name: "pdName", ty: String },
        Field { name: "readOnly", ty: Bool },
    ] },
    // 108
    Struct { name: "GitRepoVolumeSource", required: &[], fields: &[
        Field { name: "directory", ty: String },
        Field { name: "repository", ty: String },
        Field { name: "revision", ty: String },
    ] },
    // 109
    Struct { name: "GlusterfsVolumeSource", required: &[], fields: &[
        Field { name: "endpoints", ty: String },
        Field { name: "path", ty: String },
        Field { name: "readOnly", ty: Bool },
    ] },
    // 110
    Struct { name: "HostPathVolumeSource", required: &[], fields: &[
        Field { name: "path", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 111
    Struct { name: "ImageVolumeSource", required: &[], fields: &[
        Field { name: "pullPolicy", ty: String },
        Field { name: "reference", ty: String },
    ] },
    // 112
    Struct { name: "ISCSIVolumeSource", required: &[], fields: &[
        Field { name: "chapAuthDiscovery", ty: Bool },
        Field { name: "chapAuthSession", ty: Bool },
        Field { name: "fsType", ty: String },
        Field { name: "initiatorName", ty: String },
        Field { name: "iqn", ty: String },
        Field { name: "iscsiInterface", ty: String },
        Field { name: "lun", ty: Int32 },
        Field { name: "portals", ty: Seq("[]string", &String) },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(77) },
        Field { name: "targetPortal", ty: String },
    ] },
    // 113
    Struct { name: "NFSVolumeSource", required: &[], fields: &[
        Field { name: "path", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "server", ty: String },
    ] },
    // 114
    Struct { name: "PersistentVolumeClaimVolumeSource", required: &[], fields: &[
        Field { name: "claimName", ty: String },
        Field { name: "readOnly", ty: Bool },
    ] },
    // 115
    Struct { name: "PhotonPersistentDiskVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "pdID", ty: String },
    ] },
    // 116
    Struct { name: "PortworxVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "volumeID", ty: String },
    ] },
    // 117
    Struct { name: "ProjectedVolumeSource", required: &[], fields: &[
        Field { name: "defaultMode", ty: Int32 },
        Field { name: "sources", ty: Seq("[]v1.VolumeProjection", &Struct(118)) },
    ] },
    // 118
    Struct { name: "VolumeProjection", required: &[], fields: &[
        Field { name: "clusterTrustBundle", ty: Struct(119) },
        Field { name: "configMap", ty: Struct(120) },
        Field { name: "downwardAPI", ty: Struct(121) },
        Field { name: "podCertificate", ty: Struct(122) },
        Field { name: "secret", ty: Struct(123) },
        Field { name: "serviceAccountToken", ty: Struct(124) },
    ] },
    // 119
    Struct { name: "ClusterTrustBundleProjection", required: &[], fields: &[
        Field { name: "labelSelector", ty: Struct(36) },
        Field { name: "name", ty: String },
        Field { name: "optional", ty: Bool },
        Field { name: "path", ty: String },
        Field { name: "signerName", ty: String },
    ] },
    // 120
    Struct { name: "ConfigMapProjection", required: &[], fields: &[
        Field { name: "items", ty: Seq("[]v1.KeyToPath", &Struct(93)) },
        Field { name: "name", ty: String },
        Field { name: "optional", ty: Bool },
    ] },
    // 121
    Struct { name: "DownwardAPIProjection", required: &[], fields: &[
        Field { name: "items", ty: Seq("[]v1.KeyToPath", &Struct(96)) },
    ] },
    // 122
    Struct { name: "PodCertificateProjection", required: &[], fields: &[
        Field { name: "certificateChainPath", ty: String },
        Field { name: "credentialBundlePath", ty: String },
        Field { name: "keyPath", ty: String },
        Field { name: "keyType", ty: String },
        Field { name: "maxExpirationSeconds", ty: Int32 },
        Field { name: "signerName", ty: String },
        Field { name: "userAnnotations", ty: Map("map[string]string", &String) },
    ] },
    // 123
    Struct { name: "SecretProjection", required: &[], fields: &[
        Field { name: "items", ty: Seq("[]v1.KeyToPath", &Struct(93)) },
        Field { name: "name", ty: String },
        Field { name: "optional", ty: Bool },
    ] },
    // 124
    Struct { name: "ServiceAccountTokenProjection", required: &[], fields: &[
        Field { name: "audience", ty: String },
        Field { name: "expirationSeconds", ty: Int64 },
        Field { name: "path", ty: String },
    ] },
    // 125
    Struct { name: "QuobyteVolumeSource", required: &[], fields: &[
        Field { name: "group", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "registry", ty: String },
        Field { name: "tenant", ty: String },
        Field { name: "user", ty: String },
        Field { name: "volume", ty: String },
    ] },
    // 126
    Struct { name: "RBDVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "image", ty: String },
        Field { name: "keyring", ty: String },
        Field { name: "monitors", ty: Seq("[]string", &String) },
        Field { name: "pool", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(77) },
        Field { name: "user", ty: String },
    ] },
    // 127
    Struct { name: "ScaleIOVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "gateway", ty: String },
        Field { name: "protectionDomain", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(77) },
        Field { name: "sslEnabled", ty: Bool },
        Field { name: "storageMode", ty: String },
        Field { name: "storagePool", ty: String },
        Field { name: "system", ty: String },
        Field { name: "volumeName", ty: String },
    ] },
    // 128
    Struct { name: "SecretVolumeSource", required: &[], fields: &[
        Field { name: "defaultMode", ty: Int32 },
        Field { name: "items", ty: Seq("[]v1.KeyToPath", &Struct(93)) },
        Field { name: "optional", ty: Bool },
        Field { name: "secretName", ty: String },
    ] },
    // 129
    Struct { name: "StorageOSVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(77) },
        Field { name: "volumeName", ty: String },
        Field { name: "volumeNamespace", ty: String },
    ] },
    // 130
    Struct { name: "VsphereVirtualDiskVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "storagePolicyID", ty: String },
        Field { name: "storagePolicyName", ty: String },
        Field { name: "volumePath", ty: String },
    ] },
    // 131
    Struct { name: "WorkloadReference", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "podGroup", ty: String },
        Field { name: "podGroupReplicaKey", ty: String },
    ] },
    // 132
    Struct { name: "PodStatus", required: &[], fields: &[
        Field { name: "allocatedResources", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "conditions", ty: Seq("[]v1.PodCondition", &Struct(133)) },
        Field { name: "containerStatuses", ty: Seq("[]v1.ContainerStatus", &Struct(134)) },
        Field { name: "ephemeralContainerStatuses", ty: Seq("[]string", &Struct(134)) },
        Field { name: "extendedResourceClaimStatus", ty: Struct(144) },
        Field { name: "hostIP", ty: String },
        Field { name: "hostIPs", ty: Seq("[]v1.HostIP", &Struct(146)) },
        Field { name: "initContainerStatuses", ty: Seq("[]v1.ContainerStatus", &Struct(134)) },
        Field { name: "message", ty: String },
        Field { name: "nominatedNodeName", ty: String },
        Field { name: "observedGeneration", ty: Int64 },
        Field { name: "phase", ty: String },
        Field { name: "podIP", ty: String },
        Field { name: "podIPs", ty: Seq("[]v1.PodIP", &Struct(147)) },
        Field { name: "qosClass", ty: String },
        Field { name: "reason", ty: String },
        Field { name: "resize", ty: String },
        Field { name: "resourceClaimStatuses", ty: Seq("[]string", &Struct(148)) },
        Field { name: "resources", ty: Struct(61) },
        Field { name: "startTime", ty: Opt(&Time) },
    ] },
    // 133
    Struct { name: "PodCondition", required: &[], fields: &[
        Field { name: "lastProbeTime", ty: Opt(&Time) },
        Field { name: "lastTransitionTime", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "observedGeneration", ty: Int64 },
        Field { name: "reason", ty: String },
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 134
    Struct { name: "ContainerStatus", required: &[], fields: &[
        Field { name: "allocatedResources", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "allocatedResourcesStatus", ty: Seq("[]string", &Struct(135)) },
        Field { name: "containerID", ty: String },
        Field { name: "image", ty: String },
        Field { name: "imageID", ty: String },
        Field { name: "lastState", ty: Struct(137) },
        Field { name: "name", ty: String },
        Field { name: "ready", ty: Bool },
        Field { name: "resources", ty: Struct(61) },
        Field { name: "restartCount", ty: Int32 },
        Field { name: "started", ty: Bool },
        Field { name: "state", ty: Struct(137) },
        Field { name: "stopSignal", ty: String },
        Field { name: "user", ty: Struct(141) },
        Field { name: "volumeMounts", ty: Seq("[]v1.VolumeMount", &Struct(143)) },
    ] },
    // 135
    Struct { name: "ResourceStatus", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "resources", ty: Seq("[]string", &Struct(136)) },
    ] },
    // 136
    Struct { name: "ResourceHealth", required: &[], fields: &[
        Field { name: "health", ty: String },
        Field { name: "resourceID", ty: String },
    ] },
    // 137
    Struct { name: "ContainerState", required: &[], fields: &[
        Field { name: "running", ty: Struct(138) },
        Field { name: "terminated", ty: Struct(139) },
        Field { name: "waiting", ty: Struct(140) },
    ] },
    // 138
    Struct { name: "ContainerStateRunning", required: &[], fields: &[
        Field { name: "startedAt", ty: Opt(&Time) },
    ] },
    // 139
    Struct { name: "ContainerStateTerminated", required: &[], fields: &[
        Field { name: "containerID", ty: String },
        Field { name: "exitCode", ty: Int32 },
        Field { name: "finishedAt", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "reason", ty: String },
        Field { name: "signal", ty: Int32 },
        Field { name: "startedAt", ty: Opt(&Time) },
    ] },
    // 140
    Struct { name: "ContainerStateWaiting", required: &[], fields: &[
        Field { name: "message", ty: String },
        Field { name: "reason", ty: String },
    ] },
    // 141
    Struct { name: "ContainerUser", required: &[], fields: &[
        Field { name: "linux", ty: Struct(142) },
    ] },
    // 142
    Struct { name: "LinuxContainerUser", required: &[], fields: &[
        Field { name: "gid", ty: Int64 },
        Field { name: "supplementalGroups", ty: Seq("[]int64", &Int64) },
        Field { name: "uid", ty: Int64 },
    ] },
    // 143
    Struct { name: "VolumeMountStatus", required: &[], fields: &[
        Field { name: "mountPath", ty: String },
        Field { name: "name", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "recursiveReadOnly", ty: String },
    ] },
    // 144
    Struct { name: "PodExtendedResourceClaimStatus", required: &[], fields: &[
        Field { name: "requestMappings", ty: Seq("[]string", &Struct(145)) },
        Field { name: "resourceClaimName", ty: String },
    ] },
    // 145
    Struct { name: "ContainerExtendedResourceRequest", required: &[], fields: &[
        Field { name: "containerName", ty: String },
        Field { name: "requestName", ty: String },
        Field { name: "resourceName", ty: String },
    ] },
    // 146
    Struct { name: "HostIP", required: &[], fields: &[
        Field { name: "ip", ty: String },
    ] },
    // 147
    Struct { name: "PodIP", required: &[], fields: &[
        Field { name: "ip", ty: String },
    ] },
    // 148
    Struct { name: "PodResourceClaimStatus", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "resourceClaimName", ty: String },
    ] },
    // 149
    Struct { name: "PodTemplate", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "PodTemplate", go_type: Some("v1.PodTemplate") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "template", ty: Struct(150) },
    ] },
    // 150
    Struct { name: "PodTemplateSpec", required: &[], fields: &[
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(26) },
    ] },
    // 151
    Struct { name: "Service", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Service", go_type: Some("v1.Service") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(152) },
        Field { name: "status", ty: Struct(156) },
    ] },
    // 152
    Struct { name: "ServiceSpec", required: &[], fields: &[
        Field { name: "allocateLoadBalancerNodePorts", ty: Bool },
        Field { name: "clusterIP", ty: String },
        Field { name: "clusterIPs", ty: Seq("[]string", &String) },
        Field { name: "externalIPs", ty: Seq("[]string", &String) },
        Field { name: "externalName", ty: String },
        Field { name: "externalTrafficPolicy", ty: String },
        Field { name: "healthCheckNodePort", ty: Int32 },
        Field { name: "internalTrafficPolicy", ty: String },
        Field { name: "ipFamilies", ty: Seq("[]string", &String) },
        Field { name: "ipFamilyPolicy", ty: String },
        Field { name: "loadBalancerClass", ty: String },
        Field { name: "loadBalancerIP", ty: String },
        Field { name: "loadBalancerSourceRanges", ty: Seq("[]string", &String) },
        Field { name: "ports", ty: Seq("[]v1.ServicePort", &Struct(153)) },
        Field { name: "publishNotReadyAddresses", ty: Bool },
        Field { name: "selector", ty: Map("map[string]string", &String) },
        Field { name: "sessionAffinity", ty: String },
        Field { name: "sessionAffinityConfig", ty: Struct(154) },
        Field { name: "trafficDistribution", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 153
    Struct { name: "ServicePort", required: &[], fields: &[
        Field { name: "appProtocol", ty: String },
        Field { name: "name", ty: String },
        Field { name: "nodePort", ty: Int32 },
        Field { name: "port", ty: Int32 },
        Field { name: "protocol", ty: String },
        Field { name: "targetPort", ty: Opt(&IntOrString) },
    ] },
    // 154
    Struct { name: "SessionAffinityConfig", required: &[], fields: &[
        Field { name: "clientIP", ty: Struct(155) },
    ] },
    // 155
    Struct { name: "ClientIPConfig", required: &[], fields: &[
        Field { name: "timeoutSeconds", ty: Int32 },
    ] },
    // 156
    Struct { name: "ServiceStatus", required: &[], fields: &[
        Field { name: "conditions", ty: Seq("[]v1.Condition", &Struct(157)) },
        Field { name: "loadBalancer", ty: Struct(158) },
    ] },
    // 157
    Struct { name: "Condition", required: &["lastTransitionTime"], fields: &[
        Field { name: "lastTransitionTime", ty: Time },
        Field { name: "message", ty: String },
        Field { name: "observedGeneration", ty: Int64 },
        Field { name: "reason", ty: String },
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 158
    Struct { name: "LoadBalancerStatus", required: &[], fields: &[
        Field { name: "ingress", ty: Seq("[]v1.NetworkPolicyIngressRule", &Struct(159)) },
    ] },
    // 159
    Struct { name: "LoadBalancerIngress", required: &[], fields: &[
        Field { name: "hostname", ty: String },
        Field { name: "ip", ty: String },
        Field { name: "ipMode", ty: String },
        Field { name: "ports", ty: Seq("[]v1.ContainerPort", &Struct(160)) },
    ] },
    // 160
    Struct { name: "PortStatus", required: &[], fields: &[
        Field { name: "error", ty: String },
        Field { name: "port", ty: Int32 },
        Field { name: "protocol", ty: String },
    ] },
    // 161
    Struct { name: "Endpoints", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Endpoints", go_type: Some("v1.Endpoints") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "subsets", ty: Seq("[]v1.EndpointSubset", &Struct(162)) },
    ] },
    // 162
    Struct { name: "EndpointSubset", required: &[], fields: &[
        Field { name: "addresses", ty: Seq("[]v1.EndpointAddress", &Struct(163)) },
        Field { name: "notReadyAddresses", ty: Seq("[]v1.EndpointAddress", &Struct(163)) },
        Field { name: "ports", ty: Seq("[]v1.EndpointPort", &Struct(165)) },
    ] },
    // 163
    Struct { name: "EndpointAddress", required: &[], fields: &[
        Field { name: "hostname", ty: String },
        Field { name: "ip", ty: String },
        Field { name: "nodeName", ty: String },
        Field { name: "targetRef", ty: Struct(164) },
    ] },
    // 164
    Struct { name: "ObjectReference", required: &[], fields: &[
        Field { name: "apiVersion", ty: String },
        Field { name: "fieldPath", ty: String },
        Field { name: "kind", ty: String },
        Field { name: "name", ty: String },
        Field { name: "namespace", ty: String },
        Field { name: "resourceVersion", ty: String },
        Field { name: "uid", ty: String },
    ] },
    // 165
    Struct { name: "EndpointPort", required: &[], fields: &[
        Field { name: "appProtocol", ty: String },
        Field { name: "name", ty: String },
        Field { name: "port", ty: Int32 },
        Field { name: "protocol", ty: String },
    ] },
    // 166
    Struct { name: "ConfigMap", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "ConfigMap", go_type: Some("v1.ConfigMap") } },
        Field { name: "binaryData", ty: Map("map[string][]uint8", &Bytes) },
        Field { name: "data", ty: Map("map[string]string", &String) },
        Field { name: "immutable", ty: Bool },
        Field { name: "metadata", ty: Struct(1) },
    ] },
    // 167
    Struct { name: "Secret", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Secret", go_type: Some("v1.Secret") } },
        Field { name: "data", ty: Map("map[string][]uint8", &Bytes) },
        Field { name: "immutable", ty: Bool },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "stringData", ty: Map("map[string]string", &String) },
        Field { name: "type", ty: String },
    ] },
    // 168
    Struct { name: "Event", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Event", go_type: Some("v1.Event") } },
        Field { name: "action", ty: String },
        Field { name: "count", ty: Int32 },
        Field { name: "eventTime", ty: Opt(&Time) },
        Field { name: "firstTimestamp", ty: Opt(&Time) },
        Field { name: "involvedObject", ty: Struct(164) },
        Field { name: "lastTimestamp", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "reason", ty: String },
        Field { name: "related", ty: Struct(164) },
        Field { name: "reportingComponent", ty: String },
        Field { name: "reportingInstance", ty: String },
        Field { name: "series", ty: Struct(169) },
        Field { name: "source", ty: Struct(170) },
        Field { name: "type", ty: String },
    ] },
    // 169
    Struct { name: "EventSeries", required: &[], fields: &[
        Field { name: "count", ty: Int32 },
        Field { name: "lastObservedTime", ty: Opt(&Time) },
    ] },
    // 170
    Struct { name: "EventSource", required: &[], fields: &[
        Field { name: "component", ty: String },
        Field { name: "host", ty: String },
    ] },
    // 171
    Struct { name: "ServiceAccount", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "ServiceAccount", go_type: Some("v1.ServiceAccount") } },
        Field { name: "automountServiceAccountToken", ty: Bool },
        Field { name: "imagePullSecrets", ty: Seq("[]v1.LocalObjectReference", &Struct(77)) },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "secrets", ty: Seq("[]v1.ObjectReference", &Struct(164)) },
    ] },
    // 172
    Struct { name: "PersistentVolume", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "PersistentVolume", go_type: Some("v1.PersistentVolume") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(173) },
        Field { name: "status", ty: Struct(187) },
    ] },
    // 173
    Struct { name: "PersistentVolumeSpec", required: &[], fields: &[
        Field { name: "accessModes", ty: Seq("[]string", &String) },
        Field { name: "awsElasticBlockStore", ty: Struct(87) },
        Field { name: "azureDisk", ty: Struct(88) },
        Field { name: "azureFile", ty: Struct(174) },
        Field { name: "capacity", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "cephfs", ty: Struct(175) },
        Field { name: "cinder", ty: Struct(177) },
        Field { name: "claimRef", ty: Struct(164) },
        Field { name: "csi", ty: Struct(178) },
        Field { name: "fc", ty: Struct(104) },
        Field { name: "flexVolume", ty: Struct(179) },
        Field { name: "flocker", ty: Struct(106) },
        Field { name: "gcePersistentDisk", ty: Struct(107) },
        Field { name: "glusterfs", ty: Struct(180) },
        Field { name: "hostPath", ty: Struct(110) },
        Field { name: "iscsi", ty: Struct(181) },
        Field { name: "local", ty: Struct(182) },
        Field { name: "mountOptions", ty: Seq("[]string", &String) },
        Field { name: "nfs", ty: Struct(113) },
        Field { name: "nodeAffinity", ty: Struct(183) },
        Field { name: "persistentVolumeReclaimPolicy", ty: String },
        Field { name: "photonPersistentDisk", ty: Struct(115) },
        Field { name: "portworxVolume", ty: Struct(116) },
        Field { name: "quobyte", ty: Struct(125) },
        Field { name: "rbd", ty: Struct(184) },
        Field { name: "scaleIO", ty: Struct(185) },
        Field { name: "storageClassName", ty: String },
        Field { name: "storageos", ty: Struct(186) },
        Field { name: "volumeAttributesClassName", ty: String },
        Field { name: "volumeMode", ty: String },
        Field { name: "vsphereVolume", ty: Struct(130) },
    ] },
    // 174
    Struct { name: "AzureFilePersistentVolumeSource", required: &[], fields: &[
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretName", ty: String },
        Field { name: "secretNamespace", ty: String },
        Field { name: "shareName", ty: String },
    ] },
    // 175
    Struct { name: "CephFSPersistentVolumeSource", required: &[], fields: &[
        Field { name: "monitors", ty: Seq("[]string", &String) },
        Field { name: "path", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretFile", ty: String },
        Field { name: "secretRef", ty: Struct(176) },
        Field { name: "user", ty: String },
    ] },
    // 176
    Struct { name: "SecretReference", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "namespace", ty: String },
    ] },
    // 177
    Struct { name: "CinderPersistentVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(176) },
        Field { name: "volumeID", ty: String },
    ] },
    // 178
    Struct { name: "CSIPersistentVolumeSource", required: &[], fields: &[
        Field { name: "controllerExpandSecretRef", ty: Struct(176) },
        Field { name: "controllerPublishSecretRef", ty: Struct(176) },
        Field { name: "driver", ty: String },
        Field { name: "fsType", ty: String },
        Field { name: "nodeExpandSecretRef", ty: Struct(176) },
        Field { name: "nodePublishSecretRef", ty: Struct(176) },
        Field { name: "nodeStageSecretRef", ty: Struct(176) },
        Field { name: "readOnly", ty: Bool },
        Field { name: "volumeAttributes", ty: Map("map[string]string", &String) },
        Field { name: "volumeHandle", ty: String },
    ] },
    // 179
    Struct { name: "FlexPersistentVolumeSource", required: &[], fields: &[
        Field { name: "driver", ty: String },
        Field { name: "fsType", ty: String },
        Field { name: "options", ty: Map("map[string]string", &String) },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(176) },
    ] },
    // 180
    Struct { name: "GlusterfsPersistentVolumeSource", required: &[], fields: &[
        Field { name: "endpoints", ty: String },
        Field { name: "endpointsNamespace", ty: String },
        Field { name: "path", ty: String },
        Field { name: "readOnly", ty: Bool },
    ] },
    // 181
    Struct { name: "ISCSIPersistentVolumeSource", required: &[], fields: &[
        Field { name: "chapAuthDiscovery", ty: Bool },
        Field { name: "chapAuthSession", ty: Bool },
        Field { name: "fsType", ty: String },
        Field { name: "initiatorName", ty: String },
        Field { name: "iqn", ty: String },
        Field { name: "iscsiInterface", ty: String },
        Field { name: "lun", ty: Int32 },
        Field { name: "portals", ty: Seq("[]string", &String) },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(176) },
        Field { name: "targetPortal", ty: String },
    ] },
    // 182
    Struct { name: "LocalVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "path", ty: String },
    ] },
    // 183
    Struct { name: "VolumeNodeAffinity", required: &[], fields: &[
        Field { name: "required", ty: Struct(32) },
    ] },
    // 184
    Struct { name: "RBDPersistentVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "image", ty: String },
        Field { name: "keyring", ty: String },
        Field { name: "monitors", ty: Seq("[]string", &String) },
        Field { name: "pool", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(176) },
        Field { name: "user", ty: String },
    ] },
    // 185
    Struct { name: "ScaleIOPersistentVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "gateway", ty: String },
        Field { name: "protectionDomain", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(176) },
        Field { name: "sslEnabled", ty: Bool },
        Field { name: "storageMode", ty: String },
        Field { name: "storagePool", ty: String },
        Field { name: "system", ty: String },
        Field { name: "volumeName", ty: String },
    ] },
    // 186
    Struct { name: "StorageOSPersistentVolumeSource", required: &[], fields: &[
        Field { name: "fsType", ty: String },
        Field { name: "readOnly", ty: Bool },
        Field { name: "secretRef", ty: Struct(164) },
        Field { name: "volumeName", ty: String },
        Field { name: "volumeNamespace", ty: String },
    ] },
    // 187
    Struct { name: "PersistentVolumeStatus", required: &[], fields: &[
        Field { name: "lastPhaseTransitionTime", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "phase", ty: String },
        Field { name: "reason", ty: String },
    ] },
    // 188
    Struct { name: "PersistentVolumeClaim", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "PersistentVolumeClaim", go_type: Some("v1.PersistentVolumeClaim") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(100) },
        Field { name: "status", ty: Struct(189) },
    ] },
    // 189
    Struct { name: "PersistentVolumeClaimStatus", required: &[], fields: &[
        Field { name: "accessModes", ty: Seq("[]string", &String) },
        Field { name: "allocatedResourceStatuses", ty: Map("map[string]string", &String) },
        Field { name: "allocatedResources", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "capacity", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "conditions", ty: Seq("[]v1.Condition", &Struct(190)) },
        Field { name: "currentVolumeAttributesClassName", ty: String },
        Field { name: "modifyVolumeStatus", ty: Struct(191) },
        Field { name: "phase", ty: String },
    ] },
    // 190
    Struct { name: "PersistentVolumeClaimCondition", required: &[], fields: &[
        Field { name: "lastProbeTime", ty: Opt(&Time) },
        Field { name: "lastTransitionTime", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "reason", ty: String },
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 191
    Struct { name: "ModifyVolumeStatus", required: &[], fields: &[
        Field { name: "status", ty: String },
        Field { name: "targetVolumeAttributesClassName", ty: String },
    ] },
    // 192
    Struct { name: "ResourceQuota", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "ResourceQuota", go_type: Some("v1.ResourceQuota") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(193) },
        Field { name: "status", ty: Struct(196) },
    ] },
    // 193
    Struct { name: "ResourceQuotaSpec", required: &[], fields: &[
        Field { name: "hard", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "scopeSelector", ty: Struct(194) },
        Field { name: "scopes", ty: Seq("[]string", &String) },
    ] },
    // 194
    Struct { name: "ScopeSelector", required: &[], fields: &[
        Field { name: "matchExpressions", ty: Seq("[]v1.LabelSelectorRequirement", &Struct(195)) },
    ] },
    // 195
    Struct { name: "ScopedResourceSelectorRequirement", required: &[], fields: &[
        Field { name: "operator", ty: String },
        Field { name: "scopeName", ty: String },
        Field { name: "values", ty: Seq("[]string", &String) },
    ] },
    // 196
    Struct { name: "ResourceQuotaStatus", required: &[], fields: &[
        Field { name: "hard", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "used", ty: Map("v1.ResourceList", &Quantity) },
    ] },
    // 197
    Struct { name: "LimitRange", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "LimitRange", go_type: Some("v1.LimitRange") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(198) },
    ] },
    // 198
    Struct { name: "LimitRangeSpec", required: &[], fields: &[
        Field { name: "limits", ty: Seq("[]v1.LimitRangeItem", &Struct(199)) },
    ] },
    // 199
    Struct { name: "LimitRangeItem", required: &[], fields: &[
        Field { name: "default", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "defaultRequest", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "max", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "maxLimitRequestRatio", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "min", ty: Map("v1.ResourceList", &Quantity) },
        Field { name: "type", ty: String },
    ] },
    // 200
    Struct { name: "ReplicationController", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "ReplicationController", go_type: Some("v1.ReplicationController") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(201) },
        Field { name: "status", ty: Struct(202) },
    ] },
    // 201
    Struct { name: "ReplicationControllerSpec", required: &[], fields: &[
        Field { name: "minReadySeconds", ty: Int32 },
        Field { name: "replicas", ty: Int32 },
        Field { name: "selector", ty: Map("map[string]string", &String) },
        Field { name: "template", ty: Struct(150) },
    ] },
    // 202
    Struct { name: "ReplicationControllerStatus", required: &[], fields: &[
        Field { name: "availableReplicas", ty: Int32 },
        Field { name: "conditions", ty: Seq("[]v1.Condition", &Struct(203)) },
        Field { name: "fullyLabeledReplicas", ty: Int32 },
        Field { name: "observedGeneration", ty: Int64 },
        Field { name: "readyReplicas", ty: Int32 },
        Field { name: "replicas", ty: Int32 },
    ] },
    // 203
    Struct { name: "ReplicationControllerCondition", required: &[], fields: &[
        Field { name: "lastTransitionTime", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "reason", ty: String },
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 204
    Struct { name: "Deployment", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "apps/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Deployment", go_type: Some("v1.Deployment") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(205) },
        Field { name: "status", ty: Struct(208) },
    ] },
    // 205
    Struct { name: "DeploymentSpec", required: &[], fields: &[
        Field { name: "minReadySeconds", ty: Int32 },
        Field { name: "paused", ty: Bool },
        Field { name: "progressDeadlineSeconds", ty: Int32 },
        Field { name: "replicas", ty: Int32 },
        Field { name: "revisionHistoryLimit", ty: Int32 },
        Field { name: "selector", ty: Struct(36) },
        Field { name: "strategy", ty: Struct(206) },
        Field { name: "template", ty: Struct(150) },
    ] },
    // 206
    Struct { name: "DeploymentStrategy", required: &[], fields: &[
        Field { name: "rollingUpdate", ty: Struct(207) },
        Field { name: "type", ty: String },
    ] },
    // 207
    Struct { name: "RollingUpdateDeployment", required: &[], fields: &[
        Field { name: "maxSurge", ty: Opt(&IntOrString) },
        Field { name: "maxUnavailable", ty: Opt(&IntOrString) },
    ] },
    // 208
    Struct { name: "DeploymentStatus", required: &[], fields: &[
        Field { name: "availableReplicas", ty: Int32 },
        Field { name: "collisionCount", ty: Int32 },
        Field { name: "conditions", ty: Seq("[]v1.DeploymentCondition", &Struct(209)) },
        Field { name: "observedGeneration", ty: Int64 },
        Field { name: "readyReplicas", ty: Int32 },
        Field { name: "replicas", ty: Int32 },
        Field { name: "terminatingReplicas", ty: Int32 },
        Field { name: "unavailableReplicas", ty: Int32 },
        Field { name: "updatedReplicas", ty: Int32 },
    ] },
    // 209
    Struct { name: "DeploymentCondition", required: &[], fields: &[
        Field { name: "lastTransitionTime", ty: Opt(&Time) },
        Field { name: "lastUpdateTime", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "reason", ty: String },
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 210
    Struct { name: "ReplicaSet", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "apps/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "ReplicaSet", go_type: Some("v1.ReplicaSet") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(211) },
        Field { name: "status", ty: Struct(212) },
    ] },
    // 211
    Struct { name: "ReplicaSetSpec", required: &[], fields: &[
        Field { name: "minReadySeconds", ty: Int32 },
        Field { name: "replicas", ty: Int32 },
        Field { name: "selector", ty: Struct(36) },
        Field { name: "template", ty: Struct(150) },
    ] },
    // 212
    Struct { name: "ReplicaSetStatus", required: &[], fields: &[
        Field { name: "availableReplicas", ty: Int32 },
        Field { name: "conditions", ty: Seq("[]v1.Condition", &Struct(213)) },
        Field { name: "fullyLabeledReplicas", ty: Int32 },
        Field { name: "observedGeneration", ty: Int64 },
        Field { name: "readyReplicas", ty: Int32 },
        Field { name: "replicas", ty: Int32 },
        Field { name: "terminatingReplicas", ty: Int32 },
    ] },
    // 213
    Struct { name: "ReplicaSetCondition", required: &[], fields: &[
        Field { name: "lastTransitionTime", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "reason", ty: String },
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 214
    Struct { name: "StatefulSet", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "apps/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "StatefulSet", go_type: Some("v1.StatefulSet") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(215) },
        Field { name: "status", ty: Struct(220) },
    ] },
    // 215
    Struct { name: "StatefulSetSpec", required: &[], fields: &[
        Field { name: "minReadySeconds", ty: Int32 },
        Field { name: "ordinals", ty: Struct(216) },
        Field { name: "persistentVolumeClaimRetentionPolicy", ty: Struct(217) },
        Field { name: "podManagementPolicy", ty: String },
        Field { name: "replicas", ty: Int32 },
        Field { name: "revisionHistoryLimit", ty: Int32 },
        Field { name: "selector", ty: Struct(36) },
        Field { name: "serviceName", ty: String },
        Field { name: "template", ty: Struct(150) },
        Field { name: "updateStrategy", ty: Struct(218) },
        Field { name: "volumeClaimTemplates", ty: Seq("[]v1.PersistentVolumeClaim", &Struct(188)) },
    ] },
    // 216
    Struct { name: "StatefulSetOrdinals", required: &[], fields: &[
        Field { name: "start", ty: Int32 },
    ] },
    // 217
    Struct { name: "StatefulSetPersistentVolumeClaimRetentionPolicy", required: &[], fields: &[
        Field { name: "whenDeleted", ty: String },
        Field { name: "whenScaled", ty: String },
    ] },
    // 218
    Struct { name: "StatefulSetUpdateStrategy", required: &[], fields: &[
        Field { name: "rollingUpdate", ty: Struct(219) },
        Field { name: "type", ty: String },
    ] },
    // 219
    Struct { name: "RollingUpdateStatefulSetStrategy", required: &[], fields: &[
        Field { name: "maxUnavailable", ty: Opt(&IntOrString) },
        Field { name: "partition", ty: Int32 },
    ] },
    // 220
    Struct { name: "StatefulSetStatus", required: &[], fields: &[
        Field { name: "availableReplicas", ty: Int32 },
        Field { name: "collisionCount", ty: Int32 },
        Field { name: "conditions", ty: Seq("[]v1.Condition", &Struct(221)) },
        Field { name: "currentReplicas", ty: Int32 },
        Field { name: "currentRevision", ty: String },
        Field { name: "observedGeneration", ty: Int64 },
        Field { name: "readyReplicas", ty: Int32 },
        Field { name: "replicas", ty: Int32 },
        Field { name: "updateRevision", ty: String },
        Field { name: "updatedReplicas", ty: Int32 },
    ] },
    // 221
    Struct { name: "StatefulSetCondition", required: &[], fields: &[
        Field { name: "lastTransitionTime", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "reason", ty: String },
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 222
    Struct { name: "DaemonSet", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "apps/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "DaemonSet", go_type: Some("v1.DaemonSet") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(223) },
        Field { name: "status", ty: Struct(226) },
    ] },
    // 223
    Struct { name: "DaemonSetSpec", required: &[], fields: &[
        Field { name: "minReadySeconds", ty: Int32 },
        Field { name: "revisionHistoryLimit", ty: Int32 },
        Field { name: "selector", ty: Struct(36) },
        Field { name: "template", ty: Struct(150) },
        Field { name: "updateStrategy", ty: Struct(224) },
    ] },
    // 224
    Struct { name: "DaemonSetUpdateStrategy", required: &[], fields: &[
        Field { name: "rollingUpdate", ty: Struct(225) },
        Field { name: "type", ty: String },
    ] },
    // 225
    Struct { name: "RollingUpdateDaemonSet", required: &[], fields: &[
        Field { name: "maxSurge", ty: Opt(&IntOrString) },
        Field { name: "maxUnavailable", ty: Opt(&IntOrString) },
    ] },
    // 226
    Struct { name: "DaemonSetStatus", required: &[], fields: &[
        Field { name: "collisionCount", ty: Int32 },
        Field { name: "conditions", ty: Seq("[]v1.Condition", &Struct(227)) },
        Field { name: "currentNumberScheduled", ty: Int32 },
        Field { name: "desiredNumberScheduled", ty: Int32 },
        Field { name: "numberAvailable", ty: Int32 },
        Field { name: "numberMisscheduled", ty: Int32 },
        Field { name: "numberReady", ty: Int32 },
        Field { name: "numberUnavailable", ty: Int32 },
        Field { name: "observedGeneration", ty: Int64 },
        Field { name: "updatedNumberScheduled", ty: Int32 },
    ] },
    // 227
    Struct { name: "DaemonSetCondition", required: &[], fields: &[
        Field { name: "lastTransitionTime", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "reason", ty: String },
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 228
    Struct { name: "ControllerRevision", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "apps/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "ControllerRevision", go_type: Some("v1.ControllerRevision") } },
        Field { name: "data", ty: Any },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "revision", ty: Int64 },
    ] },
    // 229
    Struct { name: "Job", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "batch/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Job", go_type: Some("v1.Job") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(230) },
        Field { name: "status", ty: Struct(237) },
    ] },
    // 230
    Struct { name: "JobSpec", required: &[], fields: &[
        Field { name: "activeDeadlineSeconds", ty: Int64 },
        Field { name: "backoffLimit", ty: Int32 },
        Field { name: "backoffLimitPerIndex", ty: Int32 },
        Field { name: "completionMode", ty: String },
        Field { name: "completions", ty: Int32 },
        Field { name: "managedBy", ty: String },
        Field { name: "manualSelector", ty: Bool },
        Field { name: "maxFailedIndexes", ty: Int32 },
        Field { name: "parallelism", ty: Int32 },
        Field { name: "podFailurePolicy", ty: Struct(231) },
        Field { name: "podReplacementPolicy", ty: String },
        Field { name: "selector", ty: Struct(36) },
        Field { name: "successPolicy", ty: Struct(235) },
        Field { name: "suspend", ty: Bool },
        Field { name: "template", ty: Struct(150) },
        Field { name: "ttlSecondsAfterFinished", ty: Int32 },
    ] },
    // 231
    Struct { name: "PodFailurePolicy", required: &[], fields: &[
        Field { name: "rules", ty: Seq("[]string", &Struct(232)) },
    ] },
    // 232
    Struct { name: "PodFailurePolicyRule", required: &[], fields: &[
        Field { name: "action", ty: String },
        Field { name: "onExitCodes", ty: Struct(233) },
        Field { name: "onPodConditions", ty: Seq("[]string", &Struct(234)) },
    ] },
    // 233
    Struct { name: "PodFailurePolicyOnExitCodesRequirement", required: &[], fields: &[
        Field { name: "containerName", ty: String },
        Field { name: "operator", ty: String },
        Field { name: "values", ty: Seq("[]string", &Int32) },
    ] },
    // 234
    Struct { name: "PodFailurePolicyOnPodConditionsPattern", required: &[], fields: &[
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 235
    Struct { name: "SuccessPolicy", required: &[], fields: &[
        Field { name: "rules", ty: Seq("[]string", &Struct(236)) },
    ] },
    // 236
    Struct { name: "SuccessPolicyRule", required: &[], fields: &[
        Field { name: "succeededCount", ty: Int32 },
        Field { name: "succeededIndexes", ty: String },
    ] },
    // 237
    Struct { name: "JobStatus", required: &[], fields: &[
        Field { name: "active", ty: Int32 },
        Field { name: "completedIndexes", ty: String },
        Field { name: "completionTime", ty: Opt(&Time) },
        Field { name: "conditions", ty: Seq("[]v1.Condition", &Struct(238)) },
        Field { name: "failed", ty: Int32 },
        Field { name: "failedIndexes", ty: String },
        Field { name: "ready", ty: Int32 },
        Field { name: "startTime", ty: Opt(&Time) },
        Field { name: "succeeded", ty: Int32 },
        Field { name: "terminating", ty: Int32 },
        Field { name: "uncountedTerminatedPods", ty: Struct(239) },
    ] },
    // 238
    Struct { name: "JobCondition", required: &[], fields: &[
        Field { name: "lastProbeTime", ty: Opt(&Time) },
        Field { name: "lastTransitionTime", ty: Opt(&Time) },
        Field { name: "message", ty: String },
        Field { name: "reason", ty: String },
        Field { name: "status", ty: String },
        Field { name: "type", ty: String },
    ] },
    // 239
    Struct { name: "UncountedTerminatedPods", required: &[], fields: &[
        Field { name: "failed", ty: Seq("[]string", &String) },
        Field { name: "succeeded", ty: Seq("[]string", &String) },
    ] },
    // 240
    Struct { name: "CronJob", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "batch/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "CronJob", go_type: Some("v1.CronJob") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(241) },
        Field { name: "status", ty: Struct(243) },
    ] },
    // 241
    Struct { name: "CronJobSpec", required: &[], fields: &[
        Field { name: "concurrencyPolicy", ty: String },
        Field { name: "failedJobsHistoryLimit", ty: Int32 },
        Field { name: "jobTemplate", ty: Struct(242) },
        Field { name: "schedule", ty: String },
        Field { name: "startingDeadlineSeconds", ty: Int64 },
        Field { name: "successfulJobsHistoryLimit", ty: Int32 },
        Field { name: "suspend", ty: Bool },
        Field { name: "timeZone", ty: String },
    ] },
    // 242
    Struct { name: "JobTemplateSpec", required: &[], fields: &[
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(230) },
    ] },
    // 243
    Struct { name: "CronJobStatus", required: &[], fields: &[
        Field { name: "active", ty: Seq("[]string", &Struct(164)) },
        Field { name: "lastScheduleTime", ty: Opt(&Time) },
        Field { name: "lastSuccessfulTime", ty: Opt(&Time) },
    ] },
    // 244
    Struct { name: "Lease", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "coordination.k8s.io/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Lease", go_type: Some("v1.Lease") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(245) },
    ] },
    // 245
    Struct { name: "LeaseSpec", required: &[], fields: &[
        Field { name: "acquireTime", ty: Opt(&Time) },
        Field { name: "holderIdentity", ty: String },
        Field { name: "leaseDurationSeconds", ty: Int32 },
        Field { name: "leaseTransitions", ty: Int32 },
        Field { name: "preferredHolder", ty: String },
        Field { name: "renewTime", ty: Opt(&Time) },
        Field { name: "strategy", ty: String },
    ] },
    // 246
    Struct { name: "EndpointSlice", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "discovery.k8s.io/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "EndpointSlice", go_type: Some("v1.EndpointSlice") } },
        Field { name: "addressType", ty: String },
        Field { name: "endpoints", ty: Seq("[]v1.Endpoint", &Struct(247)) },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "ports", ty: Seq("[]v1.EndpointPort", &Struct(252)) },
    ] },
    // 247
    Struct { name: "Endpoint", required: &[], fields: &[
        Field { name: "addresses", ty: Seq("[]string", &String) },
        Field { name: "conditions", ty: Struct(248) },
        Field { name: "deprecatedTopology", ty: Map("map[string]string", &String) },
        Field { name: "hints", ty: Struct(249) },
        Field { name: "hostname", ty: String },
        Field { name: "nodeName", ty: String },
        Field { name: "targetRef", ty: Struct(164) },
        Field { name: "zone", ty: String },
    ] },
    // 248
    Struct { name: "EndpointConditions", required: &[], fields: &[
        Field { name: "ready", ty: Bool },
        Field { name: "serving", ty: Bool },
        Field { name: "terminating", ty: Bool },
    ] },
    // 249
    Struct { name: "EndpointHints", required: &[], fields: &[
        Field { name: "forNodes", ty: Seq("[]string", &Struct(250)) },
        Field { name: "forZones", ty: Seq("[]string", &Struct(251)) },
    ] },
    // 250
    Struct { name: "ForNode", required: &[], fields: &[
        Field { name: "name", ty: String },
    ] },
    // 251
    Struct { name: "ForZone", required: &[], fields: &[
        Field { name: "name", ty: String },
    ] },
    // 252
    Struct { name: "EndpointPort", required: &[], fields: &[
        Field { name: "appProtocol", ty: String },
        Field { name: "name", ty: String },
        Field { name: "port", ty: Int32 },
        Field { name: "protocol", ty: String },
    ] },
    // 253
    Struct { name: "Ingress", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "networking.k8s.io/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Ingress", go_type: Some("v1.Ingress") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(254) },
        Field { name: "status", ty: Struct(262) },
    ] },
    // 254
    Struct { name: "IngressSpec", required: &[], fields: &[
        Field { name: "defaultBackend", ty: Struct(255) },
        Field { name: "ingressClassName", ty: String },
        Field { name: "rules", ty: Seq("[]v1.IngressRule", &Struct(258)) },
        Field { name: "tls", ty: Seq("[]string", &Struct(261)) },
    ] },
    // 255
    Struct { name: "IngressBackend", required: &[], fields: &[
        Field { name: "resource", ty: Struct(101) },
        Field { name: "service", ty: Struct(256) },
    ] },
    // 256
    Struct { name: "IngressServiceBackend", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "port", ty: Struct(257) },
    ] },
    // 257
    Struct { name: "ServiceBackendPort", required: &[], fields: &[
        Field { name: "name", ty: String },
        Field { name: "number", ty: Int32 },
    ] },
    // 258
    Struct { name: "IngressRule", required: &[], fields: &[
        Field { name: "host", ty: String },
        Field { name: "http", ty: Struct(259) },
    ] },
    // 259
    Struct { name: "HTTPIngressRuleValue", required: &[], fields: &[
        Field { name: "paths", ty: Seq("[]string", &Struct(260)) },
    ] },
    // 260
    Struct { name: "HTTPIngressPath", required: &[], fields: &[
        Field { name: "backend", ty: Struct(255) },
        Field { name: "path", ty: String },
        Field { name: "pathType", ty: String },
    ] },
    // 261
    Struct { name: "IngressTLS", required: &[], fields: &[
        Field { name: "hosts", ty: Seq("[]string", &String) },
        Field { name: "secretName", ty: String },
    ] },
    // 262
    Struct { name: "IngressStatus", required: &[], fields: &[
        Field { name: "loadBalancer", ty: Struct(263) },
    ] },
    // 263
    Struct { name: "IngressLoadBalancerStatus", required: &[], fields: &[
        Field { name: "ingress", ty: Seq("[]v1.NetworkPolicyIngressRule", &Struct(264)) },
    ] },
    // 264
    Struct { name: "IngressLoadBalancerIngress", required: &[], fields: &[
        Field { name: "hostname", ty: String },
        Field { name: "ip", ty: String },
        Field { name: "ports", ty: Seq("[]v1.ContainerPort", &Struct(265)) },
    ] },
    // 265
    Struct { name: "IngressPortStatus", required: &[], fields: &[
        Field { name: "error", ty: String },
        Field { name: "port", ty: Int32 },
        Field { name: "protocol", ty: String },
    ] },
    // 266
    Struct { name: "NetworkPolicy", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "networking.k8s.io/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "NetworkPolicy", go_type: Some("v1.NetworkPolicy") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(267) },
    ] },
    // 267
    Struct { name: "NetworkPolicySpec", required: &[], fields: &[
        Field { name: "egress", ty: Seq("[]v1.NetworkPolicyEgressRule", &Struct(268)) },
        Field { name: "ingress", ty: Seq("[]v1.NetworkPolicyIngressRule", &Struct(272)) },
        Field { name: "podSelector", ty: Struct(36) },
        Field { name: "policyTypes", ty: Seq("[]string", &String) },
    ] },
    // 268
    Struct { name: "NetworkPolicyEgressRule", required: &[], fields: &[
        Field { name: "ports", ty: Seq("[]v1.NetworkPolicyPort", &Struct(269)) },
        Field { name: "to", ty: Seq("[]string", &Struct(270)) },
    ] },
    // 269
    Struct { name: "NetworkPolicyPort", required: &[], fields: &[
        Field { name: "endPort", ty: Int32 },
        Field { name: "port", ty: Opt(&IntOrString) },
        Field { name: "protocol", ty: String },
    ] },
    // 270
    Struct { name: "NetworkPolicyPeer", required: &[], fields: &[
        Field { name: "ipBlock", ty: Struct(271) },
        Field { name: "namespaceSelector", ty: Struct(36) },
        Field { name: "podSelector", ty: Struct(36) },
    ] },
    // 271
    Struct { name: "IPBlock", required: &[], fields: &[
        Field { name: "cidr", ty: String },
        Field { name: "except", ty: Seq("[]string", &String) },
    ] },
    // 272
    Struct { name: "NetworkPolicyIngressRule", required: &[], fields: &[
        Field { name: "from", ty: Seq("[]string", &Struct(270)) },
        Field { name: "ports", ty: Seq("[]v1.NetworkPolicyPort", &Struct(269)) },
    ] },
    // 273
    Struct { name: "PodDisruptionBudget", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "policy/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "PodDisruptionBudget", go_type: Some("v1.PodDisruptionBudget") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "spec", ty: Struct(274) },
        Field { name: "status", ty: Struct(275) },
    ] },
    // 274
    Struct { name: "PodDisruptionBudgetSpec", required: &[], fields: &[
        Field { name: "maxUnavailable", ty: Opt(&IntOrString) },
        Field { name: "minAvailable", ty: Opt(&IntOrString) },
        Field { name: "selector", ty: Struct(36) },
        Field { name: "unhealthyPodEvictionPolicy", ty: String },
    ] },
    // 275
    Struct { name: "PodDisruptionBudgetStatus", required: &[], fields: &[
        Field { name: "conditions", ty: Seq("[]v1.Condition", &Struct(157)) },
        Field { name: "currentHealthy", ty: Int32 },
        Field { name: "desiredHealthy", ty: Int32 },
        Field { name: "disruptedPods", ty: Map("map[string]string", &Time) },
        Field { name: "disruptionsAllowed", ty: Int32 },
        Field { name: "expectedPods", ty: Int32 },
        Field { name: "observedGeneration", ty: Int64 },
    ] },
    // 276
    Struct { name: "Role", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "rbac.authorization.k8s.io/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "Role", go_type: Some("v1.Role") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "rules", ty: Seq("[]v1.PolicyRule", &Struct(277)) },
    ] },
    // 277
    Struct { name: "PolicyRule", required: &[], fields: &[
        Field { name: "apiGroups", ty: Seq("[]string", &String) },
        Field { name: "nonResourceURLs", ty: Seq("[]string", &String) },
        Field { name: "resourceNames", ty: Seq("[]string", &String) },
        Field { name: "resources", ty: Seq("[]string", &String) },
        Field { name: "verbs", ty: Seq("[]string", &String) },
    ] },
    // 278
    Struct { name: "RoleBinding", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "rbac.authorization.k8s.io/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "RoleBinding", go_type: Some("v1.RoleBinding") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "roleRef", ty: Struct(279) },
        Field { name: "subjects", ty: Seq("[]v1.Subject", &Struct(280)) },
    ] },
    // 279
    Struct { name: "RoleRef", required: &[], fields: &[
        Field { name: "apiGroup", ty: String },
        Field { name: "kind", ty: String },
        Field { name: "name", ty: String },
    ] },
    // 280
    Struct { name: "Subject", required: &[], fields: &[
        Field { name: "apiGroup", ty: String },
        Field { name: "kind", ty: String },
        Field { name: "name", ty: String },
        Field { name: "namespace", ty: String },
    ] },
    // 281
    Struct { name: "ClusterRole", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "rbac.authorization.k8s.io/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "ClusterRole", go_type: Some("v1.ClusterRole") } },
        Field { name: "aggregationRule", ty: Struct(282) },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "rules", ty: Seq("[]v1.PolicyRule", &Struct(277)) },
    ] },
    // 282
    Struct { name: "AggregationRule", required: &[], fields: &[
        Field { name: "clusterRoleSelectors", ty: Seq("[]string", &Struct(36)) },
    ] },
    // 283
    Struct { name: "ClusterRoleBinding", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "rbac.authorization.k8s.io/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "ClusterRoleBinding", go_type: Some("v1.ClusterRoleBinding") } },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "roleRef", ty: Struct(279) },
        Field { name: "subjects", ty: Seq("[]v1.Subject", &Struct(280)) },
    ] },
    // 284
    Struct { name: "PriorityClass", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "scheduling.k8s.io/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "PriorityClass", go_type: Some("v1.PriorityClass") } },
        Field { name: "description", ty: String },
        Field { name: "globalDefault", ty: Bool },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "preemptionPolicy", ty: String },
        Field { name: "value", ty: Int32 },
    ] },
    // 285
    Struct { name: "StorageClass", required: &[], fields: &[
        Field { name: "apiVersion", ty: Const { text: "storage.k8s.io/v1", go_type: None } },
        Field { name: "kind", ty: Const { text: "StorageClass", go_type: Some("v1.StorageClass") } },
        Field { name: "allowVolumeExpansion", ty: Bool },
        Field { name: "allowedTopologies", ty: Seq("[]string", &Struct(286)) },
        Field { name: "metadata", ty: Struct(1) },
        Field { name: "mountOptions", ty: Seq("[]string", &String) },
        Field { name: "parameters", ty: Map("map[string]string", &String) },
        Field { name: "provisioner", ty: String },
        Field { name: "reclaimPolicy", ty: String },
        Field { name: "volumeBindingMode", ty: String },
    ] },
    // 286
    Struct { name: "TopologySelectorTerm", required: &[], fields: &[
        Field { name: "matchLabelExpressions", ty: Seq("[]string", &Struct(287)) },
    ] },
    // 287
    Struct { name: "TopologySelectorLabelRequirement", required: &[], fields: &[
        Field { name: "key", ty: String },
        Field { name: "values", ty: Seq("[]string", &String) },
    ] },
];
