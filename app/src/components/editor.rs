//! The scenario editor.

use crate::state::scenario::ScenarioState;
use leptos::prelude::*;

#[component]
pub fn Editor() -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    view! {
        <label class="pane-title" for="scenario-editor">"scenario.yaml"</label>
        <textarea
            id="scenario-editor"
            data-testid="yaml-editor"
            class="yaml-editor"
            spellcheck="false"
            autocomplete="off"
            prop:value=move || scenario.text.get()
            on:input=move |ev| scenario.text.set(event_target_value(&ev))
        ></textarea>
    }
}
