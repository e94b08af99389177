//! Step details: what the selected record (or the current one) did, why, and where to read
//! more: its component and time, the object, etcd key and revision, the structured detail, the
//! explanation and the Kubernetes documentation page.

use crate::state::playground::Playground;
use kubeplay_core::trace::clock;
use leptos::prelude::*;

#[component]
pub fn StepDetails() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let i18n = crate::state::i18n::i18n();
    let details = move || {
        let selected = pg.selected_record.get();
        pg.with(|p| {
            let i = selected
                .filter(|&i| i < p.position())
                .or(p.position().checked_sub(1))?;
            let r = p.records().get(i)?.clone();
            Some((i, r))
        })
        .flatten()
    };
    view! {
        <section class="details" data-testid="step-details" aria-label=move || i18n.t("details-label") aria-live="polite">
            {move || match details() {
                None => view! { <p class="hint">{i18n.t("details-hint")}</p> }.into_any(),
                Some((i, r)) => {
                    let e = i18n.explanation(r.explain);
                    let t = |id: &'static str| i18n.t(id);
                    let mut facts: Vec<(&'static str, String)> = vec![
                        (t("details-step"), i18n.ta("details-step-value", &[("step", &(i + 1).to_string())])),
                        (t("details-time"), clock(r.t_ms)),
                        (t("details-component"), r.component.as_str().to_string()),
                        (t("details-action"), r.action.to_string()),
                    ];
                    for (k, v) in [(t("details-peer"), &r.peer), (t("details-node"), &r.node), (t("details-object"), &r.object), (t("details-etcd-key"), &r.key)] {
                        if let Some(v) = v {
                            facts.push((k, v.clone()));
                        }
                    }
                    if let Some(rev) = r.revision {
                        facts.push((t("details-revision"), rev.to_string()));
                    }
                    let detail = r.detail.as_ref().map(|d| {
                        serde_json::to_string_pretty(&kubeplay_core::api::value::Value::Object(d.clone())).unwrap_or_default()
                    });
                    let key = r.key.clone();
                    view! {
                        <p class="summary" data-testid="step-summary">{r.summary.clone()}</p>
                        <div class="details-grid">
                        <div class="facts-col">
                        <dl class="facts">
                            {facts.into_iter().map(|(k, v)| view! { <div class="fact"><dt>{k}</dt><dd>{v}</dd></div> }).collect_view()}
                        </dl>
                        {key.map(|k| view! {
                            <button class="linkish" on:click=move |_| {
                                pg.selected_key.set(Some(k.clone()));
                                pg.tab.set(crate::state::playground::Tab::Etcd);
                            }>{i18n.t("details-show-key")}</button>
                        })}
                        {detail.map(|d| view! { <details><summary>{i18n.t("details-detail")}</summary><pre>{d}</pre></details> })}
                        </div>
                        {e.map(|e| view! {
                            <div class="explain" data-testid="explanation">
                                <h3>{e.title}</h3>
                                <p>{e.body}</p>
                                <a href=e.docs_url target="_blank" rel="noopener noreferrer">{i18n.t("details-docs")}</a>
                            </div>
                        })}
                        </div>
                    }.into_any()
                }
            }}
        </section>
    }
}
