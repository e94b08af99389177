//! The Scheduler view: for the selected pod, the nodes-by-plugins table of its scheduling
//! decision (filter verdicts with reasons, normalized scores with weights, totals), the chosen
//! node highlighted, and the FailedScheduling message when no node fits.

use crate::state::derive::{decisions, scheduled_pods};
use crate::state::playground::Playground;
use kubeplay_core::trace::clock;
use leptos::prelude::*;

#[component]
pub fn SchedulerView() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let pods = Memo::new(move |_| {
        pg.with(|p| scheduled_pods(p.revealed()))
            .unwrap_or_default()
    });
    // The selected pod, or the first one scheduled.
    let pod = move || {
        pg.selected_pod
            .get()
            .or_else(|| pods.with(|p| p.first().cloned()))
    };
    let attempt = RwSignal::new(None::<usize>);
    let all = Memo::new(move |_| match pod() {
        Some(pod) => pg
            .with(|p| decisions(p.revealed(), &pod))
            .unwrap_or_default(),
        None => Vec::new(),
    });
    let decision = move || {
        all.with(|d| match attempt.get() {
            Some(i) if i < d.len() => d.get(i).cloned(),
            _ => d.last().cloned(),
        })
    };
    let i18n = crate::state::i18n::i18n();
    view! {
        <div data-testid="scheduler" class="view scheduler" role="region" aria-label=move || i18n.t("view-scheduler")>
            <div class="picker">
                <label>{move || i18n.t("scheduler-pod")}" "
                    <select data-testid="scheduler-pod" aria-label=move || i18n.t("scheduler-pod-label")
                        prop:value=move || pod().unwrap_or_default()
                        on:change=move |ev| { attempt.set(None); pg.select_pod(&event_target_value(&ev)) }>
                        {move || pods.get().into_iter().map(|p| view! { <option value=p.clone()>{p.clone()}</option> }).collect_view()}
                        {move || pod().filter(|p| !pods.with(|ps| ps.contains(p))).map(|p| view! {
                            <option value=p.clone()>{i18n.ta("scheduler-not-scheduled", &[("pod", &p)])}</option>
                        })}
                    </select>
                </label>
                {move || {
                    let n = all.with(|d| d.len());
                    (n > 1).then(|| view! {
                        <label>" "{i18n.t("scheduler-attempt")}" "
                            <select aria-label=i18n.t("scheduler-attempt-label")
                                on:change=move |ev| attempt.set(event_target_value(&ev).parse().ok())>
                                {(0..n).map(|i| view! {
                                    <option value=i.to_string() selected=i + 1 == n>{i18n.ta("scheduler-attempt-n", &[("attempt", &(i + 1).to_string()), ("total", &n.to_string())])}</option>
                                }).collect_view()}
                            </select>
                        </label>
                    })
                }}
            </div>
            {move || match decision() {
                None => view! {
                    <p class="hint">{if pods.with(|p| p.is_empty()) {
                        i18n.t("scheduler-none-yet")
                    } else {
                        i18n.t("scheduler-no-decision")
                    }}</p>
                }.into_any(),
                Some(d) => {
                    let selected = d.selected.clone();
                    let index = d.index;
                    view! {
                        <p class="decision">
                            <button class="linkish" on:click=move |_| pg.select_record(index)>{clock(d.t_ms)}</button>
                            " "{d.summary.clone()}
                        </p>
                        {d.failure.clone().map(|f| view! {
                            <p class="failure" data-testid="failed-scheduling" role="status">{f}</p>
                        })}
                        <div class="table-wrap">
                            <table class="table sched" data-testid="scheduler-table">
                                <thead>
                                    <tr>
                                        <th scope="col">{i18n.t("scheduler-node")}</th>
                                        {d.filter_plugins.iter().map(|p| view! { <th scope="col" class="filter">{p.to_string()}<span class="sub">{i18n.t("scheduler-filter")}</span></th> }).collect_view()}
                                        {d.score_plugins.iter().map(|(p, w)| view! { <th scope="col" class="score">{p.to_string()}<span class="sub">{i18n.ta("scheduler-score", &[("weight", &w.to_string())])}</span></th> }).collect_view()}
                                        <th scope="col">{i18n.t("scheduler-total")}</th>
                                    </tr>
                                </thead>
                                <tbody>
                                    {d.rows.iter().map(|row| {
                                        let chosen = selected.as_deref() == Some(row.node.as_str());
                                        let filters = d.filter_plugins.iter().map(|p| {
                                            match row.filters.iter().find(|f| f.plugin == *p) {
                                                Some(f) if f.ok => view! { <td class="pass" title=i18n.t("scheduler-passed")>"✓"</td> }.into_any(),
                                                Some(f) => view! { <td class="fail">{"✗ "}{f.reason.clone().unwrap_or_default()}</td> }.into_any(),
                                                None => view! { <td class="skip" title=i18n.t("scheduler-not-run")>"–"</td> }.into_any(),
                                            }
                                        }).collect_view();
                                        let scores = d.score_plugins.iter().map(|(p, _)| {
                                            match row.scores.iter().find(|s| s.plugin == *p) {
                                                Some(s) => view! { <td class="num">{s.score}</td> }.into_any(),
                                                None => view! { <td class="skip">"–"</td> }.into_any(),
                                            }
                                        }).collect_view();
                                        view! {
                                            <tr class:chosen=chosen data-node=row.node.clone() data-chosen=chosen.to_string()>
                                                <th scope="row">{row.node.clone()}{chosen.then(|| format!(" {}", i18n.t("scheduler-chosen")))}</th>
                                                {filters}
                                                {scores}
                                                <td class="num total">{row.total.map(|t| t.to_string()).unwrap_or_else(|| i18n.t("scheduler-infeasible").to_string())}</td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                        <p class="muted small">{i18n.t("scheduler-legend")}</p>
                    }.into_any()
                }
            }}
        </div>
    }
}
