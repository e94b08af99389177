//! The views area: the Flow with the step details under it, and tabs for the Cluster, etcd,
//! Scheduler, Pod and Events views.

use super::{
    cluster::ClusterView, details::StepDetails, etcd::EtcdView, events::EventsView, flow::Flow,
    pod::PodView, scheduler::SchedulerView,
};
use crate::state::playground::{Playground, Tab};
use leptos::prelude::*;

#[component]
pub fn Views() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let i18n = crate::state::i18n::i18n();
    let on_tab_key = move |ev: leptos::ev::KeyboardEvent| {
        let tabs = Tab::ALL;
        let cur = tabs
            .iter()
            .position(|t| *t == pg.tab.get_untracked())
            .unwrap_or(0);
        let next = match ev.key().as_str() {
            "ArrowRight" => (cur + 1) % tabs.len(),
            "ArrowLeft" => (cur + tabs.len() - 1) % tabs.len(),
            _ => return,
        };
        ev.prevent_default();
        pg.tab.set(tabs[next]);
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&format!("tab-{}", tabs[next].id())))
        {
            use wasm_bindgen::JsCast;
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
    };
    view! {
        <section class="views" aria-label=move || i18n.t("views-label")>
            <div class="flow-area">
                <Flow />
                <StepDetails />
            </div>
            <div class="tabbed">
                <div class="tabs" role="tablist" aria-label=move || i18n.t("views-label") on:keydown=on_tab_key>
                    {Tab::ALL.into_iter().map(|t| view! {
                        <button role="tab" id=format!("tab-{}", t.id()) data-testid=format!("tab-{}", t.id())
                            aria-selected=move || (pg.tab.get() == t).to_string()
                            tabindex=move || if pg.tab.get() == t { "0" } else { "-1" }
                            aria-controls="view-panel"
                            class:active=move || pg.tab.get() == t
                            on:click=move |_| pg.tab.set(t)>{move || i18n.t(t.message_id())}</button>
                    }).collect_view()}
                </div>
                <div id="view-panel" class="panel" role="tabpanel">
                    {move || match pg.tab.get() {
                        Tab::Cluster => view! { <ClusterView /> }.into_any(),
                        Tab::Etcd => view! { <EtcdView /> }.into_any(),
                        Tab::Scheduler => view! { <SchedulerView /> }.into_any(),
                        Tab::Pod => view! { <PodView /> }.into_any(),
                        Tab::Events => view! { <EventsView /> }.into_any(),
                    }}
                </div>
            </div>
        </section>
    }
}
