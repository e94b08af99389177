//! etcdctl (v3 API, as shipped with etcd 3.6) against the simulated [`Etcd`] store.
//!
//! [`run`] answers the read-only commands, [`run_mut`] every command. Both take the words of a
//! command line after `etcdctl` (the first non-flag word is the subcommand; global flags such as
//! `--endpoints`, `--cacert` or `-w` may appear anywhere and are accepted) and return what the
//! real tool prints: `Ok(stdout)` or `Err(stderr)`, each ending with a newline as printed.
//!
//! Commands and output shapes follow etcdctl 3.6.5 (`etcdctl/ctlv3/command/printer_*.go`):
//! - `get KEY [RANGE_END] [--prefix] [--from-key] [--keys-only] [--count-only] [--rev N]
//!   [--limit N] [--order ASCEND|DESCEND] [--sort-by KEY|CREATE|MODIFY|VALUE|VERSION]
//!   [--min-mod-rev N] [--max-mod-rev N] [--min-create-rev N] [--max-create-rev N]
//!   [--print-value-only]` with `-w simple|json|fields` (and `--hex`);
//! - `put KEY VALUE [--lease HEX] [--prev-kv] [--ignore-value] [--ignore-lease]` → `OK`;
//! - `del KEY [RANGE_END] [--prefix] [--from-key] [--prev-kv]` → the number deleted;
//! - `watch KEY [RANGE_END] [--prefix] [--rev N] [--prev-kv]`: the run is over, so this prints
//!   every stored change from revision N up to now (nothing without `--rev`, as a real watch
//!   would print nothing until the next change);
//! - `endpoint status|health [--cluster]` with `-w simple|table|json|fields`;
//! - `member list`, `version`, `alarm list`, `compaction REV`, `lease grant TTL`,
//!   `lease revoke ID`, `lease timetolive ID [--keys]`, `lease list`, `lease keep-alive ID`.
//!
//! Other etcdctl commands (`txn`, `snapshot`, `defrag`, `auth`, ...) are recognized and refused.
//! Flag errors print cobra's first line (`Error: unknown flag: --foo`) without the usage text
//! that follows it in the real tool.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::etcd::{
    DeleteRangeResponse, Etcd, KeyValue, RangeResponse, WatchEvent, CLUSTER_ID, MEMBER_ID,
    RAFT_TERM, SERVER_VERSION, STORAGE_VERSION,
};

/// The API version etcdctl 3.6 reports.
const API_VERSION: &str = "3.6";
/// The endpoint etcdctl talks to without `--endpoints`.
const DEFAULT_ENDPOINT: &str = "127.0.0.1:2379";
/// The member as a single etcd started with default flags describes itself.
const MEMBER_NAME: &str = "default";
const MEMBER_PEER_URL: &str = "http://localhost:2380";
const MEMBER_CLIENT_URL: &str = "http://localhost:2379";
/// How long `endpoint health`'s proposal takes: fixed, so output is reproducible.
const HEALTH_TOOK: &str = "1.820523ms";

/// Runs a read-only etcdctl command (`get`, `watch`, `endpoint status`, `member list`, ...);
/// commands that write (`put`, `del`, `compaction`, `lease grant`, ...) are refused.
pub fn run(store: &Etcd, args: &[String]) -> Result<String, String> {
    execute(Store::Read(store), args, 0)
}

/// Runs any etcdctl command; `now_ms` is the virtual time, for leases.
pub fn run_mut(store: &mut Etcd, args: &[String], now_ms: u64) -> Result<String, String> {
    execute(Store::Write(store), args, now_ms)
}

enum Store<'a> {
    Read(&'a Etcd),
    Write(&'a mut Etcd),
}

impl Store<'_> {
    fn get(&self) -> &Etcd {
        match self {
            Store::Read(s) => s,
            Store::Write(s) => s,
        }
    }

    fn get_mut(&mut self, command: &str) -> Result<&mut Etcd, String> {
        match self {
            Store::Read(_) => Err(error(format!(
                "\"{command}\" writes to etcd, and this etcdctl is read-only"
            ))),
            Store::Write(s) => Ok(s),
        }
    }
}

fn error(msg: impl std::fmt::Display) -> String {
    format!("Error: {msg}\n")
}

// ---------------------------------------------------------------------------------------------
// Flags, parsed as cobra/pflag do.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bool,
    Int,
    Str,
}

struct Spec {
    name: &'static str,
    short: Option<char>,
    kind: Kind,
}

const fn flag(name: &'static str, kind: Kind) -> Spec {
    Spec {
        name,
        short: None,
        kind,
    }
}

const GLOBAL_FLAGS: &[Spec] = &[
    flag("endpoints", Kind::Str),
    flag("debug", Kind::Bool),
    Spec {
        name: "write-out",
        short: Some('w'),
        kind: Kind::Str,
    },
    flag("hex", Kind::Bool),
    flag("dial-timeout", Kind::Str),
    flag("command-timeout", Kind::Str),
    flag("keepalive-time", Kind::Str),
    flag("keepalive-timeout", Kind::Str),
    flag("max-request-bytes", Kind::Int),
    flag("max-recv-bytes", Kind::Int),
    flag("insecure-transport", Kind::Bool),
    flag("insecure-discovery", Kind::Bool),
    flag("insecure-skip-tls-verify", Kind::Bool),
    flag("cert", Kind::Str),
    flag("key", Kind::Str),
    flag("cacert", Kind::Str),
    flag("user", Kind::Str),
    flag("password", Kind::Str),
    Spec {
        name: "discovery-srv",
        short: Some('d'),
        kind: Kind::Str,
    },
    flag("discovery-srv-name", Kind::Str),
    Spec {
        name: "help",
        short: Some('h'),
        kind: Kind::Bool,
    },
];

const GET_FLAGS: &[Spec] = &[
    flag("consistency", Kind::Str),
    flag("order", Kind::Str),
    flag("sort-by", Kind::Str),
    flag("limit", Kind::Int),
    flag("prefix", Kind::Bool),
    flag("from-key", Kind::Bool),
    flag("rev", Kind::Int),
    flag("keys-only", Kind::Bool),
    flag("count-only", Kind::Bool),
    flag("print-value-only", Kind::Bool),
    flag("min-create-rev", Kind::Int),
    flag("max-create-rev", Kind::Int),
    flag("min-mod-rev", Kind::Int),
    flag("max-mod-rev", Kind::Int),
];

const PUT_FLAGS: &[Spec] = &[
    flag("lease", Kind::Str),
    flag("prev-kv", Kind::Bool),
    flag("ignore-value", Kind::Bool),
    flag("ignore-lease", Kind::Bool),
];

const DEL_FLAGS: &[Spec] = &[
    flag("prefix", Kind::Bool),
    flag("prev-kv", Kind::Bool),
    flag("from-key", Kind::Bool),
    flag("range", Kind::Bool),
];

const WATCH_FLAGS: &[Spec] = &[
    Spec {
        name: "interactive",
        short: Some('i'),
        kind: Kind::Bool,
    },
    flag("prefix", Kind::Bool),
    flag("rev", Kind::Int),
    flag("prev-kv", Kind::Bool),
    flag("progress-notify", Kind::Bool),
];

const ENDPOINT_FLAGS: &[Spec] = &[flag("cluster", Kind::Bool)];
const COMPACTION_FLAGS: &[Spec] = &[flag("physical", Kind::Bool)];
const TIMETOLIVE_FLAGS: &[Spec] = &[flag("keys", Kind::Bool)];
const KEEPALIVE_FLAGS: &[Spec] = &[flag("once", Kind::Bool)];
const MEMBER_LIST_FLAGS: &[Spec] = &[flag("consistency", Kind::Str)];

fn local_flags(path: &[&str]) -> &'static [Spec] {
    match path {
        ["get"] => GET_FLAGS,
        ["put"] => PUT_FLAGS,
        ["del"] => DEL_FLAGS,
        ["watch"] => WATCH_FLAGS,
        ["endpoint", ..] => ENDPOINT_FLAGS,
        ["compaction"] => COMPACTION_FLAGS,
        ["lease", "timetolive"] => TIMETOLIVE_FLAGS,
        ["lease", "keep-alive"] => KEEPALIVE_FLAGS,
        ["member", "list"] => MEMBER_LIST_FLAGS,
        _ => &[],
    }
}

/// The flags that take a value, of any command: what the search for the subcommand skips.
fn takes_value_anywhere(name: &str) -> bool {
    [
        GLOBAL_FLAGS,
        GET_FLAGS,
        PUT_FLAGS,
        WATCH_FLAGS,
        MEMBER_LIST_FLAGS,
    ]
    .iter()
    .flat_map(|t| t.iter())
    .any(|s| s.name == name && s.kind != Kind::Bool)
}

#[derive(Default)]
struct Flags {
    values: BTreeMap<&'static str, String>,
}

