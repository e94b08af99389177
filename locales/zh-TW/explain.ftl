# 每一類追蹤記錄的意思，寫給懂容器、但不熟悉 Kubernetes 內部運作的讀者。
# 由 kubeplay-core（core/src/explain.rs）讀取。
#
# 每類記錄有三則訊息，其 id 是記錄的 `explain` 鍵把點換成連字號（Fluent 的 id 不能有點）：
# `etcd.txn` 對應 `etcd-txn-title`、`etcd-txn-body` 與 `etcd-txn-docs`。
#   -title  簡短的標題
#   -body   兩到四句話：發生了什麼、為什麼、什麼情況下會失敗
#   -docs   kubernetes.io 上對應的中文頁面（/zh-cn/docs/...；kubernetes.io 沒有繁體中文版）
# 內文換行處若緊鄰中文字，接起來時不加空格；因此請只在標點之後換行。
# 用語採臺灣慣用說法：排程器、控制器、節點、容器執行環境、映像檔、命名空間、服務帳號、
# 准入控制、授權、認證；Kubernetes 的名稱（Pod、Deployment、kubelet、etcd 等）維持原文。

## kubectl：在你的電腦上

kubectl-kubeconfig-title = kubectl 選擇 context
kubectl-kubeconfig-body =
    kubectl 讀取 kubeconfig，從中得知要連線到哪個叢集、出示哪一份憑證。
    在 kubeplay 裡，這是叢集管理員 `kubernetes-admin`，它的用戶端憑證讓它屬於 `system:masters` 群組；
    `--as` 則請 API 伺服器把請求當成另一位使用者發出的來處理。
    沒有可用的 kubeconfig 時，kubectl 不知道要連到哪個叢集，請求還沒送出就會失敗。
kubectl-kubeconfig-docs = /zh-cn/docs/concepts/configuration/organize-cluster-access-kubeconfig/

kubectl-read-title = kubectl 讀取資訊清單
kubectl-read-body =
    kubectl 在 `---` 處把檔案切成多份文件，逐一以 YAML（或 JSON）解析。
    這一步在你的電腦上完成，叢集不會收到它讀不懂的檔案。
    某份文件不是合法的 YAML 時，kubectl 會指出錯誤所在的行並停在這裡，什麼都不送出。
kubectl-read-docs = /zh-cn/docs/reference/kubectl/generated/kubectl_apply/

kubectl-validate-title = kubectl 檢查物件
kubectl-validate-body =
    送出之前，kubectl 會先檢查每個物件是否寫明它屬於哪個 API（`apiVersion`）以及它是什麼（`kind`）。
    少了這兩項，kubectl 就不知道要把物件送到哪裡，會回報 `apiVersion not set` 或 `kind not set` 並停止。
kubectl-validate-docs = /zh-cn/docs/reference/kubectl/generated/kubectl_apply/

kubectl-discovery-title = API 探索：把 kind 對應到資源
kubectl-discovery-body =
    Kubernetes API 依群組、版本與資源來組織。
    kubectl 向 API 伺服器查詢它提供哪些資源，再把物件的 `apiVersion` 與 `kind`（apps/v1、Deployment）對應到 URL 路徑（`/apis/apps/v1/.../deployments`）。
    沒有任何 API 提供的 kind 會在這裡失敗，錯誤訊息為 `no matches for kind`。
kubectl-discovery-docs = /zh-cn/docs/concepts/overview/kubernetes-api/

## kube-apiserver：請求的處理流程

request-title = 送往 kube-apiserver 的 HTTP 請求
request-body =
    包括 kubectl 在內，每個元件讀取或修改叢集的唯一途徑，就是向 kube-apiserver 送出 REST 請求。
    沒有人直接存取 etcd，元件之間也不直接溝通，叢集正是靠這一點保持一致。
    kube-apiserver 無法連線時，叢集中的任何物件都無法讀取或修改。
request-docs = /zh-cn/docs/concepts/overview/components/#kube-apiserver

authenticate-title = 認證：是誰發出請求？
authenticate-body =
    API 伺服器首先確認請求是誰發出的，依據可以是用戶端憑證、服務帳號權杖或其他方式。
    結果是一個使用者名稱和幾個群組，後續步驟依此決定這個請求能做什麼。
    憑證無效的請求會得到 401 Unauthorized。
