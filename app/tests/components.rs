//! Component tests in a real browser (wasm-bindgen-test in headless Chromium): mount the
//! components and assert on the DOM a person would see.

#![cfg(target_arch = "wasm32")]

use kubeplay_app::components::{
    cluster::ClusterView, editor::Editor, flow::Flow, object_list::ObjectList,
    scheduler::SchedulerView, timeline::Timeline,
};
use kubeplay_app::state::player::Tool;
use kubeplay_app::state::playground::Playground;
use kubeplay_app::state::scenario::{parse, ScenarioState, DEFAULT_SCENARIO};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn container() -> web_sys::HtmlElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

fn find(root: &web_sys::HtmlElement, selector: &str) -> web_sys::Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
}

fn all(root: &web_sys::HtmlElement, selector: &str) -> Vec<web_sys::Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().unchecked_into())
        .collect()
}

/// Lets Leptos run its effects (they are scheduled on the microtask queue).
async fn tick() {
    for _ in 0..3 {
        wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(
            &wasm_bindgen::JsValue::NULL,
        ))
        .await
        .unwrap();
    }
}

/// Mounts `view` in a new container, with `pg` as the page's playground, and lets its effects
/// run.
async fn mounted<V: IntoView + 'static>(
    pg: Playground,
    view: impl FnOnce() -> V + 'static,
) -> web_sys::HtmlElement {
    let root = container();
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(pg);
        view()
    })
    .forget();
    tick().await;
    root
}

/// Lets the browser render `n` frames (and deliver what observers saw in them).
async fn frames(n: usize) {
    for _ in 0..n {
        let frame = js_sys::Promise::new(&mut |resolve, _| {
            let _ = web_sys::window().unwrap().request_animation_frame(&resolve);
        });
        wasm_bindgen_futures::JsFuture::from(frame).await.unwrap();
    }
    let task = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback(&resolve);
    });
    wasm_bindgen_futures::JsFuture::from(task).await.unwrap();
    tick().await;
}

/// Whether `holds()` comes true within `n` frames (checked after each).
async fn within_frames(n: usize, holds: impl Fn() -> bool) -> bool {
    for _ in 0..n {
        if holds() {
            return true;
        }
        frames(1).await;
    }
    holds()
}

/// Waits (frame by frame, a hundred at most) until playback has stopped.
async fn played_to_the_end(pg: Playground) {
    let stopped = within_frames(100, || !pg.playing.get_untracked()).await;
    assert!(stopped, "playback did not stop");
}

/// A playground with the default scenario run to its end.
fn ended() -> Playground {
    let pg = Playground::new();
    pg.load_paused(parse(DEFAULT_SCENARIO).unwrap());
    pg.finish_now();
    pg
}

#[wasm_bindgen_test]
async fn editor_holds_the_default_scenario_and_the_core_lists_its_objects() {
    let root = container();
    let state = ScenarioState::new(DEFAULT_SCENARIO);
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(state);
        view! { <Editor /> <ObjectList /> }
    })
    .forget();
    tick().await;
    let editor: web_sys::HtmlTextAreaElement =
        find(&root, "[data-testid=yaml-editor]").unchecked_into();
    assert!(editor.value().contains("kind: Deployment"));
    let result = find(&root, "[data-testid=parse-result]")
        .text_content()
        .unwrap();
    assert!(result.contains("Deployment/nginx (line 4)"), "{result}");
    // Line numbers and highlighting.
    assert_eq!(
        all(&root, ".gutter .ln").len(),
        DEFAULT_SCENARIO.split('\n').count()
    );
    assert!(!all(&root, ".mirror .t-key").is_empty());
    assert!(all(&root, ".gutter .ln.err").is_empty());
}