impl Flags {
    fn on(&self, name: &str) -> bool {
        self.values.get(name).is_some_and(|v| v == "true")
    }
    fn str(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }
    fn int(&self, name: &str) -> i64 {
        // Validated when parsed.
        self.values
            .get(name)
            .and_then(|v| parse_go_int(v, 0).ok())
            .unwrap_or(0)
    }
}

fn flag_display(spec: &Spec) -> String {
    match spec.short {
        Some(c) => format!("-{c}, --{}", spec.name),
        None => format!("--{}", spec.name),
    }
}

fn set_flag(flags: &mut Flags, spec: &Spec, value: &str) -> Result<(), String> {
    let checked = match spec.kind {
        Kind::Bool => parse_go_bool(value).map(|b| b.to_string()).map_err(|_| {
            format!(
                "strconv.ParseBool: parsing {}: invalid syntax",
                go_quote(value)
            )
        }),
        Kind::Int => parse_go_int(value, 0).map(|_| value.to_string()),
        Kind::Str => Ok(value.to_string()),
    };
    match checked {
        Ok(v) => {
            flags.values.insert(spec.name, v);
            Ok(())
        }
        Err(e) => Err(error(format!(
            "invalid argument {} for {} flag: {e}",
            go_quote(value),
            go_quote(&flag_display(spec))
        ))),
    }
}

/// Splits `args` into flags (by `specs`) and positional words, as pflag does.
fn parse_flags(args: &[String], specs: &[&[Spec]]) -> Result<(Flags, Vec<String>), String> {
    let find_long = |n: &str| specs.iter().flat_map(|t| t.iter()).find(|s| s.name == n);
    let find_short = |c: char| {
        specs
            .iter()
            .flat_map(|t| t.iter())
            .find(|s| s.short == Some(c))
    };
    let mut flags = Flags::default();
    let mut pos = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            pos.extend(args[i..].iter().cloned());
            break;
        }
        if let Some(body) = a.strip_prefix("--") {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            let Some(spec) = find_long(name) else {
                return Err(error(format!("unknown flag: --{name}")));
            };
            let value = match (inline, spec.kind) {
                (Some(v), _) => v.to_string(),
                (None, Kind::Bool) => "true".to_string(),
                (None, _) => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        v.clone()
                    }
                    None => return Err(error(format!("flag needs an argument: --{name}"))),
                },
            };
            set_flag(&mut flags, spec, &value)?;
        } else if a.len() > 1 && a.starts_with('-') {
            let shorts: Vec<char> = a[1..].chars().collect();
            let mut j = 0;
            while j < shorts.len() {
                let c = shorts[j];
                let Some(spec) = find_short(c) else {
                    return Err(error(format!("unknown shorthand flag: '{c}' in {a}")));
                };
                if spec.kind == Kind::Bool {
                    let rest: String = shorts[j + 1..].iter().collect();
                    if let Some(v) = rest.strip_prefix('=') {
                        set_flag(&mut flags, spec, v)?;
                        break;
                    }
                    set_flag(&mut flags, spec, "true")?;
                    j += 1;
                    continue;
                }
                let rest: String = shorts[j + 1..].iter().collect();
                let value = if let Some(v) = rest.strip_prefix('=') {
                    v.to_string()
                } else if !rest.is_empty() {
                    rest
                } else if let Some(v) = args.get(i) {
                    i += 1;
                    v.clone()
                } else {
                    return Err(error(format!("flag needs an argument: '{c}' in -{c}")));
                };
                set_flag(&mut flags, spec, &value)?;
                break;
            }
        } else {
            pos.push(a.clone());
        }
    }
    Ok((flags, pos))
}

/// The positional words in order, skipping flags and the values of flags that take one: the
/// first of them name the command.
fn command_words(args: &[String]) -> Vec<&str> {
    let mut words = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if a == "--" {
            break;
        }
        if let Some(body) = a.strip_prefix("--") {
            if !body.contains('=') && takes_value_anywhere(body) {
                i += 1;
            }
        } else if a.len() > 1 && a.starts_with('-') {
            if a == "-w" || a == "-d" {
                i += 1;
            }
        } else {
            words.push(a);
        }
    }
    words
}

// ---------------------------------------------------------------------------------------------
// Commands.

const COMMANDS: &[(&str, &str)] = &[
    ("get", "Gets the key or a range of keys"),
    ("put", "Puts the given key into the store"),
    (
        "del",
        "Removes the specified key or range of keys [key, range_end)",
    ),
    ("txn", "Txn processes all the requests in one transaction"),
    ("compaction", "Compacts the event history in etcd"),
    ("alarm", "Alarm related commands"),
    (
        "defrag",
        "Defragments the storage of the etcd members with given endpoints",
    ),
    ("endpoint", "Endpoint related commands"),
    (
        "move-leader",
        "Transfers leadership to another etcd cluster member.",
    ),
    ("watch", "Watches events stream on keys or prefixes"),
    ("version", "Prints the version of etcdctl"),
    ("lease", "Lease related commands"),
    ("member", "Membership related commands"),
    ("snapshot", "Manages etcd node snapshots"),
    (
        "make-mirror",
        "Makes a mirror at the destination etcd cluster",
    ),
    ("lock", "Acquires a named lock"),
    ("elect", "Observes and participates in leader election"),
    ("auth", "Enable or disable authentication"),
    ("user", "User related commands"),
    ("role", "Role related commands"),
    (
        "check",
        "commands for checking properties of the etcd cluster",
    ),
    ("completion", "Generate completion script"),
    ("downgrade", "Downgrade related commands"),
    ("help", "Help about any command"),
];

const SUBCOMMANDS: &[(&str, &[(&str, &str)])] = &[
    (
        "endpoint",
        &[
            (
                "hashkv",
                "Prints the KV history hash for each endpoint in --endpoints",
            ),
            (
                "health",
                "Checks the healthiness of endpoints specified in `--endpoints` flag",
            ),
            (
                "status",
                "Prints out the status of endpoints specified in `--endpoints` flag",
            ),
        ],
    ),
    (
        "lease",
        &[
            ("grant", "Creates leases"),
            ("keep-alive", "Keeps leases alive (renew)"),
            ("list", "List all active leases"),
            ("revoke", "Revokes leases"),
            ("timetolive", "Get lease information"),
        ],
    ),
    (
        "member",
        &[
            ("add", "Adds a member into the cluster"),
            ("list", "Lists all members in the cluster"),
            ("promote", "Promotes a non-voting member in the cluster"),
            ("remove", "Removes a member from the cluster"),
            ("update", "Updates a member in the cluster"),
        ],
    ),
    (
        "alarm",
        &[
            ("disarm", "Disarms all alarms"),
            ("list", "Lists all alarms"),
        ],
    ),
];

/// cobra's lookup with prefix matching enabled: an exact name, else a unique prefix.
fn find_command<'a>(names: impl Iterator<Item = &'a str> + Clone, typed: &str) -> Option<&'a str> {
    if let Some(n) = names.clone().find(|n| *n == typed) {
        return Some(n);
    }
    let mut matches = names.filter(|n| n.starts_with(typed));
    match (matches.next(), matches.next()) {
        (Some(n), None) if !typed.is_empty() => Some(n),
        _ => None,
    }
}

fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_ascii_lowercase().chars().collect();
    let b: Vec<char> = b.to_ascii_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn unknown_command(typed: &str) -> String {
    let suggestions: Vec<&str> = COMMANDS
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| *n != "help")
        .filter(|n| levenshtein(typed, n) <= 2 || n.starts_with(&typed.to_ascii_lowercase()))
        .collect();
    let mut out = format!("Error: unknown command \"{typed}\" for \"etcdctl\"\n");
    if !suggestions.is_empty() {
        out.push_str("\nDid you mean this?\n");
        for s in suggestions {
            let _ = writeln!(out, "\t{s}");
        }
        out.push('\n');
    }
    out.push_str("Run 'etcdctl --help' for usage.\n");
    out
}

fn root_help() -> String {
    let mut out = format!(
        "NAME:\n  etcdctl - A simple command line client for etcd3.\n\nUSAGE:\n  etcdctl [flags]\n\n\
         VERSION:\n  {SERVER_VERSION}\n\nAPI VERSION:\n  {API_VERSION}\n\n\nCOMMANDS:\n"
    );
    for (name, short) in COMMANDS {
        match SUBCOMMANDS.iter().find(|(g, _)| g == name) {
            Some((_, subs)) => {
                for (sub, s) in subs.iter() {
                    let _ = writeln!(out, "  {name} {sub}\t{s}");
                }
            }
            None => {
                let _ = writeln!(out, "  {name}\t{short}");
            }
        }
    }
    out
}

fn group_help(group: &str) -> String {
    let short = COMMANDS
        .iter()
        .find(|(n, _)| *n == group)
        .map_or("", |(_, s)| *s);
    let mut out = format!(
        "NAME:\n  {group} - {short}\n\nUSAGE:\n  etcdctl {group} <subcommand> [flags]\n\n\
         API VERSION:\n  {API_VERSION}\n\n\nCOMMANDS:\n"
    );
    if let Some((_, subs)) = SUBCOMMANDS.iter().find(|(g, _)| *g == group) {
        for (sub, s) in subs.iter() {
            let _ = writeln!(out, "  {sub}\t{s}");
        }
    }
    out
}

