//! The web entry point: only mounts the app (all logic lives in the library).

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(kubeplay_app::App);
}
