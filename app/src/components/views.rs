//! The views area: the Flow of trace records, kubectl's output, and the timeline.

use crate::state::run::RunState;
use leptos::prelude::*;

#[component]
pub fn Views() -> impl IntoView {
    let runs = expect_context::<RunState>();
    let flow = move || {
        runs.result.with(|r| match r {
            None => view! {
                <p class="hint">"Press Apply to run the scenario and watch each request travel through the cluster."</p>
            }
            .into_any(),
            Some(r) => view! {
                <ol class="records">
                    {r.lines.iter().map(|l| {
                        let arrow = l.peer.as_ref().map(|p| format!(" → {p}")).unwrap_or_default();
                        view! {
                            <li class="record" data-component=l.component>
                                <span class="t">{l.time.clone()}</span>
                                <span class="who">{l.component}</span>
                                <span class="what">{l.action}</span>
                                <span class="summary">{l.summary.clone()}{arrow}</span>
                            </li>
                        }
                    }).collect_view()}
                </ol>
            }
            .into_any(),
        })
    };
    let kubectl = move || {
        runs.result
            .with(|r| r.as_ref().map(|r| r.kubectl.join("\n")).unwrap_or_default())
    };
    let timeline = move || {
        runs.result.with(|r| match r {
            Some(r) => format!("{} records", r.lines.len()),
            None => String::new(),
        })
    };
    view! {
        <section class="views" aria-label="Views">
            <div data-testid="flow" class="view flow" role="region" aria-label="Flow">
                <h2 class="pane-title">"Flow"</h2>
                {flow}
            </div>
            <pre data-testid="kubectl" class="kubectl-output" aria-label="kubectl output">{kubectl}</pre>
            <div data-testid="timeline" class="timeline" role="region" aria-label="Timeline">{timeline}</div>
        </section>
    }
}
