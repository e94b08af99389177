//! The explanations in every language: every kind of record the simulation produces is
//! explained in English, Simplified Chinese and Traditional Chinese, each Chinese file is
//! written in its own script with its region's terms, and Kubernetes names stay as they are.

mod common;
use common::*;
use kubeplay_core::explain::{self, explanation, explanations, ftl, message_id, LANGUAGES};
use std::collections::{BTreeMap, BTreeSet};

/// Records that no gallery scenario produces: probes and hooks, a pod the kubelet rejects, a
/// missing ConfigMap, an image changed in a running pod, logs, a manifest without a kind, a
/// stale apply, the three cascades, a node that stops and comes back, and (run past an hour)
/// expiring Events.
const COVERAGE: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: front
spec:
  replicas: 1
  selector:
    matchLabels: {app: front}
  template:
    metadata:
      labels: {app: front}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: back
spec:
  replicas: 1
  selector:
    matchLabels: {app: back}
  template:
    metadata:
      labels: {app: back}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: side
spec:
  replicas: 1
  selector:
    matchLabels: {app: side}
  template:
    metadata:
      labels: {app: side}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: demo
---
apiVersion: v1
kind: Pod
metadata:
  name: ready
spec:
  containers:
  - name: web
    image: nginx:1.27
    readinessProbe:
      httpGet: {path: /, port: 80}
---
apiVersion: v1
kind: Pod
metadata:
  name: probed
spec:
  containers:
  - name: app
    image: nginx:1.27
    startupProbe:
      tcpSocket: {port: 80}
      initialDelaySeconds: 2
    readinessProbe:
      httpGet: {path: /, port: 80}
    lifecycle:
      postStart:
        exec:
          command: ["true"]
      preStop:
        exec:
          command: ["sleep", "2"]
---
apiVersion: v1
kind: Pod
metadata:
  name: live
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    livenessProbe:
      httpGet: {path: /healthz, port: 80}
      periodSeconds: 5
---
apiVersion: v1
kind: Pod
metadata:
  name: big
spec:
  nodeName: node-1
  containers:
  - name: c
    image: nginx:1.27
    resources:
      requests: {cpu: "64"}
---
apiVersion: v1
kind: Pod
metadata:
  name: cfg
spec:
  containers:
  - name: c
    image: nginx:1.27
    env:
    - name: MODE
      valueFrom:
        configMapKeyRef: {name: missing, key: mode}
---
apiVersion: kubeplay/v1alpha1
kind: Scenario
seed: 7
steps:
- at: 20s
  kubectl: logs probed
- at: 21s
  kubectl: set image pod/probed app=nginx:1.28
- at: 22s
  kubectl: apply -f -
  stdin: |
    apiVersion: v1
    metadata:
      name: nokind
- at: 23s
  kubectl: delete deployment front --cascade=foreground
- at: 24s
  kubectl: delete deployment back --cascade=orphan
- at: 25s
  kubectl: delete pod probed
- at: 26s
  kubectl: delete deployment side
- at: 27s
  kubectl: annotate pod ready kubeplay.dev/fail-probe=readiness
- at: 28s
  kubectl: apply -f -
  stdin: |
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: settings
      resourceVersion: "1"
    data:
      mode: live
- at: 30s
  fault: stop-node node-2
- at: 120s
  fault: start-node node-2
"#;

/// Every scenario file: the gallery's and the tests'.
fn scenario_files() -> Vec<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = Vec::new();
    for dir in [
        format!("{root}/../public/scenarios"),
        format!("{root}/tests/scenarios"),
    ] {
        let mut here: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        here.sort();
        assert!(!here.is_empty(), "no scenarios in {dir}");
        files.extend(here);
    }
    files
}

/// The record kinds a run produces, each with the scenario it was first seen in.
fn kinds(args: &[&str], name: &str, seen: &mut BTreeMap<String, String>) {
    let r = kubeplay(args);
    let recs = records(&r.stdout);
    assert!(!recs.is_empty(), "{name}: no records\n{}", r.stderr);
    for rec in recs {
        let key = rec["explain"].as_str().expect("explain key").to_string();
        seen.entry(key).or_insert_with(|| name.to_string());
    }
}

/// The message ids of a language's explanations file.
fn ids(lang: &str) -> BTreeSet<&'static str> {
    explain::message_ids(ftl(lang, "explain").unwrap())
        .into_iter()
        .collect()
}

