//! The Cluster view: a card per node with its requests against its allocatable CPU, memory and
//! pods, its Ready state, taints and labels, and its pods coloured by their STATUS column;
//! pods not yet scheduled in a lane of their own; Services with their endpoints.

use crate::state::derive::{
    cluster_model, status_class, status_counts, ClusterModel, NodeCard, PodChip,
};
use crate::state::playground::Playground;
use leptos::prelude::*;
use std::sync::Arc;

fn percent(used: i64, total: i64) -> f64 {
    if total <= 0 {
        0.0
    } else {
        (used as f64 * 100.0 / total as f64).clamp(0.0, 100.0)
    }
}

fn mib(bytes: i64) -> String {
    let m = bytes as f64 / (1024.0 * 1024.0);
    if m >= 1024.0 {
        format!("{:.1}Gi", m / 1024.0)
    } else {
        format!("{m:.0}Mi")
    }
}

#[component]
fn Bar(label: &'static str, used: i64, total: i64, text: String) -> impl IntoView {
    let pct = percent(used, total);
    let class = if pct >= 90.0 { "bar hot" } else { "bar" };
    let i18n = crate::state::i18n::i18n();
    view! {
        <div class="bar-row">
            <span class="bar-label">{label}</span>
            <span class=class role="meter" aria-label=i18n.ta("cluster-requested", &[("resource", label)])
                aria-valuemin="0" aria-valuemax=total.to_string() aria-valuenow=used.to_string()>
                <span class="fill" style=format!("width:{pct:.1}%")></span>
            </span>
            <span class="bar-text">{text}</span>
        </div>
    }
}

/// A big cluster's pods: one badge per status with its count.
fn counts(counts: Vec<(String, usize)>) -> AnyView {
    counts
        .into_iter()
        .map(|(status, n)| {
            let class = format!("pod-count {}", status_class(&status));
            view! {
                <span class=class data-status=status.clone() title=format!("{status}: {n}")>
                    <span class="pod-status">{status.clone()}</span>" "<span class="n">{n}</span>
                </span>
            }
        })
        .collect_view()
        .into_any()
}

/// A node card as drawn: in a big cluster its pods are only counted, so the card (which is
/// also its key: an unchanged card is not drawn again) holds the counts, not the chips.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Card {
    lang: &'static str,
    node: NodeCard,
    pod_total: usize,
    /// `Some` when the pods are counted by status.
    counts: Option<Vec<(String, usize)>>,
}

impl Card {
    fn new(lang: &'static str, node: &NodeCard, counted: bool) -> Self {
        let mut node = node.clone();
        let pod_total = node.pods.len();
        let counts = counted.then(|| status_counts(&std::mem::take(&mut node.pods)));
        Card {
            lang,
            node,
            pod_total,
            counts,
        }
    }
}

fn chips(pods: Vec<Arc<PodChip>>, pg: Playground) -> impl IntoView {
    pods.into_iter()
        .map(|pod| {
            let key = pod.key.clone();
            let selected = {
                let key = key.clone();
                move || pg.selected_pod.with(|s| s.as_deref() == Some(key.as_str()))
            };
            let class = format!("pod {}", status_class(&pod.status));
            let key2 = key.clone();
            view! {
                <button class=class class:selected=selected.clone() data-pod=key.clone()
                    data-status=pod.status.clone()
                    aria-pressed=move || selected().to_string()
                    title=format!("{key}: {}", pod.status)
                    on:click=move |_| pg.select_pod(&key2)>
                    <span class="pod-name">{pod.name.clone()}</span>
                    <span class="pod-status">{pod.status.clone()}</span>
                </button>
            }
        })
        .collect_view()
}

