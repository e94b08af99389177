//! The scenario being edited and the core's reading of it.

use kubeplay_core::scenario::{self, Scenario, SourceError};
use leptos::prelude::*;
use send_wrapper::SendWrapper;

/// The default scenario, shipped inside the wasm so the page shows it without a fetch.
pub const DEFAULT_SCENARIO: &str = include_str!("../../../public/scenarios/default.yaml");

/// The file name errors are reported against.
pub const EDITOR_FILE: &str = "scenario.yaml";

/// What the core found in the editor's text: the objects, or the first error.
pub fn parse(text: &str) -> Result<Scenario, SourceError> {
    scenario::parse(EDITOR_FILE, text)
}

/// One line per object for the page, e.g. `Deployment/nginx (line 4)`.
pub fn object_lines(s: &Scenario) -> impl Iterator<Item = String> + '_ {
    s.nodes
        .iter()
        .chain(s.objects.iter())
        .map(|o| format!("{} (line {})", o.label(), o.line))
}

/// How many objects the page lists by name: a big scenario's thousands of lines, kept in the
/// page while it runs, made every redraw's layout and paint walk them (5,000 nodes: 6,500 lines).
pub const LISTED_OBJECTS: usize = 100;

/// The lines the page lists ([`object_lines`], at most [`LISTED_OBJECTS`]) and how many more
/// objects there are.
pub fn listed_object_lines(s: &Scenario) -> (Vec<String>, usize) {
    let lines: Vec<String> = object_lines(s).take(LISTED_OBJECTS).collect();
    let more = s.nodes.len() + s.objects.len() - lines.len();
    (lines, more)
}

/// The error as the page shows it: `line 4, column 9: <message>`.
pub fn error_line(e: &SourceError) -> String {
    match (e.line, e.column) {
        (0, _) => e.message.clone(),
        (l, 0) => format!("line {l}: {}", e.message),
        (l, c) => format!("line {l}, column {c}: {}", e.message),
    }
}

/// A parsed scenario as a signal holds it. Its objects share their maps through reference
/// counts that are not thread-safe, and signals want values they could send between threads:
/// the page has one thread, so the scenario travels in a `SendWrapper` (which checks that).
#[derive(Clone, Debug)]
pub struct Parsed(SendWrapper<Scenario>);

impl Parsed {
    pub fn new(s: Scenario) -> Self {
        Parsed(SendWrapper::new(s))
    }

    pub fn into_inner(self) -> Scenario {
        self.0.take()
    }
}

impl PartialEq for Parsed {
    fn eq(&self, other: &Self) -> bool {
        *self.0 == *other.0
    }
}

impl std::ops::Deref for Parsed {
    type Target = Scenario;
    fn deref(&self) -> &Scenario {
        &self.0
    }
}

/// The editor text, and its parse recomputed only when the text changes.
#[derive(Clone, Copy)]
pub struct ScenarioState {
    pub text: RwSignal<String>,
    pub parsed: Memo<Result<Parsed, SourceError>>,
    /// The text last applied (what Reset puts back).
    pub applied: RwSignal<String>,
}

impl ScenarioState {
    pub fn new(initial: &str) -> Self {
        let text = RwSignal::new(initial.to_string());
        let parsed = Memo::new(move |_| text.with(|t| parse(t).map(Parsed::new)));
        ScenarioState {
            text,
            parsed,
            applied: RwSignal::new(initial.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_scenario_is_a_three_replica_nginx_deployment() {
        let s = parse(DEFAULT_SCENARIO).expect("default scenario parses");
        assert_eq!(
            object_lines(&s).collect::<Vec<_>>(),
            vec!["Deployment/nginx (line 4)"]
        );
        assert_eq!(s.objects[0].object["spec"]["replicas"], 3);
    }

    #[test]
    fn a_big_scenario_lists_its_first_objects_and_counts_the_rest() {
        let text: Vec<String> = (0..LISTED_OBJECTS + 5)
            .map(|i| format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\n"))
            .collect();
        let s = parse(&text.join("---\n")).expect("parses");
        let (lines, more) = listed_object_lines(&s);
        assert_eq!(lines.len(), LISTED_OBJECTS);
        assert_eq!(lines[0], "ConfigMap/c0 (line 1)");
        assert_eq!(more, 5);
        let (lines, more) = listed_object_lines(&parse(DEFAULT_SCENARIO).unwrap());
        assert_eq!((lines.len(), more), (1, 0));
    }

    #[test]
    fn errors_name_their_line_and_column() {
        let e = parse("kind: Pod\nmetadata:\n  name: [oops\n").unwrap_err();
        let shown = error_line(&e);
        assert!(
            shown.starts_with(&format!("line {}, column ", e.line)),
            "{shown}"
        );
        assert!(e.line >= 3);
    }
}
