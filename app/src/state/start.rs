//! What the page opens with, from its address and the saved draft, and the links it writes:
//! Share (the scenario and position), Embed (an `<iframe>` snippet) and "Open in kubeplay".
//! Plain Rust: the page passes in `location.hash` and the draft it read.

use crate::state::draft::Draft;
use crate::state::scenario::{parse, DEFAULT_SCENARIO};
use kubeplay_core::share::{self, ShareLink};

/// How the page starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// The editor's text.
    pub text: String,
    /// What is wrong with the link, when it could not be opened (the draft is shown then).
    pub link_error: Option<String>,
    /// The saved draft's text, kept aside while a link's different scenario is shown: the page
    /// asks before replacing it, and saves nothing until then.
    pub pending_draft: Option<String>,
    /// Whether edits are saved as the draft (never in an embed, nor while asking).
    pub save: bool,
    /// The link's parameters (`view=`, `t=`, `embed=`, `editor=`); its scenario is `text`.
    pub link: ShareLink,
    /// The text came from the link (the page drops the link's scenario from its address at the
    /// first edit, so that a reload shows the draft).
    pub from_link: bool,
}

/// Decides the start: a readable link's scenario is shown (replacing the draft only when there
/// is nothing to lose); a broken link is reported and the draft shown; an embed never touches
/// the draft.
pub fn decide(hash: &str, draft: Option<&Draft>) -> Start {
    let draft_text = draft.map(|d| d.text.as_str());
    let fallback = draft_text.unwrap_or(DEFAULT_SCENARIO).to_string();
    let read = share::decode_params(hash).and_then(|(link, encoded)| match encoded {
        None => Ok((link, None)),
        Some(e) => {
            let text = share::decode_scenario(e)?;
            if let Err(err) = parse(&text) {
                return Err(format!(
                    "the link's text is not a scenario ({})",
                    crate::state::scenario::error_line(&err)
                ));
            }
            Ok((link, Some(text)))
        }
    });
    let (link, text) = match read {
        Ok(x) => x,
        Err(e) => {
            return Start {
                text: fallback,
                link_error: Some(e),
                pending_draft: None,
                save: !embed_requested(hash),
                link: ShareLink {
                    embed: embed_requested(hash),
                    ..ShareLink::default()
                },
                from_link: false,
            }
        }
    };
    let Some(text) = text else {
        let text = if link.embed {
            DEFAULT_SCENARIO.to_string()
        } else {
            fallback
        };
        return Start {
            text,
            link_error: None,
            pending_draft: None,
            save: !link.embed,
            link,
            from_link: false,
        };
    };
    // A draft that is the untouched example, or the link's own text, has nothing to lose.
    let pending = draft_text
        .filter(|d| !link.embed && *d != text && *d != DEFAULT_SCENARIO)
        .map(String::from);
    Start {
        save: !link.embed && pending.is_none(),
        pending_draft: pending,
        link_error: None,
        text,
        link,
        from_link: true,
    }
}

/// `embed=1` in a fragment, read even when the rest of it is broken (a broken embed stays
/// compact and leaves the draft alone).
fn embed_requested(hash: &str) -> bool {
    hash.trim_start_matches('#')
        .split('&')
        .any(|p| p == "embed=1")
}

/// The fragment (without `#`) for a scenario at a position and view.
pub fn fragment(
    text: &str,
    view: Option<&str>,
    t_ms: Option<u64>,
    embed: bool,
    lang: &str,
) -> String {
    share::encode_fragment(&ShareLink {
        scenario: text.to_string(),
        view: view.map(String::from),
        t_ms,
        embed,
        editor: false,
        lang: Some(lang.to_string()),
    })
}

/// A page address without its fragment.
pub fn base(href: &str) -> &str {
    href.split('#').next().unwrap_or(href)
}

