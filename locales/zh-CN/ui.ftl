# 演练场界面上的文字：按钮、视图名称、标签和提示（app/src/components）。
# { $total } 这样的变量由应用填入。

## 语言（各用本语言书写，所有文件中相同）

language-en = English
language-zh-CN = 简体中文
language-zh-TW = 繁體中文
language-label = 语言

## 顶栏

app-name = kubeplay
app-link-error = 无法打开此链接：{ $error }。
app-resize = 拖动或使用方向键调整编辑器与视图的宽度
controls-label = 演练场控制
controls-scenario = 场景
controls-gallery = 场景库
controls-gallery-default = 3 副本的 nginx Deployment
controls-apply = 应用
controls-apply-title = 应用此场景（Ctrl+Enter）
controls-reset = 重置
controls-reset-title = 把已应用的场景放回编辑器
controls-share = 分享
controls-share-title = 复制此场景的链接
controls-share-copied = 链接已复制
controls-playback = 回放
controls-rewind = 回到开头
controls-step-back = 后退一步
controls-step-back-title = 退回上一条记录
controls-play = 播放
controls-pause = 暂停
controls-step = 单步
controls-step-forward = 前进一步
controls-step-title = 前进到下一条记录
controls-to-end = 跳到结尾
controls-to-end-title = 一直运行到结束
controls-speed = 速度
controls-clock = 虚拟时间
controls-position = 第 { $position } 步，共 { $total } 步
controls-state-playing = 播放中
controls-state-ended = 已结束
controls-state-paused = 已暂停
controls-state-memory-full = 已暂停：此标签页的内存即将用尽（WebAssembly 上限为 4 GiB）；更大的集群请用 kubeplay run 运行

## 视图

views-label = 视图
view-flow = 流程
view-cluster = 集群
view-etcd = etcd
view-scheduler = 调度器
view-pod = Pod
view-events = 事件
view-console = 控制台

## 流程

flow-label = 流程：组件之间的请求
flow-sampled = 抽样跟踪：{ $pods } 个 Pod、{ $workloads } 个 ReplicaSet 与 Deployment 和 { $nodes } 个节点保留完整记录；另外 { $morePods } 个 Pod、{ $moreWorkloads } 个工作负载和 { $moreNodes } 个节点的 { $records } 条记录只计数。
flow-follow = 跟随当前步骤
flow-legend-request = 请求
flow-legend-response = 响应
flow-legend-etcd = etcd
flow-legend-watch = watch
flow-grid-label = 时序图；用方向键选择步骤
flow-empty = 还什么都没有发生：按“播放”，或按“单步”查看第一个请求。
flow-lane-arrows = { $lane }：目前 { $count } 个箭头

## 步骤详情

details-label = 步骤详情
details-hint = 在流程中选择一个步骤，查看发生了什么以及原因。
details-step = 步骤
details-step-value = 跟踪记录的第 { $step } 步
details-time = 时间
details-component = 组件
details-action = 动作
details-peer = 对端
details-node = 节点
details-object = 对象
details-etcd-key = etcd 键
details-revision = 修订版本
details-show-key = 在 etcd 视图中查看这个键
details-detail = 详细信息
details-docs = Kubernetes 文档 ↗

## 场景编辑器

editor-hint = Ctrl+Enter 应用 · 先按 Esc 再按 Tab 可离开编辑器
editor-error-line = 第 { $line } 行：{ $message }
editor-error-line-column = 第 { $line } 行第 { $column } 列：{ $message }
editor-objects-found = 找到 { $count } 个对象
editor-objects-more = ……还有 { $count } 个
editor-preview-more = ……还有 { $count } 行。点击即可编辑全文。

## 时间线

timeline-label = 时间线
timeline-scrubber = 播放位置（已显示的跟踪记录数）
timeline-kubectl = kubectl
timeline-scheduled = 已调度
timeline-started = 已启动
timeline-warning = 警告
timeline-fault = 故障
timeline-count = { $position } / { $total } 条记录

## 控制台

consoles-label = 控制台
console-label = { $tool } 控制台

## 集群视图

