//! The embedded player (`embed=1`): the chosen view with playback controls and the timeline,
//! the editor only with `editor=1`, and "Open in kubeplay" to the full page with the same
//! scenario. It fills its iframe and reports its height to the host page with `postMessage`.

use super::{
    cluster::ClusterView, controls::apply, details::StepDetails, editor::Editor, etcd::EtcdView,
    events::EventsView, flow::Flow, playback::Playback, pod::PodView, scheduler::SchedulerView,
    timeline::Timeline,
};
use crate::state::i18n::i18n;
use crate::state::playground::Playground;
use crate::state::scenario::ScenarioState;
use crate::state::start::{self, HEIGHT_MESSAGE_TYPE};
use leptos::prelude::*;
use wasm_bindgen::{closure::Closure, JsCast};

/// Tells the host page how tall the player's content is, when the page is in a frame.
fn post_height(height: f64) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &HEIGHT_MESSAGE_TYPE.into());
    let _ = js_sys::Reflect::set(&message, &"height".into(), &height.ceil().into());
    let _ = parent.post_message(&message, "*");
}

/// Reports the element's height now and whenever it changes.
fn report_height(el: &web_sys::HtmlElement) {
    post_height(el.get_bounding_client_rect().height());
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        if let Ok(entry) = entries.get(0).dyn_into::<web_sys::ResizeObserverEntry>() {
            post_height(entry.target().get_bounding_client_rect().height());
        }
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
        observer.observe(el);
    }
    // The observer lives as long as the page.
    callback.forget();
}

#[component]
pub fn EmbedPlayer(view: String, editor: bool) -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    let pg = expect_context::<Playground>();
    let i18n = i18n();
    let content = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if let Some(el) = content.get() {
            report_height(&el);
        }
    });
    let shown = view.clone();
    let open_href = move || {
        let fragment = start::fragment(
            &scenario.text.get(),
            Some(&shown),
            pg.with(|p| p.clock()).filter(|t| *t > 0),
            false,
            i18n.get(),
        );
        format!("{}#{fragment}", super::share::page_base())
    };
    let body = match view.as_str() {
        "flow" => view! { <div class="flow-area"><Flow /><StepDetails /></div> }.into_any(),
        "etcd" => view! { <EtcdView /> }.into_any(),
        "scheduler" => view! { <SchedulerView /> }.into_any(),
        "pod" => view! { <PodView /> }.into_any(),
        "events" => view! { <EventsView /> }.into_any(),
        _ => view! { <ClusterView /> }.into_any(),
    };
    view! {
        <div class="shell embed" data-testid="embed-player" data-view=view.clone()>
            <div class="embed-content" node_ref=content>
                <header class="controls" role="toolbar" aria-label=move || i18n.t("controls-label")>
                    <span class="brand">{move || i18n.t("app-name")}</span>
                    <Playback />
                    <a class="open-full" data-testid="open-in-kubeplay" target="_blank" rel="noopener"
                        href=open_href>{move || i18n.t("embed-open")}</a>
                </header>
                {editor.then(|| view! {
                    <section class="editor-pane embed-editor" aria-label=move || i18n.t("controls-scenario")>
                        <Editor />
                        <button data-testid="apply" class="primary" on:click=move |_| apply(scenario, pg)>
                            {move || i18n.t("controls-apply")}
                        </button>
                    </section>
                })}
                <section class="embed-view views" data-testid=format!("embed-{view}")>{body}</section>
                <Timeline />
            </div>
        </div>
    }
}