/// A node's card: its Ready state, requests against allocatable, taints, labels and pods.
fn node_card(card: Card, pg: Playground) -> AnyView {
    let i18n = crate::state::i18n::i18n();
    let Card {
        node: n,
        pod_total,
        counts: counted,
        ..
    } = card;
    let ready_class = if n.ready == "Ready" {
        "ready ok"
    } else {
        "ready bad"
    };
    view! {
        <article class="node-card" data-node=n.name.clone() aria-label=format!("node {}", n.name)>
            <header>
                <h3>{n.name.clone()}</h3>
                <span class=ready_class>{n.ready.clone()}</span>
                {n.unschedulable.then(|| view! { <span class="ready bad">"SchedulingDisabled"</span> })}
            </header>
            <Bar label=i18n.t("cluster-bar-cpu") used=n.cpu_requested_m total=n.cpu_allocatable_m
                text=format!("{}m / {}m", n.cpu_requested_m, n.cpu_allocatable_m) />
            <Bar label=i18n.t("cluster-bar-mem") used=n.memory_requested total=n.memory_allocatable
                text=format!("{} / {}", mib(n.memory_requested), mib(n.memory_allocatable)) />
            <Bar label=i18n.t("cluster-bar-pods") used=pod_total as i64 total=n.pods_allocatable
                text=format!("{} / {}", pod_total, n.pods_allocatable) />
            {(!n.taints.is_empty()).then(|| view! {
                <p class="taints">{n.taints.iter().map(|t| view! { <span class="taint">{t.clone()}</span> }).collect_view()}</p>
            })}
            <p class="labels">{n.labels.iter().map(|l| view! { <span class="label-chip">{l.clone()}</span> }).collect_view()}</p>
            <div class="pods">{match counted {
                Some(c) => counts(c),
                None => chips(n.pods, pg).into_any(),
            }}</div>
        </article>
    }
    .into_any()
}

/// `&`, `<`, `>` and quotes as entities, for text put in markup.
fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// How a node's cell looks: its class (fill level and state) and whether it is the one picked.
fn cell_class(n: &NodeCard, picked: bool) -> String {
    let mut class = format!("heat-cell level-{}", n.fill_level());
    if n.ready != "Ready" {
        class.push_str(" not-ready");
    }
    if n.unschedulable {
        class.push_str(" cordoned");
    }
    if picked {
        class.push_str(" picked");
    }
    class
}

/// What a cell's title says, as values: the title is formatted again only when these change.
type TitleFacts = (String, i64, usize, i64);

fn title_facts(n: &NodeCard) -> TitleFacts {
    (
        n.ready.clone(),
        n.fill_percent(),
        n.pods.len(),
        n.pods_allocatable,
    )
}

/// The heat map's cells as markup, one button per node. Thousands of cells are written as
/// one string (escaped) rather than as components: as fast to draw, and a fraction of the
/// code the page downloads.
fn heat_cells(
    nodes: &[Arc<NodeCard>],
    picked: Option<&str>,
    title: &dyn Fn(&NodeCard) -> String,
) -> String {
    let mut html = String::with_capacity(nodes.len() * 160);
    for n in nodes {
        let name = escape_html(&n.name);
        let title = escape_html(&title(n));
        let level = n.fill_level();
        let is_picked = picked == Some(n.name.as_str());
        let class = cell_class(n, is_picked);
        html.push_str(&format!(
            "<button type=\"button\" class=\"{class}\" data-node=\"{name}\" data-level=\"{level}\" \
             aria-pressed=\"{is_picked}\" title=\"{title}\" aria-label=\"{title}\"></button>"
        ));
    }
    html
}

/// The cells as last drawn, so a redraw touches only the cells that changed: rewriting all
/// of them made the browser style and lay out a thousand new buttons at every redraw.
#[derive(Default)]
struct DrawnCells {
    lang: String,
    /// Per cell, in node order: its node, class and title facts.
    cells: Vec<(String, String, TitleFacts)>,
}

impl DrawnCells {
    /// Brings the cells under `map` to `nodes`: in place when the same nodes are drawn in the
    /// same language, written anew otherwise.
    fn draw(
        &mut self,
        map: &web_sys::Element,
        nodes: &[Arc<NodeCard>],
        picked: Option<&str>,
        lang: &str,
        title: &dyn Fn(&NodeCard) -> String,
    ) {
        let same_nodes = self.lang == lang
            && self.cells.len() == nodes.len()
            && self.cells.iter().zip(nodes).all(|(c, n)| c.0 == n.name);
        let face = |n: &NodeCard| {
            let class = cell_class(n, picked == Some(n.name.as_str()));
            (class, title_facts(n))
        };
        if !same_nodes {
            map.set_inner_html(&heat_cells(nodes, picked, title));
            self.lang = lang.to_string();
            self.cells = nodes
                .iter()
                .map(|n| {
                    let (class, facts) = face(n);
                    (n.name.clone(), class, facts)
                })
                .collect();
            return;
        }
        let mut cell = map.first_element_child();
        for (n, drawn) in nodes.iter().zip(&mut self.cells) {
            let Some(el) = cell else { break };
            let (class, facts) = face(n);
            if class != drawn.1 {
                el.set_class_name(&class);
                let _ = el.set_attribute("data-level", &n.fill_level().to_string());
                let _ = el.set_attribute(
                    "aria-pressed",
                    if picked == Some(n.name.as_str()) {
                        "true"
                    } else {
                        "false"
                    },
                );
                drawn.1 = class;
            }
            if facts != drawn.2 {
                let title = title(n);
                let _ = el.set_attribute("title", &title);
                let _ = el.set_attribute("aria-label", &title);
                drawn.2 = facts;
            }
            cell = el.next_element_sibling();
        }
    }
}

