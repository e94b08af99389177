//! A big cluster's nodes as a heat map: a cell each on one canvas, coloured by how full the
//! node is, and the card of the node picked (the first one until one is).
//!
//! A canvas rather than a button per node: in the limits run (5,000 nodes) the browser spent 25
//! to 45 ms of each frame painting five thousand buttons while their fill changed; a canvas
//! repaints only the cells drawn into it. The cells keep what the buttons gave: a click picks a
//! node, the arrow keys move the pick, and the cell under the pointer names its node (title).

use super::cluster::{counts_html, draw_markup, node_card, select_clicked_pod};
use super::markup::escape_html;
use crate::state::derive::{ClusterModel, NodeCard};
use crate::state::playground::Playground;
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// A cell is a 14 px square, 2 px from the next (the size the buttons had).
const CELL_PX: f64 = 14.0;
const PITCH_PX: f64 = 16.0;

/// How many cells fit in a row of `width` CSS pixels (the last cell needs no gap after it).
fn columns_for(width: f64) -> usize {
    (((width + PITCH_PX - CELL_PX) / PITCH_PX).floor() as usize).max(1)
}

/// The cell under a point of the canvas (CSS pixels from its top left), if any: the gaps
/// between cells are no cell.
fn cell_at(x: f64, y: f64, columns: usize, cells: usize) -> Option<usize> {
    if x < 0.0 || y < 0.0 {
        return None;
    }
    let (col, row) = ((x / PITCH_PX) as usize, (y / PITCH_PX) as usize);
    let inside = x - col as f64 * PITCH_PX < CELL_PX && y - row as f64 * PITCH_PX < CELL_PX;
    let i = row * columns + col;
    (inside && col < columns && i < cells).then_some(i)
}

/// Where an arrow key moves the pick from cell `i`: a cell along the row, or a row up or down.
fn moved(i: usize, key: &str, columns: usize, cells: usize) -> Option<usize> {
    let to = match key {
        "ArrowRight" => i + 1,
        "ArrowLeft" => i.checked_sub(1)?,
        "ArrowDown" => i + columns,
        "ArrowUp" => i.checked_sub(columns)?,
        "Home" => 0,
        "End" => cells.checked_sub(1)?,
        _ => return None,
    };
    (to < cells).then_some(to)
}

/// What a cell shows: the fill level in fifths and the node's state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Face {
    level: u8,
    not_ready: bool,
    cordoned: bool,
    picked: bool,
}

fn face(n: &NodeCard, picked: bool) -> Face {
    Face {
        level: n.fill_level(),
        not_ready: n.ready != "Ready",
        cordoned: n.unschedulable,
        picked,
    }
}

/// The colours the stylesheet gives the legend's swatches (so the canvas follows the page's
/// light or dark scheme), and the text colour for the pick.
struct Palette {
    levels: Vec<String>,
    error: String,
    fg: String,
}

/// The light scheme's level colours (styles.css: the accent mixed into the background at 12,
/// 35, 60 and 85%, then the error colour).
const LIGHT_LEVELS: [&str; 5] = [
    "rgb(230, 237, 252)",
    "rgb(183, 204, 246)",
    "rgb(132, 167, 239)",
    "rgb(81, 130, 233)",
    "rgb(207, 34, 46)",
];

impl Palette {
    fn read(legend: &web_sys::Element, canvas: &web_sys::Element) -> Option<Palette> {
        let window = web_sys::window()?;
        // A colour the stylesheet gives, or the light scheme's when it gives none (a page
        // without the stylesheet computes transparent): the cells are never invisible.
        let style = |el: &web_sys::Element, property: &str, fallback: &str| {
            let given = window
                .get_computed_style(el)
                .ok()
                .flatten()
                .and_then(|s| s.get_property_value(property).ok())
                .unwrap_or_default();
            match given.as_str() {
                "" | "transparent" | "rgba(0, 0, 0, 0)" => fallback.to_string(),
                _ => given,
            }
        };
        let swatches = legend.query_selector_all(".heat-cell").ok()?;
        let levels: Vec<String> = (0..swatches.length())
            .filter_map(|i| swatches.item(i)?.dyn_into::<web_sys::Element>().ok())
            .zip(LIGHT_LEVELS)
            .map(|(el, fallback)| style(&el, "background-color", fallback))
            .collect();
        (levels.len() == 5).then(|| Palette {
            error: levels[4].clone(),
            levels,
            fg: style(canvas, "color", "rgb(31, 35, 40)"),
        })
    }
}

