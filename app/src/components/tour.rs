//! The guided tour of the default scenario: a panel with the stop's title and text, Back,
//! Next and Close. Each stop moves the playback to its record, selects it, and shows and
//! highlights its view (`data-tour-view` on the page's body; the stylesheet outlines it).

use crate::state::i18n::i18n;
use crate::state::playground::{Playground, Tab};
use crate::state::scenario::{ScenarioState, DEFAULT_SCENARIO};
use crate::state::tour::{find_stops, text, TourState, STOPS};
use leptos::prelude::*;

fn set_tour_view(view: Option<&str>) {
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let _ = match view {
            Some(v) => body.set_attribute("data-tour-view", v),
            None => body.remove_attribute("data-tour-view"),
        };
    }
}

/// Shows stop `n`: its record revealed and selected, its view shown and highlighted.
fn go(pg: Playground, tour: TourState, n: usize) {
    let Some(stop) = STOPS.get(n) else {
        return;
    };
    let found = pg
        .with_untracked(|p| find_stops(p.records()))
        .unwrap_or_default();
    if let Some(Some(i)) = found.get(n) {
        pg.seek(i + 1);
        pg.select_record(*i);
    }
    if let Some(tab) = Tab::ALL.into_iter().find(|t| t.id() == stop.view) {
        pg.tab.set(tab);
    }
    set_tour_view(Some(stop.view));
    tour.stop.set(Some(n));
}

/// Starts the tour: the default scenario, run to its end, then the first stop.
pub fn start(scenario: ScenarioState, pg: Playground, tour: TourState) {
    if scenario.applied.get_untracked() != DEFAULT_SCENARIO
        || pg
            .with_untracked(|p| p.scenario().objects.is_empty())
            .unwrap_or(true)
    {
        scenario.text.set(DEFAULT_SCENARIO.to_string());
        crate::components::controls::apply(scenario, pg);
    }
    pg.finish_now();
    go(pg, tour, 0);
}

#[component]
pub fn TourPanel() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let tour = expect_context::<TourState>();
    let i18n = i18n();
    let close = move || {
        tour.stop.set(None);
        set_tour_view(None);
    };
    move || {
        tour.stop.get().map(|n| {
            let stop = STOPS[n];
            let lang = i18n.get();
            let last = n + 1 == STOPS.len();
            view! {
                <aside class="tour" data-testid="tour" data-stop=stop.id role="dialog"
                    aria-labelledby="tour-title">
                    <p class="tour-progress muted small" data-testid="tour-progress">
                        {i18n.ta("tour-progress", &[("stop", &(n + 1).to_string()), ("total", &STOPS.len().to_string())])}
                    </p>
                    <h2 id="tour-title" data-testid="tour-title">{text(&format!("tour-{}-title", stop.id), lang)}</h2>
                    <p data-testid="tour-body">{text(&format!("tour-{}-body", stop.id), lang)}</p>
                    <div class="tour-buttons">
                        <button data-testid="tour-back" disabled=n == 0
                            on:click=move |_| go(pg, tour, n.saturating_sub(1))>{i18n.t("tour-back")}</button>
                        {(!last).then(|| view! {
                            <button data-testid="tour-next" class="primary"
                                on:click=move |_| go(pg, tour, n + 1)>{i18n.t("tour-next")}</button>
                        })}
                        <button data-testid="tour-close" on:click=move |_| close()>{i18n.t("tour-close")}</button>
                    </div>
                </aside>
            }
        })
    }
}
