//! The `kubeplay` command line: run a scenario natively and print its trace and the output of
//! kubectl and etcdctl commands against the final state; or print a scenario's share link.

use kubeplay_core::cluster::Cluster;
use kubeplay_core::kernel::time::parse_duration;
use kubeplay_core::{etcdctl, kubectl, scenario, share, shell};
use std::io::{Read, Write};
use std::process::ExitCode;

/// mimalloc: see core/Cargo.toml for why the native binaries use it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
Usage:
  kubeplay run FILE|- [--seed N] [--until DURATION] [--trace text|json|none] [--trace-pods N|all]
                      [--kubectl 'ARGS']... [--etcdctl 'ARGS']...
  kubeplay share FILE [--base URL]
";

/// A `--kubectl` or `--etcdctl` command, split into words.
enum Post {
    Kubectl(Vec<String>),
    Etcdctl(Vec<String>),
}

struct RunArgs {
    file: String,
    seed: Option<u64>,
    until: Option<u64>,
    trace: String,
    /// Pods traced in full; `None` for all of them.
    trace_pods: Option<usize>,
    post: Vec<Post>,
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("kubeplay: {msg}\n{USAGE}");
    ExitCode::from(2)
}

/// `--flag value` or `--flag=value`.
fn flag_value(args: &[String], i: &mut usize, name: &str) -> Result<Option<String>, String> {
    let a = &args[*i];
    if let Some(v) = a.strip_prefix(&format!("{name}=")) {
        return Ok(Some(v.to_string()));
    }
    if a == name {
        *i += 1;
        return args
            .get(*i)
            .cloned()
            .map(Some)
            .ok_or_else(|| format!("{name} needs a value"));
    }
    Ok(None)
}

fn parse_run(args: &[String]) -> Result<RunArgs, String> {
    let mut r = RunArgs {
        file: String::new(),
        seed: None,
        until: None,
        trace: "text".into(),
        trace_pods: Some(kubeplay_core::cluster::FULL_TRACE_PODS),
        post: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        if let Some(v) = flag_value(args, &mut i, "--seed")? {
            r.seed = Some(
                v.parse()
                    .map_err(|_| format!("--seed must be a non-negative integer, not {v:?}"))?,
            );
        } else if let Some(v) = flag_value(args, &mut i, "--until")? {
            r.until = Some(parse_duration(&v).map_err(|e| format!("--until: {e}"))?);
        } else if let Some(v) = flag_value(args, &mut i, "--trace")? {
            if !["text", "json", "none"].contains(&v.as_str()) {
                return Err(format!("--trace must be text, json or none, not {v:?}"));
            }
            r.trace = v;
        } else if let Some(v) = flag_value(args, &mut i, "--trace-pods")? {
            r.trace_pods = match v.as_str() {
                "all" => None,
                n => Some(n.parse().map_err(|_| {
                    format!("--trace-pods must be a number of pods or all, not {v:?}")
                })?),
            };
        } else if let Some(v) = flag_value(args, &mut i, "--kubectl")? {
            let words = command_words(&v, "kubectl")?;
            r.post.push(Post::Kubectl(words));
        } else if let Some(v) = flag_value(args, &mut i, "--etcdctl")? {
            let words = command_words(&v, "etcdctl")?;
            r.post.push(Post::Etcdctl(words));
        } else if args[i].starts_with("--") {
            return Err(format!("unknown flag {}", args[i]));
        } else if r.file.is_empty() {
            r.file = args[i].clone();
        } else {
            return Err(format!("unexpected argument {:?}", args[i]));
        }
        i += 1;
    }
    if r.file.is_empty() {
        return Err("run needs a scenario FILE (or - for standard input)".into());
    }
    Ok(r)
}

/// The words of a `--kubectl`/`--etcdctl` command line (a leading `kubectl `/`etcdctl `
/// dropped); unbalanced quotes are a usage error, before anything runs.
fn command_words(cmd: &str, tool: &str) -> Result<Vec<String>, String> {
    let line = cmd.trim();
    let line = line.strip_prefix(&format!("{tool} ")).unwrap_or(line);
    shell::split(line).map_err(|e| format!("--{tool} {cmd:?}: {e}"))
}

