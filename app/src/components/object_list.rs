//! What the core found in the scenario: its objects, or the error with line and column.

use crate::state::scenario::{error_line, object_lines, ScenarioState};
use leptos::prelude::*;

#[component]
pub fn ObjectList() -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    view! {
        <div data-testid="parse-result" class="parse-result" aria-live="polite">
            {move || scenario.parsed.with(|parsed| match parsed {
                Ok(s) => view! {
                    <p class="ok">{format!("{} object(s) found", s.nodes.len() + s.objects.len())}</p>
                    <ul>
                        {object_lines(s).into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                    </ul>
                }.into_any(),
                Err(e) => view! {
                    <p class="error" role="alert">{error_line(e)}</p>
                }.into_any(),
            })}
        </div>
    }
}