/// Above the highlighting limit the mirror is not highlighted (that much highlighted text is
/// costly to lay out), and until someone edits the text the page holds only its first lines:
/// the whole of it, as a textarea and line numbers, was laid out again at every redraw.
#[wasm_bindgen_test]
async fn a_text_too_big_to_highlight_shows_its_first_lines_until_edited() {
    use kubeplay_app::components::editor::{HIGHLIGHT_LIMIT, PREVIEW_LINES};
    // The page's stylesheet decides which text shows.
    let doc = web_sys::window().unwrap().document().unwrap();
    let style = doc.create_element("style").unwrap();
    style.set_text_content(Some(include_str!("../../public/styles.css")));
    doc.head().unwrap().append_child(&style).unwrap();
    let root = container();
    let state = ScenarioState::new(DEFAULT_SCENARIO);
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(state);
        view! { <Editor /> }
    })
    .forget();
    tick().await;
    let code = find(&root, ".editor .code");
    let display = |el: &web_sys::Element| {
        web_sys::window()
            .unwrap()
            .get_computed_style(el)
            .unwrap()
            .unwrap()
            .get_property_value("display")
            .unwrap()
    };
    let area: web_sys::HtmlTextAreaElement =
        find(&root, "[data-testid=yaml-editor]").unchecked_into();
    let mirror: web_sys::HtmlElement = find(&root, ".mirror").unchecked_into();
    assert!(!code.class_list().contains("plain") && !code.class_list().contains("preview"));
    assert_ne!(display(&area), "none");
    assert_eq!(mirror.get_attribute("aria-hidden").as_deref(), Some("true"));
    assert!(mirror.get_attribute("tabindex").is_none());

    let mut big = String::new();
    let mut n = 0;
    while big.len() <= HIGHLIGHT_LIMIT {
        n += 1;
        big.push_str(&format!("# document {n}\n{DEFAULT_SCENARIO}\n---\n"));
    }
    state.text.set(big.clone());
    tick().await;
    let lines: Vec<&str> = big.split('\n').collect();
    // The preview: the first lines and what follows them counted, no textarea in the layout.
    assert!(code.class_list().contains("plain") && code.class_list().contains("preview"));
    assert_eq!(display(&area), "none");
    assert_eq!(area.value(), big, "the textarea still holds the whole text");
    assert_eq!(mirror.child_element_count(), 0);
    let more = lines.len() - PREVIEW_LINES;
    assert_eq!(
        mirror.text_content().unwrap(),
        format!(
            "{}\n…and {more} more lines. Click to edit the whole text.",
            lines[..PREVIEW_LINES].join("\n")
        )
    );
    assert_eq!(mirror.get_attribute("tabindex").as_deref(), Some("0"));
    assert!(mirror.get_attribute("aria-hidden").is_none());
    let numbers = find(&root, ".gutter").text_content().unwrap();
    assert_eq!(numbers.split('\n').count(), PREVIEW_LINES);
    assert!(numbers.ends_with(&format!("\n{PREVIEW_LINES}")));

    // A press in the preview: the textarea with the whole text, focused, and all the numbers.
    let press = web_sys::MouseEvent::new("mousedown").unwrap();
    mirror.dispatch_event(&press).unwrap();
    tick().await;
    assert_ne!(display(&area), "none");
    assert_eq!(doc.active_element(), Some(area.clone().into()));
    assert!(!code.class_list().contains("preview"));
    assert_eq!(mirror.text_content().unwrap_or_default(), "");
    let numbers = find(&root, ".gutter").text_content().unwrap();
    assert!(
        all(&root, ".gutter .ln").is_empty(),
        "numbers are text, not an element each"
    );
    assert_eq!(numbers.split('\n').count(), lines.len());
    assert!(numbers.ends_with(&format!("\n{}", lines.len())));
    let height = find(&root, ".gutter .lns")
        .get_bounding_client_rect()
        .height();
    assert!((height - lines.len() as f64 * 19.5).abs() < 1.0, "{height}");
    // A YAML error far down is marked at its line, between the numbers around it.
    state.text.set(format!("{big}\nkind: [oops\n"));
    tick().await;
    let marked = all(&root, ".gutter .ln.err");
    assert_eq!(marked.len(), 1);
    let at: usize = marked[0].text_content().unwrap().parse().unwrap();
    assert!(at > lines.len(), "{at}");
    assert_eq!(
        find(&root, "[data-testid=editor-frame]").get_attribute("data-error-line"),
        Some(at.to_string())
    );
    let before = find(&root, ".gutter .lns").text_content().unwrap();
    assert!(before.starts_with("1\n2\n"));
    assert!(before.ends_with(&format!("\n{}", at - 1)));

    // Left, it is the preview again; reached by Tab (focused), the textarea again.
    area.blur().unwrap();
    tick().await;
    assert!(code.class_list().contains("preview"));
    assert_eq!(display(&area), "none");
    assert!(mirror.text_content().unwrap().starts_with("# document 1\n"));
    mirror.focus().unwrap();
    tick().await;
    assert_eq!(doc.active_element(), Some(area.clone().into()));
    assert_ne!(display(&area), "none");
    area.blur().unwrap();
    doc.head().unwrap().remove_child(&style).unwrap();
}

