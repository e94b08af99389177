//! The scenario editor.

use super::controls::apply;
use crate::state::run::RunState;
use crate::state::scenario::ScenarioState;
use leptos::prelude::*;

#[component]
pub fn Editor() -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    let runs = use_context::<RunState>();
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            if let Some(runs) = runs {
                apply(scenario, runs);
            }
        }
    };
    view! {
        <label class="pane-title" for="scenario-editor">"scenario.yaml"</label>
        <textarea
            id="scenario-editor"
            data-testid="yaml-editor"
            class="yaml-editor"
            spellcheck="false"
            wrap="off"
            autocomplete="off"
            prop:value=move || scenario.text.get()
            on:input=move |ev| scenario.text.set(event_target_value(&ev))
            on:keydown=on_keydown
        ></textarea>
    }
}
