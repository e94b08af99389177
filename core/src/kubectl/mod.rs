//! kubectl, as a client of the simulated kube-apiserver. Its client-side steps (reading the
//! manifest, the kubeconfig, discovery, validation, each request) are trace records.

mod apply;
mod create;
pub mod describe;
pub mod flags;
pub mod get;
mod logs;
mod mutate;
pub mod output;
pub mod printers;
mod rollout;

use crate::api::{error::group_resource, resources, ApiError, Object, ResourceInfo};
use crate::apiserver::{Request, Verb};
use crate::cluster::{admin_credentials, Cluster, CommandOutput};
use crate::trace::{Component, Record};
use flags::Flags;

pub const CLIENT_VERSION: &str = "v1.35.0";

/// The state of one kubectl invocation.
pub struct Ctx<'a> {
    pub cluster: &'a mut Cluster,
    pub flags: Flags,
    pub namespace: String,
    /// Namespace given explicitly with `-n`.
    pub explicit_namespace: bool,
    pub out: String,
    pub err: String,
    pub code: i32,
    /// `(name, text)` of what `-f -` reads, or of the scenario file.
    pub source: Option<(String, String)>,
    /// The server warnings printed so far (each is printed once).
    warned: Vec<String>,
    /// When the command was typed, and the command line, for its [`CommandOutput`].
    t_ms: crate::kernel::time::Millis,
    command: String,
}

/// A kubectl invocation between two steps of the simulation: its state without the cluster
/// (see [`ScenarioApply`]).
struct Paused {
    flags: Flags,
    namespace: String,
    explicit_namespace: bool,
    out: String,
    err: String,
    code: i32,
    source: Option<(String, String)>,
    warned: Vec<String>,
    t_ms: crate::kernel::time::Millis,
    command: String,
}

/// The scenario's `kubectl apply -f FILE`, a few objects per step of the simulation: a manifest
/// of hundreds of objects would otherwise hold the page for one long task. The cluster runs
/// nothing else until it has finished, so the trace is the one a single step would write.
pub struct ScenarioApply {
    ctx: Paused,
    phase: ApplyPhase,
}

/// How many documents a step reads for each object it would apply: reading one costs about
/// a quarter of applying one.
const DOCUMENTS_READ_PER_OBJECT: usize = 4;

enum ApplyPhase {
    Reading(apply::ManifestReading),
    Applying {
        shown: String,
        objects: std::vec::IntoIter<(Object, &'static ResourceInfo)>,
    },
}

impl ScenarioApply {
    /// Reads the manifest and splits it (kubectl's first client-side step; the documents are
    /// parsed and checked by [`ScenarioApply::step`]). `Err` is the command's output when it
    /// ends there.
    pub fn start(
        cluster: &mut Cluster,
        file: &str,
        text: &str,
    ) -> Result<ScenarioApply, CommandOutput> {
        let args = ["apply".to_string(), "-f".to_string(), file.to_string()];
        let (mut ctx, _) = begin(cluster, &args, Some((file, text)))?;
        match apply::ManifestReading::start(&mut ctx) {
            Ok(reading) => Ok(ScenarioApply {
                ctx: ctx.pause(),
                phase: ApplyPhase::Reading(reading),
            }),
            Err(e) => {
                ctx.fail(&e);
                Err(ctx.finish())
            }
        }
    }

