//! The Flow: a sequence diagram in SVG, one lane per component, an arrow per request,
//! response, etcd access and watch delivery, a dot per step inside a component. Only the rows
//! on screen are drawn; it follows the current step while playing.

use crate::state::flow::{label, RowKind};
use crate::state::playground::Playground;
use kubeplay_core::trace::clock;
use leptos::prelude::*;

pub const ROW_H: f64 = 24.0;
const TIME_W: f64 = 62.0;
const MIN_PITCH: f64 = 96.0;
/// Rows drawn above and below the visible ones.
const OVERSCAN: usize = 8;
const MAX_LABEL: usize = 110;

/// The lane header's text: short enough for a column.
pub fn lane_title(lane: &str) -> (String, String) {
    match lane {
        "kube-controller-manager" => ("kube-controller".into(), "manager".into()),
        l => match l.split_once('/') {
            Some((a, b)) => (a.to_string(), b.to_string()),
            None => (l.to_string(), String::new()),
        },
    }
}

fn truncate(s: &str) -> String {
    if s.chars().count() <= MAX_LABEL {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX_LABEL - 1).collect();
        format!("{cut}…")
    }
}

#[component]
pub fn Flow() -> impl IntoView {
    let i18n = crate::state::i18n::i18n();
    let pg = expect_context::<Playground>();
    let scroller = NodeRef::<leptos::html::Div>::new();
    let scroll_top = RwSignal::new(0.0f64);
    let view_h = RwSignal::new(360.0f64);
    let view_w = RwSignal::new(760.0f64);
    let follow = RwSignal::new(true);
    let expected_top = StoredValue::new(0i32);
    // Large runs keep full records for a sample of pods, workloads and nodes and count the rest: the
    // Flow says so, with the numbers.
    let sampling = move || {
        pg.with(|p| {
            let trace = &p.cluster().trace;
            let (pods, more_pods) = trace.sampling();
            let (workloads, more_workloads) = trace.workload_sampling();
            let (nodes, more_nodes) = trace.node_sampling();
            (more_pods > 0 || more_workloads > 0 || more_nodes > 0).then(|| {
                i18n.ta(
                    "flow-sampled",
                    &[
                        ("pods", &pods.to_string()),
                        ("workloads", &workloads.to_string()),
                        ("records", &trace.counted_total().to_string()),
                        ("morePods", &more_pods.to_string()),
                        ("moreWorkloads", &more_workloads.to_string()),
                        ("nodes", &nodes.to_string()),
                        ("moreNodes", &more_nodes.to_string()),
                    ],
                )
            })
        })
        .flatten()
    };

    let measure = move || {
        if let Some(el) = scroller.get_untracked() {
            view_h.set(el.client_height().max(100) as f64);
            view_w.set(el.client_width().max(200) as f64);
        }
    };
    Effect::new(move |_| {
        if scroller.get().is_some() {
            measure();
        }
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());

    let lanes = move || pg.with(|p| p.flow().lanes.clone()).unwrap_or_default();
    let pitch = move || {
        let n = lanes().len().max(1) as f64;
        ((view_w.get() - TIME_W - 8.0) / n).max(MIN_PITCH)
    };
    let lane_x = move |i: u16, pitch: f64| TIME_W + pitch * (i as f64 + 0.5);
    let width = move || TIME_W + pitch() * lanes().len() as f64;
    let position = move || pg.with(|p| p.position()).unwrap_or(0);

    // Follow the current step: at the start of the next frame, when the page is laid out.
    // Read in the middle of a redraw, the scroll position made the browser lay the whole page
    // out there and again when it rendered the frame.
    Effect::new(move |_| {
        position();
        pg.selected_record.track();
        if !follow.get() {
            return;
        }
        request_animation_frame(move || {
            // Gone with its view in the meantime: nothing to follow.
            let Some(Some(el)) = scroller.try_get_untracked() else {
                return;
            };
            let target = pg
                .selected_record
                .get_untracked()
                .unwrap_or(position_untracked(pg).saturating_sub(1));
            let y = target as f64 * ROW_H;
            let top = el.scroll_top() as f64;
            let h = el.client_height() as f64;
            if y < top || y + ROW_H * 2.0 > top + h {
                let t = (y - h + ROW_H * 3.0).max(0.0) as i32;
                el.set_scroll_top(t);
                // Where it landed: the browser clamps to what is drawn so far, and the scroll
                // event that follows is this one, not the person's.
                expected_top.set_value(el.scroll_top());
            }
        });
    });
    let on_scroll = move |_| {
        if let Some(el) = scroller.get_untracked() {
            let top = el.scroll_top();
            scroll_top.set(top as f64);
            if (top - expected_top.get_value()).abs() > 4 {
                // The person scrolled: follow only if the current step is still in view.
                let pos = position_untracked(pg);
                let y = pos.saturating_sub(1) as f64 * ROW_H;
                let h = el.client_height() as f64;
                follow.set(y >= top as f64 - ROW_H && y <= top as f64 + h);
                expected_top.set_value(top);
            }
        }
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let pos = position_untracked(pg);
        if pos == 0 {
            return;
        }
        let cur = pg.selected_record.get_untracked().unwrap_or(pos - 1);
        let next = match ev.key().as_str() {
            "ArrowDown" => (cur + 1).min(pos - 1),
            "ArrowUp" => cur.saturating_sub(1),
            "PageDown" => (cur + 10).min(pos - 1),
            "PageUp" => cur.saturating_sub(10),
            "Home" => 0,
            "End" => pos - 1,
            _ => return,
        };
        ev.prevent_default();
        follow.set(true);
        pg.select_record(next);
    };

    let header = move || {
        let p = pitch();
        let counts = pg
            .with(|pl| pl.flow().arrows_per_lane(pl.position()))
            .unwrap_or_default();
        lanes()
            .into_iter()
            .enumerate()
            .map(|(i, lane)| {
                let (a, b) = lane_title(&lane);
                let n = counts.get(i).copied().unwrap_or(0);
                let style = format!("left:{}px;width:{}px", TIME_W + p * i as f64, p);
                view! {
                    <div class="lane-head" role="columnheader" data-lane=lane.clone()
                        data-arrows=n.to_string() style=style
                        title=i18n.ta("flow-lane-arrows", &[("lane", &lane), ("count", &n.to_string())])>
                        <span>{a}</span><span class="sub">{b}</span>
                    </div>
                }
            })
            .collect_view()
    };

    let rows = move || {
        let p = pitch();
        let w = width();
        let top = scroll_top.get();
        let h = view_h.get();
        let selected = pg.selected_record.get();
        pg.with(move |pl| {
            let pos = pl.position();
            let first = ((top / ROW_H) as usize).saturating_sub(OVERSCAN).min(pos);
            let last = (((top + h) / ROW_H) as usize + OVERSCAN).min(pos);
            let flow = pl.flow();
            let records = pl.records();
            let n_lanes = flow.lanes.len();
            let lane_lines = (0..n_lanes)
                .map(|i| {
                    let x = lane_x(i as u16, p);
                    view! {
                        <line class="lane-line" x1=x x2=x y1=first as f64 * ROW_H y2=last as f64 * ROW_H />
                    }
                })
                .collect_view();
            let rows = (first..last)
                .map(|i| {
                    let r = &records[i];
                    let row = flow.rows[i];
                    let client = flow.client(records, i);
                    let text = label(r, &row, client, &flow.lanes);
                    let y = i as f64 * ROW_H;
                    let current = i + 1 == pos;
                    let mut class = format!("row {}", row.kind.class());
                    if current {
                        class.push_str(" current");
                    }
                    if selected == Some(i) {
                        class.push_str(" selected");
                    }
                    let from = lane_x(row.from, p);
                    let from_name = flow.lanes[row.from as usize].clone();
                    let mark = match row.to {
                        Some(to) if to != row.from => {
                            let x2 = lane_x(to, p);
                            let lx = from.min(x2) + 6.0;
                            let to_name = flow.lanes[to as usize].clone();
                            let dash = matches!(row.kind, RowKind::Response).then_some("4 3");
                            view! {
                                <g class="arrow" data-from=from_name data-to=to_name>
                                    <line x1=from x2=x2 y1=16 y2=16 stroke-dasharray=dash
                                        marker-end=format!("url(#head-{})", row.kind.class()) />
                                    <text class="label" x=lx y=11>{truncate(&text)}</text>
                                </g>
                            }
                            .into_any()
                        }
                        _ => {
                            let right = from > w / 2.0;
                            let (tx, anchor) = if right { (from - 8.0, "end") } else { (from + 8.0, "start") };
                            view! {
                                <g class="note" data-lane=from_name>
                                    <circle cx=from cy=14 r=4 />
                                    <text class="label" x=tx y=18 text-anchor=anchor>{truncate(&text)}</text>
                                </g>
                            }
                            .into_any()
                        }
                    };
                    let full = format!("{} {} {}", clock(r.t_ms), r.component.as_str(), text);
                    view! {
                        <g class=class data-index=i.to_string() transform=format!("translate(0,{y})")
                            on:click=move |_| pg.select_record(i)>
                            <title>{full}</title>
                            <rect class="row-bg" x=0 y=0 width=w height=ROW_H />
                            <text class="t" x=4 y=16>{clock(r.t_ms)}</text>
                            {mark}
                        </g>
                    }
                })
                .collect_view();
            view! { <g>{lane_lines}{rows}</g> }
        })
    };
    let height = move || (position() as f64 * ROW_H).max(ROW_H);

    view! {
        <section data-testid="flow" class="view flow" aria-label=move || i18n.t("flow-label")>
            <div class="flow-bar">
                <h2 class="pane-title">{move || i18n.t("view-flow")}</h2>
                <label class="follow">
                    <input type="checkbox" prop:checked=move || follow.get()
                        on:change=move |ev| follow.set(event_target_checked(&ev)) />
                    {move || i18n.t("flow-follow")}
                </label>
                {move || sampling().map(|text| view! {
                    <span class="sampling" data-testid="trace-sampling" title=text.clone()>{text.clone()}</span>
                })}
                <span class="legend" aria-hidden="true">
                    <span class="k request">"request"</span>
                    <span class="k response">"response"</span>
                    <span class="k etcd">"etcd"</span>
                    <span class="k watch">"watch"</span>
                </span>
            </div>
            <div class="flow-scroll" node_ref=scroller on:scroll=on_scroll tabindex="0"
                role="grid" aria-label=move || i18n.t("flow-grid-label")
                on:keydown=on_keydown>
                <div class="lane-heads" role="row" style=move || format!("width:{}px", width())>{header}</div>
                {move || (position() == 0).then(|| view! {
                    <p class="hint">{i18n.t("flow-empty")}</p>
                })}
                <svg class="flow-svg" width=width height=height role="presentation"
                    xmlns="http://www.w3.org/2000/svg">
                    <defs>
                        {["request", "response", "etcd", "watch"].into_iter().map(|k| view! {
                            <marker id=format!("head-{k}") class=format!("head {k}") viewBox="0 0 10 10"
                                refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                                <path d="M 0 0 L 10 5 L 0 10 z" />
                            </marker>
                        }).collect_view()}
                    </defs>
                    {rows}
                </svg>
            </div>
        </section>
    }
}

fn position_untracked(pg: Playground) -> usize {
    pg.with_untracked(|p| p.position()).unwrap_or(0)
}