authenticate-docs = /zh-cn/docs/reference/access-authn-authz/authentication/

impersonate-title = 身分模擬（`kubectl --as`）
impersonate-body =
    獲准模擬身分的使用者，可以請 API 伺服器把請求當成另一位使用者發出的來處理。
    API 伺服器會先檢查真正的使用者是否有權對該使用者或群組使用 `impersonate` 動詞；
    之後的每個環節（包括授權）看到的都是被模擬的使用者。
    沒有這項權限時，請求會以 403 Forbidden 失敗。
impersonate-docs = /zh-cn/docs/reference/access-authn-authz/user-impersonation/

authorize-title = 授權：允許這樣做嗎？
authorize-body =
    RBAC 決定這位使用者能否在這個命名空間裡對這個資源執行這個動詞。
    它會尋找一個 RoleBinding 或 ClusterRoleBinding，看是否有含相符規則的角色授予了該使用者、其所屬群組或其服務帳號。
    找不到時，答案就是 403 Forbidden。
authorize-docs = /zh-cn/docs/reference/access-authn-authz/rbac/

admission-mutating-title = 變更型准入控制與預設值
admission-mutating-body =
    預設值先補上資訊清單裡沒寫的欄位（Deployment 的策略、容器的 imagePullPolicy），
    接著變更型（mutating）准入控制器還能修改物件：ServiceAccount 為 Pod 掛載權杖，
    DefaultTolerationSeconds 讓 Pod 在無法連線的節點上多留 300 秒。
    這就是 `kubectl get -o yaml` 顯示的內容比你寫的還多的原因。
    變更型准入控制器也能拒絕請求：Pod 指定的服務帳號不存在時，ServiceAccount 會拒絕它。
admission-mutating-docs = /zh-cn/docs/reference/access-authn-authz/admission-controllers/

validate-title = 驗證
validate-body =
    API 伺服器依照 API 的規則檢查物件：名稱必須是合法的 DNS 名稱，
    Deployment 的選擇器必須符合其範本的標籤，副本數不能是負數。
    任何違規都會回傳 422 Invalid 並指出欄位路徑，物件不會被儲存。
    API 伺服器不仰賴 kubectl 做過的檢查，所以每個用戶端都受同樣的規則約束。
validate-docs = /zh-cn/docs/reference/using-api/api-concepts/

admission-validating-title = 驗證型准入控制
admission-validating-body =
    驗證型（validating）准入控制器在物件完整之後執行，只能接受或拒絕，不能修改。
    ResourceQuota 會拒絕讓命名空間超出配額的物件，回傳 403 `exceeded quota`，物件不會被儲存。
admission-validating-docs = /zh-cn/docs/concepts/policy/resource-quotas/

## etcd

etcd-txn-title = 寫入 etcd
etcd-txn-body =
    API 伺服器以一筆交易把物件存進 etcd：建立只有在鍵不存在時才會成功，
    更新只有在鍵仍停在用戶端讀取時的修訂版本時才會成功。
    每次寫入都會讓 etcd 的全域修訂版本加一，這個值就成為物件的 `resourceVersion`。
    要建立的名稱已經存在時，會在這裡以 409 AlreadyExists 失敗。
etcd-txn-docs = /zh-cn/docs/concepts/overview/components/#etcd

etcd-range-title = 從 etcd 讀取
etcd-range-body =
    GET 或 LIST 是對 `/registry/<resource>/` 底下的鍵做範圍讀取。
    物件的 `resourceVersion` 是該鍵的 mod_revision，清單的則是儲存區目前的修訂版本。
    鍵不存在時回傳 404 NotFound。
etcd-range-docs = /zh-cn/docs/reference/using-api/api-concepts/#resource-versions

etcd-conflict-title = 樂觀並行控制：409 Conflict
etcd-conflict-body =
    更新請求會帶著用戶端上次讀到的 resourceVersion。
    如果之後有人寫過這個物件，交易的比較條件就不成立，用戶端收到 409 Conflict，
    必須重新讀取再重試。
    整個過程不持有任何鎖。
