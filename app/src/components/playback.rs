//! Playback: rewind, step back, play/pause, step, to the end, speed, the virtual clock, the
//! position among the records and the play state. In the full page's top bar and in the
//! embedded player.

use super::controls::clock_text;
use crate::state::i18n::i18n;
use crate::state::playground::{Playground, SPEEDS};
use leptos::prelude::*;

#[component]
pub fn Playback() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let i18n = i18n();
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
    let on_speed = move |ev: leptos::ev::Event| {
        if let Ok(s) = event_target_value(&ev).parse::<f64>() {
            pg.speed.set(s);
        }
    };
    view! {
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
                data-state=move || if playing() { "playing" } else if at_end() { "ended" } else if pg.memory_full.get() { "memory-full" } else { "paused" }>
                {move || i18n.t(if playing() { "controls-state-playing" } else if at_end() { "controls-state-ended" } else if pg.memory_full.get() { "controls-state-memory-full" } else { "controls-state-paused" })}
            </span>
    }
}
