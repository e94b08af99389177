//! The page layout: controls on top; the scenario editor and the consoles on one side; the
//! Flow, the step details and the tabbed views on the other; the timeline at the bottom.

use super::{
    console::Consoles, controls::Controls, editor::Editor, object_list::ObjectList,
    timeline::Timeline, tour::TourPanel, views::Views,
};
use crate::state::i18n::I18n;
use crate::state::playground::Playground;
use crate::state::scenario::{from_fragment, ScenarioState, DEFAULT_SCENARIO};
use leptos::prelude::*;

/// The scenario to start with: the share link's, or the default; and what was wrong with a
/// link that could not be read (the default is shown then).
fn initial_scenario() -> (String, Option<String>) {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    match from_fragment(&hash) {
        Ok(Some(text)) => (text, None),
        Ok(None) => (DEFAULT_SCENARIO.to_string(), None),
        Err(e) => (DEFAULT_SCENARIO.to_string(), Some(e)),
    }
}

/// The narrowest and widest the editor pane may be, in percent of the page's width.
const SPLIT_MIN: u32 = 20;
const SPLIT_MAX: u32 = 70;

#[component]
pub fn App() -> impl IntoView {
    let i18n = I18n::from_page();
    provide_context(i18n);
    i18n.sync_page();
    let (text, link_error) = initial_scenario();
    let scenario = ScenarioState::new(&text);
    let pg = Playground::new();
    provide_context(scenario);
    provide_context(pg);
    provide_context(crate::state::tour::TourState {
        stop: RwSignal::new(None),
    });
    // The editor's share of the width, in percent, set by dragging the splitter or its keys.
    let split = RwSignal::new(34u32);
    let dragging = RwSignal::new(false);
    let _ = window_event_listener(leptos::ev::pointermove, move |ev| {
        if !dragging.get_untracked() {
            return;
        }
        let width = web_sys::window()
            .and_then(|w| w.inner_width().ok())
            .and_then(|w| w.as_f64())
            .unwrap_or(0.0);
        if width > 0.0 {
            let pct = (f64::from(ev.client_x()) * 100.0 / width).round() as u32;
            split.set(pct.clamp(SPLIT_MIN, SPLIT_MAX));
        }
    });
    let _ = window_event_listener(leptos::ev::pointerup, move |_| dragging.set(false));
    // Space plays and pauses, unless focus is where Space types or presses something.
    let _ = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() != " " || ev.ctrl_key() || ev.alt_key() || ev.meta_key() {
            return;
        }
        let typing = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|el| {
                matches!(
                    el.tag_name().to_ascii_lowercase().as_str(),
                    "textarea" | "input" | "select" | "button" | "summary" | "a"
                ) || el
                    .closest("[contenteditable], [role=grid], [role=tab]")
                    .ok()
                    .flatten()
                    .is_some()
            });
        if !typing {
            ev.prevent_default();
            if pg.playing.get_untracked() || pg.fast_forward.get_untracked() {
                pg.pause();
            } else {
                pg.play();
            }
        }
    });
    // The scenario plays by itself on load.
    if let Ok(s) = scenario.parsed.get_untracked() {
        pg.load(s);
    }
    view! {
        <div class="shell">
            <Controls />
            <TourPanel />
            {link_error.map(|e| view! { <p class="link-error" role="alert" data-testid="link-error">{move || i18n.ta("app-link-error", &[("error", &e)])}</p> })}
            <main class="workspace" style=move || format!("--editor-w:{}%", split.get())>
                <section class="editor-pane" aria-label=move || i18n.t("controls-scenario")>
                    <Editor />
                    <ObjectList />
                    <Consoles />
                </section>
                <div class="splitter" role="separator" aria-orientation="vertical" tabindex="0"
                    data-testid="pane-splitter" aria-label=move || i18n.t("app-resize")
                    aria-valuemin=SPLIT_MIN.to_string() aria-valuemax=SPLIT_MAX.to_string()
                    aria-valuenow=move || split.get().to_string()
                    class:dragging=move || dragging.get()
                    on:pointerdown=move |ev: leptos::ev::PointerEvent| {
                        ev.prevent_default();
                        dragging.set(true);
                    }
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                        let step = if ev.shift_key() { 10 } else { 2 };
                        let next = match ev.key().as_str() {
                            "ArrowLeft" => split.get_untracked().saturating_sub(step),
                            "ArrowRight" => split.get_untracked() + step,
                            "Home" => SPLIT_MIN,
                            "End" => SPLIT_MAX,
                            _ => return,
                        };
                        ev.prevent_default();
                        split.set(next.clamp(SPLIT_MIN, SPLIT_MAX));
                    }></div>
                <Views />
            </main>
            <Timeline />
        </div>
    }
}
