//! What the core found in the scenario: its objects, or the error with line and column.

use crate::state::scenario::{listed_object_lines, ScenarioState};
use leptos::prelude::*;

#[component]
pub fn ObjectList() -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    let i18n = crate::state::i18n::i18n();
    view! {
        <div data-testid="parse-result" class="parse-result" aria-live="polite">
            {move || scenario.parsed.with(|parsed| match parsed {
                Ok(s) => {
                    let (lines, more) = listed_object_lines(s);
                    view! {
                        <p class="ok">{i18n.ta("editor-objects-found", &[("count", &(s.nodes.len() + s.objects.len()).to_string())])}</p>
                        <ul>
                            {lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                            {(more > 0).then(|| view! {
                                <li class="more">{i18n.ta("editor-objects-more", &[("count", &more.to_string())])}</li>
                            })}
                        </ul>
                    }.into_any()
                }
                Err(e) => view! {
                    <p class="error" role="alert">{match (e.line, e.column) {
                        (0, _) => e.message.clone(),
                        (l, 0) => i18n.ta("editor-error-line", &[("line", &l.to_string()), ("message", &e.message)]),
                        (l, c) => i18n.ta("editor-error-line-column", &[("line", &l.to_string()), ("column", &c.to_string()), ("message", &e.message)]),
                    }}</p>
                }.into_any(),
            })}
        </div>
    }
}
