//! The guided tour of the default scenario: about ten stops along a pod's life, each naming
//! the trace record it shows and the view that shows it best. The text is in
//! `locales/<lang>/tour.ftl`, compiled in and read with Fluent as the core reads its files.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::FluentResource;
use kubeplay_core::explain::{language, DEFAULT_LANGUAGE, LANGUAGES};
use kubeplay_core::trace::{Component, Record};
use leptos::prelude::*;
use std::sync::RwLock;

/// One stop: its message id (`tour-<id>-title`, `tour-<id>-body`), the record it shows (the
/// first after the previous stop's with this `explain` key, from this component when one is
/// named, whose summary contains `contains`), and the view it highlights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    pub id: &'static str,
    pub explain: &'static str,
    pub component: Option<Component>,
    pub contains: &'static str,
    /// `flow`, or one of the tabs' ids (`etcd`, `scheduler`, `pod`, `cluster`).
    pub view: &'static str,
}

const fn stop(
    id: &'static str,
    explain: &'static str,
    component: Option<Component>,
    contains: &'static str,
    view: &'static str,
) -> Stop {
    Stop {
        id,
        explain,
        component,
        contains,
        view,
    }
}

/// The stops, in order.
pub const STOPS: [Stop; 10] = [
    stop("apply", "request", Some(Component::Kubectl), "POST", "flow"),
    stop("admission", "admission.mutating", None, "", "flow"),
    stop("etcd", "etcd.txn", None, "/registry/deployments/", "etcd"),
    stop(
        "deployment",
        "reconcile",
        None,
        "deployment-controller",
        "flow",
    ),
    stop(
        "replicaset",
        "reconcile",
        None,
        "replicaset-controller",
        "flow",
    ),
    stop("scheduler", "schedule", None, "", "scheduler"),
    stop("binding", "request", None, "/binding", "flow"),
    stop("sandbox", "runtime.sandbox", None, "", "pod"),
    stop("start", "runtime.start", None, "", "pod"),
    stop("ready", "kubelet.condition", None, "Ready=True", "cluster"),
];

/// The record index of each stop in a trace (`None` for a stop the trace does not have).
pub fn find_stops(records: &[Record]) -> Vec<Option<usize>> {
    let mut from = 0;
    STOPS
        .iter()
        .map(|s| {
            let found = records.iter().enumerate().skip(from).find(|(_, r)| {
                r.explain == s.explain
                    && s.component.is_none_or(|c| r.component == c)
                    && r.summary.contains(s.contains)
            });
            found.map(|(i, _)| {
                from = i + 1;
                i
            })
        })
        .collect()
}

/// The tour's text compiled in: English in the page (the others are fetched when chosen, see
/// [`add_language`]), every language natively (the tests).
const SOURCES: &[(&str, &str)] = &[
    (
        "en",
        kubeplay_core::include_ftl!("../../../locales/en/tour.ftl"),
    ),
    #[cfg(not(target_arch = "wasm32"))]
    (
        "zh-CN",
        kubeplay_core::include_ftl!("../../../locales/zh-CN/tour.ftl"),
    ),
    #[cfg(not(target_arch = "wasm32"))]
    (
        "zh-TW",
        kubeplay_core::include_ftl!("../../../locales/zh-TW/tour.ftl"),
    ),
];

type Bundle = FluentBundle<FluentResource>;

/// The tour's bundles ready so far, by language (kept for the life of the page).
static BUNDLES: RwLock<Vec<(&'static str, &'static Bundle)>> = RwLock::new(Vec::new());

fn build(lang: &str, source: &str) -> &'static Bundle {
    let mut b = FluentBundle::new_concurrent(vec![lang.parse().unwrap_or_default()]);
    b.set_use_isolating(false);
    let resource = FluentResource::try_new(source.to_string()).unwrap_or_else(|(r, _)| r);
    let _ = b.add_resource(resource);
    Box::leak(Box::new(b))
}

fn bundle(lang: &str) -> Option<&'static Bundle> {
    if let Some(b) = BUNDLES
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(l, _)| *l == lang)
    {
        return Some(b.1);
    }
    let &(l, source) = SOURCES.iter().find(|(l, _)| *l == lang)?;
    let b = build(l, source);
    BUNDLES
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .push((l, b));
    Some(b)
}

/// Adds a language's tour text (the page fetched `locales/<lang>/tour.ftl`).
pub fn add_language(lang: &str, source: &str) {
    let Some(lang) = LANGUAGES.iter().find(|l| **l == lang).copied() else {
        return;
    };
    if bundle(lang).is_none() {
        let b = build(lang, source);
        BUNDLES
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push((lang, b));
    }
}

fn format(lang: &str, id: &str) -> Option<String> {
    let b = bundle(lang)?;
    let pattern = b.get_message(id)?.value()?;
    let mut errors = Vec::new();
    Some(b.format_pattern(pattern, None, &mut errors).into_owned())
}

/// A tour message (`tour-apply-title`) in a language; English when the language lacks it.
pub fn text(id: &str, lang: &str) -> String {
    let lang = language(lang).unwrap_or(DEFAULT_LANGUAGE);
    format(lang, id)
        .or_else(|| format(DEFAULT_LANGUAGE, id))
        .unwrap_or_else(|| id.to_string())
}

/// Which stop the tour is at, `None` when it is closed.
#[derive(Clone, Copy)]
pub struct TourState {
    pub stop: RwSignal<Option<usize>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stop_has_a_title_and_a_body_in_every_language() {
        for lang in LANGUAGES {
            for s in STOPS {
                for part in ["title", "body"] {
                    let id = format!("tour-{}-{part}", s.id);
                    assert!(format(lang, &id).is_some(), "{lang}: {id} is missing");
                }
            }
        }
        assert!(text("tour-scheduler-title", "zh-CN").contains("调度器"));
        assert!(text("tour-scheduler-title", "zh-TW").contains("排程器"));
    }

    #[test]
    fn the_default_scenario_has_every_stop_in_order() {
        let scenario = crate::state::scenario::parse(crate::state::scenario::DEFAULT_SCENARIO)
            .expect("the default scenario parses");
        let mut p = crate::state::player::Player::new(scenario);
        p.run_to_end(&mut || false);
        let found = find_stops(p.records());
        let mut last = None;
        for (s, i) in STOPS.iter().zip(&found) {
            let i = i.unwrap_or_else(|| panic!("stop {} not found", s.id));
            assert!(last < Some(i), "stop {} is out of order", s.id);
            last = Some(i);
        }
    }
}
