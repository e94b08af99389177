//! Export: download the scenario YAML, download the trace as JSON Lines (as `kubeplay run
//! --trace json` prints it), and the manifests with a note on running them on a real cluster.

use crate::state::export::{manifests, trace_json_lines, SCENARIO_FILE, TRACE_FILE};
use crate::state::i18n::i18n;
use crate::state::scenario::ScenarioState;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Offers `text` as a file download (a Blob URL clicked through a temporary link).
pub fn download(file_name: &str, mime: &str, text: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| format!("{e:?}"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| format!("{e:?}"))?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| format!("{e:?}"))?
        .dyn_into()
        .map_err(|_| "not an anchor")?;
    a.set_href(&url);
    a.set_download(file_name);
    a.click();
    // Revoked once the download has surely started.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(30),
    );
    Ok(())
}

#[component]
pub fn ExportMenu() -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    let i18n = i18n();
    let show_manifests = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let report = move |r: Result<(), String>| error.set(r.err());
    let on_yaml = move |_| {
        report(download(
            SCENARIO_FILE,
            "text/yaml",
            &scenario.text.get_untracked(),
        ))
    };
    let on_trace = move |_| {
        // The applied scenario: the one whose run the page shows.
        let applied = scenario.applied.get_untracked();
        match crate::state::scenario::parse(&applied) {
            Ok(s) => report(download(
                TRACE_FILE,
                "application/jsonl",
                &trace_json_lines(&s),
            )),
            Err(e) => report(Err(crate::state::scenario::error_line(&e))),
        }
    };
    let note = move || {
        format!(
            "{}\n  kind create cluster        ({}: minikube start)\n  \
             kubectl apply -f manifests.yaml\n  kubectl get events --watch\n{}",
            i18n.t("export-note-compare"),
            i18n.t("export-note-or"),
            i18n.t("export-note-nodes")
        )
    };
    let manifests_text = move || {
        scenario.parsed.with(|p| match p {
            Ok(s) => manifests(s, &note()),
            Err(e) => crate::state::scenario::error_line(e),
        })
    };
    view! {
        <details class="export" data-testid="export">
            <summary>{move || i18n.t("controls-export")}</summary>
            <div class="popover" role="menu">
                <button role="menuitem" data-testid="export-yaml" on:click=on_yaml>{move || i18n.t("export-yaml")}</button>
                <button role="menuitem" data-testid="export-trace" title=move || i18n.t("export-trace-title")
                    on:click=on_trace>{move || i18n.t("export-trace")}</button>
                <button role="menuitem" data-testid="export-manifests"
                    aria-expanded=move || show_manifests.get().to_string()
                    on:click=move |_| show_manifests.update(|s| *s = !*s)>{move || i18n.t("export-manifests")}</button>
                <Show when=move || show_manifests.get()>
                    <textarea data-testid="manifests" readonly rows="12" aria-label=move || i18n.t("export-manifests")
                        prop:value=manifests_text></textarea>
                    <button data-testid="manifests-copy" on:click=move |_| {
                        if let Some(w) = web_sys::window() {
                            let _ = w.navigator().clipboard().write_text(&manifests_text());
                        }
                    }>{move || i18n.t("export-copy")}</button>
                </Show>
                {move || error.get().map(|e| view! { <p class="warning" role="alert">{e}</p> })}
            </div>
        </details>
    }
}
