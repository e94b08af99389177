//! The Events view: `kubectl get events` as it prints at the position shown, filterable.

use crate::state::derive::events_table;
use crate::state::playground::Playground;
use leptos::prelude::*;

/// Keeps the header and the rows containing `filter` (case-insensitive).
pub fn filter_table(table: &str, filter: &str) -> String {
    let f = filter.trim().to_lowercase();
    if f.is_empty() {
        return table.to_string();
    }
    let mut out = String::new();
    for (i, line) in table.lines().enumerate() {
        if i == 0 || line.to_lowercase().contains(&f) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[component]
pub fn EventsView() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let filter = RwSignal::new(String::new());
    let table = move || {
        let t = pg
            .with(|p| events_table(p, p.revision(), p.clock()))
            .unwrap_or_default();
        filter_table(&t, &filter.get())
    };
    let i18n = crate::state::i18n::i18n();
    view! {
        <div data-testid="events" class="view events" role="region" aria-label=move || i18n.t("view-events")>
            <label class="filter">"filter "
                <input type="search" aria-label=move || i18n.t("events-filter-label") placeholder=move || i18n.t("events-filter-placeholder")
                    prop:value=move || filter.get() on:input=move |ev| filter.set(event_target_value(&ev)) />
            </label>
            <p class="muted small">"$ kubectl get events"</p>
            <pre class="terminal">{table}</pre>
        </div>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn filtering_keeps_the_header() {
        let t = "LAST SEEN   TYPE\n1s  Normal Scheduled\n2s Warning Failed\n";
        assert_eq!(
            super::filter_table(t, "warn"),
            "LAST SEEN   TYPE\n2s Warning Failed\n"
        );
        assert_eq!(super::filter_table(t, " "), t);
    }
}