/// A big scenario lists its first objects by name and counts the rest, so the page does not
/// hold (and lay out at every redraw) a line per object of thousands.
#[wasm_bindgen_test]
async fn a_big_scenario_lists_its_first_objects_and_counts_the_rest() {
    use kubeplay_app::state::scenario::LISTED_OBJECTS;
    let root = container();
    let docs: Vec<String> = (0..LISTED_OBJECTS + 5)
        .map(|i| format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\n"))
        .collect();
    let state = ScenarioState::new(&docs.join("---\n"));
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(state);
        view! { <ObjectList /> }
    })
    .forget();
    tick().await;
    let items = all(&root, "[data-testid=parse-result] li");
    assert_eq!(items.len(), LISTED_OBJECTS + 1);
    assert_eq!(items[0].text_content().unwrap(), "ConfigMap/c0 (line 1)");
    assert_eq!(items[LISTED_OBJECTS].text_content().unwrap(), "…and 5 more");
    let found = find(&root, "[data-testid=parse-result] .ok")
        .text_content()
        .unwrap();
    assert_eq!(found, format!("{} objects found", LISTED_OBJECTS + 5));
}

#[wasm_bindgen_test]
async fn a_yaml_error_is_marked_at_its_line() {
    let root = container();
    let state = ScenarioState::new(DEFAULT_SCENARIO);
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(state);
        view! { <Editor /> <ObjectList /> }
    })
    .forget();
    state
        .text
        .set("apiVersion: v1\nkind: Pod\nmetadata:\n  name: [oops\n".to_string());
    tick().await;
    let marked = all(&root, ".gutter .ln.err");
    assert_eq!(marked.len(), 1);
    let line = marked[0].text_content().unwrap();
    assert_eq!(line, "5");
    assert_eq!(
        find(&root, "[data-testid=editor-frame]")
            .get_attribute("data-error-line")
            .as_deref(),
        Some("5")
    );
    assert_eq!(all(&root, ".mirror .err-line").len(), 1);
    let msg = find(&root, "[data-testid=editor-error]")
        .text_content()
        .unwrap();
    assert!(msg.starts_with("line 5, column 1: "), "{msg}");
    assert!(root
        .query_selector("[data-testid=parse-result] [role=alert]")
        .unwrap()
        .is_some());
}

#[wasm_bindgen_test]
async fn the_scheduler_table_has_every_node_and_the_chosen_one() {
    let pg = ended();
    let root = mounted(pg, || view! { <SchedulerView /> }).await;
    let rows = all(&root, "[data-testid=scheduler-table] tbody tr");
    let nodes: Vec<String> = rows
        .iter()
        .map(|r| r.get_attribute("data-node").unwrap())
        .collect();
    assert_eq!(nodes, ["node-1", "node-2", "node-3"]);
    let chosen = all(&root, "[data-testid=scheduler-table] tr[data-chosen=true]");
    assert_eq!(chosen.len(), 1);
    let header = find(&root, "[data-testid=scheduler-table] thead")
        .text_content()
        .unwrap();
    assert!(header.contains("NodeResourcesFit"), "{header}");
    assert!(header.contains("score × 3"), "{header}");
}

#[wasm_bindgen_test]
async fn selecting_a_pod_in_the_cluster_view_selects_it_for_the_scheduler() {
    let pg = ended();
    let root = mounted(pg, || view! { <ClusterView /> <SchedulerView /> }).await;
    let pods = all(&root, "[data-testid=cluster] button.pod");
    assert_eq!(pods.len(), 3);
    for p in &pods {
        assert_eq!(p.get_attribute("data-status").as_deref(), Some("Running"));
    }
    let last: web_sys::HtmlElement = pods[2].clone().unchecked_into();
    let key = last.get_attribute("data-pod").unwrap();
    last.click();
    tick().await;
    assert_eq!(
        pg.selected_pod.get_untracked().as_deref(),
        Some(key.as_str())
    );
    let select: web_sys::HtmlSelectElement =
        find(&root, "[data-testid=scheduler-pod]").unchecked_into();
    assert_eq!(select.value(), key);
    // The chip says it is the one selected, the others that they are not; the cards around
    // them stay the same elements.
    let after = all(&root, "[data-testid=cluster] button.pod");
    for p in &after {
        let on = p.get_attribute("data-pod").as_deref() == Some(key.as_str());
        assert_eq!(p.class_list().contains("selected"), on);
        assert_eq!(
            p.get_attribute("aria-pressed").as_deref(),
            Some(if on { "true" } else { "false" })
        );
    }
    assert!(pods
        .iter()
        .zip(&after)
        .all(|(a, b)| a.is_same_node(Some(b))));
}

