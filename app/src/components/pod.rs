//! The Pod view: the kubelet's steps for the selected pod as a timeline (admission, volumes,
//! sandbox, CNI, pulls, init containers, containers, probes), with its STATUS as it changed.

use crate::state::derive::{pod_steps, scheduled_pods, status_class, status_history};
use crate::state::playground::Playground;
use kubeplay_core::trace::clock;
use leptos::prelude::*;

#[component]
pub fn PodView() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let pod = move || {
        pg.selected_pod.get().or_else(|| {
            pg.with(|p| scheduled_pods(p.revealed()).into_iter().next())
                .flatten()
        })
    };
    let steps = Memo::new(move |_| match pod() {
        Some(pod) => pg
            .with(|p| {
                pod_steps(p.revealed(), &pod)
                    .into_iter()
                    .map(|i| {
                        let r = &p.records()[i];
                        (i, r.t_ms, r.component.as_str(), r.action, r.summary.clone())
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default(),
        None => Vec::new(),
    });
    let statuses = Memo::new(move |_| match pod() {
        Some(pod) => pg
            .with(|p| status_history(p, &pod, p.revision()))
            .unwrap_or_default(),
        None => Vec::new(),
    });
    let i18n = crate::state::i18n::i18n();
    view! {
        <div data-testid="pod" class="view pod-view" role="region" aria-label=move || i18n.t("view-pod")>
            {move || match pod() {
                None => view! { <p class="hint">{i18n.t("podview-hint")}</p> }.into_any(),
                Some(p) => view! {
                    <h3 class="pod-title">{p}</h3>
                    <p class="status-line" aria-label=i18n.t("podview-status-history")>
                        {move || statuses.get().into_iter().map(|(t, rev, s)| {
                            let class = format!("pod-status-chip {}", status_class(&s));
                            view! {
                                <span class=class title=i18n.ta("podview-revision", &[("revision", &rev.to_string())])>
                                    {s}<span class="sub">{t.map(clock).unwrap_or_default()}</span>
                                </span>
                            }
                        }).collect_view()}
                    </p>
                    <ol class="timeline-list" data-testid="pod-steps">
                        {move || steps.get().into_iter().map(|(i, t, who, action, summary)| {
                            let selected = move || pg.selected_record.get() == Some(i);
                            view! {
                                <li class:selected=selected data-action=action>
                                    <button class="step-row" on:click=move |_| pg.select_record(i)>
                                        <span class="t">{clock(t)}</span>
                                        <span class=format!("who c-{who}")>{who}</span>
                                        <span class="what">{action}</span>
                                        <span class="summary">{summary}</span>
                                    </button>
                                </li>
                            }
                        }).collect_view()}
                    </ol>
                }.into_any(),
            }}
        </div>
    }
}
