//! The views area. The Flow view is where the trace will be drawn; the timeline sits below.

use leptos::prelude::*;

#[component]
pub fn Views() -> impl IntoView {
    view! {
        <section class="views" aria-label="Views">
            <div data-testid="flow" class="view flow" role="region" aria-label="Flow">
                <h2 class="pane-title">"Flow"</h2>
                <p class="hint">"Press Apply to run the scenario and watch each request travel through the cluster."</p>
            </div>
            <div data-testid="timeline" class="timeline" role="region" aria-label="Timeline"></div>
        </section>
    }
}