/// A redraw replaces the node cards that changed and leaves the others as they are: a hundred
/// cards written anew at every redraw made the page's frames long.
#[wasm_bindgen_test]
async fn a_redraw_replaces_only_the_node_cards_that_changed() {
    let pg = ended();
    let root = mounted(pg, || view! { <ClusterView /> }).await;
    let before = all(&root, "[data-testid=cluster] .node-card");
    let names: Vec<String> = before
        .iter()
        .map(|c| c.get_attribute("data-node").unwrap())
        .collect();
    assert_eq!(names, ["node-1", "node-2", "node-3"]);
    assert!(!before[1]
        .text_content()
        .unwrap()
        .contains("SchedulingDisabled"));
    pg.command(Tool::Kubectl, "kubectl cordon node-2");
    // The command sets playback running (cards out of view wait for it to stop).
    played_to_the_end(pg).await;
    let after = all(&root, "[data-testid=cluster] .node-card");
    assert_eq!(after.len(), 3);
    assert!(after[0].is_same_node(Some(&before[0])));
    assert!(after[2].is_same_node(Some(&before[2])));
    assert!(!after[1].is_same_node(Some(&before[1])));
    assert_eq!(
        after[1].get_attribute("data-node").as_deref(),
        Some("node-2")
    );
    let card = after[1].text_content().unwrap();
    assert!(card.contains("SchedulingDisabled"), "{card}");
    assert_eq!(
        all(&root, "[data-testid=cluster] .node-card button.pod").len(),
        3
    );
}

/// The default scenario on 120 nodes (more than the view draws cards for), played to the end,
/// in a mounted Cluster view.
async fn big_cluster_view() -> (Playground, web_sys::HtmlElement) {
    let nodes: String = (0..120)
        .map(|i| {
            format!(
                "apiVersion: v1\nkind: Node\nmetadata:\n  name: n-{i:03}\nstatus:\n  capacity: {{cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n---\n"
            )
        })
        .collect();
    let pg = Playground::new();
    pg.load_paused(parse(&(nodes + DEFAULT_SCENARIO)).unwrap());
    pg.finish_now();
    let root = mounted(pg, || view! { <ClusterView /> }).await;
    (pg, root)
}

/// While playback runs, a node card out of view is left as it was until it comes into view;
/// one in view is drawn at once. (A big rollout changes every card at every redraw, and all
/// but a few are out of view.)
#[wasm_bindgen_test]
async fn while_playing_a_card_out_of_view_is_drawn_when_it_comes_into_view() {
    let nodes: String = (0..80)
        .map(|i| format!("apiVersion: v1\nkind: Node\nmetadata:\n  name: n-{i:03}\n---\n"))
        .collect();
    let pg = Playground::new();
    pg.load_paused(parse(&(nodes + DEFAULT_SCENARIO)).unwrap());
    pg.finish_now();
    let root = mounted(pg, || view! { <ClusterView /> }).await;
    let card = |name: &str| find(&root, &format!(".node-card[data-node=\"{name}\"]"));
    let cordoned = |name: &str| {
        card(name)
            .text_content()
            .unwrap()
            .contains("SchedulingDisabled")
    };
    // Both nodes cordoned, played to the end: every card drawn.
    let before = pg.with_untracked(|p| p.records().len()).unwrap();
    pg.command(Tool::Kubectl, "kubectl cordon n-000");
    pg.command(Tool::Kubectl, "kubectl cordon n-079");
    played_to_the_end(pg).await;
    assert!(cordoned("n-000") && cordoned("n-079"));
    root.scroll_into_view();
    let marked = || {
        card("n-000").has_attribute("data-in-view") && card("n-079").has_attribute("data-in-view")
    };
    assert!(
        within_frames(60, marked).await,
        "the observer marks the cards"
    );
    let (first, last) = (card("n-000"), card("n-079"));
    assert_eq!(first.get_attribute("data-in-view").as_deref(), Some("true"));
    assert_eq!(last.get_attribute("data-in-view").as_deref(), Some("false"));
    // Back to before the cordons, as if playing: the card in view is drawn, the other waits.
    pg.seek(before);
    pg.playing.set(true);
    tick().await;
    assert!(!card("n-000").is_same_node(Some(&first)));
    assert!(!cordoned("n-000"));
    assert!(card("n-079").is_same_node(Some(&last)), "left as it was");
    assert!(cordoned("n-079"));
    // In view, it is drawn (playback still running).
    last.scroll_into_view();
    assert!(
        within_frames(60, || !cordoned("n-079")).await,
        "drawn once in view"
    );
    assert!(pg.playing.get_untracked());
    pg.playing.set(false);
}

