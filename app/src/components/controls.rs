//! The top bar: the product name, Apply, and the playback controls with the virtual clock.

use crate::state::scenario::ScenarioState;
use leptos::prelude::*;

#[component]
pub fn Controls() -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    let can_apply = move || scenario.parsed.with(|p| p.is_ok());
    view! {
        <header class="controls" role="toolbar" aria-label="Playground controls">
            <span class="brand">"kubeplay"</span>
            <button data-testid="apply" class="primary" disabled=move || !can_apply()
                title="Apply the scenario (Ctrl+Enter)">
                "Apply"
            </button>
            <span class="clock" aria-label="Virtual time">"t=00:00.000"</span>
        </header>
    }
}
