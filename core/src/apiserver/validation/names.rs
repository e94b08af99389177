//! String formats and their messages: `k8s.io/apimachinery/pkg/util/validation` (DNS names,
//! ports, percentages, config keys; "characters") and `pkg/api/validate/content` (label keys
//! and values; "bytes"), as of 1.35.

/// `RegexError`: note the double space before every "or", from the examples' formatting.
pub fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut s = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push('\'');
        s.push_str(e);
        s.push_str("', ");
    }
    s.push_str(&format!("regex used for validation is '{fmt}')"));
    s
}

fn max_len_chars(n: usize) -> String {
    format!("must be no more than {n} characters")
}

fn max_len_bytes(n: usize) -> String {
    format!("must be no more than {n} bytes")
}

pub fn inclusive_range_error(lo: i64, hi: i64) -> String {
    format!("must be between {lo} and {hi}, inclusive")
}

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

fn lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
fn matches_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && lower_alnum(b[0])
        && lower_alnum(b[b.len() - 1])
        && b.iter().all(|c| lower_alnum(*c) || *c == b'-')
}

fn matches_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(matches_dns1123_label)
}

/// `[a-z]([-a-z0-9]*[a-z0-9])?`
fn matches_dns1035_label(s: &str) -> bool {
    matches_dns1123_label(s) && s.as_bytes()[0].is_ascii_lowercase()
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`
fn matches_label_key_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || b"-_.".contains(c))
}

/// `IsDNS1123Label`.
pub fn dns1123_label(v: &str) -> Vec<String> {
    let mut errs = vec![];
    if v.len() > 63 {
        errs.push(max_len_chars(63));
    }
    if !matches_dns1123_label(v) {
        if matches_dns1123_subdomain(v) {
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `IsDNS1123Subdomain` (`util/validation`, lengths in characters).
pub fn dns1123_subdomain(v: &str) -> Vec<String> {
    let mut errs = vec![];
    if v.len() > 253 {
        errs.push(max_len_chars(253));
    }
    if !matches_dns1123_subdomain(v) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `content.IsDNS1123Subdomain` (lengths in bytes), used for label-key prefixes.
fn content_dns1123_subdomain(v: &str) -> Vec<String> {
    let mut errs = vec![];
    if v.len() > 253 {
        errs.push(max_len_bytes(253));
    }
    if !matches_dns1123_subdomain(v) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `IsDNS1035Label`.
pub fn dns1035_label(v: &str) -> Vec<String> {
    let mut errs = vec![];
    if v.len() > 63 {
        errs.push(max_len_chars(63));
    }
    if !matches_dns1035_label(v) {
        errs.push(regex_error(
            DNS1035_LABEL_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `IsQualifiedName` / `content.IsLabelKey`.
pub fn qualified_name(v: &str) -> Vec<String> {
    let mut errs = vec![];
    let parts: Vec<&str> = v.split('/').collect();
    let name = match parts.len() {
        1 => parts[0],
        2 => {
            let prefix = parts[0];
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                for m in content_dns1123_subdomain(prefix) {
                    errs.push(format!("prefix part {m}"));
                }
            }
            parts[1]
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_bytes(63)));
    }
    if !matches_label_key_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `IsValidLabelValue` / `content.IsLabelValue`.
pub fn label_value(v: &str) -> Vec<String> {
    let mut errs = vec![];
    if v.len() > 63 {
        errs.push(max_len_bytes(63));
    }
    if !v.is_empty() && !matches_label_key_name(v) {
        errs.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

fn chdir_prefix(v: &str) -> Vec<String> {
    if v == "." {
        vec!["must not be '.'".into()]
    } else if v == ".." {
        vec!["must not be '..'".into()]
    } else if v.starts_with("..") {
        vec!["must not start with '..'".into()]
    } else {
        vec![]
    }
}

/// `IsConfigMapKey`.
pub fn config_map_key(v: &str) -> Vec<String> {
    let mut errs = vec![];
    if v.len() > 253 {
        errs.push(max_len_chars(253));
    }
    let ok = !v.is_empty()
        && v.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"-._".contains(&c));
    if !ok {
        errs.push(regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    errs.extend(chdir_prefix(v));
    errs
}

/// `IsValidPortNum`.
pub fn port_num(p: i64) -> Vec<String> {
    if (1..=65535).contains(&p) {
        vec![]
    } else {
        vec![inclusive_range_error(1, 65535)]
    }
}

/// `IsValidPortName`.
pub fn port_name(p: &str) -> Vec<String> {
    let mut errs = vec![];
    if p.len() > 15 {
        errs.push(max_len_chars(15));
    }
    if p.is_empty() || !p.bytes().all(|c| lower_alnum(c) || c == b'-') {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into());
    }
    if !p.bytes().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".into());
    }
    if p.contains("--") {
        errs.push("must not contain consecutive hyphens".into());
    }
    if p.starts_with('-') || p.ends_with('-') {
        errs.push("must not begin or end with a hyphen".into());
    }
    errs
}

/// `IsValidPercent`.
pub fn percent(p: &str) -> Vec<String> {
    let ok =
        p.len() > 1 && p.ends_with('%') && p[..p.len() - 1].bytes().all(|c| c.is_ascii_digit());
    if ok {
        vec![]
    } else {
        vec![regex_error(
            "a valid percent string must be a numeric string followed by an ending '%'",
            "[0-9]+%",
            &["1%", "93%"],
        )]
    }
}

/// `IsHTTPHeaderName`.
pub fn http_header_name(v: &str) -> Vec<String> {
    if !v.is_empty() && v.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-') {
        vec![]
    } else {
        vec![regex_error(
            "a valid HTTP header must consist of alphanumeric characters or '-'",
            "[-A-Za-z0-9]+",
            &["X-Header-Name"],
        )]
    }
}

/// `IsRelaxedEnvVarName` (RelaxedEnvironmentVariableValidation is on in 1.35).
pub fn relaxed_env_var_name(v: &str) -> Vec<String> {
    let mut errs = vec![];
    if v.is_empty() {
        errs.push("environment variable name must be non-empty".into());
    }
    if v.chars().any(|c| !(' '..='~').contains(&c) || c == '=') {
        errs.push(
            "a valid environment variable name must consist only of printable ASCII characters other than '='"
                .into(),
        );
    }
    errs
}

/// `path.IsValidPathSegmentName`, the name rule of RBAC objects.
pub fn path_segment_name(v: &str) -> Vec<String> {
    let mut errs = vec![];
    if v == "." || v == ".." {
        return vec![format!("may not be '{v}'")];
    }
    for illegal in ["/", "%"] {
        if v.contains(illegal) {
            errs.push(format!("may not contain '{illegal}'"));
        }
    }
    errs
}

/// `IsValidUserID` / `IsValidGroupID`.
pub fn unix_id(id: i64) -> Vec<String> {
    if (0..=0xffff_ffff).contains(&id) {
        vec![]
    } else {
        vec![inclusive_range_error(0, 0xffff_ffff)]
    }
}

/// `IsValidIP`: the message of 1.35 for a string that is not an IP address.
pub fn ip(v: &str) -> Vec<String> {
    if v.parse::<std::net::IpAddr>().is_ok() {
        vec![]
    } else {
        vec!["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)".into()]
    }
}

/// How an object's name is checked (`ValidateNameFunc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRule {
    Subdomain,
    Label,
    Dns1035,
    PathSegment,
}

/// The name function; with `prefix` (a generateName) a trailing dash is allowed.
pub fn name_errors(rule: NameRule, name: &str, prefix: bool) -> Vec<String> {
    let masked;
    let name = if prefix && rule != NameRule::PathSegment && name.len() > 1 && name.ends_with('-') {
        // maskTrailingDash: replaces the last two bytes with "a".
        masked = format!("{}a", &name[..name.len().saturating_sub(2)]);
        masked.as_str()
    } else {
        name
    };
    match rule {
        NameRule::Subdomain => dns1123_subdomain(name),
        NameRule::Label => dns1123_label(name),
        NameRule::Dns1035 => dns1035_label(name),
        NameRule::PathSegment => path_segment_name(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_messages() {
        assert_eq!(
            dns1123_subdomain("My_App"),
            vec!["a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
        );
        assert_eq!(
            dns1123_label("Web"),
            vec!["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]
        );
        assert_eq!(dns1123_label("a.b"), vec!["must not contain dots"]);
        assert_eq!(
            dns1035_label("1web"),
            vec!["a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]
        );
        let long = "a".repeat(64);
        assert_eq!(
            dns1123_label(&long),
            vec!["must be no more than 63 characters"]
        );
        assert_eq!(
            dns1123_subdomain(&"a".repeat(254))[0],
            "must be no more than 253 characters"
        );
        assert!(dns1123_subdomain("web-1.example.com").is_empty());
        assert_eq!(
            name_errors(NameRule::Subdomain, "web-", true),
            Vec::<String>::new()
        );
    }

    #[test]
    fn label_messages() {
        assert!(qualified_name("app.kubernetes.io/name").is_empty());
        assert_eq!(
            qualified_name("bad key"),
            vec!["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]
        );
        assert_eq!(qualified_name("/x"), vec!["prefix part must be non-empty"]);
        assert_eq!(qualified_name("a/b/c").len(), 1);
        assert!(qualified_name("a/b/c")[0].starts_with("a valid label key must consist"));
        assert_eq!(
            label_value("-x"),
            vec!["a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]
        );
        assert_eq!(
            label_value(&"a".repeat(64)),
            vec!["must be no more than 63 bytes"]
        );
        assert!(label_value("").is_empty());
    }

    #[test]
    fn other_formats() {
        assert_eq!(port_num(0), vec!["must be between 1 and 65535, inclusive"]);
        assert!(port_num(8080).is_empty());
        assert!(port_name("http").is_empty());
        assert_eq!(
            port_name("8080"),
            vec!["must contain at least one letter (a-z)"]
        );
        assert!(percent("25%").is_empty());
        assert_eq!(percent("25"), vec!["a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]);
        assert_eq!(
            config_map_key("a b"),
            vec!["a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"]
        );
        assert_eq!(config_map_key(".."), vec!["must not be '..'"]);
        assert_eq!(path_segment_name("a/b"), vec!["may not contain '/'"]);
    }
}
