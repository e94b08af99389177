# 練習場介面上的文字：按鈕、檢視名稱、標籤與提示（app/src/components）。
# { $total } 這類變數由應用程式填入。

## 語言（各以本身的語言書寫，所有檔案都相同）

language-en = English
language-zh-CN = 简体中文
language-zh-TW = 繁體中文
language-label = 語言

## 頂端列

app-name = kubeplay
app-link-error = 無法開啟這個連結：{ $error }。
app-resize = 拖曳或使用方向鍵調整編輯器與檢視的寬度
controls-label = 練習場控制項
controls-scenario = 情境
controls-gallery = 情境庫
controls-gallery-default = 3 個副本的 nginx Deployment
controls-apply = 套用
controls-apply-title = 套用這個情境（Ctrl+Enter）
controls-reset = 重設
controls-reset-title = 把已套用的情境放回編輯器
controls-share = 分享
controls-share-title = 複製這個情境的連結
controls-share-copied = 已複製連結
controls-playback = 播放控制
controls-rewind = 回到開頭
controls-step-back = 後退一步
controls-step-back-title = 退回上一筆記錄
controls-play = 播放
controls-pause = 暫停
controls-step = 單步
controls-step-forward = 前進一步
controls-step-title = 前進到下一筆記錄
controls-to-end = 跳到結尾
controls-to-end-title = 一路執行到結束
controls-speed = 速度
controls-clock = 虛擬時間
controls-position = 第 { $position } 步，共 { $total } 步
controls-state-playing = 播放中
controls-state-ended = 已結束
controls-state-paused = 已暫停
controls-state-memory-full = 已暫停：此分頁的記憶體即將用盡（WebAssembly 上限為 4 GiB）；更大的叢集請用 kubeplay run 執行

## 檢視

views-label = 檢視
view-flow = 流程
view-cluster = 叢集
view-etcd = etcd
view-scheduler = 排程器
view-pod = Pod
view-events = 事件
view-console = 主控台

## 流程

flow-label = 流程：元件之間的請求
flow-sampled = 抽樣追蹤：{ $pods } 個 Pod、{ $workloads } 個 ReplicaSet 與 Deployment 和 { $nodes } 個節點保留完整記錄；另外 { $morePods } 個 Pod、{ $moreWorkloads } 個工作負載和 { $moreNodes } 個節點的 { $records } 筆記錄只計數。
flow-follow = 跟隨目前的步驟
flow-legend-request = 請求
flow-legend-response = 回應
flow-legend-etcd = etcd
flow-legend-watch = watch
flow-grid-label = 循序圖；以方向鍵選擇步驟
flow-empty = 還沒有發生任何事：按「播放」，或按「單步」查看第一個請求。
flow-lane-arrows = { $lane }：目前 { $count } 個箭頭

## 步驟詳細資訊

details-label = 步驟詳細資訊
details-hint = 在流程中選擇一個步驟，查看發生了什麼事以及原因。
details-step = 步驟
details-step-value = 追蹤記錄的第 { $step } 步
details-time = 時間
details-component = 元件
details-action = 動作
details-peer = 對端
details-node = 節點
details-object = 物件
details-etcd-key = etcd 鍵
details-revision = 修訂版本
details-show-key = 在 etcd 檢視中查看這個鍵
details-detail = 詳細資料
details-docs = Kubernetes 文件 ↗

## 情境編輯器

editor-hint = Ctrl+Enter 套用 · 先按 Esc 再按 Tab 可離開編輯器
editor-error-line = 第 { $line } 行：{ $message }
editor-error-line-column = 第 { $line } 行，第 { $column } 欄：{ $message }
editor-objects-found = 找到 { $count } 個物件
editor-objects-more = ……還有 { $count } 個
editor-preview-more = ……還有 { $count } 行。點擊即可編輯全文。

## 時間軸

timeline-label = 時間軸
timeline-scrubber = 播放位置（已顯示的追蹤記錄數）
timeline-kubectl = kubectl
timeline-scheduled = 已排程
timeline-started = 已啟動
timeline-warning = 警告
timeline-fault = 故障
timeline-count = { $position } / { $total } 筆記錄

## 主控台

consoles-label = 主控台
console-label = { $tool } 主控台

## 叢集檢視