cluster-label = 集群
cluster-node = 节点 { $node }
cluster-requested = 已请求的 { $resource }
cluster-bar-cpu = CPU
cluster-bar-mem = 内存
cluster-bar-pods = Pod
cluster-unscheduled-label = 未调度的 Pod
cluster-unscheduled = 未调度
cluster-none = 无
cluster-services = Service
cluster-service = Service
cluster-cluster-ip = 集群 IP
cluster-ports = 端口
cluster-endpoints = 端点
cluster-not-ready = 未就绪
cluster-heat-label = 节点，按其 CPU、内存或 Pod 的请求比例着色：点击格子或用方向键查看其节点
cluster-heat-summary = { $nodes } 个节点，{ $ready } 个 Ready；{ $pods } 个 Pod：
cluster-heat-cell = { $node }：{ $ready }，已请求 { $percent }%，{ $pods }/{ $allocatable } 个 Pod
cluster-heat-legend = 已请求（CPU、内存、Pod 中最高者）：

## etcd 视图

etcdview-tree-label = /registry 下的键
etcdview-revision = 修订版本 { $revision }
etcdview-hint = 选择一个键，查看它的值、历史以及变更内容。
etcdview-history = 修订历史
etcdview-rev = 修订 { $revision } v{ $version }
etcdview-deleted = 删除于 { $revision } v{ $version }
etcdview-value-at = 修订版本 { $revision } 时的值（etcd 以 JSON 保存，此处以 YAML 显示）
etcdview-no-value = （此修订版本没有值）
etcdview-changes = 从修订版本 { $old } 到 { $new } 的变更

## 事件视图

events-filter = 筛选
events-filter-label = 筛选事件
events-filter-placeholder = 例如 Warning 或 nginx
events-newest = 仅显示最新的 { $shown } 条事件（共 { $total } 条）。

## Pod 视图

podview-hint = 在集群视图或流程中选择一个 Pod。
podview-status-history = STATUS 的变化
podview-revision = 修订版本 { $revision }

## 调度器视图

scheduler-pod = Pod
scheduler-pod-label = Pod
scheduler-not-scheduled = { $pod }（尚未调度）
scheduler-attempt = 尝试
scheduler-attempt-label = 调度尝试
scheduler-attempt-n = 第 { $attempt } 次，共 { $total } 次
scheduler-none-yet = 还没有调度决策：出现尚未分配节点的 Pod 时，调度器才会做出决策。
scheduler-no-decision = 这个 Pod 还没有调度决策。
scheduler-node = 节点
scheduler-filter = 过滤
scheduler-score = 分数 × { $weight }
scheduler-total = 总分
scheduler-passed = 通过
scheduler-not-run = 未运行
scheduler-chosen = ★ 选中
scheduler-infeasible = 不可行
scheduler-legend = 过滤插件剔除无法运行该 Pod 的节点；每个打分插件为剩下的节点打 0 到 100 分；总分是各项分数 × 权重之和，最高者胜出。

## 导览

tour-start = 开始导览
tour-next = 下一步
tour-back = 上一步
tour-close = 结束导览
tour-progress = 第 { $stop } 站，共 { $total } 站
## 分享、嵌入、导出、草稿

controls-embed = 嵌入
controls-embed-title = 获取把此场景放进网页的 <iframe> 代码
controls-export = 导出
share-link-label = 指向此场景及当前位置的链接
share-too-long = 此链接长 { $length } 个字符：聊天工具和部分浏览器会截断超过 { $limit } 个字符的链接。请导出场景 YAML，改为分享文件。
embed-snippet-label = 把这段代码粘贴到你的网页
embed-view = 显示的视图
embed-open = 在 kubeplay 中打开
export-yaml = 下载场景（YAML）
export-trace = 下载跟踪记录（JSON Lines）
export-trace-title = 已应用场景的完整运行，与 kubeplay run --trace json 的输出相同
export-manifests = 用于真实集群的清单
export-copy = 复制
export-note-compare = 在真实集群上运行这些清单，与 kubeplay 对比：
export-note-or = 或
export-note-nodes = kubeplay 的节点是模拟的；新建的 kind 或 minikube 集群只有一个节点，Pod 的落点可能不同。
draft-pending = 正在显示此链接的场景；你保存的草稿仍保留，在你选择之前，编辑不会被保存。
draft-keep-link = 把此场景保存为我的草稿
draft-open = 改为打开我的草稿
draft-not-saved = 无法保存你的草稿：浏览器存储已满或已关闭。
editor-reset-example = 恢复为示例
editor-reset-example-title = 用示例场景替换编辑器中的文字和你保存的草稿
panic-title = kubeplay 因内部错误而停止
panic-body = 你的草稿已保存。重新加载即可继续：场景不会自动开始，你可以先查看它。
panic-reload = 重新加载并保留我的草稿
panic-recovered = 页面在内部错误后重新加载；场景尚未开始。按“应用”运行它。
