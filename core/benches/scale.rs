//! Benchmark: big clusters from `kubectl apply` to every pod scheduled and every pod Running.
//!
//! Run with `cargo bench -p kubeplay-core --bench scale` (medium and large), or name the sizes:
//! `cargo bench -p kubeplay-core --bench scale -- medium large limits`.
//!
//! `-- --steps` also times every step and prints, per component, its longest single step and
//! how many took over 25 ms: the steps a page cannot cut into frames.
//!
//! `-- --json` prints one JSON object per size instead of the table (for `scripts/bench.sh`,
//! which sets it beside the browser's figures). The scenarios and the measurement are
//! `kubeplay_core::benchmark`'s.

use kubeplay_core::benchmark::{run_timing, Outcome, StepTimes, SIZES};
use std::time::Instant;

/// mimalloc: see core/Cargo.toml for why the native binaries use it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Peak resident memory of this process so far, in MiB (Linux).
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn main() {
    let json = std::env::args().any(|a| a == "--json");
    let time_steps = std::env::args().any(|a| a == "--steps");
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted: Vec<&str> = if wanted.is_empty() {
        vec!["medium", "large"]
    } else {
        wanted.iter().map(String::as_str).collect()
    };
    if !json {
        print_header();
    }
    for size in SIZES.iter().filter(|s| wanted.contains(&s.name)) {
        let start = Instant::now();
        let mut steps = StepTimes::default();
        let o = run_timing(
            size,
            &mut || start.elapsed().as_secs_f64(),
            time_steps.then_some(&mut steps),
        );
        let peak = peak_rss_mib();
        if json {
            println!(
                "{}",
                kubeplay_core::json!({
                    "size": size.name,
                    "nodes": size.nodes,
                    "pods": size.pods(),
                    "scheduled_s": o.scheduled_s,
                    "running_s": o.running_s,
                    "virtual_running_s": o.virtual_running_s,
                    "records": o.records,
                    "counted": o.counted,
                    "peak_mib": peak,
                })
            );
        } else {
            print_row(size.name, size.nodes, size.pods(), &o, peak);
        }
        if time_steps {
            print_steps(size.name, &steps);
        }
    }
}

/// The components by their longest single step, longest first.
fn print_steps(size: &str, steps: &StepTimes) {
    let mut owners: Vec<_> = steps.by_owner.iter().collect();
    owners.sort_by(|a, b| b.1.longest_s.total_cmp(&a.1.longest_s));
    println!();
    println!("{size}: steps by component, longest first");
    println!();
    println!("| component | on | steps | total | longest | at (virtual) | over 25 ms |");
    println!("|---|---|---|---|---|---|---|");
    for ((name, why), o) in owners {
        println!(
            "| {name} | {why} | {} | {:.2} s | {:.1} ms | {:.1} s | {} |",
            o.steps,
            o.total_s,
            o.longest_s * 1000.0,
            o.longest_at as f64 / 1000.0,
            o.slow
        );
    }
    println!();
}

fn print_header() {
    println!("| size | nodes | pods | all scheduled (wall) | all Running (wall) | virtual time to Running | pods/s | trace records kept / counted | peak memory |");
    println!("|---|---|---|---|---|---|---|---|---|");
}

fn print_row(name: &str, nodes: usize, pods: usize, o: &Outcome, peak: Option<f64>) {
    let fmt = |v: Option<f64>| v.map_or("not reached".to_string(), |s| format!("{s:.2} s"));
    let rate = o
        .running_s
        .map_or("-".to_string(), |s| format!("{:.0}", pods as f64 / s));
    println!(
        "| {} | {} | {} | {} | {} | {} | {} | {} / {} | {} |",
        name,
        nodes,
        pods,
        fmt(o.scheduled_s),
        fmt(o.running_s),
        fmt(o.virtual_running_s),
        rate,
        o.records,
        o.counted,
        peak.map_or("-".to_string(), |m| format!("{m:.0} MiB")),
    );
}