fn execute(mut store: Store<'_>, args: &[String], now_ms: u64) -> Result<String, String> {
    let words = command_words(args);
    let Some(&first) = words.first() else {
        // Only flags: `etcdctl --help`, `etcdctl -w json`, ...
        parse_flags(args, &[GLOBAL_FLAGS])?;
        return Ok(root_help());
    };
    let Some(top) = find_command(COMMANDS.iter().map(|(n, _)| *n), first) else {
        return Err(unknown_command(first));
    };
    let mut path = vec![top];
    if let Some((_, subs)) = SUBCOMMANDS.iter().find(|(g, _)| *g == top) {
        match words
            .get(1)
            .and_then(|w| find_command(subs.iter().map(|(n, _)| *n), w))
        {
            Some(sub) => path.push(sub),
            None => return Ok(group_help(top)),
        }
    }
    let (flags, mut pos) = parse_flags(args, &[GLOBAL_FLAGS, local_flags(&path)])?;
    pos.drain(..path.len());
    if flags.on("help") || top == "help" {
        return Ok(
            if path.len() > 1 || SUBCOMMANDS.iter().any(|(g, _)| *g == top) {
                group_help(top)
            } else {
                root_help()
            },
        );
    }
    let format = flags.str("write-out").unwrap_or("simple").to_string();
    let fmt = match format.as_str() {
        "simple" => Format::Simple,
        "json" => Format::Json,
        "fields" => Format::Fields,
        "table" => Format::Table,
        "protobuf" => Format::Protobuf,
        _ => return Err(error("unsupported output format")),
    };
    let ctx = Ctx {
        flags: &flags,
        fmt,
        hex: flags.on("hex"),
    };
    match path.as_slice() {
        ["get"] => cmd_get(store.get(), &ctx, &pos),
        ["watch"] => cmd_watch(store.get(), &ctx, &pos),
        ["put"] => cmd_put(store.get_mut("put")?, &ctx, &pos),
        ["del"] => cmd_del(store.get_mut("del")?, &ctx, &pos),
        ["endpoint", "status"] => cmd_endpoint_status(store.get(), &ctx),
        ["endpoint", "health"] => cmd_endpoint_health(&ctx),
        ["member", "list"] => cmd_member_list(store.get(), &ctx),
        ["version"] => Ok(format!(
            "etcdctl version: {SERVER_VERSION}\nAPI version: {API_VERSION}\n"
        )),
        ["alarm", "list"] => Ok(String::new()),
        ["compaction"] => cmd_compaction(store.get_mut("compaction")?, &pos),
        ["lease", "grant"] => cmd_lease_grant(store.get_mut("lease grant")?, &ctx, &pos, now_ms),
        ["lease", "revoke"] => cmd_lease_revoke(store.get_mut("lease revoke")?, &ctx, &pos),
        ["lease", "keep-alive"] => {
            cmd_lease_keepalive(store.get_mut("lease keep-alive")?, &ctx, &pos, now_ms)
        }
        ["lease", "timetolive"] => cmd_lease_timetolive(store.get(), &ctx, &pos, now_ms),
        ["lease", "list"] => cmd_lease_list(store.get(), &ctx),
        _ => Err(error(format!(
            "\"{}\" is not simulated by kubeplay's etcdctl",
            path.join(" ")
        ))),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Simple,
    Json,
    Fields,
    Table,
    Protobuf,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Simple => "simple",
            Format::Json => "json",
            Format::Fields => "fields",
            Format::Table => "table",
            Format::Protobuf => "protobuf",
        }
    }
}

struct Ctx<'a> {
    flags: &'a Flags,
    fmt: Format,
    hex: bool,
}

impl Ctx<'_> {
    /// The error printerUnsupported gives for a format a command has no printer for.
    fn unsupported(&self) -> String {
        error(format!(
            "{} not supported as output format",
            self.fmt.name()
        ))
    }
}

/// What a key argument selects.
enum Selection {
    Prefix(String),
    /// etcd's `[key, range_end)`, `range_end` empty for one key and `"\0"` for "from key".
    Range(String, String),
}

fn select(key: &str, range_end: Option<&str>, prefix: bool, from_key: bool) -> Selection {
    if prefix {
        if key.is_empty() {
            Selection::Range("\0".into(), "\0".into())
        } else {
            Selection::Prefix(key.to_string())
        }
    } else if from_key {
        let k = if key.is_empty() { "\0" } else { key };
        Selection::Range(k.to_string(), "\0".into())
    } else {
        Selection::Range(key.to_string(), range_end.unwrap_or("").to_string())
    }
}

fn selection_matches(sel: &Selection, key: &str) -> bool {
    match sel {
        Selection::Prefix(p) => key.starts_with(p.as_str()),
        Selection::Range(k, end) if end.is_empty() => key == k,
        Selection::Range(k, end) if end == "\0" => key >= k.as_str(),
        Selection::Range(k, end) => key >= k.as_str() && key < end.as_str(),
    }
}

fn cmd_get(store: &Etcd, ctx: &Ctx, pos: &[String]) -> Result<String, String> {
    let f = ctx.flags;
    if pos.is_empty() {
        return Err(error(
            "get command needs one argument as key and an optional argument as range_end",
        ));
    }
    if f.on("prefix") && f.on("from-key") {
        return Err(error(
            "`--prefix` and `--from-key` cannot be set at the same time, choose one",
        ));
    }
    if f.on("keys-only") && f.on("count-only") {
        return Err(error(
            "`--keys-only` and `--count-only` cannot be set at the same time, choose one",
        ));
    }
    if pos.len() > 1 && (f.on("prefix") || f.on("from-key")) {
        return Err(error(
            "too many arguments, only accept one argument when `--prefix` or `--from-key` is set",
        ));
    }
    let order = f.str("order").unwrap_or("").to_ascii_uppercase();
    if !matches!(order.as_str(), "" | "ASCEND" | "DESCEND") {
        return Err(error(format!(
            "bad sort order {}",
            f.str("order").unwrap_or("")
        )));
    }
    let target = f.str("sort-by").unwrap_or("").to_ascii_uppercase();
    if !matches!(
        target.as_str(),
        "" | "CREATE" | "KEY" | "MODIFY" | "VALUE" | "VERSION"
    ) {
        return Err(error(format!(
            "bad sort target {}",
            f.str("sort-by").unwrap_or("")
        )));
    }
    let (min_create, max_create) = (f.int("min-create-rev"), f.int("max-create-rev"));
    let (min_mod, max_mod) = (f.int("min-mod-rev"), f.int("max-mod-rev"));
    if max_create > 0 && min_create > max_create {
        return Err(error(format!(
            "getMinCreateRev(={min_create}) > getMaxCreateRev(={max_create})"
        )));
    }
    if max_mod > 0 && min_mod > max_mod {
        return Err(error(format!(
            "getMinModRev(={min_mod}) > getMaxModRev(={max_mod})"
        )));
    }
    if f.on("count-only") && ctx.fmt != Format::Fields {
        return Err(error("--count-only is only for `--write-out=fields`"));
    }
    if f.on("print-value-only") && ctx.fmt != Format::Simple {
        return Err(error("print-value-only is only for `--write-out=simple`"));
    }
    let limit = f.int("limit").max(0) as usize;
    let rev = Some(f.int("rev")).filter(|r| *r > 0);
    // The server sorts and filters before it limits, so it then reads the whole range.
    let descend = order == "DESCEND";
    let sorted = descend || !(target.is_empty() || target == "KEY");
    let filtered = min_create > 0 || max_create > 0 || min_mod > 0 || max_mod > 0;
    let read_limit = if sorted || filtered { 0 } else { limit };
    let sel = select(
        &pos[0],
        pos.get(1).map(String::as_str),
        f.on("prefix"),
        f.on("from-key"),
    );
    let result = match &sel {
        Selection::Prefix(p) => store.range_prefix(p, rev, read_limit),
        Selection::Range(k, end) => store.range(k, end, rev, read_limit),
    };
    let mut resp = result.map_err(error)?;
    if filtered {
        resp.kvs.retain(|kv| {
            (min_create == 0 || kv.create_revision >= min_create)
                && (max_create == 0 || kv.create_revision <= max_create)
                && (min_mod == 0 || kv.mod_revision >= min_mod)
                && (max_mod == 0 || kv.mod_revision <= max_mod)
        });
    }
    if sorted {
        match target.as_str() {
            "CREATE" => crate::api::sorting::sort_by_key(&mut resp.kvs, &|kv| kv.create_revision),
            "MODIFY" => crate::api::sorting::sort_by_key(&mut resp.kvs, &|kv| kv.mod_revision),
            "VERSION" => crate::api::sorting::sort_by_key(&mut resp.kvs, &|kv| kv.version),
            "VALUE" => crate::api::sorting::sort_by(&mut resp.kvs, &|a, b| a.value.cmp(&b.value)),
            _ => {}
        }
        if descend {
            resp.kvs.reverse();
        }
    }
    if (sorted || filtered) && limit > 0 && resp.kvs.len() > limit {
        resp.kvs.truncate(limit);
        resp.more = true;
    }
    if f.on("keys-only") {
        for kv in &mut resp.kvs {
            kv.value = std::rc::Rc::from("");
        }
    }
    if f.on("count-only") {
        resp.kvs.clear();
    }
    let value_only = f.on("print-value-only");
    match ctx.fmt {
        Format::Simple => {
            let mut out = String::new();
            for kv in &resp.kvs {
                print_kv(&mut out, ctx.hex, value_only, kv);
            }
            Ok(out)
        }
        Format::Json => Ok(range_json(store, &resp) + "\n"),
        Format::Fields => {
            let mut out = fields_header(ctx.hex, resp.revision);
            for kv in &resp.kvs {
                fields_kv(&mut out, ctx.hex, "", kv);
            }
            let _ = writeln!(out, "\"More\" : {}", resp.more);
            let _ = writeln!(out, "\"Count\" : {}", resp.count);
            Ok(out)
        }
        Format::Table | Format::Protobuf => Err(ctx.unsupported()),
    }
}

