//! Container logs: what each container printed, as the container runtime keeps it in the CRI
//! log file of each container instance (`/var/log/pods/<ns>_<pod>_<uid>/<container>/<n>.log`),
//! and the kubelet's `GET /containerLogs/{namespace}/{pod}/{container}` endpoint that
//! kube-apiserver proxies `pods/log` to.
//!
//! Nothing runs for real, so the output is read from the spec like the rest of a container's
//! behaviour: nginx's image prints its entrypoint's and nginx's start-up lines as
//! `nginx:1.27` does; a shell script prints what its `echo`, `date` and `hostname` statements
//! print, after the `sleep`s before them (a `while true` loop again and again); `sleep N` and
//! unknown programs print nothing. An instance's log holds the lines printed between its start
//! and its end (or now, while it runs).

use super::behaviour;
use super::images::ImageRef;
use super::{Kubelet, State};
use crate::api::meta;
use crate::api::value::Value;
use crate::kernel::time::{rfc3339, EPOCH_UNIX_SECONDS};
use crate::kernel::Millis;

/// One line of a container's output, with the time the runtime read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    pub t_ms: Millis,
    pub text: String,
}

/// What `pods/log` asks for (`PodLogOptions`, as its query parameters).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogOptions {
    pub container: String,
    pub previous: bool,
    pub tail_lines: Option<usize>,
    pub timestamps: bool,
}

/// The kubelet's answer: the log text, or the HTTP error it writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogError {
    /// 404: the pod is not on this kubelet.
    NotFound(String),
    /// 400: the container has no log to show (`validateContainerLogStatus`).
    BadRequest(String),
}

/// A served log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogFile {
    /// The container id of the instance whose log this is.
    pub container_id: String,
    pub body: String,
    pub lines: usize,
}

impl Kubelet {
    /// `GET /containerLogs/{ns}/{pod}/{container}`: which instance's log (the running one, the
    /// last one that ended, or with `previous` the one before), then its lines with the
    /// options applied. `cpus` is the node's CPU count (nginx starts a worker per CPU).
    pub fn container_log(
        &self,
        now: Millis,
        cpus: u32,
        key: &str,
        opts: &LogOptions,
    ) -> Result<LogFile, LogError> {
        let w = self
            .workers
            .get(key)
            .ok_or_else(|| LogError::NotFound(format!("pod {key:?} does not exist")))?;
        let pod = meta::name(&w.pod).to_string();
        let name = &opts.container;
        let c = w
            .app
            .iter()
            .chain(w.init.iter())
            .find(|c| &c.name == name)
            .ok_or_else(|| {
                LogError::BadRequest(format!(
                    "container {name:?} in pod {pod:?} is not available"
                ))
            })?;
        let ended = |s: &Option<State>| match s {
            Some(State::Terminated {
                started_at,
                finished_at,
                id,
                ..
            }) if !id.is_empty() => Some((*started_at, *finished_at, id.clone())),
            _ => None,
        };
        let last = ended(&c.last);
        let (start, end, id) = if opts.previous {
            last.ok_or_else(|| {
                LogError::BadRequest(format!(
                    "previous terminated container {name:?} in pod {pod:?} not found"
                ))
            })?
        } else {
            match &c.state {
                State::Running { started_at } => {
                    (*started_at, now, c.id.clone().unwrap_or_default())
                }
                State::Terminated { .. } => match ended(&Some(c.state.clone())).or(last) {
                    Some(x) => x,
                    None => {
                        return Err(LogError::BadRequest(format!(
                            "container {name:?} in pod {pod:?} is terminated"
                        )));
                    }
                },
                State::Waiting { reason, .. } => match last {
                    Some(x) => x,
                    None => {
                        let why = match reason.as_str() {
                            "ErrImagePull" => "image can't be pulled".to_string(),
                            "ImagePullBackOff" => "trying and failing to pull image".to_string(),
                            r => r.to_string(),
                        };
                        return Err(LogError::BadRequest(format!(
                            "container {name:?} in pod {pod:?} is waiting to start: {why}"
                        )));
                    }
                },
            }
        };
        let mut lines = output(c.spec(&w.pod), &pod, cpus, start, end);
        if let Some(n) = opts.tail_lines {
            let skip = lines.len().saturating_sub(n);
            lines.drain(..skip);
        }
        let mut body = String::new();
        for l in &lines {
            if opts.timestamps {
                body.push_str(&rfc3339_nano(l.t_ms));
                body.push(' ');
            }
            body.push_str(&l.text);
            body.push('\n');
        }
        Ok(LogFile {
            container_id: id,
            body,
            lines: lines.len(),
        })
    }
}