    /// Reads the manifest's next documents or applies up to `n` more objects: `Ok` with the
    /// command's output once all are applied (or a document stopped it), else what is left.
    pub fn step(self, cluster: &mut Cluster, n: usize) -> Result<CommandOutput, Box<Self>> {
        let ScenarioApply { ctx, phase } = self;
        let mut ctx = ctx.resume(cluster);
        let (shown, mut objects) = match phase {
            ApplyPhase::Reading(mut reading) => {
                match reading.read_some(&mut ctx, n.saturating_mul(DOCUMENTS_READ_PER_OBJECT)) {
                    Err(e) => {
                        ctx.fail(&e);
                        return Ok(ctx.finish());
                    }
                    Ok(false) => {
                        return Err(Box::new(ScenarioApply {
                            ctx: ctx.pause(),
                            phase: ApplyPhase::Reading(reading),
                        }))
                    }
                    Ok(true) => {
                        let (shown, objects) = reading.finish();
                        (shown, objects.into_iter())
                    }
                }
            }
            ApplyPhase::Applying { shown, objects } => (shown, objects),
        };
        for (obj, info) in objects.by_ref().take(n) {
            apply::apply_object(&mut ctx, &shown, obj, info, false);
        }
        if objects.len() == 0 {
            return Ok(ctx.finish());
        }
        Err(Box::new(ScenarioApply {
            ctx: ctx.pause(),
            phase: ApplyPhase::Applying { shown, objects },
        }))
    }
}

/// Runs `kubectl ARGS` against the cluster at its current time.
pub fn run(cluster: &mut Cluster, args: &[String]) -> CommandOutput {
    run_with_source(cluster, args, None)
}

/// As [`run`], with the text that `-f -` (or `-f <that name>`) reads.
pub fn run_with_source(
    cluster: &mut Cluster,
    args: &[String],
    source: Option<(&str, &str)>,
) -> CommandOutput {
    let (mut ctx, log_flags) = match begin(cluster, args, source) {
        Ok(started) => started,
        Err(out) => return out,
    };
    let sub: Vec<String> = ctx.flags.positional.clone();
    let result = match sub.first().map(String::as_str) {
        Some("apply") => apply::apply(&mut ctx, false),
        Some("create") if sub.len() == 1 || ctx.flags.value("filename").is_some() => {
            apply::apply(&mut ctx, true)
        }
        Some("create") => create::create(&mut ctx, &sub[1..]),
        Some("get") => get::get(&mut ctx, &sub[1..]),
        Some("describe") => get::describe(&mut ctx, &sub[1..]),
        Some("delete") => mutate::delete(&mut ctx, &sub[1..]),
        Some("scale") => mutate::scale(&mut ctx, &sub[1..]),
        Some("set") => mutate::set(&mut ctx, &sub[1..]),
        Some("patch") => mutate::patch(&mut ctx, &sub[1..]),
        Some("label") => mutate::label(&mut ctx, &sub[1..], "labels"),
        Some("annotate") => mutate::label(&mut ctx, &sub[1..], "annotations"),
        Some("cordon") => mutate::cordon(&mut ctx, &sub[1..], true),
        Some("uncordon") => mutate::cordon(&mut ctx, &sub[1..], false),
        Some("drain") => mutate::drain(&mut ctx, &sub[1..]),
        Some("rollout") => rollout::rollout(&mut ctx, &sub[1..]),
        Some("logs") => logs::logs(&mut ctx, &sub[1..], &log_flags),
        Some("auth") => get::auth(&mut ctx, &sub[1..]),
        Some("version") => {
            ctx.out.push_str(&format!(
                "Client Version: {CLIENT_VERSION}\nKustomize Version: v5.7.1\nServer Version: {CLIENT_VERSION}\n"
            ));
            Ok(())
        }
        Some("cluster-info") => {
            ctx.out.push_str(&format!(
                "Kubernetes control plane is running at https://{}:6443\n\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n",
                crate::cluster::bootstrap::APISERVER_ADDRESS
            ));
            Ok(())
        }
        Some(other) => Err(format!("error: unknown command {other:?} for \"kubectl\"")),
        None => Err("error: no command given; try 'kubectl get pods'".to_string()),
    };
    if let Err(e) = result {
        ctx.fail(&e);
    }
    ctx.finish()
}

/// Parses the command line and reads the kubeconfig: the [`Ctx`] to run the command in (and
/// `kubectl logs`' own flags), or the output of a command line kubectl rejects.
fn begin<'a>(
    cluster: &'a mut Cluster,
    args: &[String],
    source: Option<(&str, &str)>,
) -> Result<(Ctx<'a>, logs::LogFlags), CommandOutput> {
    let t_ms = cluster.now();
    let command = format!("kubectl {}", args.join(" "));
    // `logs` has flags of its own (`-p` is `--previous` there).
    let (args, log_flags) = if logs::is_logs(args) {
        match logs::split_flags(args) {
            Ok((rest, f)) => (rest, f),
            Err(e) => {
                return Err(CommandOutput {
                    t_ms,
                    command,
                    stdout: String::new(),
                    stderr: format!("error: {e}\nSee 'kubectl logs --help' for usage.\n"),
                    exit_code: 1,
                });
            }
        }
    } else {
        (args.to_vec(), logs::LogFlags::default())
    };
    let args = args.as_slice();
    let flags = match Flags::parse(args) {
        Ok(f) => f,
        Err(e) => {
            let sub = args.first().cloned().unwrap_or_default();
            return Err(CommandOutput {
                t_ms,
                command,
                stdout: String::new(),
                stderr: format!("error: {e}\nSee 'kubectl {sub} --help' for usage.\n"),
                exit_code: 1,
            });
        }
    };
    let explicit = flags.value("namespace").is_some();
    let namespace = flags.value("namespace").unwrap_or("default").to_string();
    let mut ctx = Ctx {
        cluster,
        flags,
        namespace,
        explicit_namespace: explicit,
        out: String::new(),
        err: String::new(),
        code: 0,
        source: source.map(|(n, t)| (n.to_string(), t.to_string())),
        warned: Vec::new(),
        t_ms,
        command,
    };
    ctx.kubeconfig();
    Ok((ctx, log_flags))
}

