# 預設情境（3 副本的 nginx Deployment）的導覽，每一站對應其生命週期中的一步（app/src/state/tour.rs）。

tour-apply-title = kubectl apply 送出 Deployment
tour-apply-body = kubectl 讀取了檔案，詢問 API 伺服器這個 Deployment 是否存在（404：還不存在），現在用 POST 送出它。Kubernetes 中的一切都經過 kube-apiserver：元件之間從不直接溝通。流程圖把這個請求畫成從 kubectl 到 kube-apiserver 的箭頭。
tour-admission-title = 你是誰，你有權限嗎，它合法嗎？
tour-admission-body = 在儲存任何東西之前，kube-apiserver 先驗證用戶端（kubernetes-admin 的用戶端憑證），用 RBAC 授權請求，執行變更准入外掛（填入預設值），驗證物件，再執行驗證准入外掛，例如 ResourceQuota。其中任何一步都可以拒絕請求。
tour-etcd-title = Deployment 寫入 etcd
tour-etcd-body = API 伺服器把物件存入 etcd 的 /registry/deployments/default/nginx 鍵，使用一個僅當該鍵尚不存在時才成功的交易。etcd 為每次修改分配新的修訂版本：etcd 檢視顯示這個鍵、它在每個修訂版本的值以及它們之間的差異。
tour-deployment-title = Deployment 控制器建立 ReplicaSet
tour-deployment-body = 控制器管理器監看 Deployment。監看事件喚醒 Deployment 控制器，它發現沒有使用這個 Pod 範本的 ReplicaSet，於是建立一個，名稱取自範本的雜湊。控制器只做一件事：比較期望狀態與實際狀態，並透過 API 寫入差異。
tour-replicaset-title = ReplicaSet 控制器建立 Pod
tour-replicaset-body = ReplicaSet 需要 3 個 Pod，現有 0 個，於是 ReplicaSet 控制器建立它們：先建立一個，再建立兩個（慢啟動，這樣有問題的範本會儘早失敗）。這些 Pod 現在已存在於 etcd 中，但還沒有節點。
tour-scheduler-title = 排程器對節點進行篩選和評分
tour-scheduler-body = 排程器監看沒有節點的 Pod。對每個 Pod，篩選外掛排除無法執行它的節點（CPU 或記憶體不足、污點、親和性），評分外掛為其餘節點打出 0 到 100 分，總分最高者勝出。排程器檢視顯示這個 Pod 的完整表格。
tour-binding-title = 綁定：Pod 得到它的節點
tour-binding-body = 排程器並不啟動任何東西：它 POST 一個 Binding，API 伺服器把 spec.nodeName 寫入 Pod。這就是全部的決定。該節點的 kubelet 正在監看綁定到它的 Pod。
tour-sandbox-title = kubelet 建立 Pod 沙箱及其網路
tour-sandbox-body = 節點上的 kubelet 接納這個 Pod，掛載它的磁碟區，並透過 CRI 請求容器執行環境執行 Pod 沙箱：持有 Pod 網路命名空間的 pause 容器。隨後 CNI 外掛為該命名空間設定網路介面和 Pod 的 IP 位址。Pod 檢視以時間軸顯示這些步驟。
tour-start-title = 拉取映像檔並啟動容器
tour-start-body = 執行環境拉取 nginx:1.27（除非節點上已有），在沙箱中建立容器並啟動它。kubelet 透過 API 伺服器回報 Pod 狀態的每次變化，並記錄 Pulling、Pulled、Created、Started 等事件。
tour-ready-title = Pod 已就緒
tour-ready-body = 容器執行並通過就緒檢查後，kubelet 把 Pod 的 Ready 狀況設為 True。只有就緒的 Pod 才會接收 Service 的流量。Deployment 控制器看到它的 ReplicaSet 達到 3 個就緒副本：Deployment 可用了。導覽到此結束；試試圖庫中的其他情境吧。
