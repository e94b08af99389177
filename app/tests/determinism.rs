//! Determinism across platforms: the scenarios of `core/tests/share/vectors.json`, run to quiet
//! in the browser, give the trace digests the native run recorded
//! (`core/tests/share/trace_digests.json`, checked by `core/tests/determinism.rs`).

#![cfg(target_arch = "wasm32")]

use kubeplay_core::cluster::Cluster;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const VECTORS: &str = include_str!("../../core/tests/share/vectors.json");
const DIGESTS: &str = include_str!("../../core/tests/share/trace_digests.json");

#[wasm_bindgen_test]
fn every_scenario_gives_the_native_trace_digest_in_the_browser() {
    let vectors: kubeplay_core::api::value::Value = serde_json::from_str(VECTORS).unwrap();
    let digests: kubeplay_core::api::value::Value = serde_json::from_str(DIGESTS).unwrap();
    let (vectors, digests) = (vectors.as_array().unwrap(), digests.as_array().unwrap());
    assert_eq!(vectors.len(), digests.len());
    for (v, d) in vectors.iter().zip(digests) {
        let name = v["name"].as_str().unwrap();
        assert_eq!(d["name"].as_str().unwrap(), name);
        let mut c = Cluster::from_text(name, v["text"].as_str().unwrap()).unwrap();
        c.run(None);
        assert_eq!(
            (c.trace.digest(), c.now(), c.trace.records.len() as u64),
            (
                d["digest"].as_str().unwrap().to_string(),
                d["end_ms"].as_u64().unwrap(),
                d["records"].as_u64().unwrap()
            ),
            "{name}: the browser's run differs from the native one"
        );
    }
}
