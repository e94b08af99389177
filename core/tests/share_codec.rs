//! The share-link codec against checked-in vectors: every gallery and test scenario encodes to
//! the recorded fragment and decodes back to identical text. `app/tests/share_codec.rs` runs the
//! same vectors in the browser, so a link made by `kubeplay share` opens the same scenario there.
//! `UPDATE_GOLDEN=1 cargo test -p kubeplay-core --test share_codec` rewrites the vectors.

use kubeplay_core::api::value::{json, Value};
use kubeplay_core::share::{decode_fragment, encode_fragment, ShareLink};

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/share/vectors.json");

/// Every scenario a user can open from the gallery, and the test scenarios, by file name.
fn scenarios() -> Vec<(String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut out = Vec::new();
    for dir in ["../public/scenarios", "tests/scenarios"] {
        let mut files: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        files.sort();
        for f in files {
            let name = format!("{dir}/{}", f.file_name().unwrap().to_string_lossy());
            out.push((name, std::fs::read_to_string(&f).unwrap()));
        }
    }
    out
}

fn fragment(text: &str) -> String {
    encode_fragment(&ShareLink {
        scenario: text.to_string(),
        view: Some("scheduler".into()),
        t_ms: Some(2500),
        lang: Some("zh-TW".into()),
        ..Default::default()
    })
}

#[test]
fn every_scenario_round_trips_and_matches_the_vectors() {
    let mut vectors = Vec::new();
    for (name, text) in scenarios() {
        let f = fragment(&text);
        let back = decode_fragment(&f).unwrap();
        assert_eq!(back.scenario, text, "{name} decodes to different text");
        assert_eq!(back.view.as_deref(), Some("scheduler"));
        assert_eq!(back.t_ms, Some(2500));
        assert_eq!(back.lang.as_deref(), Some("zh-TW"));
        // A typical scenario gives a link under 2,000 characters.
        assert!(
            f.len() < 2000,
            "{name}: the fragment has {} characters",
            f.len()
        );
        vectors.push(json!({"name": name, "text": text, "fragment": f}));
    }
    let got = serde_json::to_string_pretty(&Value::Array(vectors)).unwrap() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(VECTORS, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(VECTORS)
        .unwrap_or_else(|_| panic!("{VECTORS} missing: run with UPDATE_GOLDEN=1"));
    assert_eq!(
        got, want,
        "the encoding changed: old links would no longer match; rerun with UPDATE_GOLDEN=1 if intended"
    );
}

#[test]
fn the_recorded_fragments_decode_to_their_scenarios() {
    let vectors: Value = serde_json::from_str(&std::fs::read_to_string(VECTORS).unwrap()).unwrap();
    let vectors = vectors.as_array().unwrap();
    assert!(vectors.len() >= 14, "{} vectors", vectors.len());
    for v in vectors {
        let back = decode_fragment(v["fragment"].as_str().unwrap()).unwrap();
        assert_eq!(back.scenario, v["text"].as_str().unwrap(), "{}", v["name"]);
    }
}

#[test]
fn hostile_links_say_what_is_wrong() {
    let pod = encode_raw(b"kind: Pod\n");
    assert_eq!(
        decode_fragment(&format!("scenario={pod}"))
            .unwrap()
            .scenario,
        "kind: Pod\n"
    );
    let cases = [
        ("scenario=%%%".to_string(), "not valid base64url"),
        ("scenario=AAAA".to_string(), "not valid DEFLATE"),
        ("view=flow".to_string(), "no scenario"),
        (
            format!("scenario={pod}&view=gantt"),
            "unknown view \"gantt\"",
        ),
        (
            format!("scenario={pod}&t=soon"),
            "not a number of milliseconds",
        ),
        (format!("scenario={pod}&lang=fr"), "unknown language \"fr\""),
        (String::new(), "no scenario"),
    ];
    for (link, want) in cases {
        let e = decode_fragment(&link).unwrap_err();
        assert!(e.contains(want), "{link:?}: {e}");
    }
    // A link cut short in the middle of its DEFLATE stream.
    let full = fragment(include_str!("../../public/scenarios/default.yaml"));
    let cut = &full[..full.find("&view").unwrap() / 2];
    assert!(decode_fragment(cut).unwrap_err().contains("DEFLATE"));
    // A decompression bomb: 64 MiB of one byte is a few kilobytes of DEFLATE.
    let bomb = encode_raw(&vec![b'a'; 64 << 20]);
    let e = decode_fragment(&format!("scenario={bomb}")).unwrap_err();
    assert!(e.contains("larger than 1048576 bytes"), "{e}");
    // Bytes that are not UTF-8 text.
    let latin1 = encode_raw(&[0x63, 0x61, 0x66, 0xE9]);
    assert!(decode_fragment(&format!("scenario={latin1}"))
        .unwrap_err()
        .contains("not UTF-8"));
}

#[test]
fn a_decoded_link_that_is_not_a_scenario_is_refused_by_the_parser() {
    let f = fragment("this is: [not, a scenario\n");
    let text = decode_fragment(&f).unwrap().scenario;
    let e = kubeplay_core::scenario::parse("link", &text).unwrap_err();
    assert!(e.to_string().contains("link:"), "{e}");
}

/// The fragment value for raw bytes, DEFLATEd and encoded as `kubeplay share` does.
fn encode_raw(bytes: &[u8]) -> String {
    kubeplay_core::base64::encode_url(&miniz_oxide::deflate::compress_to_vec(bytes, 9))
}

/// `public/embed-example.html` embeds gallery scenarios by link, as a docs page would: each
/// link must still open its gallery file, in the compact player, with a view.
#[test]
fn the_embed_example_page_embeds_gallery_scenarios() {
    let root = env!("CARGO_MANIFEST_DIR");
    let page = std::fs::read_to_string(format!("{root}/../public/embed-example.html")).unwrap();
    let gallery = scenarios();
    let mut found = Vec::new();
    for src in page.split("src=\"").skip(1) {
        let src = src.split('"').next().unwrap().replace("&amp;", "&");
        let Some((_, fragment)) = src.split_once('#') else {
            continue;
        };
        let link = decode_fragment(fragment).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert!(link.embed && link.view.is_some(), "{src}");
        let (name, _) = gallery
            .iter()
            .find(|(n, text)| n.starts_with("../public/scenarios/") && *text == link.scenario)
            .unwrap_or_else(|| panic!("{src} embeds no gallery scenario as it is now"));
        found.push(name.clone());
    }
    assert_eq!(found.len(), 2, "two players: {found:?}");
}
