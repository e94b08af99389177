//! The Flow: a sequence diagram in SVG, one lane per component, an arrow per request,
//! response, etcd access and watch delivery, a dot per step inside a component. Only the rows
//! on screen are drawn; it follows the current step while playing.

use super::markup::escape_html;
use crate::state::flow::{label, FlowIndex, RowKind};
use crate::state::playground::Playground;
use kubeplay_core::trace::{clock, Record};
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

    // The rows on screen (and OVERSCAN around them) as SVG markup (see `DrawnRows`), with the
    // lanes' lines beside them; a click on a row selects its step.
    let lines_g = NodeRef::<leptos::svg::G>::new();
    let rows_g = NodeRef::<leptos::svg::G>::new();
    let drawn = StoredValue::new(DrawnRows::default());
    Effect::new(move |_| {
        let (Some(lines_g), Some(rows_g)) = (lines_g.get(), rows_g.get()) else {
            return;
        };
        let (p, w) = (pitch(), width());
        let (top, h) = (scroll_top.get(), view_h.get());
        let selected = pg.selected_record.get();
        pg.with(|pl| {
            let pos = pl.position();
            let first = ((top / ROW_H) as usize).saturating_sub(OVERSCAN).min(pos);
            let last = (((top + h) / ROW_H) as usize + OVERSCAN).min(pos);
            let (flow, records) = (pl.flow(), pl.records());
            let (y1, y2) = (first as f64 * ROW_H, last as f64 * ROW_H);
            let lines: String = (0..flow.lanes.len())
                .map(|i| {
                    let x = lane_x(i as u16, p);
                    format!("<line class=\"lane-line\" x1=\"{x}\" x2=\"{x}\" y1=\"{y1}\" y2=\"{y2}\"></line>")
                })
                .collect();
            let rows = (first..last)
                .map(|i| row_markup(flow, records, i, (p, w), i + 1 == pos, selected == Some(i)))
                .collect();
            drawn.update_value(|d| d.draw(&lines_g, &rows_g, lines, first, rows));
        });
    });
    let on_row_click = move |ev: leptos::ev::MouseEvent| {
        use wasm_bindgen::JsCast;
        let index = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("g[data-index]").ok().flatten())
            .and_then(|el| el.get_attribute("data-index"))
            .and_then(|i| i.parse::<usize>().ok());
        if let Some(i) = index {
            pg.select_record(i);
        }
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
                    xmlns="http://www.w3.org/2000/svg" on:click=on_row_click>
                    <defs>
                        {["request", "response", "etcd", "watch"].into_iter().map(|k| view! {
                            <marker id=format!("head-{k}") class=format!("head {k}") viewBox="0 0 10 10"
                                refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                                <path d="M 0 0 L 10 5 L 0 10 z" />
                            </marker>
                        }).collect_view()}
                    </defs>
                    <g node_ref=lines_g></g>
                    <g node_ref=rows_g></g>
                </svg>
            </div>
        </section>
    }
}

fn lane_x(lane: u16, pitch: f64) -> f64 {
    TIME_W + pitch * (lane as f64 + 0.5)
}