fn cmd_put(store: &mut Etcd, ctx: &Ctx, pos: &[String]) -> Result<String, String> {
    let f = ctx.flags;
    let needs = "put command needs 1 argument and input from stdin or 2 arguments";
    if pos.is_empty() {
        return Err(error(needs));
    }
    let key = &pos[0];
    if f.on("ignore-value") && pos.len() > 1 {
        return Err(error(
            "put command needs only 1 argument when 'ignore-value' is set",
        ));
    }
    if !f.on("ignore-value") && pos.len() < 2 {
        // There is no standard input to read the value from.
        return Err(error(needs));
    }
    let lease_arg = f.str("lease").unwrap_or("0");
    let mut lease = parse_go_int(lease_arg, 16)
        .map_err(|e| error(format!("bad lease ID ({e}), expecting ID in Hex")))?;
    let current = store.get(key, None).map_err(error)?;
    let value = if f.on("ignore-value") {
        match &current {
            Some(kv) => kv.value.clone(),
            None => return Err(error("etcdserver: key not found")),
        }
    } else {
        std::rc::Rc::from(pos[1].as_str())
    };
    if f.on("ignore-lease") {
        match &current {
            Some(kv) => lease = kv.lease,
            None => return Err(error("etcdserver: key not found")),
        }
    }
    let resp = store.put(key, value, lease).map_err(error)?;
    let prev = resp.prev_kv.filter(|_| f.on("prev-kv"));
    match ctx.fmt {
        Format::Simple => {
            let mut out = String::from("OK\n");
            if let Some(kv) = &prev {
                print_kv(&mut out, ctx.hex, false, kv);
            }
            Ok(out)
        }
        Format::Json => {
            let mut out = format!("{{\"header\":{}", header_json(resp.revision));
            if let Some(kv) = &prev {
                let _ = write!(out, ",\"prev_kv\":{}", kv_json(kv));
            }
            out.push_str("}\n");
            Ok(out)
        }
        Format::Fields => {
            let mut out = fields_header(ctx.hex, resp.revision);
            if let Some(kv) = &prev {
                fields_kv(&mut out, ctx.hex, "Prev", kv);
            }
            Ok(out)
        }
        Format::Table | Format::Protobuf => Err(ctx.unsupported()),
    }
}

fn cmd_del(store: &mut Etcd, ctx: &Ctx, pos: &[String]) -> Result<String, String> {
    let f = ctx.flags;
    if pos.is_empty() || pos.len() > 2 {
        return Err(error(
            "del command needs one argument as key and an optional argument as range_end",
        ));
    }
    if f.on("prefix") && f.on("from-key") {
        return Err(error(
            "`--prefix` and `--from-key` cannot be set at the same time, choose one",
        ));
    }
    if pos.len() > 1 && (f.on("prefix") || f.on("from-key")) {
        return Err(error(
            "too many arguments, only accept one argument when `--prefix` or `--from-key` is set",
        ));
    }
    let sel = select(
        &pos[0],
        pos.get(1).map(String::as_str),
        f.on("prefix"),
        f.on("from-key"),
    );
    let resp: DeleteRangeResponse = match &sel {
        Selection::Prefix(p) => store.delete_prefix(p),
        Selection::Range(k, end) => store.delete_range(k, end),
    };
    let prevs: &[KeyValue] = if f.on("prev-kv") { &resp.prev_kvs } else { &[] };
    match ctx.fmt {
        Format::Simple => {
            let mut out = format!("{}\n", resp.deleted);
            for kv in prevs {
                print_kv(&mut out, ctx.hex, false, kv);
            }
            Ok(out)
        }
        Format::Json => {
            let mut out = format!("{{\"header\":{}", header_json(resp.revision));
            if resp.deleted > 0 {
                let _ = write!(out, ",\"deleted\":{}", resp.deleted);
            }
            if !prevs.is_empty() {
                let list: Vec<String> = prevs.iter().map(kv_json).collect();
                let _ = write!(out, ",\"prev_kvs\":[{}]", list.join(","));
            }
            out.push_str("}\n");
            Ok(out)
        }
        Format::Fields => {
            let mut out = fields_header(ctx.hex, resp.revision);
            let _ = writeln!(out, "\"Deleted\" : {}", resp.deleted);
            for kv in prevs {
                fields_kv(&mut out, ctx.hex, "Prev", kv);
            }
            Ok(out)
        }
        Format::Table | Format::Protobuf => Err(ctx.unsupported()),
    }
}

fn cmd_watch(store: &Etcd, ctx: &Ctx, pos: &[String]) -> Result<String, String> {
    let f = ctx.flags;
    if f.on("interactive") {
        return Err(error(
            "interactive watch is not simulated by kubeplay's etcdctl",
        ));
    }
    if pos.is_empty() {
        return Err(error("bad number of arguments"));
    }
    if pos.len() >= 2 && f.on("prefix") {
        return Err(error("`range_end` and `--prefix` are mutually exclusive"));
    }
    let rev = f.int("rev");
    if rev <= 0 {
        // A watch from now on: nothing has happened since.
        return Ok(String::new());
    }
    let sel = select(
        &pos[0],
        pos.get(1).map(String::as_str),
        f.on("prefix"),
        false,
    );
    let events = match &sel {
        Selection::Prefix(p) => store.changes(p, true, rev),
        Selection::Range(k, end) if end.is_empty() => store.changes(k, false, rev),
        Selection::Range(_, _) => store.changes("", true, rev),
    }
    .map_err(|e| format!("watch was canceled ({e})\nError: watch is canceled by the server\n"))?;
    let events: Vec<&WatchEvent> = events
        .iter()
        .filter(|ev| selection_matches(&sel, &ev.kv.key))
        .collect();
    let prev_kv = f.on("prev-kv");
    match ctx.fmt {
        Format::Simple => {
            let mut out = String::new();
            for ev in events {
                let _ = writeln!(out, "{}", ev.kind.as_str());
                if let (true, Some(p)) = (prev_kv, &ev.prev_kv) {
                    print_kv(&mut out, ctx.hex, false, p);
                }
                print_kv(&mut out, ctx.hex, false, &ev.kv);
            }
            Ok(out)
        }
        Format::Json => {
            // One watch response per revision, as etcd sends a revision's events together.
            let mut out = String::new();
            let mut i = 0;
            while i < events.len() {
                let rev = events[i].kv.mod_revision;
                let mut j = i;
                let mut list = Vec::new();
                while j < events.len() && events[j].kv.mod_revision == rev {
                    let ev = events[j];
                    let mut e = String::from("{");
                    if ev.kind == crate::etcd::EventKind::Delete {
                        e.push_str("\"type\":1,");
                    }
                    let _ = write!(e, "\"kv\":{}", kv_json(&ev.kv));
                    if let (true, Some(p)) = (prev_kv, &ev.prev_kv) {
                        let _ = write!(e, ",\"prev_kv\":{}", kv_json(p));
                    }
                    e.push('}');
                    list.push(e);
                    j += 1;
                }
                let header = header_json_parts(store.revision());
                let _ = writeln!(
                    out,
                    "{{\"Header\":{header},\"Events\":[{}],\"CompactRevision\":0,\"Canceled\":false,\"Created\":false}}",
                    list.join(",")
                );
                i = j;
            }
            Ok(out)
        }
        Format::Fields => {
            let mut out = String::new();
            for ev in events {
                out.push_str(&fields_header(ctx.hex, store.revision()));
                let _ = writeln!(out, "\"Type\" : {}", ev.kind.as_str());
                if let (true, Some(p)) = (prev_kv, &ev.prev_kv) {
                    fields_kv(&mut out, ctx.hex, "Prev", p);
                }
                fields_kv(&mut out, ctx.hex, "", &ev.kv);
            }
            Ok(out)
        }
        Format::Table | Format::Protobuf => Err(ctx.unsupported()),
    }
}

