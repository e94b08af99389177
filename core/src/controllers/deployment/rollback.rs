//! Rollback (`rollback.go`): `kubectl rollout undo` puts an old template back into the
//! Deployment, so the controller only has to recognise the ReplicaSet that already runs that
//! template and give it the next revision, instead of creating a new one.

use super::{by_creation, revision, HASH_LABEL};
use crate::api::json::JsonPointer;
use crate::api::value::Value;
use crate::api::Object;
use crate::controllers::podutil::At;

/// The template without the `pod-template-hash` label (`EqualIgnoreHash`).
fn without_hash(template: Option<&Value>) -> Value {
    let mut t = template.cloned().unwrap_or(Value::Null);
    if let Some(labels) = t
        .lookup_mut("/metadata/labels")
        .and_then(Value::as_object_mut)
    {
        labels.remove(HASH_LABEL);
        if labels.is_empty() {
            if let Some(m) = t.lookup_mut("/metadata").and_then(Value::as_object_mut) {
                m.remove("labels");
            }
        }
    }
    t
}

pub fn equal_ignore_hash(a: Option<&Value>, b: Option<&Value>) -> bool {
    without_hash(a) == without_hash(b)
}

/// The ReplicaSet whose template is the Deployment's (`FindNewReplicaSet`): the oldest such.
pub fn find_new_rs(d: &Object, rss: &[Object]) -> Option<Object> {
    let mut v: Vec<Object> = rss
        .iter()
        .filter(|rs| equal_ignore_hash(rs.at(&["spec", "template"]), d.at(&["spec", "template"])))
        .cloned()
        .collect();
    by_creation(&mut v);
    v.into_iter().next()
}

/// The highest revision among `rss` (`MaxRevision`).
pub fn max_revision(rss: &[Object]) -> i64 {
    rss.iter().map(revision).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn the_hash_label_does_not_make_templates_differ() {
        let a =
            json!({"metadata": {"labels": {"app": "x", "pod-template-hash": "5b7c"}}, "spec": {}});
        let b = json!({"metadata": {"labels": {"app": "x"}}, "spec": {}});
        assert!(equal_ignore_hash(Some(&a), Some(&b)));
        let c = json!({"metadata": {"labels": {"app": "y"}}, "spec": {}});
        assert!(!equal_ignore_hash(Some(&a), Some(&c)));
    }
}