/// `time.RFC3339Nano`, as the kubelet prefixes lines with `timestamps=true` (trailing zeros of
/// the fraction dropped).
pub fn rfc3339_nano(ms: Millis) -> String {
    let secs = rfc3339(ms);
    let frac = format!("{:03}", ms % 1000);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        secs
    } else {
        format!("{}.{frac}Z", secs.trim_end_matches('Z'))
    }
}

/// The lines one instance of a container prints between `start` and `end`.
pub fn output(spec: &Value, pod: &str, cpus: u32, start: Millis, end: Millis) -> Vec<LogLine> {
    let list = |k: &str| -> Vec<String> {
        spec[k]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    };
    let command = list("command");
    let args = list("args");
    let image = spec["image"].as_str().unwrap_or("");
    let reference = ImageRef::parse(image);
    let mut out = Printer {
        now: start,
        end,
        lines: Vec::new(),
    };
    let words: Vec<String> = command.iter().chain(args.iter()).cloned().collect();
    let program = words
        .first()
        .map(|w| w.rsplit('/').next().unwrap_or(w).to_string());
    let is_nginx = reference.repository == "docker.io/library/nginx";
    match program.as_deref() {
        // nginx's image runs `/docker-entrypoint.sh nginx -g 'daemon off;'`: its entrypoint
        // configures, then nginx starts (only args given keep the entrypoint).
        None if is_nginx => nginx(&mut out, &reference, cpus, true),
        Some("nginx" | "nginx-debug") if is_nginx => {
            nginx(&mut out, &reference, cpus, command.is_empty())
        }
        Some("sh" | "bash" | "ash" | "dash") => {
            if let Some(text) = words
                .iter()
                .position(|x| x == "-c")
                .and_then(|i| words.get(i + 1))
            {
                script(&mut out, text, spec, pod, &reference, cpus);
            }
        }
        Some(_) => {
            let line = shell_join(&words);
            script(&mut out, &line, spec, pod, &reference, cpus);
        }
        None => {}
    }
    out.lines
}

/// Collects lines printed at the running time, up to the instance's end.
struct Printer {
    now: Millis,
    end: Millis,
    lines: Vec<LogLine>,
}

impl Printer {
    fn print(&mut self, text: impl Into<String>) -> bool {
        if self.now > self.end {
            return false;
        }
        self.lines.push(LogLine {
            t_ms: self.now,
            text: text.into(),
        });
        true
    }
}

/// `2026/01/01 00:00:07`, nginx's error-log time (the container's clock is UTC).
fn nginx_time(ms: Millis) -> String {
    rfc3339(ms)
        .trim_end_matches('Z')
        .replace('-', "/")
        .replace('T', " ")
}

/// The nginx release a tag stands for, and the compiler line of its image.
fn nginx_build(tag: &str) -> (String, &'static str) {
    let alpine = tag.contains("alpine");
    let version = tag.split('-').next().unwrap_or(tag);
    let full = match version {
        v if v.matches('.').count() >= 2 => v.to_string(),
        "1.24" => "1.24.0".into(),
        "1.25" => "1.25.5".into(),
        "1.26" => "1.26.3".into(),
        "1.27" => "1.27.5".into(),
        "1.28" | "1" | "stable" => "1.28.0".into(),
        _ => "1.29.3".into(),
    };
    let newer = full.starts_with("1.29");
    let gcc = match (alpine, newer) {
        (true, _) => "built by gcc 14.2.0 (Alpine 14.2.0) ",
        (false, true) => "built by gcc 14.2.0 (Debian 14.2.0-19) ",
        (false, false) => "built by gcc 12.2.0 (Debian 12.2.0-14) ",
    };
    (full, gcc)
}