etcd-conflict-docs = /zh-cn/docs/reference/using-api/api-concepts/#resource-versions

etcd-lease-title = 租約讓鍵過期
etcd-lease-body =
    etcd 可以把鍵綁定到一個有存活時間的租約上，租約到期時刪除這些鍵。
    API 伺服器把 Event 綁定到一小時的租約（`--event-ttl`），所以舊事件不必有人刪除就會自行消失。
etcd-lease-docs = /zh-cn/docs/reference/command-line-tools-reference/kube-apiserver/

response-title = API 伺服器回應
response-body =
    用戶端收到的若不是儲存後的物件（201 Created 或 200 OK，附上新的 resourceVersion），
    就是一個說明失敗原因的 Status。
    kubectl 把它轉成你在終端機裡看到的那一行。
response-docs = /zh-cn/docs/reference/using-api/api-concepts/

kubectl-output-title = kubectl 印出的內容
kubectl-output-body =
    kubectl 回報每個物件的結果（`created`、`configured`、`unchanged`）或 API 伺服器傳回的錯誤，
    只要有一個物件失敗，它就以非零狀態結束。
    `configured` 表示這次 apply 改動了物件，`unchanged` 表示叢集裡的物件已經和檔案一致。
kubectl-output-docs = /zh-cn/docs/reference/kubectl/

## watch 與控制器

watch-start-title = 開始監看（watch）
watch-start-body =
    元件不做輪詢：它們先列出（list）一次資源，再從該清單的 resourceVersion 開始維持一個 watch，
    因此能依序、恰好一次地收到之後的每一個變更。
    watch 中斷，或其 resourceVersion 太舊時（etcd 壓縮後回傳 410 Gone），元件會重新列出並建立新的 watch。
watch-start-docs = /zh-cn/docs/reference/using-api/api-concepts/#efficient-detection-of-changes

watch-title = 送出一個 watch 事件
watch-body =
    etcd 記錄一次變更後，API 伺服器會向每個監看該資源的用戶端送出 ADDED、MODIFIED 或 DELETED 事件。
    控制器據此更新本機快取（informer），並把物件的鍵放進工作佇列。
watch-docs = /zh-cn/docs/reference/using-api/api-concepts/#efficient-detection-of-changes

reconcile-title = 控制器進行協調
reconcile-body =
    控制器比較應該存在的狀態與快取中實際存在的狀態，然後透過 API 伺服器做一項修改來縮小差距。
    它從不假設修改已經生效，而是等 watch 來確認。
    修改失敗時（衝突或被拒絕），鍵會放回佇列，稍後以退避間隔重試。
reconcile-docs = /zh-cn/docs/concepts/architecture/controller/

event-title = 記錄一個 Event
event-body =
    元件把自己做了什麼、出了什麼錯，以 Event 物件回報，這些物件和其他物件一樣透過 API 伺服器寫入。
    `kubectl get events` 與 `kubectl describe` 會顯示它們；它們一小時後過期。
event-docs = /zh-cn/docs/reference/kubernetes-api/cluster-resources/event-v1/

gc-background-title = 背景串聯刪除
gc-background-body =
    一個物件的擁有者（`ownerReferences`）全都不在了，它就成了垃圾，由 kube-controller-manager 中的垃圾回收器刪除。
    以這種方式（預設的 `--cascade=background`）刪除 Deployment 時，Deployment 會立刻被刪除，
    接著是它的 ReplicaSet，再來是這些 ReplicaSet 的 Pod。
gc-background-docs = /zh-cn/docs/concepts/architecture/garbage-collection/#background-deletion

gc-foreground-title = 前景串聯刪除
gc-foreground-body =
    使用 `--cascade=foreground` 時，擁有者不會立刻被刪除：它會被加上 deletionTimestamp 和 `foregroundDeletion` finalizer，
    在垃圾回收器刪除其相依物件（先刪 Pod，再刪 ReplicaSet）的期間一直看得到。
    直到不再有設定了 `blockOwnerDeletion: true` 的相依物件，垃圾回收器才移除這個 finalizer，
    API 伺服器接著刪除擁有者。
