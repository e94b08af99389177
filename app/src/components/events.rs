//! The Events view: `kubectl get events` as it prints at the position shown, filterable.

use crate::state::derive::events_table;
use crate::state::playground::Playground;
use leptos::prelude::*;

#[component]
pub fn EventsView() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let filter = RwSignal::new(String::new());
    let table = Memo::new(move |_| {
        let f = filter.get();
        pg.with(|p| events_table(p, p.revision(), p.clock(), &f))
            .unwrap_or_default()
    });
    let i18n = crate::state::i18n::i18n();
    let cut = move || {
        let t = table.get();
        (t.matching > t.shown).then(|| {
            i18n.ta(
                "events-newest",
                &[
                    ("shown", &t.shown.to_string()),
                    ("total", &t.matching.to_string()),
                ],
            )
        })
    };
    view! {
        <div data-testid="events" class="view events" role="region" aria-label=move || i18n.t("view-events")>
            <label class="filter">"filter "
                <input type="search" aria-label=move || i18n.t("events-filter-label") placeholder=move || i18n.t("events-filter-placeholder")
                    prop:value=move || filter.get() on:input=move |ev| filter.set(event_target_value(&ev)) />
            </label>
            <p class="muted small">"$ kubectl get events"</p>
            {move || cut().map(|text| view! { <p class="muted small" data-testid="events-cut">{text}</p> })}
            <pre class="terminal">{move || table.get().text}</pre>
        </div>
    }
}
