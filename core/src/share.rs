//! Share links: the scenario travels in the URL fragment as `#scenario=` followed by the
//! base64url (no padding) of the raw DEFLATE (RFC 1951) of its UTF-8 text.

use crate::base64;

/// Decompressed scenarios larger than this are refused (a decompression bomb stops here).
pub const MAX_DECOMPRESSED_BYTES: usize = 1024 * 1024;
/// Links longer than this are hard to paste into chat tools; the page warns.
pub const COMFORTABLE_LINK_CHARS: usize = 8000;

pub const VIEWS: [&str; 6] = ["flow", "etcd", "cluster", "scheduler", "pod", "events"];
pub const LANGS: [&str; 3] = ["en", "zh-CN", "zh-TW"];

/// What a share link carries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShareLink {
    pub scenario: String,
    pub view: Option<String>,
    pub t_ms: Option<u64>,
    pub embed: bool,
    pub editor: bool,
    pub lang: Option<String>,
}

/// The fragment (without `#`) for a scenario and optional parameters.
pub fn encode_fragment(link: &ShareLink) -> String {
    let deflated = miniz_oxide::deflate::compress_to_vec(link.scenario.as_bytes(), 9);
    let mut s = format!("scenario={}", base64::encode_url(&deflated));
    if let Some(v) = &link.view {
        s.push_str(&format!("&view={v}"));
    }
    if let Some(t) = link.t_ms {
        s.push_str(&format!("&t={t}"));
    }
    if link.embed {
        s.push_str("&embed=1");
    }
    if link.editor {
        s.push_str("&editor=1");
    }
    if let Some(l) = &link.lang {
        s.push_str(&format!("&lang={l}"));
    }
    s
}

/// The full link: `base` (the playground's address) plus the fragment.
pub fn link(base: &str, scenario: &str) -> String {
    let base = base.split('#').next().unwrap_or(base);
    format!(
        "{base}#{}",
        encode_fragment(&ShareLink {
            scenario: scenario.to_string(),
            ..Default::default()
        })
    )
}

/// Reads a fragment back, refusing anything malformed with a message saying what is wrong.
pub fn decode_fragment(fragment: &str) -> Result<ShareLink, String> {
    let (mut link, encoded) = decode_params(fragment)?;
    let encoded = encoded.ok_or("the link has no scenario (#scenario=...)")?;
    link.scenario = decode_scenario(encoded)?;
    Ok(link)
}

/// The parameters of a fragment (`view=`, `t=`, `embed=`, `editor=`, `lang=`), checked, with an
/// empty scenario; and the still-encoded `scenario=` value when there is one. An embed without
/// a scenario (`#embed=1&view=flow`) plays the default one.
pub fn decode_params(fragment: &str) -> Result<(ShareLink, Option<&str>), String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let mut link = ShareLink::default();
    let mut scenario = None;
    for part in fragment.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        match k {
            "scenario" => scenario = Some(v),
            "view" => {
                if !VIEWS.contains(&v) {
                    return Err(format!(
                        "the link asks for an unknown view {v:?}; the views are {}",
                        VIEWS.join(", ")
                    ));
                }
                link.view = Some(v.to_string());
            }
            "t" => {
                link.t_ms = Some(v.parse().map_err(|_| {
                    format!("the link's position t={v:?} is not a number of milliseconds")
                })?)
            }
            "embed" => link.embed = v == "1",
            "editor" => link.editor = v == "1",
            "lang" => {
                if !LANGS.contains(&v) {
                    return Err(format!(
                        "the link asks for an unknown language {v:?}; the languages are {}",
                        LANGS.join(", ")
                    ));
                }
                link.lang = Some(v.to_string());
            }
            _ => {}
        }
    }
    Ok((link, scenario))
}

/// The scenario text of a `scenario=` value: base64url, then raw DEFLATE of at most
/// [`MAX_DECOMPRESSED_BYTES`], then UTF-8.
pub fn decode_scenario(encoded: &str) -> Result<String, String> {
    let bytes = base64::decode(encoded)
        .map_err(|e| format!("the link's scenario is not valid base64url: {e}"))?;
    let text = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_DECOMPRESSED_BYTES)
        .map_err(|e| {
        if matches!(e.status, miniz_oxide::inflate::TINFLStatus::HasMoreOutput) {
            format!(
                "the link's scenario is larger than {} bytes once decompressed; it was refused",
                MAX_DECOMPRESSED_BYTES
            )
        } else {
            "the link's scenario is not valid DEFLATE data (the link may be cut short)".to_string()
        }
    })?;
    String::from_utf8(text).map_err(|_| "the link's scenario is not UTF-8 text".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_stays_short() {
        let text = include_str!("../../public/scenarios/default.yaml");
        let l = link("http://127.0.0.1:8080/", text);
        assert!(l.starts_with("http://127.0.0.1:8080/#scenario="));
        assert!(l.len() < 2000, "{}", l.len());
        let back = decode_fragment(l.split_once('#').unwrap().1).unwrap();
        assert_eq!(back.scenario, text);
    }

    #[test]
    fn refuses_hostile_links() {
        assert!(decode_fragment("scenario=@@@")
            .unwrap_err()
            .contains("base64"));
        assert!(decode_fragment("scenario=AAAA")
            .unwrap_err()
            .contains("DEFLATE"));
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b'a'; 4 * 1024 * 1024], 9);
        let e = decode_fragment(&format!("scenario={}", base64::encode_url(&bomb))).unwrap_err();
        assert!(e.contains("larger than"), "{e}");
        assert!(decode_fragment("view=flow")
            .unwrap_err()
            .contains("no scenario"));
        let ok = encode_fragment(&ShareLink {
            scenario: "a: 1".into(),
            ..Default::default()
        });
        assert!(decode_fragment(&format!("{ok}&view=nope"))
            .unwrap_err()
            .contains("unknown view"));
    }
}
