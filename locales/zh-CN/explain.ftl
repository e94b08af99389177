# 每一类跟踪记录的含义，写给了解容器、但不了解 Kubernetes 内部机制的读者。
# 由 kubeplay-core（core/src/explain.rs）读取。
#
# 每类记录有三条消息，其 id 是记录的 `explain` 键把点换成连字符（Fluent 的 id 不能含点）：
# `etcd.txn` 对应 `etcd-txn-title`、`etcd-txn-body` 和 `etcd-txn-docs`。
#   -title  简短的标题
#   -body   两到四句话：发生了什么、为什么、什么情况下会失败
#   -docs   kubernetes.io 上对应的中文页面（/zh-cn/docs/...）
# 正文换行处若紧挨汉字，拼接时不加空格；因此请只在标点之后换行。
# 术语沿用 kubernetes.io 中文文档：调度器、控制器、节点、容器运行时、镜像、命名空间、
# 服务账号、准入控制、鉴权、认证；Kubernetes 的名称（Pod、Deployment、kubelet、etcd 等）保持原样。

## kubectl：在你的机器上

kubectl-kubeconfig-title = kubectl 选择上下文
kubectl-kubeconfig-body =
    kubectl 读取 kubeconfig，从中得知要连接哪个集群、出示哪份凭据。
    在 kubeplay 中，这是集群管理员 `kubernetes-admin`，其客户端证书把它归入 `system:masters` 组；
    `--as` 则请 API 服务器把请求当作另一个用户发出的来处理。
    没有可用的 kubeconfig 时，kubectl 不知道该连接哪个集群，请求发出之前就会失败。
kubectl-kubeconfig-docs = /zh-cn/docs/concepts/configuration/organize-cluster-access-kubeconfig/

kubectl-read-title = kubectl 读取清单
kubectl-read-body =
    kubectl 在 `---` 处把文件切分为多个文档，并逐个按 YAML（或 JSON）解析。
    这一步在你的机器上完成，集群不会收到它读不懂的文件。
    某个文档不是合法的 YAML 时，kubectl 会指出出错的行并就此停下，什么也不发送。
kubectl-read-docs = /zh-cn/docs/reference/kubectl/generated/kubectl_apply/

kubectl-validate-title = kubectl 检查对象
kubectl-validate-body =
    发送之前，kubectl 先检查每个对象是否写明了它属于哪个 API（`apiVersion`）以及它是什么（`kind`）。
    缺少这两项，kubectl 就不知道该把对象发往何处，会报 `apiVersion not set` 或 `kind not set` 并停下。
kubectl-validate-docs = /zh-cn/docs/reference/kubectl/generated/kubectl_apply/

kubectl-discovery-title = API 发现：把 kind 映射为资源
kubectl-discovery-body =
    Kubernetes API 按组、版本和资源来组织。
    kubectl 向 API 服务器查询它提供哪些资源，再把对象的 `apiVersion` 和 `kind`（apps/v1、Deployment）映射为 URL 路径（`/apis/apps/v1/.../deployments`）。
    没有任何 API 提供的 kind 会在这里失败，报错 `no matches for kind`。
kubectl-discovery-docs = /zh-cn/docs/concepts/overview/kubernetes-api/

## kube-apiserver：请求的处理流程

request-title = 发往 kube-apiserver 的 HTTP 请求
request-body =
    包括 kubectl 在内，每个组件读取或修改集群的唯一途径就是向 kube-apiserver 发送 REST 请求。
    没有谁直接访问 etcd，组件之间也不直接通信，集群正是靠这一点保持一致。
    kube-apiserver 无法访问时，集群中的任何对象都无法读取或修改。
request-docs = /zh-cn/docs/concepts/overview/components/#kube-apiserver

authenticate-title = 认证：谁在发请求？
authenticate-body =
    API 服务器首先弄清请求是谁发出的，依据可以是客户端证书、服务账号令牌或其他方式。
    结果是一个用户名和若干个组，后续步骤据此决定这个请求可以做什么。
    凭据无效的请求会得到 401 Unauthorized。
