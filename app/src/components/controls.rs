//! The top bar: the product name, Apply, and the virtual clock.

use crate::state::run::{self, RunState};
use crate::state::scenario::ScenarioState;
use kubeplay_core::trace::clock;
use leptos::prelude::*;

/// Runs the editor's scenario (when it parses) and stores the result.
pub fn apply(scenario: ScenarioState, runs: RunState) {
    if let Ok(s) = scenario.parsed.get_untracked() {
        runs.result.set(Some(run::run(s)));
    }
}

#[component]
pub fn Controls() -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    let runs = expect_context::<RunState>();
    let can_apply = move || scenario.parsed.with(|p| p.is_ok());
    let time = move || {
        runs.result
            .with(|r| format!("t={}", clock(r.as_ref().map(|r| r.end_ms).unwrap_or(0))))
    };
    view! {
        <header class="controls" role="toolbar" aria-label="Playground controls">
            <span class="brand">"kubeplay"</span>
            <button data-testid="apply" class="primary" disabled=move || !can_apply()
                title="Apply the scenario (Ctrl+Enter)" on:click=move |_| apply(scenario, runs)>
                "Apply"
            </button>
            <span class="clock" aria-label="Virtual time">{time}</span>
        </header>
    }
}