/// A big cluster's nodes: a cell each, coloured by how full it is, and the card of the node
/// picked (the first one until one is).
#[component]
fn HeatMap(model: Memo<ClusterModel>) -> impl IntoView {
    let i18n = crate::state::i18n::i18n();
    let pg = expect_context::<Playground>();
    let picked = RwSignal::new(None::<String>);
    // Each part reads the model in place: cloning it would copy a vector per node.
    let summary = move || {
        let (nodes, ready, pods) = model.with(|m| {
            let ready = m.nodes.iter().filter(|n| n.ready == "Ready").count();
            (m.nodes.len(), ready, m.pod_count())
        });
        i18n.ta(
            "cluster-heat-summary",
            &[
                ("nodes", &nodes.to_string()),
                ("ready", &ready.to_string()),
                ("pods", &pods.to_string()),
            ],
        )
    };
    // The cells are drawn by hand (see `DrawnCells`), after the map is in the page.
    let map = NodeRef::<leptos::html::Div>::new();
    let drawn = StoredValue::new(DrawnCells::default());
    Effect::new(move |_| {
        let Some(map) = map.get() else {
            return;
        };
        let title = |n: &NodeCard| {
            i18n.ta(
                "cluster-heat-cell",
                &[
                    ("node", &n.name),
                    ("ready", &n.ready),
                    ("percent", &n.fill_percent().to_string()),
                    ("pods", &n.pods.len().to_string()),
                    ("allocatable", &n.pods_allocatable.to_string()),
                ],
            )
        };
        let picked = picked.get();
        let lang = i18n.lang.get();
        model.with(|m| {
            drawn.update_value(|d| d.draw(&map, &m.nodes, picked.as_deref(), lang, &title))
        });
    });
    // One listener for every cell: the cell clicked names its node.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        use wasm_bindgen::JsCast;
        let node = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.get_attribute("data-node"));
        if let Some(node) = node {
            picked.set(Some(node));
        }
    };
    let legend = move || {
        let mut html = escape_html(i18n.t("cluster-heat-legend"));
        for l in 0..5 {
            html.push_str(&format!(
                " <span class=\"heat-cell level-{l}\"></span><span class=\"heat-range\">{}-{}%</span>",
                l * 20,
                l * 20 + 20
            ));
        }
        html
    };
    let card = move || {
        let name = picked.get();
        let (node, counted) = model.with(|m| {
            let node = match &name {
                Some(name) => m.nodes.iter().find(|n| &n.name == name),
                None => m.nodes.first(),
            };
            (node.cloned(), m.counts_pods())
        });
        node.map(|n| node_card(Card::new(i18n.lang.get(), &n, counted), pg))
    };
    view! {
        <p class="heat-summary" data-testid="cluster-summary">{summary}" "{move || counts(model.with(ClusterModel::status_totals))}</p>
        <div class="heatmap" role="group" data-testid="node-heatmap" aria-label=move || i18n.t("cluster-heat-label")
            on:click=on_click node_ref=map></div>
        <p class="heat-legend" aria-hidden="true" inner_html=legend></p>
        <div class="nodes picked-node">{card}</div>
    }
}