gc-foreground-docs = /zh-cn/docs/concepts/architecture/garbage-collection/#foreground-deletion

gc-orphan-title = 保留相依物件，讓它們成為孤兒
gc-orphan-body =
    使用 `--cascade=orphan` 時，擁有者會被加上 `orphan` finalizer：垃圾回收器從每個相依物件的 `ownerReferences` 移除該擁有者，
    再移除 finalizer，擁有者隨之消失。
    相依物件留了下來，雖然沒有擁有者，卻照常運作：成為孤兒的 ReplicaSet 仍會讓它的 Pod 繼續執行。
gc-orphan-docs = /zh-cn/docs/concepts/architecture/garbage-collection/#orphaned-dependents

fault-title = 注入故障
fault-body =
    情境刻意弄壞某些東西（停掉一個節點、終止一個容器），讓你觀察叢集如何察覺問題並復原。
    Kubernetes 裡沒有誰會宣告故障：元件是從沒收到的心跳、失敗的探針與結束代碼發現問題的。
fault-docs = /zh-cn/docs/concepts/architecture/nodes/#node-status

## kube-scheduler

schedule-title = 排程器選擇節點
schedule-body =
    kube-scheduler 從佇列取出一個尚未排程的 Pod，對各個節點執行它的外掛：
    篩選外掛剔除 Pod 無法執行的節點（CPU 不足、有未被容忍的汙點、選擇器不符），
    評分外掛再為剩下的節點打 0 到 100 分，每項分數乘上該外掛的權重。
    總分最高的節點勝出，同分時隨機挑選，排程器接著把 Pod 綁定到該節點。
    沒有合適的節點時，Pod 維持 Pending，狀況為 `PodScheduled=False` 並依節點統計原因，
    等待叢集發生變化。
schedule-docs = /zh-cn/docs/concepts/scheduling-eviction/kube-scheduler/

## kubelet 與容器執行環境

kubelet-admit-title = kubelet 接納 Pod
kubelet-admit-body =
    Pod 所在節點上的 kubelet 透過它的 watch（`fieldSelector=spec.nodeName=<node>`）看到綁定到本節點的 Pod，並啟動一個 Pod worker。
    它檢查 Pod 是否放得進這個節點，判定 Pod 的 QoS 類別，並準備 Pod 的目錄與磁碟區。
    放不下的 Pod 會在這裡被拒絕，而不會被啟動。
kubelet-admit-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/

runtime-pull-title = 容器執行環境拉取映像檔
runtime-pull-body =
    kubelet 請容器執行環境（透過 CRI 呼叫 containerd）拉取本機沒有的映像檔；
    設定了 `imagePullPolicy: Always` 時則每次都拉取。
    所需時間取決於映像檔大小；映像檔倉庫裡沒有的映像檔會以 `ErrImagePull` 失敗，
    並以逐漸拉長的退避間隔重試（`ImagePullBackOff`）。
runtime-pull-docs = /zh-cn/docs/concepts/containers/images/

runtime-sandbox-title = RunPodSandbox：啟動 Pod 沙箱
runtime-sandbox-body =
    容器執行環境啟動 pause 容器，由它持有 Pod 內各容器共用的 Linux 命名空間（網路與 IPC；設定了 `shareProcessNamespace` 時還有 PID）。
    它的映像檔 `registry.k8s.io/pause` 會在節點第一次需要時拉取。
    沙箱無法建立時（例如網路外掛出錯），Pod 會停在 `ContainerCreating`，並出現 `FailedCreatePodSandBox` 事件。
runtime-sandbox-docs = /zh-cn/docs/concepts/architecture/cri/

cni-add-title = CNI ADD：Pod 取得網路
cni-add-body =
    網路外掛建立一對 veth，把其中一端放進沙箱的網路命名空間，並配給它節點 podCIDR 中下一個可用的位址。
    從此 Pod 有了自己的 IP，其他每個 Pod 都連得到它，它的狀況 `PodReadyToStartContainers` 變為 True。
    外掛失敗時（沒有可用位址、沒有設定網路外掛），沙箱會被拆除並重試，同時出現 `FailedCreatePodSandBox` 事件。