/// The cells as last painted, so a redraw paints only the cells whose face changed.
#[derive(Default)]
struct PaintedCells {
    names: Vec<String>,
    faces: Vec<Face>,
    columns: usize,
    ratio: f64,
    palette: Option<Palette>,
}

impl PaintedCells {
    /// Brings the canvas to `nodes`: the changed cells only, or all of them when the nodes,
    /// the width or the pixel ratio changed.
    fn paint(
        &mut self,
        canvas: &web_sys::HtmlCanvasElement,
        legend: &web_sys::Element,
        width: f64,
        nodes: &[Arc<NodeCard>],
        picked: Option<&str>,
    ) {
        let columns = columns_for(width);
        let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio().max(1.0));
        let same = self.columns == columns
            && self.ratio == ratio
            && self.names.len() == nodes.len()
            && self.names.iter().zip(nodes).all(|(a, n)| *a == n.name);
        let Some(ctx) = context(canvas) else {
            return;
        };
        if !same {
            let rows = nodes.len().div_ceil(columns).max(1);
            let (w, h) = (
                columns as f64 * PITCH_PX - (PITCH_PX - CELL_PX),
                rows as f64 * PITCH_PX - (PITCH_PX - CELL_PX),
            );
            let style = web_sys::HtmlElement::style(canvas);
            let _ = style.set_property("width", &format!("{w}px"));
            let _ = style.set_property("height", &format!("{h}px"));
            canvas.set_width((w * ratio).round() as u32);
            canvas.set_height((h * ratio).round() as u32);
            let _ = ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
            self.palette = Palette::read(legend, canvas);
            self.names = nodes.iter().map(|n| n.name.clone()).collect();
            self.faces.clear();
            self.columns = columns;
            self.ratio = ratio;
            let _ = canvas.set_attribute("data-cells", &nodes.len().to_string());
            let _ = canvas.set_attribute("data-columns", &columns.to_string());
        }
        let Some(palette) = &self.palette else {
            return;
        };
        for (i, n) in nodes.iter().enumerate() {
            let f = face(n, picked == Some(n.name.as_str()));
            if self.faces.get(i) == Some(&f) {
                continue;
            }
            paint_cell(&ctx, palette, i, columns, f);
            match self.faces.get_mut(i) {
                Some(old) => *old = f,
                None => self.faces.push(f),
            }
        }
    }
}

fn context(canvas: &web_sys::HtmlCanvasElement) -> Option<web_sys::CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

/// Paints cell `i`: its fill, a dashed border when the node is not Ready, faded when cordoned,
/// a frame in the text colour when picked.
fn paint_cell(
    ctx: &web_sys::CanvasRenderingContext2d,
    palette: &Palette,
    i: usize,
    columns: usize,
    f: Face,
) {
    let (x, y) = (
        (i % columns) as f64 * PITCH_PX,
        (i / columns) as f64 * PITCH_PX,
    );
    ctx.clear_rect(x, y, CELL_PX, CELL_PX);
    ctx.set_global_alpha(if f.cordoned { 0.55 } else { 1.0 });
    ctx.set_fill_style_str(&palette.levels[usize::from(f.level.min(4))]);
    ctx.fill_rect(x, y, CELL_PX, CELL_PX);
    ctx.set_global_alpha(1.0);
    if f.not_ready {
        ctx.set_stroke_style_str(&palette.error);
        ctx.set_line_width(1.0);
        let dash = js_sys::Array::of2(&3.0.into(), &2.0.into());
        let _ = ctx.set_line_dash(&dash);
        ctx.stroke_rect(x + 0.5, y + 0.5, CELL_PX - 1.0, CELL_PX - 1.0);
        let _ = ctx.set_line_dash(&js_sys::Array::new());
    }
    if f.picked {
        ctx.set_stroke_style_str(&palette.fg);
        ctx.set_line_width(2.0);
        ctx.stroke_rect(x + 1.0, y + 1.0, CELL_PX - 2.0, CELL_PX - 2.0);
    }
}