impl<'a> Ctx<'a> {
    fn pause(self) -> Paused {
        Paused {
            flags: self.flags,
            namespace: self.namespace,
            explicit_namespace: self.explicit_namespace,
            out: self.out,
            err: self.err,
            code: self.code,
            source: self.source,
            warned: self.warned,
            t_ms: self.t_ms,
            command: self.command,
        }
    }

    /// The command's output, with its last trace record (what a terminal shows first).
    fn finish(self) -> CommandOutput {
        let now = self.cluster.now();
        let summary = match (self.out.lines().next(), self.err.lines().next()) {
            (_, Some(e)) => e.to_string(),
            (Some(o), None) => o.to_string(),
            (None, None) => "(no output)".to_string(),
        };
        self.cluster.trace.push(
            Record::new(now, Component::Kubectl, "kubectl.output", summary)
                .detail("exit_code", self.code.into()),
        );
        CommandOutput {
            t_ms: self.t_ms,
            command: self.command,
            stdout: self.out,
            stderr: self.err,
            exit_code: self.code,
        }
    }
}

impl Paused {
    fn resume(self, cluster: &mut Cluster) -> Ctx<'_> {
        Ctx {
            cluster,
            flags: self.flags,
            namespace: self.namespace,
            explicit_namespace: self.explicit_namespace,
            out: self.out,
            err: self.err,
            code: self.code,
            source: self.source,
            warned: self.warned,
            t_ms: self.t_ms,
            command: self.command,
        }
    }
}

impl Ctx<'_> {
    /// Records a client-side step.
    pub fn step(&mut self, action: &'static str, summary: impl Into<String>) {
        let now = self.cluster.now();
        self.cluster
            .trace
            .push(Record::new(now, Component::Kubectl, action, summary));
    }

    fn kubeconfig(&mut self) {
        let who = match self.flags.value("as") {
            Some(u) => format!(", impersonating {u:?} (--as)"),
            None => String::new(),
        };
        self.step(
            "kubectl.kubeconfig",
            format!(
                "context kubernetes-admin@kubernetes: cluster kubernetes (https://{}:6443), user kubernetes-admin{who}",
                crate::cluster::bootstrap::APISERVER_ADDRESS
            ),
        );
    }

    /// Writes an error to stderr and sets the exit code.
    pub fn fail(&mut self, msg: &str) {
        self.err.push_str(msg);
        if !msg.ends_with('\n') {
            self.err.push('\n');
        }
        self.code = 1;
    }

    /// A request carrying the kubeconfig's identity and any impersonation.
    pub fn request(&self, verb: Verb, info: &'static ResourceInfo) -> Request {
        let mut r = Request::new(verb, info, admin_credentials(), "kubectl");
        r.impersonate_user = self.flags.value("as").map(str::to_string);
        r.impersonate_groups = self.flags.values("as-group");
        r.field_manager = Some("kubectl".into());
        // kubectl's default `--validate=strict`.
        r.field_validation = crate::apiserver::validation::FieldValidation::Strict;
        r
    }

    /// Sends a request through kube-apiserver, recording the arrow.
    pub fn send(&mut self, req: &Request) -> Result<Object, ApiError> {
        let now = self.cluster.now();
        let mut rec =
            Record::new(now, Component::Kubectl, "request", req.line()).peer("kube-apiserver");
        if let Some(name) = &req.name {
            rec = rec.object(match &req.namespace {
                Some(ns) => format!("{} {ns}/{name}", req.resource.kind),
                None => format!("{} {name}", req.resource.kind),
            });
        }
        self.cluster.trace.push(rec);
        let result = self.cluster.request(req);
        self.print_warnings();
        result
    }

    /// client-go's warning handler as kubectl sets it up (`WarningWriter`, deduplicated):
    /// each `Warning` header of a response goes to stderr as `Warning: ...`, once.
    fn print_warnings(&mut self) {
        for w in self.cluster.api.warnings() {
            if !self.warned.contains(w) {
                self.err.push_str(&format!("Warning: {w}\n"));
                self.warned.push(w.clone());
            }
        }
    }

    /// Discovery: what the user typed (`deploy`, `pods`, `deployments.apps`) to a resource.
    pub fn resolve(&mut self, typed: &str) -> Result<&'static ResourceInfo, String> {
        match resources::lookup(typed) {
            Some(info) => {
                self.step(
                    "kubectl.discovery",
                    format!(
                        "{typed:?} is {} {} ({})",
                        info.api_version(),
                        info.kind,
                        group_resource(info.plural, info.group)
                    ),
                );
                Ok(info)
            }
            None => {
                self.step(
                    "kubectl.discovery",
                    format!("no resource type {typed:?} in discovery"),
                );
                Err(format!(
                    "error: the server doesn't have a resource type {typed:?}"
                ))
            }
        }
    }

    /// The namespace a request for `info` goes to.
    pub fn ns_for(&self, info: &ResourceInfo) -> Option<String> {
        info.namespaced.then(|| self.namespace.clone())
    }
}

