//! The web entry point: installs the panic overlay and mounts the app (all logic lives in the
//! library).

use wasm_bindgen::prelude::wasm_bindgen;

fn main() {
    kubeplay_app::panic::install();
    // A page in a language the wasm does not carry fetches its files first, so it is drawn
    // in that language from the start (in English if they cannot be had).
    let lang = kubeplay_app::state::i18n::page_lang();
    if kubeplay_core::explain::has_language(lang) {
        leptos::mount::mount_to_body(kubeplay_app::App);
    } else {
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = kubeplay_app::state::i18n::load(lang).await {
                web_sys::console::warn_1(&format!("kubeplay: {e}").into());
            }
            leptos::mount::mount_to_body(kubeplay_app::App);
        });
    }
}

/// A test hook: panics with `message`, as a bug would (the end-to-end tests call it through
/// `window.wasmBindings` to check the panic overlay).
#[wasm_bindgen]
pub fn kubeplay_test_panic(message: String) {
    panic!("{message}");
}

/// A test hook: a run pauses once it grows the page's memory by `bytes` more (instead of near
/// 4 GiB), so the end-to-end tests see the memory pause without filling a tab's memory.
#[wasm_bindgen]
pub fn kubeplay_test_memory_headroom(bytes: f64) {
    use kubeplay_app::state::playground::{set_memory_ceiling, wasm_memory};
    set_memory_ceiling(wasm_memory() + bytes as u64);
}

/// The browser half of `scripts/bench.sh`: runs a size of `kubeplay_core::benchmark` (the same
/// scenario and readings as the native benchmark) in this page's wasm and returns its figures
/// as JSON. The wasm memory never shrinks, so its size afterwards is the run's peak.
#[wasm_bindgen]
pub fn kubeplay_benchmark(size: &str) -> Result<String, String> {
    use kubeplay_core::benchmark;
    let s = benchmark::size(size).ok_or_else(|| format!("no benchmark size {size:?}"))?;
    let performance = web_sys::window()
        .and_then(|w| w.performance())
        .ok_or("no performance clock")?;
    let o = benchmark::run(s, &mut || performance.now() / 1000.0);
    let memory = kubeplay_app::state::playground::wasm_memory();
    Ok(kubeplay_core::json!({
        "size": s.name,
        "nodes": s.nodes,
        "pods": s.pods(),
        "scheduled_s": o.scheduled_s,
        "running_s": o.running_s,
        "virtual_running_s": o.virtual_running_s,
        "records": o.records,
        "counted": o.counted,
        "peak_mib": memory as f64 / (1024.0 * 1024.0),
    })
    .to_string())
}

/// The text of a benchmark size's scenario (`scripts/bench.sh` types it into the editor to
/// time the page playing it).
#[wasm_bindgen]
pub fn kubeplay_benchmark_scenario(size: &str) -> Result<String, String> {
    kubeplay_core::benchmark::size(size)
        .map(kubeplay_core::benchmark::scenario)
        .ok_or_else(|| format!("no benchmark size {size:?}"))
}
