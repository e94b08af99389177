//! The page layout: controls on top; the scenario editor and the consoles on one side; the
//! Flow, the step details and the tabbed views on the other; the timeline at the bottom.

use super::{
    console::Consoles, controls::Controls, editor::Editor, object_list::ObjectList,
    timeline::Timeline, views::Views,
};
use crate::state::playground::Playground;
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
    let scenario = ScenarioState::new(&text);
    let pg = Playground::new();
    provide_context(scenario);
    provide_context(pg);
    // The scenario plays by itself on load.
    if let Ok(s) = scenario.parsed.get_untracked() {
        pg.load(s);
    }
    view! {
        <div class="shell">
            <Controls />
            {link_error.map(|e| view! { <p class="link-error" role="alert" data-testid="link-error">{e}</p> })}
            <main class="workspace">
                <section class="editor-pane" aria-label="Scenario">
                    <Editor />
                    <ObjectList />
                    <Consoles />
                </section>
                <Views />
            </main>
            <Timeline />
        </div>
    }
}
