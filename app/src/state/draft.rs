//! The user's draft: the editor's text and the page's settings, saved in localStorage as they
//! change and read back, validated, on load. A share link or an embed never replaces it
//! without the user saying so.

use crate::state::playground::{Tab, SPEEDS};
use kubeplay_core::api::value::{json, Value};
use kubeplay_core::scenario::limits::MAX_SCENARIO_BYTES;
use std::sync::atomic::{AtomicBool, Ordering};

/// Where the draft is kept.
pub const STORAGE_KEY: &str = "kubeplay.draft";
/// The draft format written; a draft of another version is left alone, not read.
pub const VERSION: u64 = 1;

#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub text: String,
    pub speed: f64,
    pub tab: Tab,
    /// The editor pane's share of the width, in percent.
    pub split: u32,
}

impl Draft {
    /// A draft of `text` with the default settings.
    pub fn with_text(text: &str) -> Draft {
        Draft {
            text: text.to_string(),
            speed: 1.0,
            tab: Tab::Cluster,
            split: SPLIT_DEFAULT,
        }
    }

    pub fn to_json(&self) -> String {
        json!({
            "version": VERSION,
            "text": self.text,
            "speed": self.speed,
            "view": self.tab.id(),
            "split": self.split,
        })
        .to_string()
    }

    /// Reads a stored draft: `Err` says why it cannot be used (it is then left in storage
    /// untouched). A setting out of range falls back to its default; the text must be there.
    pub fn from_json(stored: &str) -> Result<Draft, String> {
        let v: Value = serde_json::from_str(stored)
            .map_err(|e| format!("the saved draft is not JSON: {e}"))?;
        match v.get("version").and_then(Value::as_u64) {
            Some(VERSION) => {}
            Some(n) => {
                return Err(format!(
                    "the saved draft has version {n}; this page reads version {VERSION}"
                ))
            }
            None => return Err("the saved draft has no version".into()),
        }
        let text = v
            .get("text")
            .and_then(Value::as_str)
            .ok_or("the saved draft has no text")?;
        if text.len() > MAX_SCENARIO_BYTES {
            return Err(format!(
                "the saved draft is {} bytes, over the {MAX_SCENARIO_BYTES}-byte scenario limit",
                text.len()
            ));
        }
        let speed = v
            .get("speed")
            .and_then(Value::as_f64)
            .filter(|s| SPEEDS.contains(s))
            .unwrap_or(1.0);
        let tab = v
            .get("view")
            .and_then(Value::as_str)
            .and_then(Tab::from_id)
            .unwrap_or(Tab::Cluster);
        let split = v
            .get("split")
            .and_then(Value::as_u64)
            .filter(|s| (SPLIT_MIN as u64..=SPLIT_MAX as u64).contains(s))
            .map_or(SPLIT_DEFAULT, |s| s as u32);
        Ok(Draft {
            text: text.to_string(),
            speed,
            tab,
            split,
        })
    }
}

/// The narrowest, widest and default editor pane, in percent of the page's width.
pub const SPLIT_MIN: u32 = 20;
pub const SPLIT_MAX: u32 = 70;
pub const SPLIT_DEFAULT: u32 = 34;

/// Whether the page is saving edits as the draft now (not in an embed, nor while it asks
/// whether a link's scenario may replace the draft); read by the panic hook.
static SAVING: AtomicBool = AtomicBool::new(false);

pub fn saving() -> bool {
    SAVING.load(Ordering::Relaxed)
}

pub fn set_saving(on: bool) {
    SAVING.store(on, Ordering::Relaxed);
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Where a stored draft the page cannot read is moved, so that saving the new one loses nothing.
pub const UNREADABLE_KEY: &str = "kubeplay.draft.unreadable";

/// The saved draft, when there is one the page can read. One it cannot read (another version,
/// damaged) is moved to [`UNREADABLE_KEY`], untouched.
pub fn load() -> Option<Draft> {
    let storage = storage()?;
    let stored = storage.get_item(STORAGE_KEY).ok()??;
    match Draft::from_json(&stored) {
        Ok(d) => Some(d),
        Err(e) => {
            leptos::logging::warn!("kubeplay: {e}; it is kept under {UNREADABLE_KEY}");
            if storage.set_item(UNREADABLE_KEY, &stored).is_ok() {
                let _ = storage.remove_item(STORAGE_KEY);
            }
            None
        }
    }
}

/// Saves the draft; false when the browser refused (storage full or disabled).
pub fn save(draft: &Draft) -> bool {
    storage().is_some_and(|s| s.set_item(STORAGE_KEY, &draft.to_json()).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft() -> Draft {
        Draft {
            text: "kind: Pod\n".into(),
            speed: 2.0,
            tab: Tab::Events,
            split: 40,
        }
    }

    #[test]
    fn a_saved_draft_reads_back_the_same() {
        assert_eq!(Draft::from_json(&draft().to_json()), Ok(draft()));
    }

    #[test]
    fn a_draft_of_another_version_or_without_text_is_not_read() {
        let other = draft().to_json().replace("\"version\":1", "\"version\":2");
        assert!(Draft::from_json(&other).unwrap_err().contains("version 2"));
        assert!(Draft::from_json("{\"version\":1}")
            .unwrap_err()
            .contains("no text"));
        assert!(Draft::from_json("not json")
            .unwrap_err()
            .contains("not JSON"));
        assert!(Draft::from_json("{\"text\":\"a\"}")
            .unwrap_err()
            .contains("no version"));
    }

    #[test]
    fn settings_out_of_range_fall_back_to_their_defaults() {
        let d = Draft::from_json(
            "{\"version\":1,\"text\":\"a\",\"speed\":1000,\"view\":\"nope\",\"split\":99}",
        )
        .unwrap();
        assert_eq!(
            (d.speed, d.tab, d.split),
            (1.0, Tab::Cluster, SPLIT_DEFAULT)
        );
    }

    #[test]
    fn a_draft_over_the_scenario_limit_is_refused() {
        let big = Draft {
            text: "a".repeat(MAX_SCENARIO_BYTES + 1),
            ..draft()
        };
        assert!(Draft::from_json(&big.to_json())
            .unwrap_err()
            .contains("limit"));
    }
}
