//! The page layout: controls on top; the scenario editor and the consoles on one side; the
//! Flow, the step details and the tabbed views on the other; the timeline at the bottom.

use super::{
    console::Consoles, controls::apply, controls::Controls, editor::Editor, embed::EmbedPlayer,
    object_list::ObjectList, timeline::Timeline, tour::TourPanel, views::Views,
};
use crate::state::draft::{self, Draft, SPLIT_MAX, SPLIT_MIN};
use crate::state::i18n::I18n;
use crate::state::playground::{Playground, Tab};
use crate::state::scenario::{Parsed, ScenarioState, DEFAULT_SCENARIO};
use crate::state::start::{self, Start};
use leptos::prelude::*;

fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Drops the link's scenario, view and position from the address (keeping `lang=`), so that
/// a reload shows the draft.
fn forget_link() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let fragment = format!("#{}", start::without_link(&location_hash()));
    if let Ok(h) = window.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&fragment));
    }
}

/// Starts the run: paused after a panic, run to the link's `t=` and paused there, or playing.
fn start_run(scenario: ScenarioState, pg: Playground, t_ms: Option<u64>, recovered: bool) {
    let Ok(s) = scenario.parsed.get_untracked().map(Parsed::into_inner) else {
        return;
    };
    match (recovered, t_ms) {
        (true, _) => pg.load_paused(s),
        (false, Some(t)) => {
            pg.load_paused(s);
            pg.run_to_time(t);
        }
        (false, None) => pg.load(s),
    }
}

/// Where the draft stands: whether edits are saved, and a draft kept aside while the page asks
/// whether a link's scenario may replace it.
#[derive(Clone, Copy)]
struct Drafts {
    save: RwSignal<bool>,
    pending: RwSignal<Option<String>>,
    /// The browser refused to store the draft.
    not_saved: RwSignal<bool>,
}

impl Drafts {
    /// The user chose: from now on edits are saved, and the link leaves the address.
    fn settle(self) {
        self.pending.set(None);
        self.save.set(true);
        forget_link();
    }
}

#[component]
pub fn App() -> impl IntoView {
    let i18n = I18n::from_page();
    provide_context(i18n);
    i18n.sync_page();
    let saved = draft::load();
    let Start {
        text,
        link_error,
        pending_draft,
        save,
        link,
        from_link,
    } = start::decide(&location_hash(), saved.as_ref());
    let recovered = crate::panic::take_recovery();
    let scenario = ScenarioState::new(&text);
    let pg = Playground::new();
    provide_context(scenario);
    provide_context(pg);
    if !link.embed {
        if let Some(d) = &saved {
            pg.speed.set(d.speed);
            pg.tab.set(d.tab);
        }
    }
    if let Some(tab) = link.view.as_deref().and_then(Tab::from_id) {
        pg.tab.set(tab);
    }
    start_run(scenario, pg, link.t_ms, recovered);
    if link.embed {
        draft::set_saving(false);
        let view = link.view.clone().unwrap_or_else(|| "flow".to_string());
        return view! {
            {link_error.map(|e| view! { <p class="link-error" role="alert" data-testid="link-error">{move || i18n.ta("app-link-error", &[("error", &e)])}</p> })}
            <EmbedPlayer view=view editor=link.editor />
        }
        .into_any();
    }
    provide_context(crate::state::tour::TourState {
        stop: RwSignal::new(None),
    });
    let drafts = Drafts {
        save: RwSignal::new(save),
        pending: RwSignal::new(pending_draft),
        not_saved: RwSignal::new(false),
    };
    // The editor's share of the width, in percent, set by dragging the splitter or its keys.
    let split = RwSignal::new(saved.as_ref().map_or(draft::SPLIT_DEFAULT, |d| d.split));
    // Saves the draft as the user types or changes a setting.
    let link_text = StoredValue::new(from_link.then_some(text));
    Effect::new(move |_| {
        let d = Draft {
            text: scenario.text.get(),
            speed: pg.speed.get(),
            tab: pg.tab.get(),
            split: split.get(),
        };
        let on = drafts.save.get();
        draft::set_saving(on);
        if !on {
            return;
        }
        drafts.not_saved.set(!draft::save(&d));
        // Once the link's scenario is edited, the draft is what a reload shows.
        if link_text.with_value(|l| l.as_ref().is_some_and(|l| *l != d.text)) {
            link_text.set_value(None);
            forget_link();
        }
    });
    let keep_link = move |_| drafts.settle();
    let open_draft = move |_| {
        if let Some(text) = drafts.pending.get_untracked() {
            scenario.text.set(text);
            apply(scenario, pg);
        }
        drafts.settle();
    };
    let reset_example = move |_| {
        scenario.text.set(DEFAULT_SCENARIO.to_string());
        apply(scenario, pg);
        drafts.settle();
    };
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
    view! {
        <div class="shell">
            <Controls />
            <TourPanel />
            {link_error.map(|e| view! { <p class="link-error" role="alert" data-testid="link-error">{move || i18n.ta("app-link-error", &[("error", &e)])}</p> })}
            {recovered.then(|| view! { <p class="notice" role="status" data-testid="recovered">{move || i18n.t("panic-recovered")}</p> })}
            <Show when=move || drafts.pending.with(Option::is_some)>
                <div class="notice draft-choice" role="alert" data-testid="draft-choice">
                    <span>{move || i18n.t("draft-pending")}</span>
                    <button data-testid="draft-keep-link" on:click=keep_link>{move || i18n.t("draft-keep-link")}</button>
                    <button data-testid="draft-open" on:click=open_draft>{move || i18n.t("draft-open")}</button>
                </div>
            </Show>
            <Show when=move || drafts.not_saved.get()>
                <p class="warning" role="status" data-testid="draft-not-saved">{move || i18n.t("draft-not-saved")}</p>
            </Show>
            <main class="workspace" style=move || format!("--editor-w:{}%", split.get())>
                <section class="editor-pane" aria-label=move || i18n.t("controls-scenario")>
                    <div class="editor-tools">
                        <button data-testid="reset-example" title=move || i18n.t("editor-reset-example-title")
                            on:click=reset_example>{move || i18n.t("editor-reset-example")}</button>
                    </div>
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
    .into_any()
}