cni-add-docs = /zh-cn/docs/concepts/cluster-administration/networking/

cni-del-title = CNI DEL：移除 Pod 的網路
cni-del-body =
    沙箱停止時，網路外掛刪除這對 veth 並釋出 Pod 的位址，之後這個位址可能配給別的 Pod。
cni-del-docs = /zh-cn/docs/concepts/cluster-administration/networking/

runtime-create-title = CreateContainer：建立容器
runtime-create-body =
    容器執行環境依照映像檔、命令、環境變數與掛載，在 Pod 的沙箱裡建立容器，kubelet 記錄 `Created` 事件。
    無法組出設定的容器（例如它需要的 ConfigMap 鍵不存在）不會被建立，
    而是以 `CreateContainerConfigError` 等待。
runtime-create-docs = /zh-cn/docs/concepts/architecture/cri/

runtime-start-title = StartContainer：啟動容器
runtime-start-body =
    容器執行環境啟動容器的行程，kubelet 記錄 `Started` 事件。
    沒有就緒探針的容器一執行就算就緒；有就緒探針的，要等探針通過。
    命令無法啟動時（映像檔裡沒有這個執行檔），容器會以 `StartError` 結束，並和崩潰時一樣被重新啟動。
runtime-start-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#container-states

runtime-exit-title = 容器結束
runtime-exit-body =
    容器的主行程以某個結束代碼結束：0 為 `Completed`，其他為 `Error`，
    因記憶體用量超過上限而被終止的行程則為 `OOMKilled`。
    Pod 的 `restartPolicy` 決定 kubelet 是否再次啟動它。
runtime-exit-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy

runtime-stop-title = StopContainer：先 SIGTERM，再 SIGKILL
runtime-stop-body =
    Pod 正在被刪除：kubelet 記錄 `Killing`，並請容器執行環境對容器送出 SIGTERM。
    寬限期（預設 30 秒）結束時仍在執行的行程，會被 SIGKILL 強制終止。
runtime-stop-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination

runtime-stop_sandbox-title = StopPodSandbox：停止沙箱
runtime-stop_sandbox-body =
    所有容器都停止後，容器執行環境停止 pause 容器，網路外掛拆除 Pod 的網路。
runtime-stop_sandbox-docs = /zh-cn/docs/concepts/architecture/cri/

runtime-remove_sandbox-title = RemovePodSandbox：移除沙箱
runtime-remove_sandbox-body =
    容器執行環境移除已停止的沙箱；接著 kubelet 以寬限期 0 刪除 Pod 物件，Pod 就從 etcd 中移除了。
runtime-remove_sandbox-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination

kubelet-probe-title = 就緒探針通過
kubelet-probe-body =
    kubelet 依 readinessProbe 的設定探測容器：先等 `initialDelaySeconds`，之後每隔 `periodSeconds` 探測一次。
    探針通過後容器就緒；Pod 的所有容器都就緒時，Pod 也就緒。
    在那之前 Pod 不是 Ready，Service 不會把流量送給它。
kubelet-probe-docs = /zh-cn/docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-backoff-title = kubelet 退避重試
kubelet-backoff-body =
    一再結束的容器要等一段退避時間才會重新啟動，這段時間從 10 秒起算、每次加倍，最長 5 分鐘（`CrashLoopBackOff`）；
    映像檔拉取失敗也以同樣方式重試（`ImagePullBackOff`）。
    容器正常執行 10 分鐘後，退避時間會重新起算。
kubelet-backoff-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#container-restarts

kubelet-reject-title = kubelet 拒絕 Pod
kubelet-reject-body =
    執行 Pod 之前，kubelet 會把排程器檢查過的內容再檢查一次：Pod 的資源請求是否放得進節點剩餘的容量、
    `nodeSelector` 是否相符、Pod 是否容忍節點的 NoExecute 汙點。
    透過 `spec.nodeName` 直接綁定的 Pod 略過了排程器，所以會在這裡被擋下：
    它立即失敗，原因如 `OutOfcpu`，訊息為 `Pod was rejected: ...`，其中的容器一個都不會執行。