authenticate-docs = /zh-cn/docs/reference/access-authn-authz/authentication/

impersonate-title = 用户伪装（`kubectl --as`）
impersonate-body =
    获准伪装的用户可以请 API 服务器把请求当作另一个用户发出的来处理。
    API 服务器先检查真实用户是否有权对该用户或组使用 `impersonate` 动词；
    之后的各个环节（包括鉴权）看到的都是被伪装的用户。
    没有这项权限时，请求以 403 Forbidden 失败。
impersonate-docs = /zh-cn/docs/reference/access-authn-authz/user-impersonation/

authorize-title = 鉴权：允许这样做吗？
authorize-body =
    RBAC 决定该用户能否在这个命名空间中对这个资源执行这个动词。
    它查找一个 RoleBinding 或 ClusterRoleBinding，看是否有含匹配规则的角色授予了该用户、该用户所在的组或其服务账号。
    找不到时，回答就是 403 Forbidden。
authorize-docs = /zh-cn/docs/reference/access-authn-authz/rbac/

admission-mutating-title = 变更准入控制与默认值
admission-mutating-body =
    默认值先补上清单中没写的字段（Deployment 的策略、容器的 imagePullPolicy），
    随后变更（mutating）准入控制器还可以修改对象：ServiceAccount 为 Pod 挂载令牌，
    DefaultTolerationSeconds 让 Pod 在不可达的节点上再停留 300 秒。
    这就是 `kubectl get -o yaml` 显示的内容比你写的多的原因。
    变更准入控制器也可以拒绝请求：Pod 引用的服务账号不存在时，ServiceAccount 会拒绝它。
admission-mutating-docs = /zh-cn/docs/reference/access-authn-authz/admission-controllers/

validate-title = 验证
validate-body =
    API 服务器按 API 的规则检查对象：名称必须是合法的 DNS 名称，
    Deployment 的选择算符必须与其模板的标签匹配，副本数不能为负。
    任何违规都会返回 422 Invalid 并指明字段路径，对象不会被存储。
    API 服务器不依赖 kubectl 做过的检查，所以每个客户端都受同样的规则约束。
validate-docs = /zh-cn/docs/reference/using-api/api-concepts/

admission-validating-title = 验证准入控制
admission-validating-body =
    验证（validating）准入控制器在对象完整之后运行，只能接受或拒绝，不能修改。
    ResourceQuota 会拒绝让命名空间超出配额的对象，返回 403 `exceeded quota`，对象不会被存储。
admission-validating-docs = /zh-cn/docs/concepts/policy/resource-quotas/

## etcd

etcd-txn-title = 写入 etcd
etcd-txn-body =
    API 服务器在一个事务中把对象存入 etcd：创建只有在键不存在时才会成功，
    更新只有在键仍处于客户端读取时的修订版本时才会成功。
    每次写入都会让 etcd 的全局修订版本加一，这个值就成为对象的 `resourceVersion`。
    要创建的名称已经存在时，会在这里以 409 AlreadyExists 失败。
etcd-txn-docs = /zh-cn/docs/concepts/overview/components/#etcd

etcd-range-title = 从 etcd 读取
etcd-range-body =
    GET 或 LIST 是对 `/registry/<resource>/` 下的键做范围读取。
    对象的 `resourceVersion` 是该键的 mod_revision，列表的则是存储当前的修订版本。
    键不存在时返回 404 NotFound。
etcd-range-docs = /zh-cn/docs/reference/using-api/api-concepts/#resource-versions

etcd-conflict-title = 乐观并发：409 Conflict
etcd-conflict-body =
    更新请求带着客户端上次读到的 resourceVersion。
    如果此后有人写过这个对象，事务的比较条件就不成立，客户端收到 409 Conflict，
    必须重新读取后再重试。
    整个过程不持有任何锁。