/// Reads the scenario, refusing oversized files before reading them whole.
fn read_scenario(file: &str) -> Result<(String, String), String> {
    let limit = scenario::MAX_SCENARIO_BYTES as u64;
    let mut bytes = Vec::new();
    if file == "-" {
        std::io::stdin()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("-: cannot read standard input: {e}"))?;
    } else {
        let f = std::fs::File::open(file).map_err(|e| format!("{file}: cannot open: {e}"))?;
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        if len > limit {
            return Err(scenario::limits::too_large(file, len as usize, true).to_string());
        }
        f.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{file}: cannot read: {e}"))?;
    }
    let name = if file == "-" {
        "<stdin>".to_string()
    } else {
        file.to_string()
    };
    if bytes.len() as u64 > limit {
        return Err(scenario::limits::too_large(&name, limit as usize, false).to_string());
    }
    let text = scenario::limits::decode_utf8(&name, &bytes)
        .map_err(|e| e.to_string())?
        .to_string();
    Ok((name, text))
}

fn run(args: &[String]) -> ExitCode {
    let r = match parse_run(args) {
        Ok(r) => r,
        Err(e) => return usage_error(&e),
    };
    let (name, text) = match read_scenario(&r.file) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let mut parsed = match scenario::parse(&name, &text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if let Some(seed) = r.seed {
        parsed.seed = seed;
    }
    let mut cluster = Cluster::new(parsed);
    cluster.trace.pod_budget = r.trace_pods;
    cluster.run(r.until);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for o in &cluster.outputs {
        let _ = out.write_all(o.stdout.as_bytes());
        let _ = out.flush();
        eprint!("{}", o.stderr);
    }
    match r.trace.as_str() {
        "json" => {
            let _ = out.write_all(cluster.trace.to_json_lines().as_bytes());
        }
        "text" => {
            let _ = out.write_all(cluster.trace.to_text().as_bytes());
        }
        _ => {}
    }
    let (full, counted) = cluster.trace.sampling();
    let (full_workloads, counted_workloads) = cluster.trace.workload_sampling();
    let (full_nodes, counted_nodes) = cluster.trace.node_sampling();
    if (counted > 0 || counted_workloads > 0 || counted_nodes > 0) && r.trace != "none" {
        eprintln!(
            "kubeplay: sampled trace: full records for {full} pods, {full_workloads} ReplicaSets and Deployments and {full_nodes} nodes; {} records about {counted} more pods, {counted_workloads} more ReplicaSets and Deployments and {counted_nodes} more nodes were only counted (--trace-pods all keeps every record)",
            cluster.trace.counted_total()
        );
    }
    for p in &r.post {
        match p {
            Post::Kubectl(words) => {
                let o = kubectl::run(&mut cluster, words);
                let _ = out.write_all(o.stdout.as_bytes());
                let _ = out.flush();
                eprint!("{}", o.stderr);
            }
            Post::Etcdctl(words) => {
                let now = cluster.now();
                match etcdctl::run_mut(&mut cluster.api.storage.etcd, words, now) {
                    Ok(s) => {
                        let _ = out.write_all(s.as_bytes());
                    }
                    Err(e) => {
                        let _ = out.flush();
                        eprintln!("{e}");
                    }
                }
            }
        }
    }
    ExitCode::SUCCESS
}

fn share_cmd(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut base = "http://127.0.0.1:8080/".to_string();
    let mut i = 0;
    while i < args.len() {
        match flag_value(args, &mut i, "--base") {
            Ok(Some(b)) => base = b,
            Ok(None) if args[i].starts_with("--") => {
                return usage_error(&format!("unknown flag {}", args[i]))
            }
            Ok(None) if file.is_none() => file = Some(args[i].clone()),
            Ok(None) => return usage_error(&format!("unexpected argument {:?}", args[i])),
            Err(e) => return usage_error(&e),
        }
        i += 1;
    }
    let Some(file) = file else {
        return usage_error("share needs a scenario FILE");
    };
    let (name, text) = match read_scenario(&file) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if let Err(e) = scenario::parse(&name, &text) {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    let l = share::link(&base, &text);
    if l.len() > share::COMFORTABLE_LINK_CHARS {
        eprintln!("warning: the link is {} characters long; browsers and chat tools handle links under {} characters best", l.len(), share::COMFORTABLE_LINK_CHARS);
    }
    println!("{l}");
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("share") => share_cmd(&args[1..]),
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => usage_error(&format!("unknown command {other:?}")),
        None => usage_error("no command given"),
    }
}