cluster-label = 叢集
cluster-node = 節點 { $node }
cluster-requested = 已請求的 { $resource }
cluster-bar-cpu = CPU
cluster-bar-mem = 記憶體
cluster-bar-pods = Pod
cluster-unscheduled-label = 未排程的 Pod
cluster-unscheduled = 未排程
cluster-none = 無
cluster-services = Service
cluster-service = Service
cluster-cluster-ip = 叢集 IP
cluster-ports = 連接埠
cluster-endpoints = 端點
cluster-not-ready = 未就緒
cluster-heat-label = 節點，依其 CPU、記憶體或 Pod 的請求比例著色：點選格子或用方向鍵檢視其節點
cluster-heat-summary = { $nodes } 個節點，{ $ready } 個 Ready；{ $pods } 個 Pod：
cluster-heat-cell = { $node }：{ $ready }，已請求 { $percent }%，{ $pods }/{ $allocatable } 個 Pod
cluster-heat-legend = 已請求（CPU、記憶體、Pod 中最高者）：

## etcd 檢視

etcdview-tree-label = /registry 底下的鍵
etcdview-revision = 修訂版本 { $revision }
etcdview-hint = 選擇一個鍵，查看它的值、歷史與變更內容。
etcdview-history = 修訂歷史
etcdview-rev = 修訂 { $revision } v{ $version }
etcdview-deleted = 刪除於 { $revision } v{ $version }
etcdview-value-at = 修訂版本 { $revision } 時的值（etcd 以 JSON 儲存，這裡以 YAML 顯示）
etcdview-no-value = （這個修訂版本沒有值）
etcdview-changes = 從修訂版本 { $old } 到 { $new } 的變更

## 事件檢視

events-filter = 篩選
events-filter-label = 篩選事件
events-filter-placeholder = 例如 Warning 或 nginx
events-newest = 僅顯示最新的 { $shown } 則事件（共 { $total } 則）。

## Pod 檢視

podview-hint = 在叢集檢視或流程中選擇一個 Pod。
podview-status-history = STATUS 的變化
podview-revision = 修訂版本 { $revision }

## 排程器檢視

scheduler-pod = Pod
scheduler-pod-label = Pod
scheduler-not-scheduled = { $pod }（尚未排程）
scheduler-attempt = 嘗試
scheduler-attempt-label = 排程嘗試
scheduler-attempt-n = 第 { $attempt } 次，共 { $total } 次
scheduler-none-yet = 還沒有排程決策：要等出現尚未分配節點的 Pod，排程器才會做出決策。
scheduler-no-decision = 這個 Pod 還沒有排程決策。
scheduler-node = 節點
scheduler-filter = 篩選
scheduler-score = 分數 × { $weight }
scheduler-total = 總分
scheduler-passed = 通過
scheduler-not-run = 未執行
scheduler-chosen = ★ 選定
scheduler-infeasible = 不可行
scheduler-legend = 篩選外掛剔除無法執行該 Pod 的節點；每個評分外掛為剩下的節點打 0 到 100 分；總分是各項分數 × 權重的總和，最高者勝出。

## 導覽

tour-start = 開始導覽
tour-next = 下一步
tour-back = 上一步
tour-close = 結束導覽
tour-progress = 第 { $stop } 站，共 { $total } 站
## 分享、嵌入、匯出、草稿

controls-embed = 嵌入
controls-embed-title = 取得把此情境放進網頁的 <iframe> 程式碼
controls-export = 匯出
share-link-label = 指向此情境及目前位置的連結
share-too-long = 此連結長 { $length } 個字元：聊天工具和部分瀏覽器會截斷超過 { $limit } 個字元的連結。請匯出情境 YAML，改為分享檔案。
embed-snippet-label = 把這段程式碼貼到你的網頁
embed-view = 顯示的檢視
embed-open = 在 kubeplay 中開啟
export-yaml = 下載情境（YAML）
export-trace = 下載追蹤記錄（JSON Lines）
export-trace-title = 已套用情境的完整執行，與 kubeplay run --trace json 的輸出相同
export-manifests = 用於真實叢集的清單
export-copy = 複製
export-note-compare = 在真實叢集上執行這些清單，與 kubeplay 比較：
export-note-or = 或
export-note-nodes = kubeplay 的節點是模擬的；新建的 kind 或 minikube 叢集只有一個節點，Pod 的落點可能不同。
draft-pending = 正在顯示此連結的情境；你儲存的草稿仍保留，在你選擇之前，編輯不會被儲存。
draft-keep-link = 把此情境儲存為我的草稿
draft-open = 改為開啟我的草稿
draft-not-saved = 無法儲存你的草稿：瀏覽器儲存空間已滿或已關閉。
editor-reset-example = 還原為範例
editor-reset-example-title = 用範例情境取代編輯器中的文字和你儲存的草稿
panic-title = kubeplay 因內部錯誤而停止
panic-body = 你的草稿已儲存。重新載入即可繼續：情境不會自動開始，你可以先檢視它。
panic-reload = 重新載入並保留我的草稿
panic-recovered = 頁面在內部錯誤後重新載入；情境尚未開始。按「套用」執行它。