etcd-conflict-docs = /zh-cn/docs/reference/using-api/api-concepts/#resource-versions

etcd-lease-title = 租约让键过期
etcd-lease-body =
    etcd 可以把键关联到一个有存活时间的租约上，租约到期时删除这些键。
    API 服务器把 Event 关联到一小时的租约（`--event-ttl`），所以旧事件无需任何人删除就会自行消失。
etcd-lease-docs = /zh-cn/docs/reference/command-line-tools-reference/kube-apiserver/

response-title = API 服务器作出响应
response-body =
    客户端要么收到存储后的对象（201 Created 或 200 OK，带有新的 resourceVersion），
    要么收到一个说明失败原因的 Status。
    kubectl 把它变成你在终端里看到的那一行。
response-docs = /zh-cn/docs/reference/using-api/api-concepts/

kubectl-output-title = kubectl 输出的内容
kubectl-output-body =
    kubectl 报告每个对象的结果（`created`、`configured`、`unchanged`）或 API 服务器返回的错误，
    只要有一个对象失败，它就以非零状态退出。
    `configured` 表示这次 apply 改动了对象，`unchanged` 表示集群中的对象已经与文件一致。
kubectl-output-docs = /zh-cn/docs/reference/kubectl/

## watch 与控制器

watch-start-title = 开始监视（watch）
watch-start-body =
    组件不轮询：它们先列出（list）一次资源，再从该列表的 resourceVersion 开始保持一个 watch，
    从而按顺序、恰好一次地收到此后的每一个变更。
    watch 中断，或其 resourceVersion 太旧（etcd 压缩之后返回 410 Gone）时，组件会重新列出并建立新的 watch。
watch-start-docs = /zh-cn/docs/reference/using-api/api-concepts/#efficient-detection-of-changes

watch-title = 推送一个 watch 事件
watch-body =
    etcd 记录一次变更后，API 服务器向每个正在监视该资源的客户端发送 ADDED、MODIFIED 或 DELETED 事件。
    控制器据此更新本地缓存（informer），并把对象的键放入工作队列。
watch-docs = /zh-cn/docs/reference/using-api/api-concepts/#efficient-detection-of-changes

reconcile-title = 控制器进行调和
reconcile-body =
    控制器比较应当存在的状态与其缓存中实际存在的状态，然后通过 API 服务器做出一项修改来缩小差距。
    它从不假定修改已经生效，而是等待 watch 来确认。
    修改失败时（冲突或被拒绝），键会放回队列，稍后按退避间隔重试。
reconcile-docs = /zh-cn/docs/concepts/architecture/controller/

event-title = 记录一个 Event
event-body =
    组件把自己做了什么、出了什么错以 Event 对象的形式报告出来，这些对象和其他对象一样经由 API 服务器写入。
    `kubectl get events` 和 `kubectl describe` 会显示它们；它们在一小时后过期。
event-docs = /zh-cn/docs/reference/kubernetes-api/cluster-resources/event-v1/

gc-background-title = 后台级联删除
gc-background-body =
    一个对象的属主（`ownerReferences`）全都不存在时，它就成了垃圾，由 kube-controller-manager 中的垃圾收集器删除。
    以这种方式（默认的 `--cascade=background`）删除 Deployment 时，Deployment 立即被删除，
    接着是它的 ReplicaSet，然后是这些 ReplicaSet 的 Pod。
gc-background-docs = /zh-cn/docs/concepts/architecture/garbage-collection/#background-deletion

gc-foreground-title = 前台级联删除
gc-foreground-body =
    使用 `--cascade=foreground` 时，属主不会立即被删除：它获得 deletionTimestamp 和 `foregroundDeletion` Finalizer，
    在垃圾收集器删除其依赖对象（先删 Pod，再删 ReplicaSet）期间一直可见。
    直到不再有设置了 `blockOwnerDeletion: true` 的依赖对象，垃圾收集器才移除这个 Finalizer，
    API 服务器随后删除属主。
