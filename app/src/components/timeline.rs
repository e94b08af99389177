//! The timeline: a scrubber over the records generated so far, with marks where notable
//! things happened (kubectl commands, scheduling decisions, containers started, warnings).

use crate::state::playground::Playground;
use kubeplay_core::trace::{Component, Record};
use leptos::prelude::*;

/// The kind of mark a record gets on the timeline, if any.
pub fn mark(r: &Record) -> Option<&'static str> {
    match (r.component, r.action) {
        (Component::Kubectl, "kubectl.output") => Some("kubectl"),
        (_, "schedule") => Some("schedule"),
        (Component::ContainerRuntime, "runtime.start") => Some("start"),
        (Component::Kubeplay, _) => Some("fault"),
        (_, "event") if r.summary.starts_with("Warning") => Some("warning"),
        _ => None,
    }
}

#[component]
pub fn Timeline() -> impl IntoView {
    let i18n = crate::state::i18n::i18n();
    let pg = expect_context::<Playground>();
    let total = move || pg.with(|p| p.records().len()).unwrap_or(0);
    let position = move || pg.with(|p| p.position()).unwrap_or(0);
    // The marks, one per kind and 1/400 of the track: a memo keyed by (kind, bucket), so a
    // frame redraws only the marks that appeared or moved, not the whole track.
    let marks = Memo::new(move |_| {
        pg.with(|p| {
            let n = p.records().len().max(1) as f64;
            let mut marks: Vec<(&'static str, i64)> = Vec::new();
            // Buckets only grow along the trace: one per kind is the last one seen.
            let mut last: std::collections::BTreeMap<&'static str, i64> = Default::default();
            for (i, r) in p.records().iter().enumerate() {
                if let Some(m) = mark(r) {
                    let bucket = (i as f64 / n * 400.0) as i64;
                    if last.insert(m, bucket) != Some(bucket) {
                        marks.push((m, bucket));
                    }
                }
            }
            marks
        })
        .unwrap_or_default()
    });
    let mark_view = move |(m, bucket): (&'static str, i64)| {
        view! {
            <span class=format!("mark {m}") style=format!("left:{:.2}%", bucket as f64 / 4.0)
                title=move || i18n.t(match m {
                    "kubectl" => "timeline-kubectl",
                    "schedule" => "timeline-scheduled",
                    "start" => "timeline-started",
                    "warning" => "timeline-warning",
                    _ => "timeline-fault",
                })></span>
        }
    };
    view! {
        <footer data-testid="timeline" class="timeline" role="region" aria-label=move || i18n.t("timeline-label")>
            <div class="track">
                <div class="marks" aria-hidden="true">
                    <For each=move || marks.get() key=|m| *m children=mark_view />
                </div>
                <input type="range" min="0" max=move || total().to_string() step="1"
                    data-testid="scrubber" aria-label=move || i18n.t("timeline-scrubber")
                    prop:value=move || position().to_string()
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                            pg.seek(v);
                        }
                    } />
            </div>
            <span class="legend small" aria-hidden="true">
                <span class="mark-key kubectl">{move || i18n.t("timeline-kubectl")}</span>
                <span class="mark-key schedule">{move || i18n.t("timeline-scheduled")}</span>
                <span class="mark-key start">{move || i18n.t("timeline-started")}</span>
                <span class="mark-key warning">{move || i18n.t("timeline-warning")}</span>
            </span>
            <span class="count">{move || i18n.ta("timeline-count", &[("position", &position().to_string()), ("total", &total().to_string())])}</span>
        </footer>
    }
}