/// The fragment with the link's own parameters (`scenario=`, `view=`, `t=`, `embed=`,
/// `editor=`) removed and the rest (`lang=`) kept.
pub fn without_link(hash: &str) -> String {
    hash.trim_start_matches('#')
        .split('&')
        .filter(|p| {
            !p.is_empty()
                && !["scenario", "view", "t", "embed", "editor"]
                    .contains(&p.split('=').next().unwrap_or(""))
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The height the Embed snippet gives its iframe, in CSS pixels (the player reports its real
/// height to the host page with `postMessage`).
pub const EMBED_HEIGHT: u32 = 560;

/// The Embed button's `<iframe>` snippet for the page at `base` (its address without fragment).
pub fn embed_snippet(base: &str, fragment: &str, title: &str) -> String {
    let attr = |s: &str| {
        s.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
    };
    let (src, title) = (attr(&format!("{base}#{fragment}")), attr(title));
    format!(
        "<iframe src=\"{src}\" width=\"100%\" height=\"{EMBED_HEIGHT}\" \
         style=\"border:0\" loading=\"lazy\" title=\"kubeplay: {title}\"></iframe>"
    )
}

/// What an embed names its scenario by: its first object, e.g. `Deployment/nginx`.
pub fn scenario_title(text: &str) -> String {
    parse(text)
        .ok()
        .and_then(|s| s.objects.first().map(|o| o.label()))
        .unwrap_or_else(|| "a scenario".to_string())
}

/// The message a `postMessage` carries to the host page when the embed's height changes.
pub const HEIGHT_MESSAGE_TYPE: &str = "kubeplay:height";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::playground::Tab;

    fn draft(text: &str) -> Draft {
        Draft {
            text: text.into(),
            speed: 1.0,
            tab: Tab::Cluster,
            split: 34,
        }
    }

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: [{name: c, image: nginx}]\n";

    fn link_to(text: &str, extra: &str) -> String {
        format!("#{}{extra}", fragment(text, None, None, false, "en"))
    }

    #[test]
    fn without_a_link_the_draft_or_the_example_is_shown_and_saved() {
        let s = decide("#lang=en", Some(&draft("mine")));
        assert_eq!(
            (s.text.as_str(), s.save, s.from_link),
            ("mine", true, false)
        );
        let s = decide("", None);
        assert_eq!(s.text, DEFAULT_SCENARIO);
        assert!(s.save);
    }

    #[test]
    fn a_link_does_not_replace_a_different_draft_without_asking() {
        let s = decide(&link_to(POD, "&view=events&t=1500"), Some(&draft("mine")));
        assert_eq!(s.text, POD);
        assert_eq!(s.pending_draft.as_deref(), Some("mine"));
        assert!(!s.save);
        assert_eq!(s.link.view.as_deref(), Some("events"));
        assert_eq!(s.link.t_ms, Some(1500));
    }

    #[test]
    fn a_link_replaces_a_draft_with_nothing_to_lose() {
        for d in [None, Some(draft(DEFAULT_SCENARIO)), Some(draft(POD))] {
            let s = decide(&link_to(POD, ""), d.as_ref());
            assert_eq!((s.text.as_str(), s.save), (POD, true));
            assert_eq!(s.pending_draft, None);
        }
    }

    #[test]
    fn a_broken_link_shows_the_draft_and_says_what_is_wrong() {
        let bomb = fragment(&"a".repeat(2 * 1024 * 1024), None, None, false, "en");
        for (hash, says) in [
            ("#scenario=@@@".to_string(), "base64"),
            ("#scenario=AAAA".to_string(), "DEFLATE"),
            (format!("#{bomb}"), "larger than"),
            (link_to("just: [words", ""), "not a scenario"),
            (link_to(POD, "&view=nope"), "unknown view"),
        ] {
            let s = decide(&hash, Some(&draft("mine")));
            assert_eq!(s.text, "mine", "{hash}");
            assert!(
                s.link_error.as_deref().unwrap().contains(says),
                "{hash}: {:?}",
                s.link_error
            );
            assert!(s.save);
        }
    }

    #[test]
    fn an_embed_never_saves_and_plays_the_default_without_a_scenario() {
        let s = decide("#embed=1&view=flow", Some(&draft("mine")));
        assert_eq!((s.text.as_str(), s.save), (DEFAULT_SCENARIO, false));
        let s = decide(&link_to(POD, "&embed=1"), Some(&draft("mine")));
        assert_eq!(
            (s.text.as_str(), s.save, s.pending_draft),
            (POD, false, None)
        );
        let s = decide("#scenario=AAAA&embed=1", Some(&draft("mine")));
        assert!(s.link.embed && !s.save && s.link_error.is_some());
    }

    #[test]
    fn links_carry_the_position_view_and_language_and_can_be_dropped_again() {
        let f = fragment(POD, Some("scheduler"), Some(7412), false, "zh-CN");
        let l = share::decode_fragment(&f).unwrap();
        assert_eq!(
            (
                l.scenario.as_str(),
                l.view.as_deref(),
                l.t_ms,
                l.lang.as_deref()
            ),
            (POD, Some("scheduler"), Some(7412), Some("zh-CN"))
        );
        assert_eq!(without_link(&format!("#{f}&embed=1")), "lang=zh-CN");
        assert_eq!(base("http://h/kubeplay/#x"), "http://h/kubeplay/");
    }

    #[test]
    fn the_embed_snippet_is_an_iframe_of_the_embed_link_with_an_escaped_title() {
        let s = embed_snippet("http://h/k/", "scenario=abc&embed=1", "Pod/<p>\"");
        assert!(
            s.starts_with("<iframe src=\"http://h/k/#scenario=abc&amp;embed=1\""),
            "{s}"
        );
        assert!(s.contains(&format!("height=\"{EMBED_HEIGHT}\"")));
        assert!(s.contains("title=\"kubeplay: Pod/&lt;p>&quot;\""), "{s}");
        assert_eq!(scenario_title(POD), "Pod/p");
    }
}