gc-foreground-docs = /zh-cn/docs/concepts/architecture/garbage-collection/#foreground-deletion

gc-orphan-title = 保留依赖对象，使其成为孤儿
gc-orphan-body =
    使用 `--cascade=orphan` 时，属主获得 `orphan` Finalizer：垃圾收集器从每个依赖对象的 `ownerReferences` 中删去该属主，
    再移除 Finalizer，属主随之消失。
    依赖对象保留下来，虽然没有了属主，却照常工作：被遗弃的 ReplicaSet 仍会让它的 Pod 保持运行。
gc-orphan-docs = /zh-cn/docs/concepts/architecture/garbage-collection/#orphaned-dependents

fault-title = 注入故障
fault-body =
    场景故意破坏某些东西（停掉一个节点、杀死一个容器），让你观察集群如何发现问题并恢复。
    Kubernetes 中没有谁会宣告故障：组件是从缺失的心跳、失败的探针和退出码中发现问题的。
fault-docs = /zh-cn/docs/concepts/architecture/nodes/#node-status

## kube-scheduler

schedule-title = 调度器选择节点
schedule-body =
    kube-scheduler 从队列中取出一个尚未调度的 Pod，对各个节点运行它的插件：
    过滤插件剔除 Pod 无法运行的节点（CPU 不足、有未被容忍的污点、选择算符不匹配），
    打分插件再为剩下的节点打 0 到 100 分，每项分数乘以该插件的权重。
    总分最高的节点胜出，平分时随机选择，调度器随后把 Pod 绑定到该节点。
    没有合适的节点时，Pod 保持 Pending，状况为 `PodScheduled=False` 并按节点统计原因，
    等待集群发生变化。
schedule-docs = /zh-cn/docs/concepts/scheduling-eviction/kube-scheduler/

## kubelet 与容器运行时

kubelet-admit-title = kubelet 接纳 Pod
kubelet-admit-body =
    Pod 所在节点上的 kubelet 通过它的 watch（`fieldSelector=spec.nodeName=<node>`）看到绑定到本节点的 Pod，并启动一个 Pod worker。
    它检查 Pod 能否放进这个节点，确定 Pod 的 QoS 类，并准备 Pod 的目录和卷。
    放不下的 Pod 会在这里被拒绝，而不会被启动。
kubelet-admit-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/

runtime-pull-title = 容器运行时拉取镜像
runtime-pull-body =
    kubelet 请容器运行时（通过 CRI 调用 containerd）拉取本地没有的镜像；
    设置了 `imagePullPolicy: Always` 时则每次都拉取。
    耗时取决于镜像大小；镜像仓库中不存在的镜像会以 `ErrImagePull` 失败，
    并以逐渐增大的退避间隔重试（`ImagePullBackOff`）。
runtime-pull-docs = /zh-cn/docs/concepts/containers/images/

runtime-sandbox-title = RunPodSandbox：启动 Pod 沙箱
runtime-sandbox-body =
    容器运行时启动 pause 容器，由它持有 Pod 内各容器共享的 Linux 命名空间（网络和 IPC；设置了 `shareProcessNamespace` 时还有 PID）。
    它的镜像 `registry.k8s.io/pause` 在节点第一次需要时拉取。
    沙箱无法创建时（例如网络插件出错），Pod 停留在 `ContainerCreating`，并产生 `FailedCreatePodSandBox` 事件。
runtime-sandbox-docs = /zh-cn/docs/concepts/architecture/cri/

cni-add-title = CNI ADD：Pod 获得网络
cni-add-body =
    网络插件创建一对 veth，把一端放进沙箱的网络命名空间，并为它分配节点 podCIDR 中下一个空闲地址。
    从此 Pod 有了自己的 IP，其他每个 Pod 都能访问到它，它的状况 `PodReadyToStartContainers` 变为 True。
    插件失败时（没有空闲地址、没有配置网络插件），沙箱会被拆除并重试，同时产生 `FailedCreatePodSandBox` 事件。