/// The heat map's canvas once painted: its width comes from a ResizeObserver, a frame later.
async fn painted_heat_map(root: &web_sys::HtmlElement) -> web_sys::HtmlCanvasElement {
    let canvas = find(root, "[data-testid=node-heatmap]");
    let painted = within_frames(30, || canvas.has_attribute("data-cells")).await;
    assert!(painted, "the heat map was not painted");
    canvas.unchecked_into()
}

/// Where cell `i` of the canvas is: its centre, in CSS pixels from the canvas's top left.
fn cell_centre(canvas: &web_sys::HtmlCanvasElement, i: usize) -> (f64, f64) {
    let columns: usize = canvas
        .get_attribute("data-columns")
        .unwrap()
        .parse()
        .unwrap();
    (
        (i % columns) as f64 * 16.0 + 7.0,
        (i / columns) as f64 * 16.0 + 7.0,
    )
}

/// A mouse event of `kind` at the centre of cell `i`, as the pointer would send it.
fn point_at(canvas: &web_sys::HtmlCanvasElement, i: usize, kind: &str) {
    let (x, y) = cell_centre(canvas, i);
    let rect = canvas.get_bounding_client_rect();
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_client_x((rect.left() + x).round() as i32);
    init.set_client_y((rect.top() + y).round() as i32);
    let ev = web_sys::MouseEvent::new_with_mouse_event_init_dict(kind, &init).unwrap();
    canvas.dispatch_event(&ev).unwrap();
}

/// What the pointer over cell `i` reads: the canvas's title names the cell's node.
fn hover_title(canvas: &web_sys::HtmlCanvasElement, i: usize) -> String {
    point_at(canvas, i, "mousemove");
    canvas.get_attribute("title").unwrap_or_default()
}

/// The cell whose node is `name`, found by pointing at the cells in turn.
fn cell_of(canvas: &web_sys::HtmlCanvasElement, cells: usize, name: &str) -> usize {
    (0..cells)
        .find(|&i| hover_title(canvas, i).starts_with(&format!("{name}: ")))
        .unwrap_or_else(|| panic!("no cell names {name}"))
}

/// The colour painted at the centre of cell `i`, as RGBA.
fn pixel(canvas: &web_sys::HtmlCanvasElement, i: usize) -> Vec<u8> {
    let (x, y) = cell_centre(canvas, i);
    let ratio = f64::from(canvas.width()) / canvas.client_width() as f64;
    let ctx: web_sys::CanvasRenderingContext2d =
        canvas.get_context("2d").unwrap().unwrap().unchecked_into();
    ctx.get_image_data(x * ratio, y * ratio, 1.0, 1.0)
        .unwrap()
        .data()
        .to_vec()
}

