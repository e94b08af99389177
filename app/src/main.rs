//! The web entry point: installs the panic overlay and mounts the app (all logic lives in the
//! library).

use wasm_bindgen::prelude::wasm_bindgen;

fn main() {
    kubeplay_app::panic::install();
    leptos::mount::mount_to_body(kubeplay_app::App);
}

/// A test hook: panics with `message`, as a bug would (the end-to-end tests call it through
/// `window.wasmBindings` to check the panic overlay).
#[wasm_bindgen]
pub fn kubeplay_test_panic(message: String) {
    panic!("{message}");
}