cni-add-docs = /zh-cn/docs/concepts/cluster-administration/networking/

cni-del-title = CNI DEL：移除 Pod 的网络
cni-del-body =
    沙箱停止时，网络插件删除这对 veth 并释放 Pod 的地址，这个地址以后可能分配给别的 Pod。
cni-del-docs = /zh-cn/docs/concepts/cluster-administration/networking/

runtime-create-title = CreateContainer：创建容器
runtime-create-body =
    容器运行时按照镜像、命令、环境变量和挂载，在 Pod 的沙箱中创建容器，kubelet 记录 `Created` 事件。
    无法构造出配置的容器（例如它需要的 ConfigMap 键不存在）不会被创建，
    而是以 `CreateContainerConfigError` 等待。
runtime-create-docs = /zh-cn/docs/concepts/architecture/cri/

runtime-start-title = StartContainer：启动容器
runtime-start-body =
    容器运行时启动容器的进程，kubelet 记录 `Started` 事件。
    没有就绪探针的容器一运行就算就绪；有就绪探针的，要等探针通过。
    命令无法启动时（镜像里没有这个可执行文件），容器以 `StartError` 结束，并像崩溃后一样被重启。
runtime-start-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#container-states

runtime-exit-title = 容器退出
runtime-exit-body =
    容器的主进程以某个退出码结束：0 为 `Completed`，其他为 `Error`，
    因内存用量超限而被杀死的进程则为 `OOMKilled`。
    Pod 的 `restartPolicy` 决定 kubelet 是否再次启动它。
runtime-exit-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy

runtime-stop-title = StopContainer：先 SIGTERM，再 SIGKILL
runtime-stop-body =
    Pod 正在被删除：kubelet 记录 `Killing`，并请容器运行时向容器发送 SIGTERM。
    宽限期（默认 30 秒）结束时仍在运行的进程会被 SIGKILL 杀死。
runtime-stop-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination

runtime-stop_sandbox-title = StopPodSandbox：停止沙箱
runtime-stop_sandbox-body =
    所有容器都停止后，容器运行时停止 pause 容器，网络插件拆除 Pod 的网络。
runtime-stop_sandbox-docs = /zh-cn/docs/concepts/architecture/cri/

runtime-remove_sandbox-title = RemovePodSandbox：移除沙箱
runtime-remove_sandbox-body =
    容器运行时移除已停止的沙箱；随后 kubelet 以宽限期 0 删除 Pod 对象，Pod 就从 etcd 中移除了。
runtime-remove_sandbox-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination

kubelet-probe-title = 就绪探针通过
kubelet-probe-body =
    kubelet 按 readinessProbe 的设置探测容器：先等待 `initialDelaySeconds`，之后每隔 `periodSeconds` 探测一次。
    探针通过后容器就绪；Pod 的所有容器都就绪时，Pod 也就绪。
    在此之前 Pod 不是 Ready，Service 不会向它转发流量。
kubelet-probe-docs = /zh-cn/docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-backoff-title = kubelet 退避重试
kubelet-backoff-body =
    反复退出的容器要等一段退避时间才会重启，这段时间从 10 秒开始，每次翻倍，最长 5 分钟（`CrashLoopBackOff`）；
    镜像拉取失败也按同样方式重试（`ImagePullBackOff`）。
    容器正常运行 10 分钟后，退避时间重新从头计算。
kubelet-backoff-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#container-restarts

kubelet-reject-title = kubelet 拒绝 Pod
kubelet-reject-body =
    运行 Pod 之前，kubelet 会把调度器检查过的内容再检查一遍：Pod 的资源请求能否放进节点的剩余容量、
    `nodeSelector` 是否匹配、Pod 是否容忍节点的 NoExecute 污点。
    通过 `spec.nodeName` 直接绑定的 Pod 绕过了调度器，所以会在这里被拒之门外：
    它立即失败，原因如 `OutOfcpu`，消息为 `Pod was rejected: ...`，其中的任何容器都不会运行。
