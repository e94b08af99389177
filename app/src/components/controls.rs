//! The top bar: the gallery, Apply and Reset, playback (rewind, step back, play/pause, step,
//! to the end), speed, and the virtual clock.

use crate::state::gallery::{parse_index, GalleryEntry, GALLERY_DIR};
use crate::state::i18n::{i18n, with_lang};
use crate::state::playground::{Playground, SPEEDS};
use crate::state::scenario::ScenarioState;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

/// Runs the editor's scenario (when it parses) from its start.
pub fn apply(scenario: ScenarioState, pg: Playground) {
    if let Ok(s) = scenario.parsed.get_untracked() {
        scenario.applied.set(scenario.text.get_untracked());
        pg.load(s);
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

async fn fetch_text(url: &str) -> Result<String, String> {
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
    let clock = move || {
        pg.with(|p| clock_text(p.clock()))
            .unwrap_or_else(|| clock_text(0))
    };
    let position = move || {
        pg.with(|p| {
            i18n.ta(
                "controls-position",
                &[
                    ("position", &p.position().to_string()),
                    ("total", &p.records().len().to_string()),
                ],
            )
        })
        .unwrap_or_default()
    };
    let at_end = move || pg.at_end();
    let at_start = move || pg.with(|p| p.position() == 0).unwrap_or(true);
    let playing = move || pg.playing.get() || pg.fast_forward.get();
    let share_link = RwSignal::new(None::<String>);
    let on_share = move |_| {
        let Some(loc) = web_sys::window().map(|w| w.location()) else {
            return;
        };
        let base = loc.href().unwrap_or_default();
        let link = kubeplay_core::share::link(&base, &scenario.text.get_untracked());
        let lang = i18n.lang.get_untracked();
        let link = match link.split_once('#') {
            Some((base, fragment)) => {
                let fragment = with_lang(fragment, lang);
                let _ = loc.set_hash(&fragment);
                format!("{base}#{fragment}")
            }
            None => link,
        };
        share_link.set(Some(link));
    };
    let on_speed = move |ev: leptos::ev::Event| {
        if let Ok(s) = event_target_value(&ev).parse::<f64>() {
            pg.speed.set(s);
        }
    };
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
            <div class="playback" role="group" aria-label=move || i18n.t("controls-playback")>
                <button data-testid="rewind" aria-label=move || i18n.t("controls-rewind") title=move || i18n.t("controls-rewind")
                    disabled=at_start on:click=move |_| pg.rewind()>"⇤"</button>
                <button data-testid="step-back" aria-label=move || i18n.t("controls-step-back") title=move || i18n.t("controls-step-back-title")
                    disabled=at_start on:click=move |_| pg.step_back()>"◀"</button>
                <button data-testid="play" class="play" aria-keyshortcuts="Space" aria-label=move || i18n.t(if playing() { "controls-pause" } else { "controls-play" })
                    title=move || i18n.t(if playing() { "controls-pause" } else { "controls-play" })
                    disabled=move || at_end() && !playing()
                    on:click=move |_| if playing() { pg.pause() } else { pg.play() }>
                    {move || if playing() { "‖" } else { "▶" }}
                </button>
                <button data-testid="step" aria-label=move || i18n.t("controls-step-forward") title=move || i18n.t("controls-step-title")
                    disabled=at_end on:click=move |_| pg.step_forward()>"▶|"</button>
                <button data-testid="to-end" aria-label=move || i18n.t("controls-to-end") title=move || i18n.t("controls-to-end-title")
                    disabled=at_end on:click=move |_| pg.to_end()>"⇥"</button>
                <label>
                    <span class="sr-only">{move || i18n.t("controls-speed")}</span>
                    <select data-testid="speed" aria-label=move || i18n.t("controls-speed") on:change=on_speed
                        prop:value=move || pg.speed.get().to_string()>
                        {SPEEDS.iter().map(|s| view! {
                            <option value=s.to_string()>{format!("{s}x")}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            <span class="clock" data-testid="clock" aria-label=move || i18n.t("controls-clock") role="timer">
                "t="{clock}
            </span>
            <span class="position" data-testid="position" aria-live="off">{position}</span>
            <span class="state" data-testid="play-state"
                data-state=move || if playing() { "playing" } else if at_end() { "ended" } else { "paused" }>
                {move || i18n.t(if playing() { "controls-state-playing" } else if at_end() { "controls-state-ended" } else { "controls-state-paused" })}
            </span>
            {use_context::<crate::state::tour::TourState>().map(|tour| view! {
                <button data-testid="tour-start" on:click=move |_| crate::components::tour::start(scenario, pg, tour)>
                    {move || i18n.t("tour-start")}
                </button>
            })}
            <button data-testid="share" title=move || i18n.t("controls-share-title")
                on:click=on_share>{move || i18n.t("controls-share")}</button>
            {move || share_link.get().map(|l| view! {
                <input class="share-link" type="text" readonly aria-label=move || i18n.t("controls-share") prop:value=l
                    on:focus=move |ev| {
                        if let Some(t) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            t.select();
                        }
                    } />
            })}
            <label class="language">
                <span class="sr-only">{move || i18n.t("language-label")}</span>
                <select data-testid="language" aria-label=move || i18n.t("language-label")
                    prop:value=move || i18n.get()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if let Some(l) = kubeplay_core::explain::LANGUAGES.iter().find(|l| **l == v) {
                            i18n.lang.set(l);
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
