//! Helpers shared by the scenario tests: running the real `kubeplay` binary.

#![allow(dead_code)]

pub mod scheduling;

use std::process::{Command, Output};

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

pub fn kubeplay(args: &[&str]) -> Run {
    kubeplay_stdin(args, None)
}

pub fn kubeplay_stdin(args: &[&str], stdin: Option<&str>) -> Run {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kubeplay"));
    cmd.args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    cmd.stdin(if stdin.is_some() {
        std::process::Stdio::piped()
    } else {
        std::process::Stdio::null()
    });
    let mut child = cmd.spawn().expect("kubeplay runs");
    if let Some(s) = stdin {
        // kubeplay may stop reading early (an oversized input): a broken pipe is expected then.
        let _ = child.stdin.take().expect("stdin").write_all(s.as_bytes());
    }
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("kubeplay finishes");
    Run {
        stdout: String::from_utf8(stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(stderr).expect("utf-8 stderr"),
        code: status.code().unwrap_or(-1),
    }
}

pub fn scenario(name: &str) -> String {
    format!("{}/tests/scenarios/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Writes `text` to a fresh file under the target dir and returns its path.
pub fn temp_file(name: &str, text: &[u8]) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("kubeplay-tests");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write temp file");
    p.to_string_lossy().into_owned()
}

/// The records of a `--trace json` run (lines that are JSON objects).
pub fn records(stdout: &str) -> Vec<kubeplay_core::api::value::Value> {
    stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("trace line is JSON"))
        .collect()
}