#[test]
fn every_record_kind_of_every_scenario_is_explained_in_every_language() {
    let mut seen = BTreeMap::new();
    for file in scenario_files() {
        let name = file.rsplit('/').next().unwrap().to_string();
        kinds(
            &["run", &file, "--trace", "json", "--trace-pods", "all"],
            &name,
            &mut seen,
        );
    }
    let coverage = temp_file("explanations-coverage.yaml", COVERAGE.as_bytes());
    kinds(
        &[
            "run",
            &coverage,
            "--trace",
            "json",
            "--trace-pods",
            "all",
            "--until",
            "3700s",
            "--kubectl",
            "get pods",
            "--etcdctl",
            "get /registry/pods --prefix --keys-only",
        ],
        "the coverage scenario",
        &mut seen,
    );

    let mut missing = Vec::new();
    for lang in LANGUAGES {
        let have = ids(lang);
        for (kind, scenario) in &seen {
            for part in ["title", "body", "docs"] {
                let id = message_id(kind, part);
                if !have.contains(id.as_str()) {
                    missing.push(format!(
                        "{lang}: no {id} in locales/{lang}/explain.ftl for the {kind:?} records of {scenario}"
                    ));
                }
            }
            let e = explanation(kind, lang).expect("explained");
            assert_eq!(e.lang, lang);
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));

    // And nothing is explained that no run produces: a new kind of record gets a scenario
    // above, a kind that is gone loses its messages.
    let never: Vec<&str> = explanations("en")
        .iter()
        .map(|e| e.key)
        .filter(|k| !seen.contains_key(*k))
        .collect();
    assert!(
        never.is_empty(),
        "explained but produced by no scenario: {never:?}"
    );
}

/// Each region's words for the same things, as the explanations and views use them.
const TERMS: [(&str, &str, &str); 11] = [
    ("schedule", "调度器", "排程器"),
    ("kubelet.admit", "节点", "節點"),
    ("runtime.pull", "容器运行时", "容器執行環境"),
    ("runtime.pull", "镜像", "映像檔"),
    ("authorize", "命名空间", "命名空間"),
    ("authenticate", "服务账号", "服務帳號"),
    ("authenticate", "认证", "認證"),
    ("authorize", "鉴权", "授權"),
    ("admission.mutating", "准入控制", "准入控制"),
    ("reconcile", "控制器", "控制器"),
    ("request", "集群", "叢集"),
];

#[test]
fn each_region_uses_its_own_terms() {
    for (kind, cn, tw) in TERMS {
        let zh_cn = explanation(kind, "zh-CN").unwrap();
        let zh_tw = explanation(kind, "zh-TW").unwrap();
        let cn_text = format!("{} {}", zh_cn.title, zh_cn.body);
        let tw_text = format!("{} {}", zh_tw.title, zh_tw.body);
        assert!(cn_text.contains(cn), "zh-CN {kind} lacks {cn}: {cn_text}");
        assert!(tw_text.contains(tw), "zh-TW {kind} lacks {tw}: {tw_text}");
    }
    // The scheduler by name, in its explanation and its view.
    let cn = explanation("schedule", "zh-CN").unwrap();
    let tw = explanation("schedule", "zh-TW").unwrap();
    assert!(cn.title.contains("调度器") && cn.body.contains("调度器"));
    assert!(tw.title.contains("排程器") && tw.body.contains("排程器"));
    assert!(!tw.body.contains("調度"), "{}", tw.body);
    assert!(!cn.body.contains("排程"), "{}", cn.body);
    assert_eq!(explain::ui("view-scheduler", "zh-CN"), Some("调度器"));
    assert_eq!(explain::ui("view-scheduler", "zh-TW"), Some("排程器"));
}

/// Common characters that only Simplified Chinese writes, each with its Traditional form.
const PAIRS: &str =
    "调調 节節 据據 务務 实實 这這 个個 为為 时時 会會 从從 们們 对對 发發 经經 过過 \
    动動 进進 网網 络絡 点點 资資 设設 应應 该該 态態 启啟 删刪 创創 认認 证證 权權 储儲 \
    写寫 读讀 请請 响響 错錯 误誤 义義 关關 闭閉 开開 间間 选選 择擇 变變 轮輪 询詢 达達 \
    运運 镜鏡 载載 签簽 绑綁 级級 联聯 确確 检檢 测測 试試 类類 组組 还還 没沒 无無 当當 \
    条條 计計 数數 并並 样樣 与與 让讓 将將 给給 么麼 号號 账賬 户戶 虽雖 终終 结結 记記 \
    录錄 线線 云雲 体體 历歷 处處 复復 杂雜 适適 业業 两兩 严嚴 临臨 举舉 产產 仅僅 价價 \
    优優 传傳 执執 环環 档檔 备備 续續 约約 钩鉤 链鏈 后後 于於 冲衝 范範 \
    须須 显顯 示 务務 协協 调調 缓緩 队隊 列 访訪 问問 频頻 压壓 缩縮 库庫 帮幫 状狀 况況 \
    态態 标標 签簽 挂掛 载載 卷 宽寬 限 围圍 驱驅 逐";

fn only(simplified: bool) -> BTreeSet<char> {
    PAIRS
        .split_whitespace()
        .filter_map(|p| {
            let mut cs = p.chars();
            match (cs.next(), cs.next()) {
                (Some(s), Some(t)) => Some(if simplified { s } else { t }),
                _ => None,
            }
        })
        .collect()
}