fn endpoints(ctx: &Ctx) -> Vec<String> {
    if ctx.flags.on("cluster") {
        return vec![MEMBER_CLIENT_URL.to_string()];
    }
    match ctx.flags.str("endpoints") {
        Some(list) => list
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        None => vec![DEFAULT_ENDPOINT.to_string()],
    }
}

fn cmd_endpoint_status(store: &Etcd, ctx: &Ctx) -> Result<String, String> {
    let db = store.db_size();
    let in_use = store.db_size_in_use();
    let raft = store.raft_index();
    let eps = endpoints(ctx);
    let row = |ep: &str| -> Vec<String> {
        vec![
            ep.to_string(),
            format!("{MEMBER_ID:x}"),
            SERVER_VERSION.to_string(),
            STORAGE_VERSION.to_string(),
            humanize_bytes(db),
            humanize_bytes(in_use),
            format!("{}%", 100 - (in_use * 100 / db.max(1))),
            humanize_bytes(0),
            "true".to_string(),
            "false".to_string(),
            RAFT_TERM.to_string(),
            raft.to_string(),
            raft.to_string(),
            String::new(),
            String::new(),
            "false".to_string(),
        ]
    };
    match ctx.fmt {
        Format::Simple => Ok(eps.iter().map(|ep| row(ep).join(", ") + "\n").collect()),
        Format::Table => {
            let header = [
                "endpoint",
                "ID",
                "version",
                "storage version",
                "db size",
                "in use",
                "percentage not in use",
                "quota",
                "is leader",
                "is learner",
                "raft term",
                "raft index",
                "raft applied index",
                "errors",
                "downgrade target version",
                "downgrade enabled",
            ];
            let rows: Vec<Vec<String>> = eps.iter().map(|ep| row(ep)).collect();
            Ok(render_table(&header, &rows))
        }
        Format::Json => {
            let list: Vec<String> = eps
                .iter()
                .map(|ep| {
                    format!(
                        "{{\"Endpoint\":{},\"Status\":{{\"header\":{},\"version\":\"{SERVER_VERSION}\",\
                         \"dbSize\":{db},\"leader\":{MEMBER_ID},\"raftIndex\":{raft},\"raftTerm\":{RAFT_TERM},\
                         \"raftAppliedIndex\":{raft},\"dbSizeInUse\":{in_use},\
                         \"storageVersion\":\"{STORAGE_VERSION}\",\"downgradeInfo\":{{}}}}}}",
                        json_string(ep),
                        header_json(store.revision())
                    )
                })
                .collect();
            Ok(format!("[{}]\n", list.join(",")))
        }
        Format::Fields => {
            let mut out = String::new();
            for ep in &eps {
                out.push_str(&fields_header(ctx.hex, store.revision()));
                let _ = writeln!(out, "\"Version\" : {}", go_quote(SERVER_VERSION));
                let _ = writeln!(out, "\"StorageVersion\" : {}", go_quote(STORAGE_VERSION));
                let _ = writeln!(out, "\"DBSize\" : {db}");
                let _ = writeln!(out, "\"DBSizeInUse\" : {in_use}");
                let _ = writeln!(out, "\"Leader\" : {MEMBER_ID}");
                let _ = writeln!(out, "\"IsLearner\" : false");
                let _ = writeln!(out, "\"RaftIndex\" : {raft}");
                let _ = writeln!(out, "\"RaftTerm\" : {RAFT_TERM}");
                let _ = writeln!(out, "\"RaftAppliedIndex\" : {raft}");
                let _ = writeln!(out, "\"Errors\" : []");
                let _ = writeln!(out, "\"Endpoint\" : {}", go_quote(ep));
                let _ = writeln!(out, "\"DowngradeTargetVersion\" : \"\"");
                let _ = writeln!(out, "\"DowngradeEnabled\" : false");
                out.push('\n');
            }
            Ok(out)
        }
        Format::Protobuf => Err(ctx.unsupported()),
    }
}

fn cmd_endpoint_health(ctx: &Ctx) -> Result<String, String> {
    let eps = endpoints(ctx);
    match ctx.fmt {
        Format::Simple => Ok(eps
            .iter()
            .map(|ep| {
                format!("{ep} is healthy: successfully committed proposal: took = {HEALTH_TOOK}\n")
            })
            .collect()),
        Format::Table => {
            let rows: Vec<Vec<String>> = eps
                .iter()
                .map(|ep| vec![ep.clone(), "true".into(), HEALTH_TOOK.into(), String::new()])
                .collect();
            Ok(render_table(
                &["endpoint", "health", "took", "error"],
                &rows,
            ))
        }
        Format::Json => {
            let list: Vec<String> = eps
                .iter()
                .map(|ep| {
                    format!(
                        "{{\"endpoint\":{},\"health\":true,\"took\":\"{HEALTH_TOOK}\"}}",
                        json_string(ep)
                    )
                })
                .collect();
            Ok(format!("[{}]\n", list.join(",")))
        }
        Format::Fields | Format::Protobuf => Err(ctx.unsupported()),
    }
}

fn cmd_member_list(store: &Etcd, ctx: &Ctx) -> Result<String, String> {
    let row = vec![
        format!("{MEMBER_ID:x}"),
        "started".to_string(),
        MEMBER_NAME.to_string(),
        MEMBER_PEER_URL.to_string(),
        MEMBER_CLIENT_URL.to_string(),
        "false".to_string(),
    ];
    let _ = store;
    match ctx.fmt {
        Format::Simple => Ok(row.join(", ") + "\n"),
        Format::Table => Ok(render_table(
            &[
                "ID",
                "Status",
                "Name",
                "Peer Addrs",
                "Client Addrs",
                "Is Learner",
            ],
            &[row],
        )),
        Format::Json => {
            let (cluster, member) = if ctx.hex {
                (format!("\"{CLUSTER_ID:x}\""), format!("\"{MEMBER_ID:x}\""))
            } else {
                (CLUSTER_ID.to_string(), MEMBER_ID.to_string())
            };
            let id = if ctx.hex {
                format!("\"{MEMBER_ID:x}\"")
            } else {
                MEMBER_ID.to_string()
            };
            Ok(format!(
                "{{\"header\":{{\"cluster_id\":{cluster},\"member_id\":{member},\"raft_term\":{RAFT_TERM}}},\
                 \"members\":[{{\"ID\":{id},\"name\":\"{MEMBER_NAME}\",\"peerURLs\":[\"{MEMBER_PEER_URL}\"],\
                 \"clientURLs\":[\"{MEMBER_CLIENT_URL}\"]}}]}}\n"
            ))
        }
        Format::Fields => {
            let mut out = fields_header(ctx.hex, 0);
            let _ = writeln!(out, "\"ID\" : {MEMBER_ID}");
            let _ = writeln!(out, "\"Name\" : {}", go_quote(MEMBER_NAME));
            let _ = writeln!(out, "\"PeerURL\" : {}", go_quote(MEMBER_PEER_URL));
            let _ = writeln!(out, "\"ClientURL\" : {}", go_quote(MEMBER_CLIENT_URL));
            let _ = writeln!(out, "\"IsLearner\" : false");
            out.push('\n');
            Ok(out)
        }
        Format::Protobuf => Err(ctx.unsupported()),
    }
}

fn cmd_compaction(store: &mut Etcd, pos: &[String]) -> Result<String, String> {
    if pos.len() != 1 {
        return Err(error("compaction command needs 1 argument"));
    }
    let rev = parse_go_int(&pos[0], 10).map_err(error)?;
    store.compact(rev).map_err(error)?;
    Ok(format!("compacted revision {rev}\n"))
}

fn lease_arg(arg: &str) -> Result<i64, String> {
    parse_go_int(arg, 16).map_err(|e| error(format!("bad lease ID arg ({e}), expecting ID in Hex")))
}

fn simple_only(ctx: &Ctx) -> Result<(), String> {
    if ctx.fmt == Format::Simple {
        Ok(())
    } else {
        Err(error(format!(
            "{} output of lease commands is not simulated by kubeplay's etcdctl",
            ctx.fmt.name()
        )))
    }
}

fn cmd_lease_grant(
    store: &mut Etcd,
    ctx: &Ctx,
    pos: &[String],
    now: u64,
) -> Result<String, String> {
    if pos.len() != 1 {
        return Err(error("lease grant command needs TTL argument"));
    }
    let ttl = parse_go_int(&pos[0], 10).map_err(|e| error(format!("bad TTL ({e})")))?;
    simple_only(ctx)?;
    let id = store.lease_grant(ttl, now);
    let granted = store
        .lease_time_to_live(id, now)
        .map_or(ttl, |t| t.granted_ttl);
    Ok(format!("lease {id:016x} granted with TTL({granted}s)\n"))
}