/// A cluster of more nodes than the view draws cards for: a heat map with a cell per node,
/// the pods totalled by status, and the card of the node picked in it (by a click, then by
/// the arrow keys).
#[wasm_bindgen_test]
async fn a_big_cluster_is_a_heat_map_whose_cells_open_their_node() {
    let (_, root) = big_cluster_view().await;
    assert!(all(&root, "[data-testid=cluster] .nodes > .node-card").len() <= 1);
    let canvas = painted_heat_map(&root).await;
    assert_eq!(canvas.get_attribute("data-cells").as_deref(), Some("120"));
    let summary = find(&root, "[data-testid=cluster-summary]")
        .text_content()
        .unwrap();
    assert!(
        summary.contains("120 nodes, 120 Ready; 3 pods"),
        "{summary}"
    );
    assert!(summary.contains("Running"), "{summary}");
    // A node with a pod: its cell says so, and picking it shows its card.
    let (busy, title) = (0..120)
        .map(|i| (i, hover_title(&canvas, i)))
        .find(|(_, t)| !t.is_empty() && !t.contains(", 0/110 pods"))
        .expect("a node runs a pod");
    let name = title.split(':').next().unwrap().to_string();
    point_at(&canvas, busy, "click");
    tick().await;
    let card = find(&root, ".picked-node .node-card");
    assert_eq!(
        card.get_attribute("data-node").as_deref(),
        Some(name.as_str())
    );
    assert!(
        !all(&root, ".picked-node .pod-count[data-status=Running]").is_empty()
            || !all(&root, ".picked-node button.pod[data-status=Running]").is_empty()
    );
    // The next cell by the keyboard.
    let next = hover_title(&canvas, busy + 1);
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("ArrowRight");
    init.set_bubbles(true);
    let key = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    canvas.dispatch_event(&key).unwrap();
    tick().await;
    let card = find(&root, ".picked-node .node-card");
    assert!(
        next.starts_with(&format!("{}: ", card.get_attribute("data-node").unwrap())),
        "{next}"
    );
}

/// A cluster that outgrows the cards becomes a heat map, and the cards' grid it leaves is not
/// drawn into any more (a thousand cards at every redraw of a large run, out of the page).
#[wasm_bindgen_test]
async fn the_cards_left_for_the_heat_map_are_not_drawn_any_more() {
    let (pg, root) = big_cluster_view().await;
    let before = pg.with_untracked(|p| p.records().len()).unwrap();
    // Down to 100 nodes: cards.
    let names: Vec<String> = (0..20).map(|i| format!("n-{i:03}")).collect();
    pg.command(
        Tool::Kubectl,
        &format!("kubectl delete node {}", names.join(" ")),
    );
    played_to_the_end(pg).await;
    let grid = find(&root, "[data-testid=cluster] > .nodes");
    assert_eq!(grid.child_element_count(), 100);
    // Back to 120: the heat map, and the grid is out of the page.
    pg.seek(before);
    tick().await;
    let canvas = painted_heat_map(&root).await;
    assert_eq!(canvas.get_attribute("data-cells").as_deref(), Some("120"));
    assert!(!grid.is_connected());
    assert_eq!(grid.child_element_count(), 0);
    pg.seek(before - 1);
    tick().await;
    assert_eq!(grid.child_element_count(), 0, "drawn into out of the page");
}

/// A redraw of the heat map repaints the cells that changed, on the same canvas: a cordoned
/// node's cell fades, its neighbour's stays as it was.
#[wasm_bindgen_test]
async fn the_heat_map_repaints_a_changed_cell_in_place() {
    let (pg, root) = big_cluster_view().await;
    let canvas = painted_heat_map(&root).await;
    let (cordoned, neighbour) = (
        cell_of(&canvas, 120, "n-007"),
        cell_of(&canvas, 120, "n-008"),
    );
    let (before, beside) = (pixel(&canvas, cordoned), pixel(&canvas, neighbour));
    assert_eq!(before[3], 255, "an opaque cell: {before:?}");
    pg.command(Tool::Kubectl, "kubectl cordon n-007");
    tick().await;
    let after = find(&root, "[data-testid=node-heatmap]");
    assert!(after.is_same_node(Some(&canvas)), "the same canvas");
    let faded = pixel(&canvas, cordoned);
    assert!(faded[3] < 200, "cordoned cells fade: {faded:?}");
    assert_eq!(pixel(&canvas, neighbour), beside);
}