kubelet-reject-docs = /zh-cn/docs/concepts/scheduling-eviction/assign-pod-node/#nodename

volume-mount-title = 磁碟區管理器掛載磁碟區
volume-mount-body =
    建立 Pod 沙箱之前，kubelet 的磁碟區管理器會準備好每個磁碟區：
    透過 API 伺服器讀取 ConfigMap 與 Secret 並寫成檔案、建立 emptyDir，並確認 PersistentVolumeClaim 已經綁定。
    無法準備好的磁碟區（例如它的 ConfigMap 還不存在）會讓 Pod 停在 `ContainerCreating` 並產生 `FailedMount` 事件，
    之後以 0.5 秒到約 2 分鐘的退避間隔重試。
volume-mount-docs = /zh-cn/docs/concepts/storage/volumes/

kubelet-condition-title = Pod 狀況改變
kubelet-condition-body =
    kubelet 的狀態管理器依 kubelet 寫入的順序回報 Pod 的狀況：
    沙箱有了網路後是 `PodReadyToStartContainers`，Init 容器全部完成後是 `Initialized`，
    每個容器都就緒後是 `ContainersReady` 與 `Ready`。
    Service 只把流量送給 Ready 的 Pod。
kubelet-condition-docs = /zh-cn/docs/concepts/workloads/pods/pod-lifecycle/#pod-conditions

kubelet-hook-title = 容器生命週期掛鉤執行
kubelet-hook-body =
    postStart 掛鉤在容器啟動後立即執行，kubelet 要等它結束才會回報容器為執行中；
    它失敗時，容器會被終止並重新啟動（`FailedPostStartHook`）。
    preStop 掛鉤在容器即將停止時執行，位於寬限期之內、SIGTERM 之前。
kubelet-hook-docs = /zh-cn/docs/concepts/containers/container-lifecycle-hooks/

kubelet-unready-title = 就緒探針失敗
kubelet-unready-body =
    就緒探針連續失敗 `failureThreshold` 次（預設 3 次），kubelet 因此把容器標為未就緒。
    容器繼續執行，但 Pod 不再是 Ready，Service 停止把流量送給它，直到探針再次通過。
kubelet-unready-docs = /zh-cn/docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-liveness-title = 存活探針失敗：容器重新啟動
kubelet-liveness-body =
    存活探針連續失敗 `failureThreshold` 次，kubelet 認定容器已經壞了：
    它記錄 `Killing`、執行 preStop 掛鉤、停止容器；只要 Pod 的 restartPolicy 不是 Never，就再次啟動它。
    反覆重新啟動會和崩潰循環一樣拉長退避時間。
kubelet-liveness-docs = /zh-cn/docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-startup-title = 啟動探針判斷容器是否已啟動
kubelet-startup-body =
    設定了啟動探針時，kubelet 不執行存活探針與就緒探針，讓啟動慢的容器有時間完成啟動。
    啟動探針通過後，容器算是已啟動，其他探針才開始運作；
    連續失敗 `failureThreshold` 次時，容器會和存活探針失敗時一樣被終止並重新啟動。
kubelet-startup-docs = /zh-cn/docs/concepts/configuration/liveness-readiness-startup-probes/

kubelet-changed-title = 容器映像檔變了：kubelet 重新啟動容器
kubelet-changed-body =
    在執行中的 Pod 裡，容器的映像檔是它唯一能修改的欄位（`kubectl set image pod/...`）。
    kubelet 發現容器的 spec 雜湊值不再相符：執行中的容器會被終止（`Killing`，`definition changed, will be restarted`），
    再以新映像檔啟動，這算一次重新啟動。
    從未啟動過的容器會立刻改用新映像檔，不必等待舊映像檔的退避時間。
kubelet-changed-docs = /zh-cn/docs/concepts/containers/images/#updating-images

kubelet-config_error-title = 容器的設定不完整
kubelet-config_error-body =
    kubelet 以 ConfigMap 與 Secret（`env.valueFrom`、`envFrom`）組出容器的環境變數。
    其中某個不存在或缺少所需的鍵時，容器不會被建立：
    它以 `CreateContainerConfigError` 等待，kubelet 會在下一次 Pod 同步時（大約每 10 秒）重試。