fn cmd_lease_revoke(store: &mut Etcd, ctx: &Ctx, pos: &[String]) -> Result<String, String> {
    if pos.len() != 1 {
        return Err(error("lease revoke command needs 1 argument"));
    }
    let id = lease_arg(&pos[0])?;
    simple_only(ctx)?;
    store
        .lease_revoke(id)
        .map_err(|e| error(format!("failed to revoke lease ({e})")))?;
    Ok(format!("lease {id:016x} revoked\n"))
}

fn cmd_lease_keepalive(
    store: &mut Etcd,
    ctx: &Ctx,
    pos: &[String],
    now: u64,
) -> Result<String, String> {
    if pos.len() != 1 {
        return Err(error("lease keep-alive command needs lease ID as argument"));
    }
    let id = lease_arg(&pos[0])?;
    simple_only(ctx)?;
    // Without --once the real command keeps renewing until interrupted; one renewal is what a
    // finished run can show.
    let ttl = store.lease_keepalive(id, now).map_err(error)?;
    Ok(format!("lease {id:016x} keepalived with TTL({ttl})\n"))
}

fn cmd_lease_timetolive(
    store: &Etcd,
    ctx: &Ctx,
    pos: &[String],
    now: u64,
) -> Result<String, String> {
    if pos.len() != 1 {
        return Err(error("lease timetolive command needs lease ID as argument"));
    }
    let id = lease_arg(&pos[0])?;
    simple_only(ctx)?;
    match store.lease_time_to_live(id, now) {
        Err(_) => Ok(format!("lease {id:016x} already expired\n")),
        Ok(t) => {
            let mut out = format!(
                "lease {id:016x} granted with TTL({}s), remaining({}s)",
                t.granted_ttl, t.ttl
            );
            if ctx.flags.on("keys") {
                let _ = write!(out, ", attached keys([{}])", t.keys.join(" "));
            }
            out.push('\n');
            Ok(out)
        }
    }
}

fn cmd_lease_list(store: &Etcd, ctx: &Ctx) -> Result<String, String> {
    simple_only(ctx)?;
    let ids = store.lease_leases();
    let mut out = format!("found {} leases\n", ids.len());
    for id in ids {
        let _ = writeln!(out, "{id:016x}");
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Printers.

/// etcdctl's `printKV`: the key (unless value-only), then the value, each on a line.
fn print_kv(out: &mut String, hex: bool, value_only: bool, kv: &KeyValue) {
    let enc = |s: &str| {
        if hex {
            hex_escape(s.as_bytes())
        } else {
            s.to_string()
        }
    };
    if !value_only {
        out.push_str(&enc(&kv.key));
        out.push('\n');
    }
    out.push_str(&enc(&kv.value));
    out.push('\n');
}

fn hex_escape(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 4);
    for b in bytes {
        let _ = write!(s, "\\x{b:02x}");
    }
    s
}

fn header_json_parts(revision: i64) -> String {
    let mut s = format!("{{\"cluster_id\":{CLUSTER_ID},\"member_id\":{MEMBER_ID}");
    if revision != 0 {
        let _ = write!(s, ",\"revision\":{revision}");
    }
    let _ = write!(s, ",\"raft_term\":{RAFT_TERM}}}");
    s
}

fn header_json(revision: i64) -> String {
    header_json_parts(revision)
}

/// A `mvccpb.KeyValue` as Go's encoding/json writes it: bytes in base64, zero fields omitted.
fn kv_json(kv: &KeyValue) -> String {
    let mut s = String::from("{");
    let mut sep = "";
    if !kv.key.is_empty() {
        let _ = write!(s, "\"key\":\"{}\"", base64_encode(kv.key.as_bytes()));
        sep = ",";
    }
    for (name, v) in [
        ("create_revision", kv.create_revision),
        ("mod_revision", kv.mod_revision),
        ("version", kv.version),
    ] {
        if v != 0 {
            let _ = write!(s, "{sep}\"{name}\":{v}");
            sep = ",";
        }
    }
    if !kv.value.is_empty() {
        let _ = write!(
            s,
            "{sep}\"value\":\"{}\"",
            base64_encode(kv.value.as_bytes())
        );
        sep = ",";
    }
    if kv.lease != 0 {
        let _ = write!(s, "{sep}\"lease\":{}", kv.lease);
    }
    s.push('}');
    s
}

/// A `RangeResponse` as `etcdctl get -w json` prints it (one line, without the newline).
fn range_json(store: &Etcd, resp: &RangeResponse) -> String {
    let _ = store;
    let mut s = format!("{{\"header\":{}", header_json(resp.revision));
    if !resp.kvs.is_empty() {
        let list: Vec<String> = resp.kvs.iter().map(kv_json).collect();
        let _ = write!(s, ",\"kvs\":[{}]", list.join(","));
    }
    if resp.more {
        s.push_str(",\"more\":true");
    }
    if resp.count != 0 {
        let _ = write!(s, ",\"count\":{}", resp.count);
    }
    s.push('}');
    s
}

fn fields_header(hex: bool, revision: i64) -> String {
    let mut s = if hex {
        format!("\"ClusterID\" : {CLUSTER_ID:x}\n\"MemberID\" : {MEMBER_ID:x}\n")
    } else {
        format!("\"ClusterID\" : {CLUSTER_ID}\n\"MemberID\" : {MEMBER_ID}\n")
    };
    if revision > 0 {
        let _ = writeln!(s, "\"Revision\" : {revision}");
    }
    let _ = writeln!(s, "\"RaftTerm\" : {RAFT_TERM}");
    s
}

fn fields_kv(out: &mut String, hex: bool, pfx: &str, kv: &KeyValue) {
    let _ = writeln!(out, "\"{pfx}Key\" : {}", go_quote(&kv.key));
    let _ = writeln!(out, "\"{pfx}CreateRevision\" : {}", kv.create_revision);
    let _ = writeln!(out, "\"{pfx}ModRevision\" : {}", kv.mod_revision);
    let _ = writeln!(out, "\"{pfx}Version\" : {}", kv.version);
    let _ = writeln!(out, "\"{pfx}Value\" : {}", go_quote(&kv.value));
    if hex {
        let _ = writeln!(out, "\"{pfx}Lease\" : {:016x}", kv.lease);
    } else {
        let _ = writeln!(out, "\"{pfx}Lease\" : {}", kv.lease);
    }
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

/// Go's `strconv.Quote` (`%q`) for the text etcd stores.
fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Standard base64 with padding, as etcdctl's JSON writes keys and values.
pub use crate::base64::encode as base64_encode;

/// go-humanize's `Bytes`: SI units, one decimal below 10.
fn humanize_bytes(s: u64) -> String {
    const SIZES: [&str; 7] = ["B", "kB", "MB", "GB", "TB", "PB", "EB"];
    if s < 10 {
        return format!("{s} B");
    }
    let mut e = 0;
    let mut p = 1u64;
    while e + 1 < SIZES.len() && s / p >= 1000 {
        p *= 1000;
        e += 1;
    }
    let val = (s as f64 / p as f64 * 10.0 + 0.5).floor() / 10.0;
    if val < 10.0 {
        format!("{val:.1} {}", SIZES[e])
    } else {
        format!("{val:.0} {}", SIZES[e])
    }
}

/// A table as etcdctl's tablewriter (v0.0.5) draws it: headers upper-cased and centred, cells
/// right-aligned.
fn render_table(header: &[&str], rows: &[Vec<String>]) -> String {
    let titles: Vec<String> = header
        .iter()
        .map(|h| h.replace('_', " ").to_ascii_uppercase())
        .collect();
    let width = |s: &str| s.chars().count();
    let mut widths: Vec<usize> = titles.iter().map(|t| width(t)).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(width(cell));
        }
    }
    let line = {
        let mut l = String::from("+");
        for w in &widths {
            l.push_str(&"-".repeat(w + 2));
            l.push('+');
        }
        l.push('\n');
        l
    };
    let mut out = line.clone();
    out.push('|');
    for (t, w) in titles.iter().zip(&widths) {
        let gap = w - width(t);
        let left = gap / 2;
        let _ = write!(
            out,
            " {}{}{} |",
            " ".repeat(left),
            t,
            " ".repeat(gap - left)
        );
    }
    out.push('\n');
    out.push_str(&line);
    for row in rows {
        out.push('|');
        for (cell, w) in row.iter().zip(&widths) {
            let _ = write!(out, " {}{} |", " ".repeat(w - width(cell)), cell);
        }
        out.push('\n');
    }
    out.push_str(&line);
    out
}

