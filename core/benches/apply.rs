//! Benchmark: `kubectl apply` of the default scenario (a 3-replica nginx Deployment on the
//! default three-node cluster), from parsing the scenario to a quiet cluster, trace included.
//! Run with `cargo bench -p kubeplay-core --bench apply`.

use kubeplay_core::cluster::Cluster;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// mimalloc: see core/Cargo.toml for why the native binaries use it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const DEFAULT: &str = include_str!("../../public/scenarios/default.yaml");

fn once() -> usize {
    let mut c = Cluster::from_text("default.yaml", DEFAULT).expect("default scenario parses");
    c.run(None);
    black_box(c.trace.to_json_lines()).len() + c.trace.records.len()
}

fn main() {
    // Warm up, then measure for about two seconds.
    for _ in 0..20 {
        once();
    }
    let mut samples: Vec<Duration> = Vec::new();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) || samples.len() < 50 {
        let t = Instant::now();
        black_box(once());
        samples.push(t.elapsed());
    }
    samples.sort();
    let mean = samples.iter().sum::<Duration>() / samples.len() as u32;
    let pct = |p: usize| samples[(samples.len() * p / 100).min(samples.len() - 1)];
    let records = {
        let mut c = Cluster::from_text("default.yaml", DEFAULT).unwrap();
        c.run(None);
        c.trace.records.len()
    };
    println!(
        "apply default scenario (3-replica Deployment, 3 nodes, {records} trace records): {} iterations, mean {:.3} ms, median {:.3} ms, p95 {:.3} ms, min {:.3} ms",
        samples.len(),
        mean.as_secs_f64() * 1e3,
        pct(50).as_secs_f64() * 1e3,
        pct(95).as_secs_f64() * 1e3,
        samples[0].as_secs_f64() * 1e3
    );
}