/// `deployment.apps/web` or `pod/web-x`, as kubectl names objects in its messages.
pub fn kind_name(info: &ResourceInfo, name: &str) -> String {
    format!("{}/{name}", kind_string(info))
}

/// `deployment.apps`, `pod`: the lower-case kind with its group.
pub fn kind_string(info: &ResourceInfo) -> String {
    if info.group.is_empty() {
        info.kind.to_ascii_lowercase()
    } else {
        format!("{}.{}", info.kind.to_ascii_lowercase(), info.group)
    }
}

/// How kubectl prints a failed request (`cmdutil.CheckErr`): Invalid errors as
/// `The Kind "name" is invalid: ...`, everything else as `Error from server (Reason): ...`.
/// `context` is inserted before the message, e.g. `error when creating "deploy.yaml": `.
pub fn format_error(e: &ApiError, context: &str) -> String {
    if e.reason == "Invalid" {
        if let Some(d) = &e.details {
            if !d.causes.is_empty() {
                let prefix = format!(
                    "The {} {} is invalid: ",
                    d.kind,
                    crate::api::error::go_quote(&d.name)
                );
                let lines: Vec<String> = d
                    .causes
                    .iter()
                    .map(|c| format!("{}: {}", c.field, c.error_body()))
                    .collect();
                return if lines.len() == 1 {
                    format!("{prefix}{}", lines[0])
                } else {
                    format!(
                        "{prefix}\n{}",
                        lines
                            .iter()
                            .map(|l| format!("* {l}"))
                            .collect::<Vec<_>>()
                            .join("\n")
                    )
                };
            }
        }
    }
    if e.reason.is_empty() {
        // `StatusReasonUnknown`: a transport error relayed by the apiserver.
        return format!("Error from server: {context}{}", e.message);
    }
    format!("Error from server ({}): {context}{}", e.reason, e.message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::FieldError;
    use crate::json;

    #[test]
    fn invalid_errors_render_like_kubectl() {
        let one = ApiError::invalid(
            "Deployment",
            "apps",
            "web",
            vec![FieldError::invalid(
                "spec.replicas",
                json!(-1),
                "must be greater than or equal to 0",
            )],
        );
        assert_eq!(
            format_error(&one, "error when creating \"d.yaml\": "),
            "The Deployment \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        let two = ApiError::invalid(
            "Deployment",
            "apps",
            "web",
            vec![
                FieldError::required("spec.selector", ""),
                FieldError::required("spec.template", ""),
            ],
        );
        assert_eq!(
            format_error(&two, ""),
            "The Deployment \"web\" is invalid: \n* spec.selector: Required value\n* spec.template: Required value"
        );
        let nf = ApiError::not_found("deployments", "apps", "web");
        assert_eq!(
            format_error(&nf, ""),
            "Error from server (NotFound): deployments.apps \"web\" not found"
        );
    }
}