/// Go's `strconv.ParseInt(s, base, 64)`, with its error text; base 0 reads `0x`, `0o`, `0b`
/// and leading-`0` octal prefixes as pflag does.
fn parse_go_int(s: &str, base: u32) -> Result<i64, String> {
    let syntax = || format!("strconv.ParseInt: parsing {}: invalid syntax", go_quote(s));
    let (neg, body) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if base == 0 {
        let lower = body.to_ascii_lowercase();
        if lower.starts_with("0x") {
            (16, &body[2..])
        } else if lower.starts_with("0o") {
            (8, &body[2..])
        } else if lower.starts_with("0b") {
            (2, &body[2..])
        } else if body.len() > 1 && body.starts_with('0') {
            (8, &body[1..])
        } else {
            (10, body)
        }
    } else {
        (base, body)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(syntax());
    }
    let magnitude = u64::from_str_radix(digits, radix).map_err(|_| {
        format!(
            "strconv.ParseInt: parsing {}: value out of range",
            go_quote(s)
        )
    })?;
    let limit = if neg { 1u64 << 63 } else { (1u64 << 63) - 1 };
    if magnitude > limit {
        return Err(format!(
            "strconv.ParseInt: parsing {}: value out of range",
            go_quote(s)
        ));
    }
    Ok(if neg {
        (magnitude as i128).wrapping_neg() as i64
    } else {
        magnitude as i64
    })
}

