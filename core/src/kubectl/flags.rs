//! kubectl's command-line flags: the ones that take a value and the switches.

use std::collections::BTreeMap;

/// Flags that take a value (`--flag value` or `--flag=value`), by their long name.
const VALUED: &[(&str, Option<char>)] = &[
    ("namespace", Some('n')),
    ("output", Some('o')),
    ("selector", Some('l')),
    ("filename", Some('f')),
    ("patch", Some('p')),
    ("container", Some('c')),
    ("as", None),
    ("as-group", None),
    ("field-selector", None),
    ("replicas", None),
    ("image", None),
    ("port", None),
    ("type", None),
    ("cascade", None),
    ("grace-period", None),
    ("from-literal", None),
    ("verb", None),
    ("resource", None),
    ("resource-name", None),
    ("role", None),
    ("clusterrole", None),
    ("user", None),
    ("group", None),
    ("serviceaccount", None),
    ("hard", None),
    ("to-revision", None),
    ("revision", None),
    ("timeout", None),
    ("tcp", None),
    ("sort-by", None),
    ("dry-run", None),
    ("value", None),
    ("description", None),
    ("field-manager", None),
];

/// Switches, which may also be written `--flag=true|false`.
const SWITCHES: &[(&str, Option<char>)] = &[
    ("all-namespaces", Some('A')),
    ("watch", Some('w')),
    ("all", None),
    ("show-labels", None),
    ("no-headers", None),
    ("now", None),
    ("force", None),
    ("ignore-daemonsets", None),
    ("delete-emptydir-data", None),
    ("overwrite", None),
    ("record", None),
    ("global-default", None),
    ("quiet", Some('q')),
];

#[derive(Debug, Default)]
pub struct Flags {
    pub positional: Vec<String>,
    values: BTreeMap<String, Vec<String>>,
    switches: BTreeMap<String, bool>,
}

impl Flags {
    pub fn parse(args: &[String]) -> Result<Flags, String> {
        let mut f = Flags::default();
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            i += 1;
            if a == "--" {
                f.positional.extend(args[i..].iter().cloned());
                break;
            }
            let (name, inline) = if let Some(long) = a.strip_prefix("--") {
                match long.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (long.to_string(), None),
                }
            } else if a.len() >= 2 && a.starts_with('-') && a != "-" {
                let c = a.chars().nth(1).unwrap_or(' ');
                let long = VALUED
                    .iter()
                    .chain(SWITCHES.iter())
                    .find(|(_, s)| *s == Some(c))
                    .map(|(l, _)| l.to_string())
                    .ok_or_else(|| format!("unknown shorthand flag: '{c}' in {a}"))?;
                let rest = &a[2..];
                let inline = if rest.is_empty() {
                    None
                } else {
                    Some(rest.trim_start_matches('=').to_string())
                };
                (long, inline)
            } else {
                f.positional.push(a.clone());
                continue;
            };
            if VALUED.iter().any(|(l, _)| *l == name) {
                let v = match inline {
                    Some(v) => v,
                    None => {
                        let v = args
                            .get(i)
                            .cloned()
                            .ok_or_else(|| format!("flag needs an argument: --{name}"))?;
                        i += 1;
                        v
                    }
                };
                f.values.entry(name).or_default().push(v);
            } else if SWITCHES.iter().any(|(l, _)| *l == name) {
                let on = match inline.as_deref() {
                    None | Some("true") => true,
                    Some("false") => false,
                    Some(other) => return Err(format!("invalid argument {other:?} for \"--{name}\" flag: strconv.ParseBool: parsing {other:?}: invalid syntax")),
                };
                f.switches.insert(name, on);
            } else {
                return Err(format!("unknown flag: --{name}"));
            }
        }
        Ok(f)
    }

    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .get(name)
            .and_then(|v| v.last())
            .map(String::as_str)
    }

    pub fn values(&self, name: &str) -> Vec<String> {
        self.values.get(name).cloned().unwrap_or_default()
    }

    /// Comma-separated values given once or several times (`--verb=get,list --verb=watch`).
    pub fn list(&self, name: &str) -> Vec<String> {
        self.values(name)
            .iter()
            .flat_map(|v| v.split(',').map(str::to_string))
            .filter(|s| !s.is_empty())
            .collect()
    }

    pub fn switch(&self, name: &str) -> bool {
        self.switches.get(name).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        crate::shell::split(s).unwrap()
    }

    #[test]
    fn parses_long_short_and_inline_forms() {
        let f = Flags::parse(&words(
            "get pods -n kube-system -o=wide --selector app=web -A --as=dev",
        ))
        .unwrap();
        assert_eq!(f.positional, vec!["get", "pods"]);
        assert_eq!(f.value("namespace"), Some("kube-system"));
        assert_eq!(f.value("output"), Some("wide"));
        assert_eq!(f.value("selector"), Some("app=web"));
        assert_eq!(f.value("as"), Some("dev"));
        assert!(f.switch("all-namespaces"));
        assert_eq!(
            Flags::parse(&words("get --bogus")).unwrap_err(),
            "unknown flag: --bogus"
        );
        assert!(Flags::parse(&words("get -n")).is_err());
    }
}
