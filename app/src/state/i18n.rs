//! The page's language: one of the core's [`LANGUAGES`], chosen from the link's `lang=`, then
//! the one remembered in localStorage, then `navigator.languages`; every visible text comes
//! from the core's `ui.ftl` messages in it.

use kubeplay_core::explain::{self, Explanation, LANGUAGES};
use leptos::prelude::*;

/// Where the chosen language is remembered.
pub const STORAGE_KEY: &str = "kubeplay.lang";

/// The `lang=` of a page fragment, when it names one of [`LANGUAGES`].
pub fn fragment_lang(hash: &str) -> Option<&'static str> {
    hash.trim_start_matches('#')
        .split('&')
        .find_map(|p| p.strip_prefix("lang="))
        .and_then(|v| LANGUAGES.iter().find(|l| **l == v).copied())
}

/// A fragment (without `#`) with its `lang=` set to `lang`, the other parameters kept in order.
pub fn with_lang(hash: &str, lang: &str) -> String {
    let mut parts: Vec<String> = hash
        .trim_start_matches('#')
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("lang="))
        .map(String::from)
        .collect();
    parts.push(format!("lang={lang}"));
    parts.join("&")
}

/// The language to start with: the link's, the remembered one, or the browser's preference.
pub fn initial_lang(hash: &str, stored: Option<&str>, preferred: &[String]) -> &'static str {
    fragment_lang(hash)
        .or_else(|| stored.and_then(|s| LANGUAGES.iter().find(|l| **l == s).copied()))
        .unwrap_or_else(|| explain::negotiate(preferred))
}

/// Where the built site keeps the message files of the languages the wasm does not carry
/// (Trunk copies `locales/` there).
pub const LOCALES_DIR: &str = "locales/";

/// Fetches a language's message files (`explain.ftl`, `ui.ftl`, `tour.ftl`) and adds them.
pub async fn load(lang: &'static str) -> Result<(), String> {
    if explain::has_language(lang) {
        return Ok(());
    }
    let get = |file: &'static str| {
        crate::components::controls::fetch_text_owned(format!("{LOCALES_DIR}{lang}/{file}.ftl"))
    };
    let (explain_ftl, ui, tour) = (get("explain").await?, get("ui").await?, get("tour").await?);
    explain::add_language(lang, &explain_ftl, &ui);
    crate::state::tour::add_language(lang, &tour);
    Ok(())
}

/// The language the page starts in (see [`initial_lang`]) and whether its files must be
/// fetched before the page is drawn.
pub fn page_lang() -> &'static str {
    let window = web_sys::window();
    let hash = window
        .as_ref()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let stored = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    let preferred: Vec<String> = window
        .map(|w| {
            w.navigator()
                .languages()
                .iter()
                .filter_map(|v| v.as_string())
                .collect()
        })
        .unwrap_or_default();
    initial_lang(&hash, stored.as_deref(), &preferred)
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The language signal, shared by every component through context.
#[derive(Clone, Copy)]
pub struct I18n {
    pub lang: RwSignal<&'static str>,
}

impl I18n {
    /// Reads the page's address, localStorage and `navigator.languages`; a language whose
    /// files are not here (the page fetches them before drawing, see `main`) starts as English.
    pub fn from_page() -> Self {
        let lang = page_lang();
        let lang = if explain::has_language(lang) {
            lang
        } else {
            explain::DEFAULT_LANGUAGE
        };
        I18n {
            lang: RwSignal::new(lang),
        }
    }

    /// Keeps `<html lang>`, localStorage and the fragment's `lang=` in step with the signal.
    pub fn sync_page(self) {
        Effect::new(move |_| {
            let lang = self.lang.get();
            let Some(window) = web_sys::window() else {
                return;
            };
            if let Some(el) = window.document().and_then(|d| d.document_element()) {
                let _ = el.set_attribute("lang", lang);
            }
            if let Some(s) = storage() {
                let _ = s.set_item(STORAGE_KEY, lang);
            }
            let hash = window.location().hash().unwrap_or_default();
            if fragment_lang(&hash) != Some(lang) {
                let fragment = format!("#{}", with_lang(&hash, lang));
                if let Ok(h) = window.history() {
                    let _ =
                        h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&fragment));
                }
            }
        });
    }

    /// Switches to `lang`, once its message files are here (fetched the first time; a failed
    /// fetch leaves the language as it was).
    pub fn switch(self, lang: &'static str) {
        if explain::has_language(lang) {
            self.lang.set(lang);
            return;
        }
        wasm_bindgen_futures::spawn_local(async move {
            match load(lang).await {
                Ok(()) => self.lang.set(lang),
                Err(e) => web_sys::console::warn_1(&format!("kubeplay: {e}").into()),
            }
        });
    }

    /// The language, tracked.
    pub fn get(self) -> &'static str {
        self.lang.get()
    }

    /// A `ui.ftl` message in the page's language (tracked); its id when no file has it.
    pub fn t(self, id: &'static str) -> &'static str {
        explain::ui(id, self.lang.get()).unwrap_or(id)
    }

    /// A `ui.ftl` message with its variables filled in (tracked).
    pub fn ta(self, id: &str, args: &[(&str, &str)]) -> String {
        explain::ui_args(id, self.lang.get(), args).unwrap_or_else(|| id.to_string())
    }

    /// A record kind's explanation in the page's language (tracked).
    pub fn explanation(self, key: &str) -> Option<Explanation> {
        explain::explanation(key, self.lang.get())
    }
}

/// The page's [`I18n`]; a default English one outside the App (tests mounting one component).
pub fn i18n() -> I18n {
    use_context::<I18n>().unwrap_or_else(|| {
        let i = I18n {
            lang: RwSignal::new(explain::DEFAULT_LANGUAGE),
        };
        provide_context(i);
        i
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_beats_the_stored_language_which_beats_the_browser() {
        let zh = vec!["zh-TW".to_string(), "en".to_string()];
        assert_eq!(
            initial_lang("#scenario=x&lang=zh-CN", Some("en"), &zh),
            "zh-CN"
        );
        assert_eq!(initial_lang("#scenario=x", Some("en"), &zh), "en");
        assert_eq!(initial_lang("", None, &zh), "zh-TW");
        assert_eq!(initial_lang("#lang=fr", Some("de"), &[]), "en");
    }

    #[test]
    fn lang_is_replaced_in_the_fragment_and_the_rest_kept() {
        assert_eq!(
            with_lang("#scenario=abc&lang=en&t=5", "zh-TW"),
            "scenario=abc&t=5&lang=zh-TW"
        );
        assert_eq!(with_lang("", "zh-CN"), "lang=zh-CN");
    }
}
