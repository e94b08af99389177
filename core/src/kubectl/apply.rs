//! `kubectl apply -f` and `kubectl create -f`: read the manifest, split it, check each object
//! on the client, map its kind through discovery, then create or patch it.

use super::{format_error, kind_name, Ctx};
use crate::api::json::JsonPointer;
use crate::api::value::{json, Value};
use crate::api::{meta, resources, Object};
use crate::apiserver::{patch, PatchType, Verb};
use crate::scenario::documents;

pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The manifest text `-f NAME` reads: standard input (`-`) or the scenario file.
fn read_source(ctx: &mut Ctx<'_>, name: &str) -> Result<(String, String), String> {
    match &ctx.source {
        Some((n, text)) if name == "-" || n == name => {
            let shown = if name == "-" {
                "STDIN".to_string()
            } else {
                name.to_string()
            };
            Ok((shown, text.clone()))
        }
        _ => Err(format!("error: the path {name:?} does not exist")),
    }
}

/// The objects of a manifest, each with the resource discovery mapped it to.
pub type ManifestObjects = Vec<(Object, &'static crate::api::ResourceInfo)>;

/// Reads, splits and parses a manifest, recording the client-side steps. Each object comes
/// with its resource; documents that fail stop there with kubectl's message.
pub fn read_objects(ctx: &mut Ctx<'_>) -> Result<(String, ManifestObjects), String> {
    let mut reading = ManifestReading::start(ctx)?;
    reading.read_some(ctx, usize::MAX)?;
    Ok(reading.finish())
}

/// A manifest being read a document at a time: the scenario's apply reads a few per step of
/// the simulation (parsing thousands of documents at once was one long task in the page).
pub struct ManifestReading {
    shown: String,
    text: String,
    /// Each document's place: its byte range in `text`, its index, line and column.
    docs: Vec<(std::ops::Range<usize>, usize, usize, usize)>,
    next: usize,
    /// One budget of YAML nodes for the whole manifest (alias bombs spread over documents).
    budget: usize,
    objects: ManifestObjects,
}

impl ManifestReading {
    /// Reads the file and splits it into documents (kubectl's `read` step).
    pub fn start(ctx: &mut Ctx<'_>) -> Result<ManifestReading, String> {
        let file = ctx
            .flags
            .value("filename")
            .ok_or("error: must specify one of -f and -k")?
            .to_string();
        let (shown, text) = read_source(ctx, &file)?;
        let docs: Vec<_> = documents::split(&text)
            .iter()
            .map(|d| {
                let at = d.text.as_ptr() as usize - text.as_ptr() as usize;
                (at..at + d.text.len(), d.index, d.start_line, d.start_column)
            })
            .collect();
        ctx.step(
            "kubectl.read",
            format!("read {shown}: {} document(s)", docs.len()),
        );
        if docs.is_empty() {
            return Err("error: no objects passed to apply".to_string());
        }
        Ok(ManifestReading {
            shown,
            text,
            docs,
            next: 0,
            budget: crate::scenario::MAX_YAML_NODES,
            objects: Vec::new(),
        })
    }

    /// Parses, checks and maps up to `n` more documents; true once all are read.
    pub fn read_some(&mut self, ctx: &mut Ctx<'_>, n: usize) -> Result<bool, String> {
        let end = self.docs.len().min(self.next.saturating_add(n));
        while self.next < end {
            let (range, index, start_line, start_column) = self.docs[self.next].clone();
            self.next += 1;
            let doc = documents::Document {
                index,
                start_line,
                start_column,
                text: &self.text[range],
            };
            read_document(ctx, &self.shown, &doc, &mut self.budget, &mut self.objects)?;
        }
        Ok(self.next == self.docs.len())
    }

    /// The name the file is shown by, and its objects.
    pub fn finish(self) -> (String, ManifestObjects) {
        (self.shown, self.objects)
    }
}

/// One document: parsed, checked on the client, and mapped through discovery onto `out`.
fn read_document(
    ctx: &mut Ctx<'_>,
    shown: &str,
    doc: &documents::Document<'_>,
    budget: &mut usize,
    out: &mut ManifestObjects,
) -> Result<(), String> {
    let obj = documents::parse_document_within(shown, doc, budget).map_err(|e| {
        format!(
            "error: error parsing {shown}: error converting YAML to JSON: yaml: line {}: {}",
            e.line, e.message
        )
    })?;
    if obj.is_null() {
        return Ok(());
    }
    let mut missing = Vec::new();
    if meta::api_version(&obj).is_empty() {
        missing.push("apiVersion not set");
    }
    if meta::kind(&obj).is_empty() {
        missing.push("kind not set");
    }
    if !missing.is_empty() {
        let list = if missing.len() == 1 {
            missing[0].to_string()
        } else {
            format!("[{}]", missing.join(", "))
        };
        ctx.step(
            "kubectl.validate",
            format!("document at line {}: {list}", doc.start_line),
        );
        return Err(format!(
            "error: error validating {shown:?}: error validating data: {list}; if you choose to ignore these errors, turn validation off with --validate=false"
        ));
    }
    let (av, kind) = (
        meta::api_version(&obj).to_string(),
        meta::kind(&obj).to_string(),
    );
    match resources::for_kind(&av, &kind) {
        Some(info) => {
            ctx.step(
                "kubectl.discovery",
                format!(
                    "{av} {kind} is resource {} ({})",
                    info.group_resource(),
                    if info.namespaced {
                        "namespaced"
                    } else {
                        "cluster-scoped"
                    }
                ),
            );
            out.push((obj, info));
        }
        None => {
            ctx.step(
                "kubectl.discovery",
                format!("no matches for kind {kind:?} in version {av:?}"),
            );
            // Earlier objects of the file are still applied, as kubectl does.
            ctx.err.push_str(&format!(
                "error: resource mapping not found for name: {:?} namespace: {:?} from {shown:?}: no matches for kind {kind:?} in version {av:?}\nensure CRDs are installed first\n",
                meta::name(&obj),
                meta::namespace(&obj).unwrap_or("")
            ));
            ctx.code = 1;
        }
    }
    Ok(())
}

/// The part of a three-way merge kubectl sends: fields of `modified` that differ from `current`,
/// plus `null` for fields the last applied configuration had and `modified` dropped.
fn three_way(original: &Value, modified: &Value, current: &Value) -> Value {
    let mut out = crate::api::value::Map::new();
    if let (Some(m), cur) = (modified.as_object(), current.as_object()) {
        for (k, mv) in m {
            match cur.and_then(|c| c.get(k)) {
                Some(cv) if cv == mv => {}
                Some(cv) if cv.is_object() && mv.is_object() => {
                    let sub = three_way(original.get(k).unwrap_or(&Value::Null), mv, cv);
                    if sub.as_object().is_some_and(|s| !s.is_empty()) {
                        out.insert(k.clone(), sub);
                    }
                }
                _ => {
                    out.insert(k.clone(), mv.clone());
                }
            }
        }
        if let Some(o) = original.as_object() {
            for k in o.keys() {
                if !m.contains_key(k) && cur.is_some_and(|c| c.contains_key(k)) {
                    out.insert(k.clone(), Value::Null);
                }
            }
        }
    }
    Value::Object(out)
}

pub fn apply(ctx: &mut Ctx<'_>, create_only: bool) -> Result<(), String> {
    let (shown, objects) = read_objects(ctx)?;
    for (obj, info) in objects {
        apply_object(ctx, &shown, obj, info, create_only);
    }
    Ok(())
}

/// Creates one object of the manifest `shown`, or (apply) patches it with the three-way
/// merge of what was last applied, what is applied now and what is live.
pub fn apply_object(
    ctx: &mut Ctx<'_>,
    shown: &str,
    mut obj: Object,
    info: &'static crate::api::ResourceInfo,
    create_only: bool,
) {
    let ns = if info.namespaced {
        Some(
            meta::namespace(&obj)
                .map(str::to_string)
                .unwrap_or_else(|| ctx.namespace.clone()),
        )
    } else {
        None
    };
    if ctx.explicit_namespace && info.namespaced {
        if let Some(obj_ns) = meta::namespace(&obj) {
            if obj_ns != ctx.namespace {
                ctx.fail(&format!(
                    "error: the namespace from the provided object {obj_ns:?} does not match the namespace {:?}. You must pass '--namespace={obj_ns}' to perform this operation.",
                    ctx.namespace
                ));
                return;
            }
        }
    }
    let name = meta::name(&obj).to_string();
    if create_only {
        let req = ctx
            .request(Verb::Create, info)
            .namespace(ns.as_deref())
            .body(obj);
        match ctx.send(&req) {
            Ok(created) => ctx.out.push_str(&format!(
                "{} created\n",
                kind_name(info, meta::name(&created))
            )),
            Err(e) => ctx.fail(&format_error(
                &e,
                &format!("error when creating {shown:?}: "),
            )),
        }
        return;
    }
    if name.is_empty() {
        match obj.lookup("/metadata/generateName").and_then(Value::as_str) {
            Some(g) => ctx.fail(&format!("error: from {g}: cannot use generate name with apply")),
            None => ctx.fail(&format!(
                "error: error when retrieving current configuration of:\nResource: \"{}, Resource={}\", GroupVersionKind: \"{}, Kind={}\"\nName: \"\", Namespace: {:?}\nfrom server for: {shown:?}: resource name may not be empty",
                info.api_version(), info.plural, info.api_version(), info.kind, ns.clone().unwrap_or_default()
            )),
        }
        return;
    }
    // The annotation records what was applied, for the next apply's three-way merge.
    let mut config = obj.clone();
    if let Some(m) = config.get_mut("metadata").and_then(Value::as_object_mut) {
        if let Some(a) = m.get_mut("annotations").and_then(Value::as_object_mut) {
            a.remove(LAST_APPLIED);
        }
    }
    meta::set_annotation(
        &mut obj,
        LAST_APPLIED,
        &format!("{}\n", serde_json::to_string(&config).unwrap_or_default()),
    );
    let get = ctx
        .request(Verb::Get, info)
        .namespace(ns.as_deref())
        .name(&name);
    match ctx.send(&get) {
        Err(e) if e.reason == "NotFound" => {
            let req = ctx.request(Verb::Create, info).namespace(ns.as_deref()).body(obj);
            match ctx.send(&req) {
                Ok(_) => ctx.out.push_str(&format!("{} created\n", kind_name(info, &name))),
                Err(e) => ctx.fail(&format_error(&e, &format!("error when creating {shown:?}: "))),
            }
        }
        Err(e) => ctx.fail(&format!(
            "Error from server ({}): error when retrieving current configuration of:\nResource: \"{}, Resource={}\", GroupVersionKind: \"{}, Kind={}\"\nName: {name:?}, Namespace: {:?}\nfrom server for: {shown:?}: {}",
            e.reason,
            info.api_version(),
            info.plural,
            info.api_version(),
            info.kind,
            ns.clone().unwrap_or_default(),
            e.message
        )),
        Ok(live) => {
            let original = live
                .lookup("/metadata/annotations")
                .and_then(|a| a.get(LAST_APPLIED))
                .and_then(Value::as_str)
                .and_then(|s| serde_json::from_str::<Value>(s).ok())
                .unwrap_or(json!({}));
            let p = three_way(&original, &obj, &live);
            let mut preview = live.clone();
            patch::strategic_merge(&mut preview, &p);
            if p.as_object().is_none_or(|m| m.is_empty()) || preview == live {
                ctx.out.push_str(&format!("{} unchanged\n", kind_name(info, &name)));
                return;
            }
            let req = ctx.request(Verb::Patch(PatchType::Strategic), info).namespace(ns.as_deref()).name(&name).body(p);
            match ctx.send(&req) {
                Ok(_) => ctx.out.push_str(&format!("{} configured\n", kind_name(info, &name))),
                Err(e) => ctx.fail(&format_error(&e, &format!("error when applying patch:\n{}\nto:\nResource: \"{}, Resource={}\"\nName: {name:?}, Namespace: {:?}\nfor: {shown:?}: ", serde_json::to_string(&req.body).unwrap_or_default(), info.api_version(), info.plural, ns.clone().unwrap_or_default()))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::three_way;
    use crate::json;

    #[test]
    fn three_way_sends_changes_and_removals_only() {
        let original = json!({"spec": {"replicas": 3, "paused": false}});
        let modified = json!({"spec": {"replicas": 3}});
        let live = json!({"spec": {"replicas": 5, "paused": false, "strategy": {"type": "RollingUpdate"}}});
        assert_eq!(
            three_way(&original, &modified, &live),
            json!({"spec": {"replicas": 3, "paused": null}})
        );
        assert_eq!(
            three_way(&modified, &modified, &json!({"spec": {"replicas": 3}})),
            json!({})
        );
    }
}