#[component]
pub fn ClusterView() -> impl IntoView {
    let i18n = crate::state::i18n::i18n();
    let pg = expect_context::<Playground>();
    let state = Memo::new(move |_| pg.state_key());
    let model = Memo::new(move |_| {
        let (_, rev) = state.get();
        pg.with_untracked(|p| cluster_model(p, rev))
            .unwrap_or_default()
    });
    let heat_map = Memo::new(move |_| model.with(ClusterModel::heat_map));
    view! {
        <div data-testid="cluster" class="view cluster" role="region" aria-label=move || i18n.t("cluster-label")>
            {move || if heat_map.get() {
                view! { <HeatMap model=model /> }.into_any()
            } else {
                view! {
                    <div class="nodes">
                        // Keyed by the whole card: a card whose node and pods did not change
                        // since the last frame is kept as it is, not drawn again. The language
                        // is in the key too: a card is drawn in one.
                        <For each=move || {
                                let (m, lang) = (model.get(), i18n.lang.get());
                                let counted = m.counts_pods();
                                m.nodes.iter().map(|n| Card::new(lang, n, counted)).collect::<Vec<_>>()
                            }
                            key=|card| card.clone()
                            children=move |card: Card| node_card(card, pg) />
                    </div>
                }.into_any()
            }}
            <section class="unscheduled" aria-label=move || i18n.t("cluster-unscheduled-label")>
                <h3>{move || i18n.t("cluster-unscheduled")}</h3>
                <div class="pods">
                    {move || {
                        // Read in place: a copy of the model would copy every node's pods.
                        let (empty, counted) = model.with(|m| (m.unscheduled.is_empty(), m.counts_pods()));
                        if empty {
                            view! { <span class="muted">{i18n.t("cluster-none")}</span> }.into_any()
                        } else if counted {
                            model.with(|m| counts(m.unscheduled_counts()))
                        } else {
                            chips(model.with(|m| m.unscheduled.to_vec()), pg).into_any()
                        }
                    }}
                </div>
            </section>
            <section class="services" aria-label=move || i18n.t("cluster-services")>
                <h3>{move || i18n.t("cluster-services")}</h3>
                <div class="table-wrap"><table class="table">
                    <thead><tr><th>{move || i18n.t("cluster-service")}</th><th>{move || i18n.t("cluster-cluster-ip")}</th><th>{move || i18n.t("cluster-ports")}</th><th>{move || i18n.t("cluster-endpoints")}</th></tr></thead>
                    <tbody>
                        {move || model.get().services.into_iter().map(|s| view! {
                            <tr data-service=s.key.clone()>
                                <td>{s.key.clone()}</td>
                                <td>{s.cluster_ip.clone()}</td>
                                <td>{s.ports.clone()}</td>
                                <td>{if s.endpoints.is_empty() { i18n.t("cluster-none").to_string() } else {
                                    let not_ready = i18n.t("cluster-not-ready");
                                    s.endpoints.iter().map(|(ip, pod, ready)| {
                                        match (pod.is_empty(), *ready) {
                                            (true, true) => ip.clone(),
                                            (true, false) => format!("{ip} ({not_ready})"),
                                            (false, true) => format!("{ip} ({pod})"),
                                            (false, false) => format!("{ip} ({pod}, {not_ready})"),
                                        }
                                    }).collect::<Vec<_>>().join(", ")
                                }}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table></div>
            </section>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str, ready: &str, cpu: i64) -> NodeCard {
        NodeCard {
            name: name.into(),
            ready: ready.into(),
            cpu_requested_m: cpu,
            cpu_allocatable_m: 1000,
            memory_requested: 0,
            memory_allocatable: 1,
            pods_allocatable: 110,
            taints: vec![],
            labels: vec![],
            unschedulable: false,
            pods: vec![],
        }
    }

    #[test]
    fn heat_cells_are_one_button_per_node_with_their_state_and_escaped_text() {
        let mut cordoned = node("n-2", "Ready", 900);
        cordoned.unschedulable = true;
        let nodes = [
            node("n-1", "Ready", 250),
            node("n\"><img src=x onerror=alert(1)>", "NotReady", 0),
            cordoned,
        ]
        .map(Arc::new);
        let html = heat_cells(&nodes, Some("n-1"), &|n| format!("{} <b>", n.name));
        assert_eq!(html.matches("<button ").count(), 3);
        assert!(html.contains(r#"class="heat-cell level-1 picked" data-node="n-1" data-level="1" aria-pressed="true""#), "{html}");
        assert!(
            html.contains(r#"class="heat-cell level-0 not-ready""#),
            "{html}"
        );
        assert!(
            html.contains(r#"class="heat-cell level-4 cordoned""#),
            "{html}"
        );
        assert!(!html.contains("<img") && !html.contains("<b>"), "{html}");
        assert!(
            html.contains("n&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"),
            "{html}"
        );
    }
}
