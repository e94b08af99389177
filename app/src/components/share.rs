//! Share and Embed: the link to the scenario at the position shown (copied, with a warning when
//! it is too long to paste comfortably), and a ready `<iframe>` snippet of the embedded player.

use crate::state::i18n::i18n;
use crate::state::playground::Playground;
use crate::state::scenario::ScenarioState;
use crate::state::start::{self, embed_snippet, scenario_title};
use kubeplay_core::share::{COMFORTABLE_LINK_CHARS, VIEWS};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The page's address without its fragment.
pub fn page_base() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| start::base(&h).to_string())
        .unwrap_or_default()
}

/// Copies to the clipboard when the browser lets the page (it may not: the link is shown too).
fn copy(text: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

fn select_all(ev: leptos::ev::FocusEvent) {
    if let Some(t) = ev.target() {
        if let Ok(i) = t.clone().dyn_into::<web_sys::HtmlInputElement>() {
            i.select();
        } else if let Ok(a) = t.dyn_into::<web_sys::HtmlTextAreaElement>() {
            a.select();
        }
    }
}

/// What a link carries of the playback: the position, when the editor holds what is playing.
fn position(scenario: ScenarioState, pg: Playground) -> Option<u64> {
    let same = scenario
        .text
        .with_untracked(|t| scenario.applied.with_untracked(|a| t == a));
    pg.with_untracked(|p| p.clock()).filter(|t| same && *t > 0)
}

#[component]
pub fn ShareButtons() -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    let pg = expect_context::<Playground>();
    let i18n = i18n();
    let open = RwSignal::new(None::<&'static str>);
    let share_link = RwSignal::new(String::new());
    let embed_view = RwSignal::new("flow".to_string());
    let on_share = move |_| {
        if open.get_untracked() == Some("share") {
            open.set(None);
            return;
        }
        let fragment = start::fragment(
            &scenario.text.get_untracked(),
            Some(pg.tab.get_untracked().id()),
            position(scenario, pg),
            false,
            i18n.lang.get_untracked(),
        );
        let link = format!("{}#{fragment}", page_base());
        copy(&link);
        share_link.set(link);
        open.set(Some("share"));
    };
    let snippet = move || {
        let text = scenario.text.get();
        let fragment = start::fragment(&text, Some(&embed_view.get()), None, true, i18n.get());
        embed_snippet(&page_base(), &fragment, &scenario_title(&text))
    };
    let too_long = move || {
        let n = share_link.with(|l| l.chars().count());
        (n > COMFORTABLE_LINK_CHARS).then(|| {
            i18n.ta(
                "share-too-long",
                &[
                    ("length", &n.to_string()),
                    ("limit", &COMFORTABLE_LINK_CHARS.to_string()),
                ],
            )
        })
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            open.set(None);
        }
    };
    view! {
        <div class="share" on:keydown=on_key>
            <button data-testid="share" title=move || i18n.t("controls-share-title")
                aria-expanded=move || (open.get() == Some("share")).to_string()
                on:click=on_share>{move || i18n.t("controls-share")}</button>
            <button data-testid="embed" title=move || i18n.t("controls-embed-title")
                aria-expanded=move || (open.get() == Some("embed")).to_string()
                on:click=move |_| open.update(|o| *o = if *o == Some("embed") { None } else { Some("embed") })>
                {move || i18n.t("controls-embed")}
            </button>
            <Show when=move || open.get() == Some("share")>
                <div class="popover" role="dialog" data-testid="share-panel" aria-label=move || i18n.t("share-link-label")>
                    <label>
                        <span>{move || i18n.t("share-link-label")}</span>
                        <input class="share-link" data-testid="share-link" type="text" readonly
                            prop:value=move || share_link.get() on:focus=select_all />
                    </label>
                    <p class="hint">{move || i18n.t("controls-share-copied")}</p>
                    {move || too_long().map(|w| view! { <p class="warning" role="alert" data-testid="share-warning">{w}</p> })}
                </div>
            </Show>
            <Show when=move || open.get() == Some("embed")>
                <div class="popover" role="dialog" data-testid="embed-panel" aria-label=move || i18n.t("embed-snippet-label")>
                    <label>
                        <span>{move || i18n.t("embed-view")}</span>
                        <select data-testid="embed-view" prop:value=move || embed_view.get()
                            on:change=move |ev| embed_view.set(event_target_value(&ev))>
                            {VIEWS.iter().map(|v| view! {
                                <option value=*v>{move || i18n.t(view_message(v))}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label>
                        <span>{move || i18n.t("embed-snippet-label")}</span>
                        <textarea data-testid="embed-snippet" readonly rows="4" prop:value=snippet on:focus=select_all></textarea>
                    </label>
                    <button data-testid="embed-copy" on:click=move |_| copy(&snippet())>{move || i18n.t("export-copy")}</button>
                </div>
            </Show>
        </div>
    }
}

/// The `ui.ftl` name of a view a link can name.
pub fn view_message(view: &str) -> &'static str {
    match view {
        "flow" => "view-flow",
        "etcd" => "view-etcd",
        "cluster" => "view-cluster",
        "scheduler" => "view-scheduler",
        "pod" => "view-pod",
        _ => "view-events",
    }
}
