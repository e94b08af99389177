//! The event recorder components use (`client-go/tools/record`): each Event is a `core/v1`
//! object written through the apiserver, named `<object>.<hex of the UnixNano timestamp>`.

use crate::api::value::{json, Value};
use crate::api::{meta, resources::for_kind, Object};
use crate::apiserver::Verb;
use crate::cluster::component::Ctx;
use crate::kernel::time::{rfc3339, EPOCH_UNIX_SECONDS};

/// `Normal` or `Warning`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    Normal,
    Warning,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Normal => "Normal",
            EventType::Warning => "Warning",
        }
    }
}

/// Records events as one component (`source.component`, e.g. `deployment-controller`).
#[derive(Clone, Debug)]
pub struct Recorder {
    pub component: &'static str,
    /// `source.host` (kubelets set their node).
    pub host: Option<String>,
    /// Keeps names unique when two events share a millisecond.
    seq: u64,
}

impl Recorder {
    pub fn new(component: &'static str) -> Self {
        Recorder {
            component,
            host: None,
            seq: 0,
        }
    }

    pub fn on_host(component: &'static str, host: &str) -> Self {
        Recorder {
            component,
            host: Some(host.to_string()),
            seq: 0,
        }
    }

    /// Writes one event about `involved` (with an optional `fieldPath` such as
    /// `spec.containers{nginx}`), recording it in the trace too.
    pub fn event(
        &mut self,
        ctx: &mut Ctx<'_>,
        involved: &Object,
        field_path: Option<&str>,
        ty: EventType,
        reason: &str,
        message: &str,
    ) {
        let now = ctx.now();
        self.seq += 1;
        let nanos = (EPOCH_UNIX_SECONDS as u128 * 1_000_000_000)
            + now as u128 * 1_000_000
            + self.seq as u128;
        let name = format!("{}.{:x}", meta::name(involved), nanos);
        let ns = meta::namespace(involved).unwrap_or("default").to_string();
        let mut involved_ref = json!({
            "apiVersion": meta::api_version(involved),
            "kind": meta::kind(involved),
            "name": meta::name(involved),
            "uid": meta::uid(involved),
        });
        // An `ObjectReference` leaves out what it does not have (`omitempty`).
        if !meta::resource_version(involved).is_empty() {
            involved_ref["resourceVersion"] = json!(meta::resource_version(involved));
        }
        if let Some(n) = meta::namespace(involved) {
            involved_ref["namespace"] = json!(n);
        }
        if let Some(f) = field_path {
            involved_ref["fieldPath"] = json!(f);
        }
        let mut source = json!({"component": self.component});
        if let Some(h) = &self.host {
            source["host"] = json!(h);
        }
        let event = json!({
            "apiVersion": "v1",
            "kind": "Event",
            "metadata": {"name": name, "namespace": ns},
            "involvedObject": involved_ref,
            "reason": reason,
            "message": message,
            "source": source,
            "firstTimestamp": rfc3339(now),
            "lastTimestamp": rfc3339(now),
            "count": 1,
            "type": ty.as_str(),
            "eventTime": Value::Null,
            "reportingComponent": self.component,
            "reportingInstance": self.host.clone().unwrap_or_default(),
        });
        let info = for_kind("v1", "Event").expect("events");
        let summary = format!(
            "{} {} {}/{}: {}",
            ty.as_str(),
            reason,
            meta::kind(involved),
            meta::name(involved),
            message
        );
        ctx.push(
            ctx.new_record("event", summary)
                .object(crate::apiserver::object_label(involved)),
        );
        let req = ctx
            .request(Verb::Create, info)
            .namespace(Some(&ns))
            .body(event);
        let _ = ctx.send_owned(req);
    }
}