fn nginx(out: &mut Printer, image: &ImageRef, cpus: u32, entrypoint: bool) {
    if entrypoint {
        for l in [
            "/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration",
            "/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/",
            "/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh",
            "10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf",
            "10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf",
            "/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh",
            "/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh",
            "/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh",
            "/docker-entrypoint.sh: Configuration complete; ready for start up",
        ] {
            out.print(l);
        }
    }
    let (version, gcc) = nginx_build(image.tag.as_deref().unwrap_or("latest"));
    let t = nginx_time(out.now);
    let notice = |s: &str| format!("{t} [notice] 1#1: {s}");
    let mut lines = vec![
        notice("using the \"epoll\" event method"),
        notice(&format!("nginx/{version}")),
        notice(gcc),
        notice("OS: Linux 6.8.0-60-generic"),
        notice("getrlimit(RLIMIT_NOFILE): 1024:524288"),
        notice("start worker processes"),
    ];
    // The entrypoint's scripts used the first process ids.
    let first_pid = if entrypoint { 29 } else { 7 };
    for i in 0..cpus.max(1) {
        lines.push(notice(&format!("start worker process {}", first_pid + i)));
    }
    for l in lines {
        out.print(l);
    }
}

/// Quotes words back into one shell line (for a command that is not a shell).
fn shell_join(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            if w.is_empty() || w.contains(|c: char| c.is_whitespace() || c == ';' || c == '$') {
                format!("'{}'", w.replace('\'', "'\\''"))
            } else {
                w.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `$NAME` and `${NAME}` outside single quotes, from the container's literal `env` and
/// `HOSTNAME` (the pod's name); unknown variables are empty.
fn expand(text: &str, spec: &Value, pod: &str) -> String {
    let var = |name: &str| -> String {
        if name == "HOSTNAME" {
            return pod.to_string();
        }
        spec["env"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["name"] == name)
            .and_then(|e| e["value"].as_str())
            .unwrap_or("")
            .to_string()
    };
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    let mut single = false;
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                single = !single;
                out.push(c);
            }
            '$' if !single => {
                let mut name = String::new();
                if chars.peek() == Some(&'{') {
                    chars.next();
                    for n in chars.by_ref() {
                        if n == '}' {
                            break;
                        }
                        name.push(n);
                    }
                } else {
                    while let Some(&n) = chars.peek() {
                        if n.is_ascii_alphanumeric() || n == '_' {
                            name.push(n);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                }
                if name.is_empty() {
                    out.push('$');
                } else {
                    out.push_str(&var(&name));
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// busybox `date`: `Thu Jan  1 00:00:07 UTC 2026`.
fn busybox_date(ms: Millis) -> String {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let unix = EPOCH_UNIX_SECONDS + (ms / 1000) as i64;
    let weekday = DAYS[(unix.div_euclid(86_400) + 4).rem_euclid(7) as usize];
    let t = rfc3339(ms);
    let (date, time) = t.trim_end_matches('Z').split_once('T').unwrap_or(("", ""));
    let mut parts = date.split('-');
    let year = parts.next().unwrap_or("");
    let month: usize = parts.next().and_then(|m| m.parse().ok()).unwrap_or(1);
    let day: u32 = parts.next().and_then(|d| d.parse().ok()).unwrap_or(1);
    format!(
        "{weekday} {} {day:>2} {time} UTC {year}",
        MONTHS[(month.clamp(1, 12)) - 1]
    )
}

/// Runs a shell script's output statements, in time: `sleep` advances the clock, `exit` ends
/// it, a `while true; do ...; done` loop repeats its body until the instance ends.
fn script(out: &mut Printer, text: &str, spec: &Value, pod: &str, image: &ImageRef, cpus: u32) {
    let normalized = text
        .replace("&&", ";")
        .replace("||", ";")
        .replace('\n', ";");
    let stmts: Vec<String> = normalized
        .split(';')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let mut i = 0;
    while i < stmts.len() {
        let s = &stmts[i];
        let w: Vec<&str> = s.split_whitespace().collect();
        if matches!(
            w.as_slice(),
            ["while", "true" | ":", ..] | ["until", "false", ..]
        ) {
            let mut body: Vec<String> = Vec::new();
            for b in &stmts[i + 1..] {
                if b == "done" {
                    break;
                }
                body.push(b.strip_prefix("do ").unwrap_or(b).to_string());
            }
            let lasts: Millis = body
                .iter()
                .map(
                    |b| match b.split_whitespace().collect::<Vec<_>>().as_slice() {
                        ["sleep", n, ..] => seconds(n),
                        _ => 0,
                    },
                )
                .sum();
            // A loop that never sleeps floods the log: keep its first thousand lines.
            let mut printed = 0;
            while out.now <= out.end && printed < 1000 {
                let before = out.lines.len();
                for b in &body {
                    if statement(out, b, spec, pod, image, cpus) == Flow::Exit {
                        return;
                    }
                }
                printed += out.lines.len() - before;
                if lasts == 0 && out.lines.len() == before {
                    break;
                }
            }
            return;
        }
        if statement(out, s, spec, pod, image, cpus) == Flow::Exit {
            return;
        }
        i += 1;
    }
}

#[derive(PartialEq, Eq)]
enum Flow {
    Next,
    Exit,
}

fn seconds(word: &str) -> Millis {
    let w = word.trim_end_matches('s');
    w.parse::<u64>()
        .map(|n| n * 1000)
        .or_else(|_| w.parse::<f64>().map(|f| (f.max(0.0) * 1000.0) as Millis))
        .unwrap_or(0)
}

fn statement(
    out: &mut Printer,
    stmt: &str,
    spec: &Value,
    pod: &str,
    image: &ImageRef,
    cpus: u32,
) -> Flow {
    let expanded = expand(stmt, spec, pod);
    let words = crate::shell::split(&expanded).unwrap_or_default();
    let Some(first) = words.first() else {
        return Flow::Next;
    };
    match first.as_str() {
        "echo" => {
            let rest: Vec<&str> = words[1..]
                .iter()
                .map(String::as_str)
                .skip_while(|w| matches!(*w, "-n" | "-e" | "-ne" | "-en"))
                .collect();
            out.print(rest.join(" "));
        }
        "sleep" => match words.get(1).map(String::as_str) {
            Some("infinity") | None => {
                out.now = out.end + 1;
                return Flow::Exit;
            }
            Some(n) => out.now += seconds(n),
        },
        "exit" => return Flow::Exit,
        "date" => {
            out.print(busybox_date(out.now));
        }
        "hostname" => {
            out.print(pod);
        }
        "nginx" if image.repository == "docker.io/library/nginx" => {
            nginx(out, image, cpus, false);
            return Flow::Exit;
        }
        // Whatever else runs prints nothing here; a server (`nginx`, `httpd`) keeps running.
        _ if matches!(
            behaviour::of(&crate::json!({"image": spec["image"], "command": words})),
            behaviour::Behaviour::Runs
        ) && first != "true"
            && first != "false"
            && first != ":" =>
        {
            return Flow::Exit;
        }
        _ => {}
    }
    Flow::Next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn texts(v: Vec<LogLine>) -> Vec<String> {
        v.into_iter().map(|l| l.text).collect()
    }

    #[test]
    fn nginx_prints_its_start_up_lines() {
        let lines = texts(output(
            &json!({"name": "nginx", "image": "nginx:1.27"}),
            "web",
            4,
            7_000,
            9_000,
        ));
        assert_eq!(
            lines[0],
            "/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration"
        );
        assert!(lines.contains(&"2026/01/01 00:00:07 [notice] 1#1: nginx/1.27.5".to_string()));
        assert_eq!(
            lines.last().unwrap(),
            "2026/01/01 00:00:07 [notice] 1#1: start worker process 32"
        );
        assert_eq!(lines.len(), 9 + 6 + 4);
    }

    #[test]
    fn shell_scripts_print_in_time() {
        let spec = json!({"name": "c", "image": "busybox", "command": ["sh", "-c", "echo hi; sleep 5; echo \"bye $HOSTNAME\"; exit 1"]});
        assert_eq!(texts(output(&spec, "p", 4, 0, 10_000)), vec!["hi", "bye p"]);
        assert_eq!(texts(output(&spec, "p", 4, 0, 4_000)), vec!["hi"]);
        let sleeper = json!({"name": "c", "image": "busybox", "command": ["sleep", "3600"]});
        assert!(output(&sleeper, "p", 4, 0, 10_000).is_empty());
        let looping = json!({"name": "c", "image": "busybox", "command": ["sh", "-c", "while true; do echo tick; sleep 10; done"]});
        assert_eq!(output(&looping, "p", 4, 0, 25_000).len(), 3);
        let date = json!({"name": "c", "image": "busybox", "command": ["date"]});
        assert_eq!(
            texts(output(&date, "p", 4, 7_000, 7_000)),
            vec!["Thu Jan  1 00:00:07 UTC 2026"]
        );
        assert_eq!(rfc3339_nano(7_410), "2026-01-01T00:00:07.41Z");
        assert_eq!(rfc3339_nano(7_000), "2026-01-01T00:00:07Z");
    }
}