/// Row `i` of the Flow as SVG markup: its time, and an arrow (a request, a response, an etcd
/// access, a watch delivery) or a dot (a step inside a component) with its label.
fn row_markup(
    flow: &FlowIndex,
    records: &[Record],
    i: usize,
    (pitch, width): (f64, f64),
    current: bool,
    selected: bool,
) -> String {
    let (r, row) = (&records[i], flow.rows[i]);
    let text = label(r, &row, flow.client(records, i), &flow.lanes);
    let mut class = format!("row {}", row.kind.class());
    if current {
        class.push_str(" current");
    }
    if selected {
        class.push_str(" selected");
    }
    let from = lane_x(row.from, pitch);
    let from_name = escape_html(&flow.lanes[row.from as usize]);
    let shown = escape_html(&truncate(&text));
    let mark = match row.to {
        Some(to) if to != row.from => {
            let x2 = lane_x(to, pitch);
            let lx = from.min(x2) + 6.0;
            let dash = match row.kind {
                RowKind::Response => " stroke-dasharray=\"4 3\"",
                _ => "",
            };
            format!(
                "<g class=\"arrow\" data-from=\"{from_name}\" data-to=\"{}\"><line x1=\"{from}\" x2=\"{x2}\" \
                 y1=\"16\" y2=\"16\"{dash} marker-end=\"url(#head-{})\"></line><text class=\"label\" x=\"{lx}\" \
                 y=\"11\">{shown}</text></g>",
                escape_html(&flow.lanes[to as usize]),
                row.kind.class()
            )
        }
        _ => {
            let (tx, anchor) = if from > width / 2.0 {
                (from - 8.0, "end")
            } else {
                (from + 8.0, "start")
            };
            format!(
                "<g class=\"note\" data-lane=\"{from_name}\"><circle cx=\"{from}\" cy=\"14\" r=\"4\"></circle>\
                 <text class=\"label\" x=\"{tx}\" y=\"18\" text-anchor=\"{anchor}\">{shown}</text></g>"
            )
        }
    };
    let time = clock(r.t_ms);
    let full = escape_html(&format!("{time} {} {text}", r.component.as_str()));
    format!(
        "<g class=\"{class}\" data-index=\"{i}\" transform=\"translate(0,{})\"><title>{full}</title>\
         <rect class=\"row-bg\" x=\"0\" y=\"0\" width=\"{width}\" height=\"{ROW_H}\"></rect>\
         <text class=\"t\" x=\"4\" y=\"16\">{time}</text>{mark}</g>",
        i as f64 * ROW_H
    )
}

/// The Flow's rows as last drawn (the first one's index and each one's markup) and the lanes'
/// lines: a redraw drops the rows that left the window, appends or prepends those that came
/// into it and replaces those that changed (the current and the selected one), instead of
/// building every row on screen again at each frame of playback.
#[derive(Default)]
struct DrawnRows {
    lines: String,
    first: usize,
    rows: Vec<String>,
}

impl DrawnRows {
    fn draw(
        &mut self,
        lines_g: &web_sys::Element,
        rows_g: &web_sys::Element,
        lines: String,
        first: usize,
        rows: Vec<String>,
    ) {
        if lines != self.lines {
            lines_g.set_inner_html(&lines);
            self.lines = lines;
        }
        let (old, new) = (
            self.first..self.first + self.rows.len(),
            first..first + rows.len(),
        );
        let overlap = old.start.max(new.start)..old.end.min(new.end);
        if overlap.is_empty() || rows_g.child_element_count() as usize != self.rows.len() {
            rows_g.set_inner_html(&rows.concat());
            (self.first, self.rows) = (first, rows);
            return;
        }
        for _ in old.start..overlap.start {
            if let Some(el) = rows_g.first_element_child() {
                el.remove();
            }
        }
        for _ in overlap.end..old.end {
            if let Some(el) = rows_g.last_element_child() {
                el.remove();
            }
        }
        let mut el = rows_g.first_element_child();
        for i in overlap.clone() {
            let Some(e) = el else { break };
            el = e.next_element_sibling();
            let (now, before) = (&rows[i - first], &self.rows[i - self.first]);
            if now != before {
                e.set_outer_html(now);
            }
        }
        if new.start < overlap.start {
            let _ =
                rows_g.insert_adjacent_html("afterbegin", &rows[..overlap.start - first].concat());
        }
        if overlap.end < new.end {
            let _ = rows_g.insert_adjacent_html("beforeend", &rows[overlap.end - first..].concat());
        }
        (self.first, self.rows) = (first, rows);
    }
}

fn position_untracked(pg: Playground) -> usize {
    pg.with_untracked(|p| p.position()).unwrap_or(0)
}