kubelet-config_error-docs = /zh-cn/docs/tasks/configure-pod-container/configure-pod-configmap/

## kube-proxy

iptables-sync-title = kube-proxy 設定節點的 iptables 規則
iptables-sync-body =
    每個節點上的 kube-proxy 監看 Service 與 EndpointSlice，並把它們轉成 NAT 規則：
    每個 ClusterIP 與連接埠在 `KUBE-SERVICES` 中有一條規則跳到該 Service 的 `KUBE-SVC-` 鏈，
    這條鏈隨機挑出一個就緒端點（`-m statistic --probability 1/n`，接著是 1/(n-1)……），
    跳到它的 `KUBE-SEP-` 鏈，再由後者把封包 DNAT 到 Pod 的 IP 與連接埠。
    只有就緒的端點會寫進規則，兩次同步至少相隔 `minSyncPeriod`（1 秒），讓一連串變更合併成一次 `iptables-restore`。
    這筆記錄保存了節點上 `iptables-save` 所顯示的 nat 表。
iptables-sync-docs = /zh-cn/docs/reference/networking/virtual-ips/#proxy-mode-iptables

## 日誌：API 伺服器呼叫 kubelet

kubelet-proxy-title = kube-apiserver 連線到 kubelet
kubelet-proxy-body =
    日誌（以及 exec、attach、port-forward）不在 etcd 裡：對於 `pods/log`，API 伺服器像處理其他請求一樣檢查它，
    找出 Pod 所在的節點，連線到該節點上 kubelet 的 10250 連接埠，再把 kubelet 的回應以串流方式傳回來。
    這是控制平面對 kubelet 發出的唯一一種呼叫；kubelet 停止運作時，請求會以 `connection refused` 失敗。
kubelet-proxy-docs = /zh-cn/docs/concepts/architecture/control-plane-node-communication/#control-plane-to-node

kubelet-logs-title = kubelet 提供容器日誌
kubelet-logs-body =
    容器執行環境把容器輸出的所有內容寫進 `/var/log/pods` 底下的日誌檔，容器每執行一次就有一個檔案。
    kubelet 回傳目前這一次的檔案，加上 `--previous` 時則回傳上一次的；
    容器還沒啟動時，它會說明為什麼沒有日誌（`waiting to start: ContainerCreating`）。
kubelet-logs-docs = /zh-cn/docs/concepts/cluster-administration/logging/

## 節點故障

node-unreachable-title = 節點控制器把節點標為無法連線
node-unreachable-body =
    每個 kubelet 每 10 秒續約一次它的節點在 `kube-node-lease` 中的 Lease。
    某個 Lease 40 秒沒有續約時，節點生命週期控制器會把該節點的狀況設為 `Unknown`（`kubectl get nodes` 顯示為 `NotReady`），
    把節點上的 Pod 標為未就緒，並為節點加上 `node.kubernetes.io/unreachable` 汙點（NoSchedule 與 NoExecute）。
    此後新的 Pod 不會再排程到這個節點。
node-unreachable-docs = /zh-cn/docs/concepts/architecture/nodes/#node-controller

node-reachable-title = 節點恢復連線
node-reachable-body =
    kubelet 重新續約 Lease，並再次回報 `Ready=True`，
    節點生命週期控制器隨即移除 `node.kubernetes.io/unreachable` 汙點，節點重新接受新的 Pod。
node-reachable-docs = /zh-cn/docs/concepts/architecture/nodes/#node-controller

taint-eviction-title = 排定以汙點為依據的驅逐
taint-eviction-body =
    NoExecute 汙點會驅逐節點上所有不容忍它的 Pod。
    Pod 預設對 `unreachable` 與 `not-ready` 有 300 秒的容忍時間，時間一到，
    汙點驅逐控制器就刪除它們（事件 `TaintManagerEviction`）。
    停止運作的節點上的 Pod 會一直停在 Terminating，因為只有該節點上的 kubelet 能完成刪除；
    在此同時，它的控制器會在別處建立替代的 Pod。
taint-eviction-docs = /zh-cn/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions
