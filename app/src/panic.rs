//! Should the app panic, the page says so instead of freezing: the panic is logged (as
//! `console_error_panic_hook` does), the editor's text is saved as the draft when the page was
//! saving drafts, and an overlay offers to reload keeping it. After that reload the scenario is
//! not started by itself, so one that makes the app fail cannot do it again at once.
//!
//! The overlay is built with plain DOM calls: the reactive system may be what failed.

use crate::state::draft::{self, Draft};
use wasm_bindgen::{closure::Closure, JsCast};

/// sessionStorage key set by a panic and read once by the next load.
pub const RECOVERY_KEY: &str = "kubeplay.recovered";

/// Installs the panic hook.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        on_panic(&info.to_string());
    }));
}

/// Whether this load follows a panic (and forgets it: the next reload is an ordinary one).
pub fn take_recovery() -> bool {
    let Some(s) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) else {
        return false;
    };
    let set = s.get_item(RECOVERY_KEY).ok().flatten().is_some();
    let _ = s.remove_item(RECOVERY_KEY);
    set
}

fn on_panic(message: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    if draft::saving() {
        let text = document
            .query_selector("textarea[data-testid=\"yaml-editor\"]")
            .ok()
            .flatten()
            .and_then(|el| el.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
            .map(|a| a.value());
        if let Some(text) = text {
            let mut d = draft::load().unwrap_or_else(|| Draft::with_text(""));
            d.text = text;
            draft::save(&d);
        }
    }
    if let Ok(Some(s)) = window.session_storage() {
        let _ = s.set_item(RECOVERY_KEY, "1");
    }
    show_overlay(&document, message);
}

/// The text of a `ui.ftl` message in the page's language (read from `<html lang>`).
fn text(document: &web_sys::Document, id: &str) -> String {
    let lang = document
        .document_element()
        .and_then(|e| e.get_attribute("lang"))
        .unwrap_or_else(|| "en".into());
    kubeplay_core::explain::ui(id, &lang)
        .unwrap_or(id)
        .to_string()
}

/// Shows the overlay (once: a second panic while it is up changes nothing).
pub fn show_overlay(document: &web_sys::Document, message: &str) {
    if document.get_element_by_id("panic-overlay").is_some() {
        return;
    }
    let Some(body) = document.body() else {
        return;
    };
    let el = |tag: &str| document.create_element(tag).ok();
    let (Some(overlay), Some(panel), Some(title), Some(explain), Some(details), Some(button)) = (
        el("div"),
        el("div"),
        el("h2"),
        el("p"),
        el("pre"),
        el("button"),
    ) else {
        return;
    };
    overlay.set_id("panic-overlay");
    let _ = overlay.set_attribute("class", "panic-overlay");
    let _ = overlay.set_attribute("role", "alertdialog");
    let _ = overlay.set_attribute("aria-modal", "true");
    let _ = overlay.set_attribute("aria-labelledby", "panic-title");
    let _ = overlay.set_attribute("data-testid", "panic-overlay");
    let _ = panel.set_attribute("class", "panic-panel");
    title.set_id("panic-title");
    // Text, never markup: the message may quote what the user typed.
    title.set_text_content(Some(&text(document, "panic-title")));
    explain.set_text_content(Some(&text(document, "panic-body")));
    details.set_text_content(Some(message));
    button.set_text_content(Some(&text(document, "panic-reload")));
    let _ = button.set_attribute("data-testid", "panic-reload");
    let reload = Closure::<dyn FnMut()>::new(|| {
        if let Some(w) = web_sys::window() {
            let _ = w.location().reload();
        }
    });
    let _ = button.add_event_listener_with_callback("click", reload.as_ref().unchecked_ref());
    reload.forget();
    for child in [&title, &explain, &details, &button] {
        let _ = panel.append_child(child);
    }
    let _ = overlay.append_child(&panel);
    let _ = body.append_child(&overlay);
    if let Ok(b) = button.dyn_into::<web_sys::HtmlElement>() {
        let _ = b.focus();
    }
}
