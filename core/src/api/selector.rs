//! Label selectors: the `-l` string syntax and `metav1.LabelSelector` objects.

use crate::api::value::{Map, Value};

#[derive(Clone, Debug, PartialEq)]
enum Requirement {
    Equals(String, String),
    NotEquals(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    DoesNotExist(String),
}

/// A parsed selector; the empty selector matches everything.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Selector {
    reqs: Vec<Requirement>,
    /// A nil `LabelSelector` matches nothing.
    nothing: bool,
}

fn label<'a>(labels: Option<&'a Map>, key: &str) -> Option<&'a str> {
    labels?.get(key)?.as_str()
}

impl Selector {
    pub fn everything() -> Self {
        Selector::default()
    }

    pub fn nothing() -> Self {
        Selector {
            reqs: vec![],
            nothing: true,
        }
    }

    /// Parses `app=web,tier!=db,env in (a,b),!legacy,track`.
    pub fn parse(s: &str) -> Result<Selector, String> {
        let mut reqs = Vec::new();
        let mut rest = s.trim();
        while !rest.is_empty() {
            // Split at the next comma that is not inside parentheses.
            let mut depth = 0;
            let mut end = rest.len();
            for (i, c) in rest.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    ',' if depth == 0 => {
                        end = i;
                        break;
                    }
                    _ => {}
                }
            }
            let term = rest[..end].trim();
            rest = if end < rest.len() {
                rest[end + 1..].trim()
            } else {
                ""
            };
            reqs.push(
                parse_term(term).ok_or_else(|| format!("unable to parse requirement: {term:?}"))?,
            );
        }
        Ok(Selector {
            reqs,
            nothing: false,
        })
    }

    /// From a `metav1.LabelSelector` object (`matchLabels` and `matchExpressions`).
    pub fn from_label_selector(sel: Option<&Value>) -> Result<Selector, String> {
        let Some(sel) = sel.filter(|v| !v.is_null()) else {
            return Ok(Selector::nothing());
        };
        let mut reqs = Vec::new();
        if let Some(ml) = sel.get("matchLabels").and_then(Value::as_object) {
            for (k, v) in ml {
                reqs.push(Requirement::Equals(
                    k.to_string(),
                    v.as_str().unwrap_or_default().to_string(),
                ));
            }
        }
        if let Some(exprs) = sel.get("matchExpressions").and_then(Value::as_array) {
            for e in exprs {
                let key = e
                    .get("key")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                let values: Vec<String> = e
                    .get("values")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                let op = e
                    .get("operator")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                reqs.push(match op {
                    "In" => Requirement::In(key, values),
                    "NotIn" => Requirement::NotIn(key, values),
                    "Exists" => Requirement::Exists(key),
                    "DoesNotExist" => Requirement::DoesNotExist(key),
                    other => {
                        return Err(format!("{other:?} is not a valid label selector operator"))
                    }
                });
            }
        }
        Ok(Selector {
            reqs,
            nothing: false,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.reqs.is_empty() && !self.nothing
    }

    pub fn matches(&self, labels: Option<&Map>) -> bool {
        if self.nothing {
            return false;
        }
        self.reqs.iter().all(|r| match r {
            Requirement::Equals(k, v) => label(labels, k) == Some(v.as_str()),
            Requirement::NotEquals(k, v) => label(labels, k) != Some(v.as_str()),
            Requirement::In(k, vs) => label(labels, k).is_some_and(|l| vs.iter().any(|v| v == l)),
            Requirement::NotIn(k, vs) => {
                label(labels, k).is_none_or(|l| !vs.iter().any(|v| v == l))
            }
            Requirement::Exists(k) => label(labels, k).is_some(),
            Requirement::DoesNotExist(k) => label(labels, k).is_none(),
        })
    }

    /// A `key=value` every matching set of labels has, if the selector requires one (an
    /// equality, or a set of one value): what an index by label can look up.
    pub fn required_label(&self) -> Option<(&str, &str)> {
        self.reqs.iter().find_map(|r| match r {
            Requirement::Equals(k, v) => Some((k.as_str(), v.as_str())),
            Requirement::In(k, vs) if vs.len() == 1 => Some((k.as_str(), vs[0].as_str())),
            _ => None,
        })
    }

    /// The string form, as `kubectl get -o wide` prints a SELECTOR column.
    pub fn to_string_form(&self) -> String {
        if self.nothing {
            return "<none>".into();
        }
        let parts: Vec<String> = self
            .reqs
            .iter()
            .map(|r| match r {
                Requirement::Equals(k, v) => format!("{k}={v}"),
                Requirement::NotEquals(k, v) => format!("{k}!={v}"),
                Requirement::In(k, vs) => format!("{k} in ({})", vs.join(",")),
                Requirement::NotIn(k, vs) => format!("{k} notin ({})", vs.join(",")),
                Requirement::Exists(k) => k.clone(),
                Requirement::DoesNotExist(k) => format!("!{k}"),
            })
            .collect();
        parts.join(",")
    }
}

fn parse_term(t: &str) -> Option<Requirement> {
    if t.is_empty() {
        return None;
    }
    if let Some(k) = t.strip_prefix('!') {
        return Some(Requirement::DoesNotExist(k.trim().to_string()));
    }
    if let Some((k, v)) = t.split_once("!=") {
        return Some(Requirement::NotEquals(k.trim().into(), v.trim().into()));
    }
    if let Some((k, v)) = t.split_once("==").or_else(|| t.split_once('=')) {
        return Some(Requirement::Equals(k.trim().into(), v.trim().into()));
    }
    for (op, notin) in [(" notin ", true), (" in ", false)] {
        if let Some((k, v)) = t.split_once(op) {
            let v = v.trim().strip_prefix('(')?.strip_suffix(')')?;
            let vals = v
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            let k = k.trim().to_string();
            return Some(if notin {
                Requirement::NotIn(k, vals)
            } else {
                Requirement::In(k, vals)
            });
        }
    }
    if t.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
    {
        return Some(Requirement::Exists(t.to_string()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn string_selectors_match_labels() {
        let labels = json!({"app": "web", "tier": "front"});
        let l = labels.as_object();
        assert!(Selector::parse("app=web").unwrap().matches(l));
        assert!(Selector::parse("app=web,tier!=db").unwrap().matches(l));
        assert!(Selector::parse("tier in (front, back)").unwrap().matches(l));
        assert!(!Selector::parse("app notin (web)").unwrap().matches(l));
        assert!(Selector::parse("!legacy,app").unwrap().matches(l));
        assert!(Selector::parse("").unwrap().matches(l));
        assert!(Selector::parse("a in b").is_err());
    }

    #[test]
    fn required_label_is_an_equality_or_a_set_of_one() {
        let req = |s: &str| {
            Selector::parse(s)
                .unwrap()
                .required_label()
                .map(|(k, v)| format!("{k}={v}"))
        };
        assert_eq!(req("tier!=db,app=web").as_deref(), Some("app=web"));
        assert_eq!(req("app in (web)").as_deref(), Some("app=web"));
        assert_eq!(req("app in (web,db)"), None);
        assert_eq!(req("app,!legacy"), None);
        assert_eq!(Selector::nothing().required_label(), None);
    }

    #[test]
    fn object_selectors_and_nil() {
        let l = json!({"app": "web"});
        let sel = json!({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "x", "operator": "DoesNotExist"}]});
        assert!(Selector::from_label_selector(Some(&sel))
            .unwrap()
            .matches(l.as_object()));
        assert!(!Selector::from_label_selector(None)
            .unwrap()
            .matches(l.as_object()));
        assert_eq!(
            Selector::from_label_selector(Some(&sel))
                .unwrap()
                .to_string_form(),
            "app=web,!x"
        );
    }
}
