//! The page layout: controls on top, the scenario editor on one side, the views on the other.

use super::{controls::Controls, editor::Editor, object_list::ObjectList, views::Views};
use crate::state::run::RunState;
use crate::state::scenario::{ScenarioState, DEFAULT_SCENARIO};
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    provide_context(ScenarioState::new(DEFAULT_SCENARIO));
    provide_context(RunState::new());
    view! {
        <div class="shell">
            <Controls />
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