/// Each line of a file, without the endonyms (`language-zh-CN = 简体中文` is in every file).
fn lines(lang: &str) -> Vec<(String, &'static str)> {
    ["explain", "ui"]
        .into_iter()
        .flat_map(|file| {
            ftl(lang, file)
                .unwrap()
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.starts_with("language-"))
                .map(move |(i, l)| (format!("locales/{lang}/{file}.ftl:{}", i + 1), l))
        })
        .collect()
}

#[test]
fn each_chinese_file_is_written_in_its_own_script() {
    let simplified = only(true);
    let traditional = only(false);
    assert!(simplified.contains(&'调') && traditional.contains(&'調'));
    assert!(simplified.is_disjoint(&traditional));
    let mut wrong = Vec::new();
    for (lang, forbidden, script) in [
        ("zh-TW", &simplified, "simplified"),
        ("zh-CN", &traditional, "traditional"),
    ] {
        for (at, line) in lines(lang) {
            let bad: String = line.chars().filter(|c| forbidden.contains(c)).collect();
            if !bad.is_empty() {
                wrong.push(format!("{at}: {script} {bad:?} in {line:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn each_chinese_file_uses_its_regions_words() {
    // Mainland words a Taiwanese reader would not use, and the other way round.
    let mainland_in_tw = [
        "服務器",
        "集群",
        "默認",
        "數據",
        "網絡",
        "信息",
        "對象",
        "鏡像",
        "調度",
        "運行時",
        "創建",
        "內存",
        "端口",
        "文檔",
        "字段",
        "緩存",
        "隊列",
        "插件",
        "軟件",
    ];
    let taiwan_in_cn = [
        "伺服器",
        "丛集",
        "资讯",
        "网路",
        "物件",
        "映像档",
        "排程",
        "执行环境",
        "透过",
        "连接埠",
        "外挂",
        "快取",
        "伫列",
        "栏位",
        "记忆体",
        "程式",
    ];
    let mut wrong = Vec::new();
    for (lang, words) in [("zh-TW", &mainland_in_tw[..]), ("zh-CN", &taiwan_in_cn[..])] {
        for (at, line) in lines(lang) {
            for w in words {
                if line.contains(w) {
                    wrong.push(format!("{at}: {w:?} in {line:?}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The `code` spans of a text.
fn code_spans(s: &str) -> BTreeSet<&str> {
    s.split('`').skip(1).step_by(2).collect()
}

#[test]
fn kubernetes_names_and_code_stay_as_they_are() {
    let names = [
        "Pod",
        "Deployment",
        "ReplicaSet",
        "kubelet",
        "etcd",
        "kube-apiserver",
        "kube-scheduler",
        "kube-proxy",
        "kube-controller-manager",
        "CNI",
        "Service",
        "EndpointSlice",
        "ConfigMap",
        "Secret",
        "RBAC",
        "CRI",
        "containerd",
    ];
    for (en, (cn, tw)) in explanations("en")
        .iter()
        .zip(explanations("zh-CN").iter().zip(explanations("zh-TW")))
    {
        let en_text = format!("{} {}", en.title, en.body);
        for t in [cn, tw] {
            let text = format!("{} {}", t.title, t.body);
            for n in names {
                if en_text.contains(n) {
                    assert!(text.contains(n), "{} {}: no {n}: {text}", t.lang, t.key);
                }
            }
            let want = code_spans(&en_text);
            let got = code_spans(&text);
            let lost: Vec<&&str> = want.difference(&got).collect();
            assert!(lost.is_empty(), "{} {}: lost {lost:?}", t.lang, t.key);
            assert_eq!(
                en_text.matches('`').count() % 2,
                0,
                "en {}: unbalanced `",
                en.key
            );
            assert_eq!(
                text.matches('`').count() % 2,
                0,
                "{} {}: unbalanced `",
                t.lang,
                t.key
            );
        }
    }
}

#[test]
fn chinese_text_uses_full_width_punctuation() {
    for lang in ["zh-CN", "zh-TW"] {
        for e in explanations(lang) {
            // Outside code, a comma or colon right after a Chinese character is a full-width one.
            let prose: String = e.body.split('`').step_by(2).collect::<Vec<_>>().join(" ");
            let chars: Vec<char> = prose.chars().collect();
            for w in chars.windows(2) {
                let cjk = ('\u{4E00}'..='\u{9FFF}').contains(&w[0]);
                assert!(
                    !(cjk && matches!(w[1], ',' | ';' | ':' | '(' | '?' | '!')),
                    "{lang} {}: {:?}{:?} in {}",
                    e.key,
                    w[0],
                    w[1],
                    e.body
                );
            }
            assert!(e.body.ends_with('。'), "{lang} {}: {}", e.key, e.body);
        }
    }
}