/// The heat map: the summary and totals, the cells, their legend, and the picked node's card.
#[component]
pub fn HeatMap(model: Memo<ClusterModel>) -> impl IntoView {
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
    let title = move |n: &NodeCard| {
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
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let legend_el = NodeRef::<leptos::html::P>::new();
    // The canvas's width follows its pane's (a ResizeObserver sets it, so no redraw reads
    // the layout).
    let width = RwSignal::new(0.0f64);
    // The observer with its callback: both go when the heat map leaves the page.
    type Observer = (
        web_sys::ResizeObserver,
        wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
    );
    let observer = StoredValue::new_local(None::<Observer>);
    Effect::new(move |_| {
        let Some(canvas) = canvas.get() else {
            return;
        };
        let Some(pane) = canvas.parent_element() else {
            return;
        };
        if observer.with_value(Option::is_some) {
            return;
        }
        let on_resize = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(
            move |entries: js_sys::Array| {
                let entry = entries.get(0).dyn_into::<web_sys::ResizeObserverEntry>();
                if let Ok(entry) = entry {
                    let w = entry.content_rect().width();
                    if w > 0.0 && (w - width.get_untracked()).abs() >= 1.0 {
                        width.set(w);
                    }
                }
            },
        );
        if let Ok(o) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
            o.observe(&pane);
            observer.set_value(Some((o, on_resize)));
        }
    });
    on_cleanup(move || {
        if let Some(o) = observer
            .try_with_value(|o| o.as_ref().map(|(o, _)| o.clone()))
            .flatten()
        {
            o.disconnect();
        }
    });
    let painted = StoredValue::new_local(PaintedCells::default());
    Effect::new(move |_| {
        let (Some(canvas), Some(legend)) = (canvas.get(), legend_el.get()) else {
            return;
        };
        let width = width.get();
        if width <= 0.0 {
            return;
        }
        let picked = picked.get();
        i18n.lang.track();
        model.with(|m| {
            painted.update_value(|p| p.paint(&canvas, &legend, width, &m.nodes, picked.as_deref()))
        });
    });
    // The cell under a point of the canvas, from a mouse event.
    let cell_of = move |ev: &leptos::ev::MouseEvent| {
        let columns = painted.with_value(|p| p.columns);
        let cells = model.with_untracked(|m| m.nodes.len());
        cell_at(
            f64::from(ev.offset_x()),
            f64::from(ev.offset_y()),
            columns,
            cells,
        )
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(i) = cell_of(&ev) {
            picked.set(model.with_untracked(|m| m.nodes.get(i).map(|n| n.name.clone())));
        }
    };
    // The pointer's cell names its node; written only when the pointer moves to another cell.
    let hovered = StoredValue::new(None::<usize>);
    let on_move = move |ev: leptos::ev::MouseEvent| {
        let i = cell_of(&ev);
        if hovered.get_value() == i {
            return;
        }
        hovered.set_value(i);
        let text = i
            .and_then(|i| model.with_untracked(|m| m.nodes.get(i).map(|n| title(n))))
            .unwrap_or_default();
        if let Some(c) = canvas.get_untracked() {
            let _ = c.set_attribute("title", &text);
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let columns = painted.with_value(|p| p.columns);
        let next = model.with_untracked(|m| {
            let at = picked
                .with_untracked(|p| {
                    p.as_ref()
                        .and_then(|p| m.nodes.iter().position(|n| &n.name == p))
                })
                .unwrap_or(0);
            let to = moved(at, &ev.key(), columns, m.nodes.len())?;
            m.nodes.get(to).map(|n| n.name.clone())
        });
        if let Some(name) = next {
            ev.prevent_default();
            picked.set(Some(name));
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
    let card = NodeRef::<leptos::html::Div>::new();
    draw_markup(card, pg, false, move || {
        let name = picked.get();
        model.with(|m| {
            let node = match &name {
                Some(name) => m.nodes.iter().find(|n| &n.name == name),
                None => m.nodes.first(),
            };
            node.map(|n| node_card(i18n, n, m.counts_pods()))
                .into_iter()
                .collect()
        })
    });
    let totals = move || {
        let mut html = escape_html(&summary());
        html.push(' ');
        model.with(|m| counts_html(&mut html, &m.status_totals()));
        html
    };
    view! {
        <p class="heat-summary" data-testid="cluster-summary" inner_html=totals></p>
        <div class="heatmap">
            <canvas data-testid="node-heatmap" tabindex="0" role="img" aria-label=move || i18n.t("cluster-heat-label")
                on:click=on_click on:mousemove=on_move on:keydown=on_key node_ref=canvas></canvas>
        </div>
        <p class="heat-legend" aria-hidden="true" inner_html=legend node_ref=legend_el></p>
        <div class="nodes picked-node" on:click=select_clicked_pod(pg) node_ref=card></div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_fill_the_row_and_the_gaps_between_them_are_no_cell() {
        assert_eq!(columns_for(14.0), 1);
        assert_eq!(columns_for(29.0), 1);
        assert_eq!(columns_for(30.0), 2);
        assert_eq!(columns_for(0.0), 1);
        // Three columns, seven cells: rows 0..2, the last row holds one.
        assert_eq!(cell_at(0.0, 0.0, 3, 7), Some(0));
        assert_eq!(cell_at(13.9, 13.9, 3, 7), Some(0));
        assert_eq!(cell_at(14.5, 3.0, 3, 7), None, "the gap");
        assert_eq!(cell_at(16.0, 16.0, 3, 7), Some(4));
        assert_eq!(cell_at(1.0, 33.0, 3, 7), Some(6));
        assert_eq!(cell_at(17.0, 33.0, 3, 7), None, "past the last cell");
        assert_eq!(cell_at(49.0, 0.0, 3, 7), None, "past the row");
        assert_eq!(cell_at(-1.0, 0.0, 3, 7), None);
    }

    #[test]
    fn the_arrow_keys_move_along_a_row_and_between_rows_within_the_cells() {
        assert_eq!(moved(0, "ArrowRight", 3, 7), Some(1));
        assert_eq!(moved(0, "ArrowLeft", 3, 7), None);
        assert_eq!(moved(1, "ArrowDown", 3, 7), Some(4));
        assert_eq!(moved(4, "ArrowDown", 3, 7), None, "no cell below");
        assert_eq!(moved(4, "ArrowUp", 3, 7), Some(1));
        assert_eq!(moved(4, "End", 3, 7), Some(6));
        assert_eq!(moved(4, "Home", 3, 7), Some(0));
        assert_eq!(moved(4, "Enter", 3, 7), None);
    }

    #[test]
    fn a_cell_shows_its_level_and_state() {
        let mut n = crate::components::cluster::tests::node("n", "NotReady", 500);
        n.unschedulable = true;
        let f = face(&n, true);
        assert!(f.not_ready && f.cordoned && f.picked);
        assert_eq!(f.level, 2, "50% requested");
        n.ready = "Ready".into();
        assert!(!face(&n, false).not_ready);
    }
}
