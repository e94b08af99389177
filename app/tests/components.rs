//! Component tests in a real browser (wasm-bindgen-test in headless Chromium): mount the
//! components and assert on the DOM a person would see.

#![cfg(target_arch = "wasm32")]

use kubeplay_app::components::{
    controls::Controls, editor::Editor, object_list::ObjectList, views::Views,
};
use kubeplay_app::state::run::RunState;
use kubeplay_app::state::scenario::{ScenarioState, DEFAULT_SCENARIO};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn container() -> web_sys::HtmlElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

/// Mounts the editor and the object list over one shared state, as the app does.
fn mount(text: &str) -> (web_sys::HtmlElement, ScenarioState) {
    let root = container();
    let state = ScenarioState::new(text);
    let handle = leptos::mount::mount_to(root.clone(), move || {
        provide_context(state);
        view! { <Editor /> <ObjectList /> }
    });
    handle.forget();
    (root, state)
}

fn find(root: &web_sys::HtmlElement, testid: &str) -> web_sys::Element {
    root.query_selector(&format!("[data-testid={testid}]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no {testid}"))
}

/// Lets Leptos run its effects (they are scheduled on the microtask queue).
async fn tick() {
    for _ in 0..3 {
        wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(
            &wasm_bindgen::JsValue::NULL,
        ))
        .await
        .unwrap();
    }
}

#[wasm_bindgen_test]
async fn editor_holds_the_default_scenario_and_the_core_lists_its_objects() {
    let (root, _) = mount(DEFAULT_SCENARIO);
    tick().await;
    let editor: web_sys::HtmlTextAreaElement = find(&root, "yaml-editor").unchecked_into();
    assert!(editor.value().contains("kind: Deployment"));
    let result = find(&root, "parse-result").text_content().unwrap();
    assert!(result.contains("Deployment/nginx (line 4)"), "{result}");
    assert!(result.contains("1 object(s) found"), "{result}");
}

#[wasm_bindgen_test]
async fn typing_a_yaml_error_shows_its_line() {
    let (root, state) = mount(DEFAULT_SCENARIO);
    state
        .text
        .set("apiVersion: v1\nkind: Pod\nmetadata:\n  name: [oops\n".to_string());
    tick().await;
    let result = find(&root, "parse-result");
    let text = result.text_content().unwrap();
    assert!(text.starts_with("line "), "{text}");
    assert!(
        result.query_selector("[role=alert]").unwrap().is_some(),
        "the error is announced"
    );
}

#[wasm_bindgen_test]
async fn apply_runs_the_cluster_in_the_page_and_the_flow_shows_the_request() {
    let root = container();
    let state = ScenarioState::new(DEFAULT_SCENARIO);
    let runs = RunState::new();
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(state);
        provide_context(runs);
        view! { <Controls /> <Views /> }
    })
    .forget();
    let flow = find(&root, "flow");
    assert!(
        flow.query_selector("li.record").unwrap().is_none(),
        "nothing before Apply"
    );
    let apply: web_sys::HtmlElement = find(&root, "apply").unchecked_into();
    apply.click();
    tick().await;
    let text = flow.text_content().unwrap();
    assert!(
        text.contains("POST /apis/apps/v1/namespaces/default/deployments"),
        "{text}"
    );
    assert!(
        text.contains("PUT /registry/deployments/default/nginx"),
        "{text}"
    );
    let kubectl = find(&root, "kubectl").text_content().unwrap();
    assert_eq!(kubectl, "deployment.apps/nginx created");
}