kubelet-reject-docs = /zh-cn/docs/concepts/scheduling-eviction/assign-pod-node/#nodename

volume-mount-title = 卷管理器挂载卷
volume-mount-body =
    创建 Pod 沙箱之前，kubelet 的卷管理器会准备好每一个卷：
    通过 API 服务器读取 ConfigMap 和 Secret 并写成文件，创建 emptyDir，并检查 PersistentVolumeClaim 是否已绑定。
    无法准备的卷（例如它的 ConfigMap 还不存在）会让 Pod 停留在 `ContainerCreating` 并产生 `FailedMount` 事件，
    之后以 0.5 秒到约 2 分钟的退避间隔重试。
volume-mount-docs = /zh-cn/docs/concepts/storage/volumes/

kubelet-condition-title = Pod 状况发生变化
kubelet-condition-body =
    kubelet 的状态管理器按 kubelet 写入的顺序报告 Pod 的状况：
    沙箱有了网络后是 `PodReadyToStartContainers`，Init 容器全部完成后是 `Initialized`，
    每个容器都就绪后是 `ContainersReady` 和 `Ready`。
    Service 只把流量发给 Ready 的 Pod。
kubelet-condition-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#pod-conditions

kubelet-hook-title = 容器生命周期回调运行
kubelet-hook-body =
    postStart 回调在容器启动后立即运行，kubelet 要等它结束才把容器报告为运行中；
    它失败时，容器会被杀死并重启（`FailedPostStartHook`）。
    preStop 回调在容器即将停止时运行，处于宽限期之内、SIGTERM 之前。
kubelet-hook-docs = /zh-cn/docs/concepts/containers/container-lifecycle-hooks/

kubelet-unready-title = 就绪探针失败
kubelet-unready-body =
    就绪探针连续失败了 `failureThreshold` 次（默认 3 次），kubelet 因此把容器标记为未就绪。
    容器继续运行，但 Pod 不再是 Ready，Service 停止向它转发流量，直到探针再次通过。
kubelet-unready-docs = /zh-cn/docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-liveness-title = 存活探针失败：容器被重启
kubelet-liveness-body =
    存活探针连续失败了 `failureThreshold` 次，kubelet 认为容器已经坏了：
    它记录 `Killing`，运行 preStop 回调，停止容器；只要 Pod 的 restartPolicy 不是 Never，就再次启动它。
    反复重启会像崩溃循环一样退避。
kubelet-liveness-docs = /zh-cn/docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-startup-title = 启动探针判断容器是否已启动
kubelet-startup-body =
    设置了启动探针时，kubelet 不运行存活探针和就绪探针，让启动慢的容器有时间完成启动。
    启动探针通过后，容器算作已启动，其他探针开始工作；
    连续失败 `failureThreshold` 次时，容器会像存活探针失败时一样被杀死并重启。
kubelet-startup-docs = /zh-cn/docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-changed-title = 容器镜像变了：kubelet 重启容器
kubelet-changed-body =
    在运行中的 Pod 里，容器的镜像是它唯一可以修改的字段（`kubectl set image pod/...`）。
    kubelet 发现容器的 spec 哈希不再匹配：正在运行的容器被杀死（`Killing`，`definition changed, will be restarted`），
    再用新镜像启动，这算一次重启。
    从未启动过的容器会立即尝试新镜像，不必等待旧镜像的退避时间。
kubelet-changed-docs = /zh-cn/docs/concepts/containers/images/#updating-images

kubelet-config_error-title = 容器的配置不完整
kubelet-config_error-body =
    kubelet 用 ConfigMap 和 Secret（`env.valueFrom`、`envFrom`）构造容器的环境变量。
    其中某个不存在或缺少所需的键时，容器不会被创建：
    它以 `CreateContainerConfigError` 等待，kubelet 在下一次 Pod 同步时（大约每 10 秒）重试。
