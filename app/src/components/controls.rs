//! The top bar: the gallery, Apply and Reset, playback (rewind, step back, play/pause, step,
//! to the end), speed, and the virtual clock.

use crate::state::gallery::{parse_index, GalleryEntry, GALLERY_DIR};
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
        pg.with(|p| format!("step {} of {}", p.position(), p.records().len()))
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
        if let Some((_, fragment)) = link.split_once('#') {
            let _ = loc.set_hash(fragment);
        }
        share_link.set(Some(link));
    };
    let on_speed = move |ev: leptos::ev::Event| {
        if let Ok(s) = event_target_value(&ev).parse::<f64>() {
            pg.speed.set(s);
        }
    };
    view! {
        <header class="controls" role="toolbar" aria-label="Playground controls">
            <span class="brand">"kubeplay"</span>
            <label class="gallery">
                <span class="sr-only">"Scenario"</span>
                <select data-testid="gallery" aria-label="Scenario gallery" on:change=on_gallery
                    prop:value=move || chosen.get() title=description>
                    {move || {
                        let g = gallery.get();
                        if g.is_empty() {
                            view! { <option value="default">"a 3-replica nginx Deployment"</option> }.into_any()
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
                title="Apply the scenario (Ctrl+Enter)" aria-keyshortcuts="Control+Enter"
                on:click=move |_| apply(scenario, pg)>
                "Apply"
            </button>
            <button data-testid="reset" title="Put the applied scenario back in the editor"
                on:click=move |_| scenario.text.set(scenario.applied.get_untracked())>
                "Reset"
            </button>
            <div class="playback" role="group" aria-label="Playback">
                <button data-testid="rewind" aria-label="Back to the start" title="Back to the start"
                    disabled=at_start on:click=move |_| pg.rewind()>"⇤"</button>
                <button data-testid="step-back" aria-label="Step back" title="Step back one record"
                    disabled=at_start on:click=move |_| pg.step_back()>"◀"</button>
                <button data-testid="play" class="play" aria-label=move || if playing() { "Pause" } else { "Play" }
                    title=move || if playing() { "Pause" } else { "Play" }
                    disabled=move || at_end() && !playing()
                    on:click=move |_| if playing() { pg.pause() } else { pg.play() }>
                    {move || if playing() { "‖" } else { "▶" }}
                </button>
                <button data-testid="step" aria-label="Step forward" title="Step to the next record"
                    disabled=at_end on:click=move |_| pg.step_forward()>"▶|"</button>
                <button data-testid="to-end" aria-label="Jump to the end" title="Run to the end"
                    disabled=at_end on:click=move |_| pg.to_end()>"⇥"</button>
                <label>
                    <span class="sr-only">"Speed"</span>
                    <select data-testid="speed" aria-label="Speed" on:change=on_speed
                        prop:value=move || pg.speed.get().to_string()>
                        {SPEEDS.iter().map(|s| view! {
                            <option value=s.to_string()>{format!("{s}x")}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            <span class="clock" data-testid="clock" aria-label="Virtual time" role="timer">
                "t="{clock}
            </span>
            <span class="position" data-testid="position" aria-live="off">{position}</span>
            <span class="state" data-testid="play-state">
                {move || if playing() { "playing" } else if at_end() { "ended" } else { "paused" }}
            </span>
            <button data-testid="share" title="Put the scenario in the page's address, to share it"
                on:click=on_share>"Share"</button>
            {move || share_link.get().map(|l| view! {
                <input class="share-link" type="text" readonly aria-label="Share link" prop:value=l
                    on:focus=move |ev| {
                        if let Some(t) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            t.select();
                        }
                    } />
            })}
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
