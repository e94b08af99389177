//! The share-link codec in the browser, on the vectors the native test checks
//! (`core/tests/share/vectors.json`): the same scenario gives the same fragment in wasm as
//! `kubeplay share` prints, and every recorded fragment decodes to its text.

#![cfg(target_arch = "wasm32")]

use kubeplay_core::share::{decode_fragment, encode_fragment, ShareLink};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const VECTORS: &str = include_str!("../../core/tests/share/vectors.json");

#[wasm_bindgen_test]
fn the_native_vectors_encode_and_decode_alike_in_the_browser() {
    let vectors: kubeplay_core::api::value::Value = serde_json::from_str(VECTORS).unwrap();
    let vectors = vectors.as_array().unwrap();
    assert!(vectors.len() >= 14, "{} vectors", vectors.len());
    for v in vectors {
        let (name, text, fragment) = (
            v["name"].as_str().unwrap(),
            v["text"].as_str().unwrap(),
            v["fragment"].as_str().unwrap(),
        );
        let encoded = encode_fragment(&ShareLink {
            scenario: text.to_string(),
            view: Some("scheduler".into()),
            t_ms: Some(2500),
            lang: Some("zh-TW".into()),
            ..Default::default()
        });
        assert_eq!(encoded, fragment, "{name}: wasm encodes differently");
        let back = decode_fragment(fragment).unwrap();
        assert_eq!(back.scenario, text, "{name}: wasm decodes differently");
    }
}

#[wasm_bindgen_test]
fn a_decompression_bomb_is_refused_in_the_browser() {
    // 16 MiB of one letter is a few kilobytes of DEFLATE.
    let bomb = encode_fragment(&ShareLink {
        scenario: "a".repeat(16 << 20),
        ..Default::default()
    });
    assert!(bomb.len() < 100_000, "{}", bomb.len());
    let e = decode_fragment(&bomb).unwrap_err();
    assert!(e.contains("larger than 1048576 bytes"), "{e}");
}
