//! The page layout: controls on top, the scenario editor on one side, the views on the other.

use super::{controls::Controls, editor::Editor, object_list::ObjectList, views::Views};
use crate::state::run::RunState;
use crate::state::scenario::{from_fragment, ScenarioState, DEFAULT_SCENARIO};
use leptos::prelude::*;

/// The scenario to start with: the share link's, or the default; and what was wrong with a
/// link that could not be read (the default is shown then).
fn initial_scenario() -> (String, Option<String>) {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    match from_fragment(&hash) {
        Ok(Some(text)) => (text, None),
        Ok(None) => (DEFAULT_SCENARIO.to_string(), None),
        Err(e) => (
            DEFAULT_SCENARIO.to_string(),
            Some(format!("This link could not be opened: {e}.")),
        ),
    }
}

#[component]
pub fn App() -> impl IntoView {
    let (text, link_error) = initial_scenario();
    provide_context(ScenarioState::new(&text));
    provide_context(RunState::new());
    view! {
        <div class="shell">
            <Controls />
            {link_error.map(|e| view! { <p class="link-error" role="alert" data-testid="link-error">{e}</p> })}
            <main class="workspace">
                <section class="editor-pane" aria-label="Scenario">
                    <Editor />
                    <ObjectList />
                </section>
                <Views />
            </main>
        </div>
    }
}