kubelet-config_error-docs = /zh-cn/docs/tasks/configure-pod-container/configure-pod-configmap/

## kube-proxy

iptables-sync-title = kube-proxy 编写节点的 iptables 规则
iptables-sync-body =
    每个节点上的 kube-proxy 监视 Service 和 EndpointSlice，并把它们转换成 NAT 规则：
    每个 ClusterIP 和端口在 `KUBE-SERVICES` 中有一条规则跳转到该 Service 的 `KUBE-SVC-` 链，
    这条链随机选出一个就绪端点（`-m statistic --probability 1/n`，然后是 1/(n-1)……），
    跳转到它的 `KUBE-SEP-` 链，再由后者把数据包 DNAT 到 Pod 的 IP 和端口。
    只有就绪的端点会写入规则，两次同步至少间隔 `minSyncPeriod`（1 秒），让一连串变更合并到一次 `iptables-restore` 中。
    这条记录保存了节点上 `iptables-save` 所显示的 nat 表。
iptables-sync-docs = /zh-cn/docs/reference/networking/virtual-ips/#proxy-mode-iptables

## 日志：API 服务器调用 kubelet

kubelet-proxy-title = kube-apiserver 连接 kubelet
kubelet-proxy-body =
    日志（以及 exec、attach、port-forward）不在 etcd 中：对于 `pods/log`，API 服务器像对待其他请求一样检查它，
    找到 Pod 所在的节点，连接该节点上 kubelet 的 10250 端口，再把 kubelet 的应答以流的方式转发回来。
    这是控制面对 kubelet 发起的唯一一种调用；kubelet 停止运行时，请求会以 `connection refused` 失败。
kubelet-proxy-docs = /zh-cn/docs/concepts/architecture/control-plane-node-communication/#control-plane-to-node

kubelet-logs-title = kubelet 提供容器日志
kubelet-logs-body =
    容器运行时把容器输出的所有内容写入 `/var/log/pods` 下的日志文件，容器每运行一次对应一个文件。
    kubelet 返回当前这一次的文件，使用 `--previous` 时返回上一次的；
    容器尚未启动时，它会说明为什么没有日志（`waiting to start: ContainerCreating`）。
kubelet-logs-docs = /zh-cn/docs/concepts/cluster-administration/logging/

## 节点故障

node-unreachable-title = 节点控制器把节点标记为不可达
node-unreachable-body =
    每个 kubelet 每 10 秒续约一次其节点在 `kube-node-lease` 中的 Lease。
    某个 Lease 40 秒没有续约时，节点生命周期控制器把该节点的状况设为 `Unknown`（`kubectl get nodes` 中显示为 `NotReady`），
    把节点上的 Pod 标记为未就绪，并给节点加上 `node.kubernetes.io/unreachable` 污点（NoSchedule 和 NoExecute）。
    此后新的 Pod 不会再调度到这个节点。
node-unreachable-docs = /zh-cn/docs/concepts/architecture/nodes/#node-controller

node-reachable-title = 节点恢复可达
node-reachable-body =
    kubelet 重新续约 Lease，并再次上报 `Ready=True`，
    节点生命周期控制器随即移除 `node.kubernetes.io/unreachable` 污点，节点重新接收新的 Pod。
node-reachable-docs = /zh-cn/docs/concepts/architecture/nodes/#node-controller

taint-eviction-title = 安排基于污点的驱逐
taint-eviction-body =
    NoExecute 污点会驱逐节点上所有不容忍它的 Pod。
    Pod 默认对 `unreachable` 和 `not-ready` 有 300 秒的容忍时间，时间一到，
    污点驱逐控制器就删除它们（事件 `TaintManagerEviction`）。
    停止运行的节点上的 Pod 会一直处于 Terminating，因为只有该节点上的 kubelet 能完成删除；
    与此同时，它的控制器会在别处创建替代的 Pod。
taint-eviction-docs = /zh-cn/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions
