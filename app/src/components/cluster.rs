//! The Cluster view: a card per node with its requests against its allocatable CPU, memory and
//! pods, its Ready state, taints and labels, and its pods coloured by their STATUS column;
//! pods not yet scheduled in a lane of their own; Services with their endpoints.
//!
//! Cards, chips and counts are written as markup (escaped) and a redraw replaces only the cards
//! that changed: as components, a hundred cards re-created at every redraw while a big
//! Deployment rolls out made each frame last 60 to 90 ms, and they cost the page code.

use super::markup::escape_html;
use crate::state::derive::{
    cluster_model, status_class, status_counts, ClusterModel, NodeCard, PodChip,
};
use crate::state::i18n::I18n;
use crate::state::playground::Playground;
use leptos::prelude::*;
use std::fmt::Write;
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

/// A requests bar: used against total, as a meter, with its label and text.
fn bar_html(i18n: I18n, label: &'static str, used: i64, total: i64, text: &str) -> String {
    let pct = percent(used, total);
    let label = i18n.t(label);
    format!(
        "<div class=\"bar-row\"><span class=\"bar-label\">{}</span><span class=\"{}\" role=\"meter\" \
         aria-label=\"{}\" aria-valuemin=\"0\" aria-valuemax=\"{total}\" aria-valuenow=\"{used}\">\
         <span class=\"fill\" style=\"width:{pct:.1}%\"></span></span><span class=\"bar-text\">{}</span></div>",
        escape_html(label),
        if pct >= 90.0 { "bar hot" } else { "bar" },
        escape_html(&i18n.ta("cluster-requested", &[("resource", label)])),
        escape_html(text),
    )
}

/// Pods counted: one badge per status with its count.
pub(super) fn counts_html(out: &mut String, counts: &[(String, usize)]) {
    for (status, n) in counts {
        let s = escape_html(status);
        let _ = write!(
            out,
            "<span class=\"pod-count {}\" data-status=\"{s}\" title=\"{s}: {n}\"><span class=\"pod-status\">{s}</span> <span class=\"n\">{n}</span></span>",
            status_class(status)
        );
    }
}

/// Pods as chips, one button each (a click selects the pod, see [`select_clicked_pod`]).
fn chips_html(out: &mut String, pods: &[Arc<PodChip>]) {
    for pod in pods {
        let (key, status) = (escape_html(&pod.key), escape_html(&pod.status));
        let _ = write!(
            out,
            "<button type=\"button\" class=\"pod {}\" data-pod=\"{key}\" data-status=\"{status}\" aria-pressed=\"false\" \
             title=\"{key}: {status}\"><span class=\"pod-name\">{}</span><span class=\"pod-status\">{status}</span></button>",
            status_class(&pod.status),
            escape_html(&pod.name),
        );
    }
}

/// Pods as chips, or counted by status in a big cluster.
fn pods_html(pods: &[Arc<PodChip>], counted: bool) -> String {
    let mut out = String::new();
    if counted {
        counts_html(&mut out, &status_counts(pods));
    } else {
        chips_html(&mut out, pods);
    }
    out
}

/// A node's card: its Ready state, requests against allocatable, taints, labels and pods.
pub(super) fn node_card(i18n: I18n, n: &NodeCard, counted: bool) -> (String, String) {
    let name = escape_html(&n.name);
    let mut out = format!(
        "<article class=\"node-card\" data-node=\"{name}\" aria-label=\"node {name}\"><header><h3>{name}</h3>\
         <span class=\"{}\">{}</span>{}</header>",
        if n.ready == "Ready" { "ready ok" } else { "ready bad" },
        escape_html(&n.ready),
        if n.unschedulable { "<span class=\"ready bad\">SchedulingDisabled</span>" } else { "" },
    );
    let (cpu, cpu_total) = (n.cpu_requested_m, n.cpu_allocatable_m);
    let cpu_text = format!("{cpu}m / {cpu_total}m");
    out.push_str(&bar_html(
        i18n,
        "cluster-bar-cpu",
        cpu,
        cpu_total,
        &cpu_text,
    ));
    let (mem, mem_total) = (n.memory_requested, n.memory_allocatable);
    let mem_text = format!("{} / {}", mib(mem), mib(mem_total));
    out.push_str(&bar_html(
        i18n,
        "cluster-bar-mem",
        mem,
        mem_total,
        &mem_text,
    ));
    let (pods, pods_total) = (n.pods.len() as i64, n.pods_allocatable);
    let pods_text = format!("{pods} / {pods_total}");
    out.push_str(&bar_html(
        i18n,
        "cluster-bar-pods",
        pods,
        pods_total,
        &pods_text,
    ));
    let chips = |class: &str, items: &[String]| {
        items
            .iter()
            .map(|t| format!("<span class=\"{class}\">{}</span>", escape_html(t)))
            .collect::<String>()
    };
    if !n.taints.is_empty() {
        let _ = write!(out, "<p class=\"taints\">{}</p>", chips("taint", &n.taints));
    }
    let _ = write!(
        out,
        "<p class=\"labels\">{}</p><div class=\"pods\">{}</div></article>",
        chips("label-chip", &n.labels),
        pods_html(&n.pods, counted)
    );
    (n.name.clone(), out)
}

/// Marks the chip of the selected pod under `root` (and unmarks the others): a selection
/// changes two buttons, not the cards around them.
fn mark_selected(root: &web_sys::Element, selected: Option<&str>) {
    let Ok(chips) = root.query_selector_all("button.pod") else {
        return;
    };
    for i in 0..chips.length() {
        let Some(el) = chips
            .item(i)
            .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
        else {
            continue;
        };
        let on = selected.is_some() && el.get_attribute("data-pod").as_deref() == selected;
        if el.class_list().contains("selected") != on {
            let _ = el.class_list().toggle_with_force("selected", on);
            let _ = el.set_attribute("aria-pressed", if on { "true" } else { "false" });
        }
    }
}

/// One listener for the chips under an element: the chip clicked selects its pod.
pub(super) fn select_clicked_pod(
    pg: Playground,
) -> impl Fn(leptos::ev::MouseEvent) + Copy + 'static {
    move |ev| {
        use wasm_bindgen::JsCast;
        let key = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("button[data-pod]").ok().flatten())
            .and_then(|el| el.get_attribute("data-pod"));
        if let Some(key) = key {
            pg.select_pod(&key);
        }
    }
}

/// The attribute that says whether a node card is in view (or near it).
const IN_VIEW: &str = "data-in-view";

/// Which node cards are in view: an IntersectionObserver marks each card with [`IN_VIEW`]
/// and bumps `wake` when one comes into view, so that a card left as it was while out of view
/// is drawn.
struct InView {
    observer: web_sys::IntersectionObserver,
    _callback: wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
}

impl InView {
    fn new(wake: RwSignal<u64>) -> Option<InView> {
        use wasm_bindgen::JsCast;
        let callback = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(
            move |entries: js_sys::Array| {
                let mut woke = false;
                for entry in entries.iter() {
                    let Ok(entry) = entry.dyn_into::<web_sys::IntersectionObserverEntry>() else {
                        continue;
                    };
                    let (el, now) = (entry.target(), entry.is_intersecting());
                    let state = if now { "true" } else { "false" };
                    let was = el.get_attribute(IN_VIEW);
                    if was.as_deref() != Some(state) {
                        let _ = el.set_attribute(IN_VIEW, state);
                        woke |= now && was.is_some();
                    }
                }
                if woke {
                    wake.try_update(|n| *n += 1);
                }
            },
        );
        let init = web_sys::IntersectionObserverInit::new();
        // Cards about to scroll into view are drawn too.
        init.set_root_margin("200px");
        let observer = web_sys::IntersectionObserver::new_with_options(
            callback.as_ref().unchecked_ref(),
            &init,
        )
        .ok()?;
        Some(InView {
            observer,
            _callback: callback,
        })
    }
}

impl Drop for InView {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// What is drawn under an element (each child's key and markup), so a redraw replaces only
/// the children that changed.
struct DrawnMarkup {
    drawn: Vec<(String, String)>,
    /// Set for the node cards: while playback runs, a card out of view is left as it was
    /// until it comes into view (a hundred cards replaced at each redraw of a big rollout
    /// made frames long, and all but a few are out of view).
    in_view: Option<InView>,
}

impl DrawnMarkup {
    /// Brings what is under `root` to `items`: the changed children replaced in place when the
    /// same keys are drawn (only those in view while `playing`), all written anew otherwise.
    fn draw(&mut self, root: &web_sys::Element, items: Vec<(String, String)>, playing: bool) {
        let same_keys = root.child_element_count() as usize == self.drawn.len()
            && self.drawn.len() == items.len()
            && self.drawn.iter().zip(&items).all(|(a, b)| a.0 == b.0);
        if !same_keys {
            root.set_inner_html(&items.iter().map(|i| i.1.as_str()).collect::<String>());
            self.drawn = items;
            if let Some(v) = &self.in_view {
                v.observer.disconnect();
                let mut child = root.first_element_child();
                while let Some(el) = child {
                    v.observer.observe(&el);
                    child = el.next_element_sibling();
                }
            }
            return;
        }
        let mut next = root.first_element_child();
        for (item, drawn) in items.into_iter().zip(&mut self.drawn) {
            let Some(el) = next else { break };
            next = el.next_element_sibling();
            if item.1 == drawn.1 {
                continue;
            }
            let Some(v) = &self.in_view else {
                el.set_outer_html(&item.1);
                *drawn = item;
                continue;
            };
            let in_view = el.get_attribute(IN_VIEW);
            if playing && in_view.as_deref() != Some("true") {
                continue;
            }
            v.observer.unobserve(&el);
            el.set_outer_html(&item.1);
            let new = match &next {
                Some(n) => n.previous_element_sibling(),
                None => root.last_element_child(),
            };
            if let Some(new) = new {
                if let Some(state) = in_view {
                    let _ = new.set_attribute(IN_VIEW, &state);
                }
                v.observer.observe(&new);
            }
            *drawn = item;
        }
    }
}

/// Draws `items()` under `el` whenever they change (see [`DrawnMarkup`]; `cards`: leaving
/// those out of view as they are while playback runs), and keeps the selected pod's chip
/// marked.
pub(super) fn draw_markup(
    el: NodeRef<leptos::html::Div>,
    pg: Playground,
    cards: bool,
    items: impl Fn() -> Vec<(String, String)> + 'static,
) {
    let wake = RwSignal::new(0u64);
    let drawn = StoredValue::new_local(DrawnMarkup {
        drawn: Vec::new(),
        in_view: cards.then(|| InView::new(wake)).flatten(),
    });
    Effect::new(move |_| {
        let Some(el) = el.get() else {
            return;
        };
        // A view taken out of the page keeps its element (the cards' grid once the cluster
        // outgrows them, for the heat map): drawing a thousand cards into it at every redraw
        // made a large run's frames long.
        if !el.is_connected() {
            return;
        }
        wake.track();
        let playing = cards && (pg.playing.get() || pg.fast_forward.get());
        let items = items();
        drawn.update_value(|d| d.draw(&el, items, playing));
        mark_selected(&el, pg.selected_pod.get().as_deref());
    });
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
    let grid = NodeRef::<leptos::html::Div>::new();
    draw_markup(grid, pg, true, move || {
        if heat_map.get() {
            // The heat map has taken the cards' place.
            return Vec::new();
        }
        model.with(|m| {
            let counted = m.counts_pods();
            m.nodes
                .iter()
                .map(|n| node_card(i18n, n, counted))
                .collect()
        })
    });
    // The pods waiting for a node: a heading and their chips or counts, drawn like the cards.
    let unscheduled = NodeRef::<leptos::html::Div>::new();
    draw_markup(unscheduled, pg, false, move || {
        let pods = model.with(|m| {
            if m.unscheduled_len() == 0 {
                format!(
                    "<span class=\"muted\">{}</span>",
                    escape_html(i18n.t("cluster-none"))
                )
            } else if m.counts_pods() {
                // Counted as the model goes: a big run's waiting pods are too many to count
                // again at every redraw.
                let mut html = String::new();
                counts_html(&mut html, &m.unscheduled_counts());
                html
            } else {
                pods_html(&m.unscheduled, false)
            }
        });
        let heading = escape_html(i18n.t("cluster-unscheduled"));
        let lane = format!("<div><h3>{heading}</h3><div class=\"pods\">{pods}</div></div>");
        vec![("unscheduled".to_string(), lane)]
    });
    view! {
        <div data-testid="cluster" class="view cluster" role="region" aria-label=move || i18n.t("cluster-label")>
            {move || if heat_map.get() {
                view! { <super::heat_map::HeatMap model=model /> }.into_any()
            } else {
                view! { <div class="nodes" on:click=select_clicked_pod(pg) node_ref=grid></div> }.into_any()
            }}
            <section class="unscheduled" aria-label=move || i18n.t("cluster-unscheduled-label")>
                <div on:click=select_clicked_pod(pg) node_ref=unscheduled></div>
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
pub(super) mod tests {
    use super::*;

    /// A node of 1000m CPU and 110 pods with `cpu` requested (the heat map's tests use it too).
    pub(crate) fn node(name: &str, ready: &str, cpu: i64) -> NodeCard {
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

    fn chip(key: &str, status: &str) -> Arc<crate::state::derive::PodChip> {
        Arc::new(crate::state::derive::PodChip {
            key: key.into(),
            name: key.rsplit('/').next().unwrap().into(),
            status: status.into(),
            node: Some("n-1".into()),
        })
    }

    #[test]
    fn a_node_card_is_escaped_markup_with_its_bars_taints_labels_and_pods() {
        let i18n = I18n {
            lang: RwSignal::new("en"),
        };
        let mut n = node("n\"><img src=x onerror=alert(1)>", "NotReady", 250);
        n.taints = vec!["node.kubernetes.io/not-ready:NoSchedule".into()];
        n.labels = vec!["zone=<a>".into()];
        n.pods = vec![
            chip("default/web-1", "Running"),
            chip("default/web-2", "Pending"),
        ];
        let (key, html) = node_card(i18n, &n, false);
        assert_eq!(key, n.name);
        assert!(!html.contains("<img") && !html.contains("<a>"), "{html}");
        assert!(
            html.starts_with(r#"<article class="node-card" data-node="n&quot;&gt;&lt;img"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="ready bad">NotReady</span>"#),
            "{html}"
        );
        assert_eq!(html.matches(r#"role="meter""#).count(), 3);
        assert!(
            html.contains(r#"aria-valuemax="1000" aria-valuenow="250""#),
            "{html}"
        );
        assert!(html.contains(r#"style="width:25.0%""#), "{html}");
        assert!(
            html.contains("250m / 1000m") && html.contains("2 / 110"),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="taint">node.kubernetes.io/not-ready:NoSchedule</span>"#)
        );
        assert!(
            html.contains(r#"<span class="label-chip">zone=&lt;a&gt;</span>"#),
            "{html}"
        );
        assert_eq!(html.matches("<button ").count(), 2);
        assert!(html.contains(r#"class="pod ok" data-pod="default/web-1" data-status="Running" aria-pressed="false""#), "{html}");
        // Counted: a badge per status instead of the chips.
        let (_, counted) = node_card(i18n, &n, true);
        assert_eq!(counted.matches("<button ").count(), 0);
        assert!(
            counted.contains(
                r#"<span class="pod-count wait" data-status="Pending" title="Pending: 1">"#
            ),
            "{counted}"
        );
        assert!(
            counted.contains(
                r#"<span class="pod-count ok" data-status="Running" title="Running: 1">"#
            ),
            "{counted}"
        );
    }
}
