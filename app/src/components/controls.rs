//! The top bar: the gallery, Apply and Reset, playback, the tour, Share, Embed and Export, and
//! the language.

use super::{export::ExportMenu, playback::Playback, share::ShareButtons};
use crate::state::gallery::{parse_index, GalleryEntry, GALLERY_DIR};
use crate::state::i18n::i18n;
use crate::state::playground::Playground;
use crate::state::scenario::ScenarioState;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

/// Runs the editor's scenario (when it parses) from its start.
pub fn apply(scenario: ScenarioState, pg: Playground) {
    if let Ok(s) = scenario.parsed.get_untracked() {
        let text = scenario.text.get_untracked();
        // In a task of its own, not the press's: the press is answered (and drawn) first, and
        // a big cluster's build and the redraw after the press are never one long task.
        let load = move || {
            scenario.applied.set(text);
            pg.load(s.into_inner());
        };
        // Shown as playing meanwhile, so no one reads the run before as this one's end.
        pg.playing.set(true);
        set_timeout(load, std::time::Duration::ZERO);
    }
}

/// `mm:ss.mmm` of a virtual time.
pub fn clock_text(ms: u64) -> String {
    format!(
        "{:02}:{:02}.{:03}",
        ms / 60_000,
        (ms / 1000) % 60,
        ms % 1000
    )
}

/// [`fetch_text`] of an owned address (a future that borrows nothing).
pub async fn fetch_text_owned(url: String) -> Result<String, String> {
    fetch_text(&url).await
}

pub async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let resp = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("{e:?}"))?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| "not a response".to_string())?;
    if !resp.ok() {
        return Err(format!("{url}: HTTP {}", resp.status()));
    }
    let text = wasm_bindgen_futures::JsFuture::from(resp.text().map_err(|e| format!("{e:?}"))?)
        .await
        .map_err(|e| format!("{e:?}"))?;
    text.as_string().ok_or_else(|| "not text".to_string())
}

/// Loads a gallery scenario into the editor and plays it.
pub fn load_gallery(entry: GalleryEntry, scenario: ScenarioState, pg: Playground) {
    spawn_local(async move {
        match fetch_text(&format!("{GALLERY_DIR}{}", entry.file)).await {
            Ok(text) => {
                scenario.text.set(text);
                apply(scenario, pg);
            }
            Err(e) => leptos::logging::warn!("gallery: {e}"),
        }
    });
}

#[component]
pub fn Controls() -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    let pg = expect_context::<Playground>();
    let i18n = i18n();
    let gallery = RwSignal::new(Vec::<GalleryEntry>::new());
    let chosen = RwSignal::new(String::from("default"));
    spawn_local(async move {
        if let Ok(text) = fetch_text(&format!("{GALLERY_DIR}index.json")).await {
            if let Ok(entries) = parse_index(&text) {
                gallery.set(entries);
            }
        }
    });
    let on_gallery = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        chosen.set(id.clone());
        if let Some(e) = gallery.with_untracked(|g| g.iter().find(|e| e.id == id).cloned()) {
            load_gallery(e, scenario, pg);
        }
    };
    let description = move || {
        gallery.with(|g| {
            g.iter()
                .find(|e| e.id == chosen.get())
                .map(|e| e.summary.clone())
                .unwrap_or_default()
        })
    };
    let can_apply = move || scenario.parsed.with(|p| p.is_ok());
    view! {
        <header class="controls" role="toolbar" aria-label=move || i18n.t("controls-label")>
            <span class="brand">{move || i18n.t("app-name")}</span>
            <label class="gallery">
                <span class="sr-only">{move || i18n.t("controls-scenario")}</span>
                <select data-testid="gallery" aria-label=move || i18n.t("controls-gallery") on:change=on_gallery
                    prop:value=move || chosen.get() title=description>
                    {move || {
                        let g = gallery.get();
                        if g.is_empty() {
                            view! { <option value="default">{i18n.t("controls-gallery-default")}</option> }.into_any()
                        } else {
                            g.into_iter()
                                .map(|e| view! { <option value=e.id.clone()>{e.title.clone()}</option> })
                                .collect_view()
                                .into_any()
                        }
                    }}
                </select>
            </label>
            <button data-testid="apply" class="primary" disabled=move || !can_apply()
                title=move || i18n.t("controls-apply-title") aria-keyshortcuts="Control+Enter"
                on:click=move |_| apply(scenario, pg)>
                {move || i18n.t("controls-apply")}
            </button>
            <button data-testid="reset" title=move || i18n.t("controls-reset-title")
                on:click=move |_| scenario.text.set(scenario.applied.get_untracked())>
                {move || i18n.t("controls-reset")}
            </button>
            <Playback />
            {use_context::<crate::state::tour::TourState>().map(|tour| view! {
                <button data-testid="tour-start" on:click=move |_| crate::components::tour::start(scenario, pg, tour)>
                    {move || i18n.t("tour-start")}
                </button>
            })}
            <ShareButtons />
            <ExportMenu />
            <label class="language">
                <span class="sr-only">{move || i18n.t("language-label")}</span>
                <select data-testid="language" aria-label=move || i18n.t("language-label")
                    prop:value=move || i18n.get()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if let Some(l) = kubeplay_core::explain::LANGUAGES.iter().find(|l| **l == v) {
                            i18n.switch(l);
                        }
                    }>
                    {kubeplay_core::explain::LANGUAGES.iter().map(|l| {
                        let name = kubeplay_core::explain::ui(&format!("language-{l}"), l).unwrap_or(l);
                        view! { <option value=*l lang=*l>{name}</option> }
                    }).collect_view()}
                </select>
            </label>
        </header>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_clock_reads_minutes_seconds_and_milliseconds() {
        assert_eq!(super::clock_text(0), "00:00.000");
        assert_eq!(super::clock_text(7_412), "00:07.412");
        assert_eq!(super::clock_text(600_000), "10:00.000");
    }
}