/// Go's `strconv.ParseBool`.
fn parse_go_bool(s: &str) -> Result<bool, ()> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(false),
        _ => Err(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn words(line: &str) -> Vec<String> {
        crate::shell::split(line).unwrap()
    }

    fn ctl(store: &Etcd, line: &str) -> Result<String, String> {
        run(store, &words(line))
    }

    fn ctl_mut(store: &mut Etcd, line: &str) -> Result<String, String> {
        run_mut(store, &words(line), 0)
    }

    fn sample() -> Etcd {
        let mut e = Etcd::new();
        e.put(
            "/registry/namespaces/default",
            Rc::from("{\"kind\":\"Namespace\"}"),
            0,
        )
        .unwrap();
        e.put("/registry/pods/default/web", Rc::from("{\"v\":1}"), 0)
            .unwrap();
        e.put("/registry/pods/default/web", Rc::from("{\"v\":2}"), 0)
            .unwrap();
        e
    }

    #[test]
    fn get_simple_and_keys_only() {
        let e = sample();
        assert_eq!(
            ctl(&e, "get /registry/pods/default/web").unwrap(),
            "/registry/pods/default/web\n{\"v\":2}\n"
        );
        assert_eq!(
            ctl(&e, "get /registry --prefix --keys-only").unwrap(),
            "/registry/namespaces/default\n\n/registry/pods/default/web\n\n"
        );
        assert_eq!(
            ctl(&e, "--endpoints=https://127.0.0.1:2379 --cacert /etc/ca.crt get /registry/pods/default/web --print-value-only --rev=3").unwrap(),
            "{\"v\":1}\n"
        );
        assert_eq!(
            ctl(&e, "get /registry/pods/ /registry/pods0")
                .unwrap()
                .lines()
                .count(),
            2
        );
        assert_eq!(
            ctl(&e, "get '' --prefix --limit 1 --keys-only").unwrap(),
            "/registry/namespaces/default\n\n"
        );
        assert_eq!(
            ctl(
                &e,
                "get / --prefix --keys-only --sort-by=MODIFY --order=DESCEND"
            )
            .unwrap(),
            "/registry/pods/default/web\n\n/registry/namespaces/default\n\n"
        );
        assert_eq!(ctl(&e, "get /missing").unwrap(), "");
        assert_eq!(
            ctl(&e, "get /registry/pods/default/web --hex").unwrap().lines().next().unwrap(),
            "\\x2f\\x72\\x65\\x67\\x69\\x73\\x74\\x72\\x79\\x2f\\x70\\x6f\\x64\\x73\\x2f\\x64\\x65\\x66\\x61\\x75\\x6c\\x74\\x2f\\x77\\x65\\x62"
        );
    }

    #[test]
    fn get_json() {
        let mut e = sample();
        let lease = e.lease_grant(3600, 0);
        e.put("/registry/events/default/x", Rc::from("e"), lease)
            .unwrap();
        let out = ctl(&e, "get /registry/pods/default/web -w json").unwrap();
        assert_eq!(
            out,
            format!(
                "{{\"header\":{{\"cluster_id\":14841639068965178418,\"member_id\":10276657743932975437,\"revision\":5,\"raft_term\":2}},\
                 \"kvs\":[{{\"key\":\"{}\",\"create_revision\":3,\"mod_revision\":4,\"version\":2,\"value\":\"{}\"}}],\"count\":1}}\n",
                base64_encode(b"/registry/pods/default/web"),
                base64_encode(b"{\"v\":2}")
            )
        );
        let v: crate::api::value::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["header"]["revision"], 5);
        let ev = ctl(&e, "get /registry/events/default/x --write-out=json").unwrap();
        assert!(ev.contains(&format!(",\"lease\":{lease}}}]")), "{ev}");
        assert_eq!(
            ctl(&e, "get /nothing -w json").unwrap(),
            "{\"header\":{\"cluster_id\":14841639068965178418,\"member_id\":10276657743932975437,\"revision\":5,\"raft_term\":2}}\n"
        );
        let keys = ctl(&e, "get /registry --prefix --keys-only --limit 1 -w json").unwrap();
        let v: crate::api::value::Value = serde_json::from_str(&keys).unwrap();
        assert_eq!(v["count"], 3);
        assert_eq!(v["more"], true);
        assert!(v["kvs"][0].get("value").is_none());
        assert_eq!(
            ctl(&e, "get /a --print-value-only -w json").unwrap_err(),
            "Error: print-value-only is only for `--write-out=simple`\n"
        );
        assert_eq!(
            ctl(&e, "get /a -w table").unwrap_err(),
            "Error: table not supported as output format\n"
        );
        assert_eq!(
            ctl(&e, "get /a -w yaml").unwrap_err(),
            "Error: unsupported output format\n"
        );
    }

    #[test]
    fn get_fields_and_count_only() {
        let e = sample();
        let out = ctl(&e, "get /registry --prefix --count-only -w fields").unwrap();
        assert_eq!(
            out,
            "\"ClusterID\" : 14841639068965178418\n\"MemberID\" : 10276657743932975437\n\"Revision\" : 4\n\"RaftTerm\" : 2\n\"More\" : false\n\"Count\" : 2\n"
        );
        let out = ctl(&e, "get /registry/pods/default/web -w fields").unwrap();
        assert!(out.contains("\"Key\" : \"/registry/pods/default/web\"\n\"CreateRevision\" : 3\n\"ModRevision\" : 4\n\"Version\" : 2\n\"Value\" : \"{\\\"v\\\":2}\"\n\"Lease\" : 0\n"), "{out}");
        assert_eq!(
            ctl(&e, "get /a --count-only").unwrap_err(),
            "Error: --count-only is only for `--write-out=fields`\n"
        );
    }

    #[test]
    fn errors() {
        let mut e = sample();
        assert_eq!(
            ctl(&e, "foo").unwrap_err(),
            "Error: unknown command \"foo\" for \"etcdctl\"\nRun 'etcdctl --help' for usage.\n"
        );
        assert_eq!(
            ctl(&e, "gte /a").unwrap_err(),
            "Error: unknown command \"gte\" for \"etcdctl\"\n\nDid you mean this?\n\tget\n\nRun 'etcdctl --help' for usage.\n"
        );
        assert_eq!(
            ctl(&e, "get").unwrap_err(),
            "Error: get command needs one argument as key and an optional argument as range_end\n"
        );
        assert_eq!(
            ctl(&e, "get /a --bogus").unwrap_err(),
            "Error: unknown flag: --bogus\n"
        );
        assert_eq!(
            ctl(&e, "get /a --rev x").unwrap_err(),
            "Error: invalid argument \"x\" for \"--rev\" flag: strconv.ParseInt: parsing \"x\": invalid syntax\n"
        );
        assert_eq!(
            ctl(&e, "get /a --rev 99").unwrap_err(),
            "Error: etcdserver: mvcc: required revision is a future revision\n"
        );
        e.compact(3).unwrap();
        assert_eq!(
            ctl(&e, "get /a --rev 2").unwrap_err(),
            "Error: etcdserver: mvcc: required revision has been compacted\n"
        );
        assert_eq!(
            ctl(&e, "put /a b").unwrap_err(),
            "Error: \"put\" writes to etcd, and this etcdctl is read-only\n"
        );
        assert!(ctl(&e, "snapshot save x.db")
            .unwrap_err()
            .contains("not simulated"));
        assert_eq!(
            ctl(&e, "ge /registry/pods/default/web --print-value-only").unwrap(),
            "{\"v\":2}\n"
        );
        assert!(ctl(&e, "").unwrap().starts_with("NAME:\n  etcdctl"));
        assert_eq!(
            ctl(&e, "version").unwrap(),
            "etcdctl version: 3.6.5\nAPI version: 3.6\n"
        );
    }

    #[test]
    fn put_and_del() {
        let mut e = sample();
        assert_eq!(ctl_mut(&mut e, "put /a 'hello world'").unwrap(), "OK\n");
        assert_eq!(&*e.get("/a", None).unwrap().unwrap().value, "hello world");
        assert_eq!(
            ctl_mut(&mut e, "put /a again --prev-kv").unwrap(),
            "OK\n/a\nhello world\n"
        );
        assert_eq!(
            ctl_mut(&mut e, "put /a").unwrap_err(),
            "Error: put command needs 1 argument and input from stdin or 2 arguments\n"
        );
        assert_eq!(
            ctl_mut(&mut e, "put /a b --lease 1234abcd").unwrap_err(),
            "Error: etcdserver: requested lease not found\n"
        );
        let big = "x".repeat(crate::etcd::MAX_REQUEST_BYTES);
        assert_eq!(
            run_mut(&mut e, &["put".to_string(), "/big".to_string(), big], 0).unwrap_err(),
            "Error: etcdserver: request is too large\n"
        );
        assert_eq!(
            ctl_mut(&mut e, "put /b v -w json").unwrap(),
            "{\"header\":{\"cluster_id\":14841639068965178418,\"member_id\":10276657743932975437,\"revision\":7,\"raft_term\":2}}\n"
        );
        assert_eq!(ctl_mut(&mut e, "del /nope").unwrap(), "0\n");
        assert_eq!(ctl_mut(&mut e, "del /a").unwrap(), "1\n");
        assert_eq!(
            ctl_mut(&mut e, "del /registry --prefix --prev-kv")
                .unwrap()
                .lines()
                .next(),
            Some("2")
        );
        assert_eq!(e.key_count(), 1);
        assert_eq!(e.revision(), 9);
    }

    #[test]
    fn watch_replays_history() {
        let mut e = sample();
        e.delete("/registry/pods/default/web"); // 5
        e.put("/other", Rc::from("o"), 0).unwrap(); // 6
        assert_eq!(
            ctl(&e, "watch /registry/pods --prefix --rev 1").unwrap(),
            "PUT\n/registry/pods/default/web\n{\"v\":1}\nPUT\n/registry/pods/default/web\n{\"v\":2}\nDELETE\n/registry/pods/default/web\n\n"
        );
        assert_eq!(ctl(&e, "watch /other --rev 6").unwrap(), "PUT\n/other\no\n");
        assert_eq!(ctl(&e, "watch /other").unwrap(), "");
        assert_eq!(
            ctl(&e, "watch /registry/pods/default/web --rev 5 --prev-kv").unwrap(),
            "DELETE\n/registry/pods/default/web\n{\"v\":2}\n/registry/pods/default/web\n\n"
        );
        e.compact(4).unwrap();
        assert_eq!(
            ctl(&e, "watch / --prefix --rev 2").unwrap_err(),
            "watch was canceled (etcdserver: mvcc: required revision has been compacted)\nError: watch is canceled by the server\n"
        );
        let json = ctl(&e, "watch /registry --prefix --rev 5 -w json").unwrap();
        let v: crate::api::value::Value = serde_json::from_str(json.trim()).unwrap();
        assert_eq!(v["Events"][0]["type"], 1);
    }

    #[test]
    fn endpoint_status_shapes() {
        let e = sample();
        let raft = e.raft_index();
        assert_eq!(
            ctl(&e, "endpoint status").unwrap(),
            format!("127.0.0.1:2379, 8e9e05c52164694d, 3.6.5, 3.6.0, 25 kB, 20 kB, 17%, 0 B, true, false, 2, {raft}, {raft}, , , false\n")
        );
        let table = ctl(&e, "endpoint status -w table").unwrap();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(
            lines[1],
            "|    ENDPOINT    |        ID        | VERSION | STORAGE VERSION | DB SIZE | IN USE | PERCENTAGE NOT IN USE | QUOTA | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS | DOWNGRADE TARGET VERSION | DOWNGRADE ENABLED |"
        );
        assert_eq!(
            lines[3],
            format!("| 127.0.0.1:2379 | 8e9e05c52164694d |   3.6.5 |           3.6.0 |   25 kB |  20 kB |                   17% |   0 B |      true |      false |         2 |          {raft} |                  {raft} |        |                          |             false |")
        );
        assert!(lines[0].starts_with("+----------------+------------------+---------+"));
        assert_eq!(lines[0], lines[2]);
        assert_eq!(lines[0], lines[4]);
        let json = ctl(&e, "endpoint status -w json").unwrap();
        let v: crate::api::value::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v[0]["Endpoint"], "127.0.0.1:2379");
        assert_eq!(v[0]["Status"]["header"]["revision"], 4);
        assert_eq!(v[0]["Status"]["dbSize"], e.db_size());
        assert!(ctl(&e, "endpoint status --cluster")
            .unwrap()
            .starts_with("http://localhost:2379, "));
        assert!(
            ctl(&e, "--endpoints=a:1,b:2 endpoint status")
                .unwrap()
                .lines()
                .count()
                == 2
        );
        assert_eq!(
            ctl(&e, "endpoint health").unwrap(),
            "127.0.0.1:2379 is healthy: successfully committed proposal: took = 1.820523ms\n"
        );
        assert_eq!(
            ctl(&e, "member list").unwrap(),
            "8e9e05c52164694d, started, default, http://localhost:2380, http://localhost:2379, false\n"
        );
        assert!(ctl(&e, "endpoint").unwrap().contains("COMMANDS:"));
    }

    #[test]
    fn leases_and_compaction() {
        let mut e = sample();
        let out = run_mut(&mut e, &words("lease grant 60"), 1_000).unwrap();
        let id = out.split(' ').nth(1).unwrap().to_string();
        assert_eq!(out, format!("lease {id} granted with TTL(60s)\n"));
        assert!(id.starts_with("694d") && id.len() == 16);
        ctl_mut(&mut e, &format!("put /l v --lease={id}")).unwrap();
        assert_eq!(
            run_mut(
                &mut e,
                &words(&format!("lease timetolive {id} --keys")),
                11_000
            )
            .unwrap(),
            format!("lease {id} granted with TTL(60s), remaining(50s), attached keys([/l])\n")
        );
        assert_eq!(
            ctl(&e, "lease list").unwrap(),
            format!("found 1 leases\n{id}\n")
        );
        assert_eq!(
            run_mut(
                &mut e,
                &words(&format!("lease keep-alive --once {id}")),
                20_000
            )
            .unwrap(),
            format!("lease {id} keepalived with TTL(60)\n")
        );
        assert_eq!(
            ctl_mut(&mut e, &format!("lease revoke {id}")).unwrap(),
            format!("lease {id} revoked\n")
        );
        assert!(e.get("/l", None).unwrap().is_none());
        assert_eq!(
            ctl(&e, &format!("lease timetolive {id}")).unwrap(),
            format!("lease {id} already expired\n")
        );
        assert_eq!(
            ctl_mut(&mut e, &format!("lease revoke {id}")).unwrap_err(),
            "Error: failed to revoke lease (etcdserver: requested lease not found)\n"
        );
        assert_eq!(
            ctl_mut(&mut e, "lease revoke zz").unwrap_err(),
            "Error: bad lease ID arg (strconv.ParseInt: parsing \"zz\": invalid syntax), expecting ID in Hex\n"
        );
        let rev = e.revision();
        assert_eq!(
            ctl_mut(&mut e, &format!("compaction {rev}")).unwrap(),
            format!("compacted revision {rev}\n")
        );
        assert_eq!(
            ctl_mut(&mut e, &format!("compaction {rev}")).unwrap_err(),
            "Error: etcdserver: mvcc: required revision has been compacted\n"
        );
    }

    #[test]
    fn helpers() {
        assert_eq!(base64_encode(b""), "");
        assert_eq!(base64_encode(b"f"), "Zg==");
        assert_eq!(base64_encode(b"fo"), "Zm8=");
        assert_eq!(base64_encode(b"foo"), "Zm9v");
        assert_eq!(base64_encode(b"/registry/pods"), "L3JlZ2lzdHJ5L3BvZHM=");
        assert_eq!(humanize_bytes(5), "5 B");
        assert_eq!(humanize_bytes(20_480), "20 kB");
        assert_eq!(humanize_bytes(16_384), "16 kB");
        assert_eq!(humanize_bytes(1_500), "1.5 kB");
        assert_eq!(humanize_bytes(2_147_483_648), "2.1 GB");
        assert_eq!(humanize_bytes(999_999), "1000 kB");
        assert_eq!(parse_go_int("0x10", 0), Ok(16));
        assert_eq!(parse_go_int("-12", 10), Ok(-12));
        assert!(parse_go_int("99999999999999999999", 10)
            .unwrap_err()
            .ends_with("value out of range"));
        assert_eq!(go_quote("a\"b\n"), "\"a\\\"b\\n\"");
    }
}
