# 默认场景（3 副本的 nginx Deployment）的导览，每一站对应其生命周期中的一步（app/src/state/tour.rs）。

tour-apply-title = kubectl apply 发送 Deployment
tour-apply-body = kubectl 读取了文件，询问 API 服务器这个 Deployment 是否存在（404：还不存在），现在用 POST 发送它。Kubernetes 中的一切都经过 kube-apiserver：组件之间从不直接通信。流程图把这个请求画成从 kubectl 到 kube-apiserver 的箭头。
tour-admission-title = 你是谁，你有权限吗，它合法吗？
tour-admission-body = 在存储任何东西之前，kube-apiserver 先认证客户端（kubernetes-admin 的客户端证书），用 RBAC 鉴权请求，运行变更准入插件（填入默认值），校验对象，再运行验证准入插件，例如 ResourceQuota。其中任何一步都可以拒绝请求。
tour-etcd-title = Deployment 写入 etcd
tour-etcd-body = API 服务器把对象存入 etcd 的 /registry/deployments/default/nginx 键，使用一个仅当该键尚不存在时才成功的事务。etcd 为每次修改分配新的修订版本：etcd 视图显示这个键、它在每个修订版本的值以及它们之间的差异。
tour-deployment-title = Deployment 控制器创建 ReplicaSet
tour-deployment-body = 控制器管理器监视 Deployment。监视事件唤醒 Deployment 控制器，它发现没有使用这个 Pod 模板的 ReplicaSet，于是创建一个，名称取自模板的哈希。控制器只做一件事：比较期望状态与实际状态，并通过 API 写入差异。
tour-replicaset-title = ReplicaSet 控制器创建 Pod
tour-replicaset-body = ReplicaSet 需要 3 个 Pod，现有 0 个，于是 ReplicaSet 控制器创建它们：先创建一个，再创建两个（慢启动，这样有问题的模板会尽早失败）。这些 Pod 现在已存在于 etcd 中，但还没有节点。
tour-scheduler-title = 调度器对节点进行过滤和打分
tour-scheduler-body = 调度器监视没有节点的 Pod。对每个 Pod，过滤插件排除无法运行它的节点（CPU 或内存不足、污点、亲和性），打分插件为其余节点打出 0 到 100 分，总分最高者胜出。调度器视图显示这个 Pod 的完整表格。
tour-binding-title = 绑定：Pod 得到它的节点
tour-binding-body = 调度器并不启动任何东西：它 POST 一个 Binding，API 服务器把 spec.nodeName 写入 Pod。这就是全部的决定。该节点的 kubelet 正在监视绑定到它的 Pod。
tour-sandbox-title = kubelet 创建 Pod 沙箱及其网络
tour-sandbox-body = 节点上的 kubelet 接纳这个 Pod，挂载它的卷，并通过 CRI 请求容器运行时运行 Pod 沙箱：持有 Pod 网络命名空间的 pause 容器。随后 CNI 插件为该命名空间配置网卡和 Pod 的 IP 地址。Pod 视图以时间线显示这些步骤。
tour-start-title = 拉取镜像并启动容器
tour-start-body = 运行时拉取 nginx:1.27（除非节点上已有），在沙箱中创建容器并启动它。kubelet 通过 API 服务器报告 Pod 状态的每次变化，并记录 Pulling、Pulled、Created、Started 等事件。
tour-ready-title = Pod 已就绪
tour-ready-body = 容器运行并通过就绪检查后，kubelet 把 Pod 的 Ready 状况设为 True。只有就绪的 Pod 才会接收 Service 的流量。Deployment 控制器看到它的 ReplicaSet 达到 3 个就绪副本：Deployment 可用了。导览到此结束；试试图库中的其他场景吧。