#[wasm_bindgen_test]
async fn the_timeline_scrubs_the_position() {
    let pg = ended();
    let root = mounted(pg, || view! { <Timeline /> <Flow /> }).await;
    let total = pg.with_untracked(|p| p.records().len()).unwrap();
    let range: web_sys::HtmlInputElement = find(&root, "[data-testid=scrubber]").unchecked_into();
    assert_eq!(range.max(), total.to_string());
    assert_eq!(range.value(), total.to_string());
    assert!(
        !all(&root, ".mark.schedule").is_empty(),
        "scheduling decisions are marked"
    );
    range.set_value("10");
    range
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    tick().await;
    assert_eq!(pg.with_untracked(|p| p.position()), Some(10));
    let count = find(&root, "[data-testid=timeline] .count")
        .text_content()
        .unwrap();
    assert_eq!(count, format!("10 / {total} records"));
    // The Flow draws the first ten rows, the tenth highlighted.
    let current = find(&root, "[data-testid=flow] .row.current");
    assert_eq!(current.get_attribute("data-index").as_deref(), Some("9"));
    let lanes: Vec<String> = all(&root, ".lane-head")
        .iter()
        .map(|l| l.get_attribute("data-lane").unwrap())
        .collect();
    assert!(lanes.contains(&"kube-apiserver".to_string()), "{lanes:?}");
    assert!(lanes.contains(&"kubelet/node-2".to_string()), "{lanes:?}");
}

/// A step forward adds its row to the Flow and moves the highlight; the rows before it stay
/// the same elements (the Flow does not build every row on screen again at each frame), and a
/// click on a row selects its step.
#[wasm_bindgen_test]
async fn a_step_forward_adds_its_row_and_keeps_the_others() {
    let pg = ended();
    let root = mounted(pg, || view! { <Flow /> }).await;
    pg.seek(10);
    tick().await;
    let rows = || all(&root, "[data-testid=flow] g.row");
    let before = rows();
    assert_eq!(before.len(), 10);
    pg.seek(11);
    tick().await;
    let after = rows();
    assert_eq!(after.len(), 11);
    let index = |r: &web_sys::Element| r.get_attribute("data-index").unwrap();
    assert_eq!(
        after.iter().map(index).collect::<Vec<_>>(),
        (0..11).map(|i| i.to_string()).collect::<Vec<_>>()
    );
    assert!(before[..9]
        .iter()
        .zip(&after)
        .all(|(a, b)| a.is_same_node(Some(b))));
    assert!(!after[9].class_list().contains("current"));
    assert!(after[10].class_list().contains("current"));
    let title = find(&root, "[data-testid=flow] g.row[data-index=\"10\"] title")
        .text_content()
        .unwrap();
    assert!(title.starts_with("00:"), "{title}");
    // A click on a row (on its label, say) selects that step.
    let label = find(&root, "[data-testid=flow] g.row[data-index=\"3\"] .label");
    let click = web_sys::Event::new("click").unwrap();
    click.init_event_with_bubbles("click", true);
    label.dispatch_event(&click).unwrap();
    tick().await;
    assert_eq!(pg.selected_record.get_untracked(), Some(3));
    assert!(find(&root, "[data-testid=flow] g.row[data-index=\"3\"]")
        .class_list()
        .contains("selected"));
}

#[wasm_bindgen_test]
async fn the_scheduler_view_speaks_the_chosen_language_and_follows_a_switch() {
    use kubeplay_app::state::i18n::I18n;
    // The page fetches the Chinese files when they are chosen; here they are handed over.
    kubeplay_core::explain::add_language(
        "zh-TW",
        include_str!("../../locales/zh-TW/explain.ftl"),
        include_str!("../../locales/zh-TW/ui.ftl"),
    );
    kubeplay_core::explain::add_language(
        "zh-CN",
        include_str!("../../locales/zh-CN/explain.ftl"),
        include_str!("../../locales/zh-CN/ui.ftl"),
    );
    let root = container();
    let pg = ended();
    let i18n = I18n {
        lang: RwSignal::new("zh-TW"),
    };
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(pg);
        provide_context(i18n);
        view! { <SchedulerView /> }
    })
    .forget();
    tick().await;
    let text = || {
        find(&root, "[data-testid=scheduler]")
            .text_content()
            .unwrap()
    };
    let head = || {
        find(&root, "[data-testid=scheduler-table] thead")
            .text_content()
            .unwrap()
    };
    assert!(head().contains("節點"), "{}", head());
    assert!(text().contains("★ 選定"), "{}", text());
    i18n.lang.set("zh-CN");
    tick().await;
    assert!(head().contains("节点"), "{}", head());
    i18n.lang.set("en");
    tick().await;
    assert!(head().contains("node"), "{}", head());
    assert!(text().contains("★ chosen"), "{}", text());
}
