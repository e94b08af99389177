//! API errors as kube-apiserver returns them (`metav1.Status`) and field errors as
//! `k8s.io/apimachinery/pkg/util/validation/field` renders them (1.34+ value rendering).

use crate::api::value::Value;
use std::fmt;

/// The type of a field error, rendered as `field.ErrorType.String()` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldErrorType {
    Required,
    Invalid,
    Unsupported,
    Forbidden,
    Duplicate,
    TooLong,
    TooMany,
    NotFound,
    Internal,
}

impl FieldErrorType {
    pub fn as_str(self) -> &'static str {
        match self {
            FieldErrorType::Required => "Required value",
            FieldErrorType::Invalid => "Invalid value",
            FieldErrorType::Unsupported => "Unsupported value",
            FieldErrorType::Forbidden => "Forbidden",
            FieldErrorType::Duplicate => "Duplicate value",
            FieldErrorType::TooLong => "Too long",
            FieldErrorType::TooMany => "Too many",
            FieldErrorType::NotFound => "Not found",
            FieldErrorType::Internal => "Internal error",
        }
    }

    /// The `reason` of a `StatusCause` (`metav1.CauseType`).
    pub fn cause_type(self) -> &'static str {
        match self {
            FieldErrorType::Required => "FieldValueRequired",
            FieldErrorType::Invalid => "FieldValueInvalid",
            FieldErrorType::Unsupported => "FieldValueNotSupported",
            FieldErrorType::Forbidden => "FieldValueForbidden",
            FieldErrorType::Duplicate => "FieldValueDuplicate",
            FieldErrorType::TooLong => "FieldValueTooLong",
            FieldErrorType::TooMany => "FieldValueTooMany",
            FieldErrorType::NotFound => "FieldValueNotFound",
            FieldErrorType::Internal => "InternalError",
        }
    }

    /// Required, Forbidden, TooLong and Internal errors never show the bad value.
    fn shows_value(self) -> bool {
        !matches!(
            self,
            FieldErrorType::Required
                | FieldErrorType::Forbidden
                | FieldErrorType::TooLong
                | FieldErrorType::Internal
        )
    }
}

/// One validation failure at a field path such as `spec.template.metadata.labels`.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub kind: FieldErrorType,
    pub field: String,
    pub value: Option<Value>,
    pub detail: String,
}

impl FieldError {
    pub fn new(
        kind: FieldErrorType,
        field: impl Into<String>,
        value: Option<Value>,
        detail: impl Into<String>,
    ) -> Self {
        FieldError {
            kind,
            field: field.into(),
            value,
            detail: detail.into(),
        }
    }
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorType::Required, field, None, detail)
    }
    pub fn invalid(field: impl Into<String>, value: Value, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorType::Invalid, field, Some(value), detail)
    }
    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorType::Forbidden, field, None, detail)
    }
    pub fn not_supported(field: impl Into<String>, value: Value, supported: &[&str]) -> Self {
        let list: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
        Self::new(
            FieldErrorType::Unsupported,
            field,
            Some(value),
            format!("supported values: {}", list.join(", ")),
        )
    }
    pub fn too_long(field: impl Into<String>, max: usize) -> Self {
        Self::new(
            FieldErrorType::TooLong,
            field,
            None,
            format!("may not be more than {max} bytes"),
        )
    }
    pub fn duplicate(field: impl Into<String>, value: Value) -> Self {
        Self::new(FieldErrorType::Duplicate, field, Some(value), "")
    }
    pub fn not_found(field: impl Into<String>, value: Value) -> Self {
        Self::new(FieldErrorType::NotFound, field, Some(value), "")
    }

    /// The message without the field path (`StatusCause.message`).
    pub fn error_body(&self) -> String {
        let mut s = self.kind.as_str().to_string();
        if self.kind.shows_value() {
            if let Some(v) = &self.value {
                s.push_str(": ");
                s.push_str(&render_value(v));
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.error_body())
    }
}

/// Renders a bad value the way 1.34+ does: strings quoted as Go's `%q`, numbers and booleans
/// plain, `null` for nil, and composite values as compact JSON.
pub fn render_value(v: &Value) -> String {
    match v {
        Value::String(s) => go_quote(s),
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

/// Go's `strconv.Quote` for the characters that appear in practice.
pub fn go_quote(s: &str) -> String {
    // Names and reasons almost never need an escape: those are quoted in one go.
    if !s
        .bytes()
        .any(|b| b < 0x20 || b == 0x7f || b == b'"' || b == b'\\')
    {
        return ["\"", s, "\""].concat();
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Details of a failed request (`metav1.StatusDetails`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ErrorDetails {
    pub name: String,
    pub group: String,
    pub kind: String,
    pub causes: Vec<FieldError>,
}

/// A failed API request, as a `metav1.Status` with `status: Failure`.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    pub code: u16,
    /// `metav1.StatusReason`: `Invalid`, `Forbidden`, `NotFound`, `AlreadyExists`, `Conflict`, ...
    pub reason: &'static str,
    pub message: String,
    /// Boxed: errors travel in every `Result` of the request path and should stay small.
    pub details: Option<Box<ErrorDetails>>,
}

/// `resource.group`, or just `resource` for the core group, as `schema.GroupResource.String()`.
pub fn group_resource(resource: &str, group: &str) -> String {
    if group.is_empty() {
        resource.to_string()
    } else {
        format!("{resource}.{group}")
    }
}

impl ApiError {
    fn simple(code: u16, reason: &'static str, message: String) -> Self {
        ApiError {
            code,
            reason,
            message,
            details: None,
        }
    }

    /// 422, `apierrors.NewInvalid`: `Deployment.apps "web" is invalid: <errors>`.
    pub fn invalid(kind: &str, group: &str, name: &str, errors: Vec<FieldError>) -> Self {
        let aggregate = if errors.len() == 1 {
            errors[0].to_string()
        } else {
            format!(
                "[{}]",
                errors
                    .iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        ApiError {
            code: 422,
            reason: "Invalid",
            message: format!(
                "{} {} is invalid: {}",
                group_resource(kind, group),
                go_quote(name),
                aggregate
            ),
            details: Some(Box::new(ErrorDetails {
                name: name.to_string(),
                group: group.to_string(),
                kind: kind.to_string(),
                causes: errors,
            })),
        }
    }

    /// 404, `apierrors.NewNotFound`.
    pub fn not_found(resource: &str, group: &str, name: &str) -> Self {
        let mut e = Self::simple(
            404,
            "NotFound",
            format!(
                "{} {} not found",
                group_resource(resource, group),
                go_quote(name)
            ),
        );
        e.details = Some(Box::new(ErrorDetails {
            name: name.into(),
            group: group.into(),
            kind: resource.into(),
            causes: vec![],
        }));
        e
    }

    /// 409, `apierrors.NewAlreadyExists`.
    pub fn already_exists(resource: &str, group: &str, name: &str) -> Self {
        let mut e = Self::simple(
            409,
            "AlreadyExists",
            format!(
                "{} {} already exists",
                group_resource(resource, group),
                go_quote(name)
            ),
        );
        e.details = Some(Box::new(ErrorDetails {
            name: name.into(),
            group: group.into(),
            kind: resource.into(),
            causes: vec![],
        }));
        e
    }

    /// 409, `apierrors.NewConflict` with the optimistic-concurrency message of the registry.
    pub fn conflict(resource: &str, group: &str, name: &str, reason: &str) -> Self {
        let mut e = Self::simple(
            409,
            "Conflict",
            format!(
                "Operation cannot be fulfilled on {} {}: {}",
                group_resource(resource, group),
                go_quote(name),
                reason
            ),
        );
        e.details = Some(Box::new(ErrorDetails {
            name: name.into(),
            group: group.into(),
            kind: resource.into(),
            causes: vec![],
        }));
        e
    }

    /// The text of a stale-resourceVersion update (`registry.OptimisticLockErrorMsg`).
    pub const OPTIMISTIC_LOCK: &'static str =
        "the object has been modified; please apply your changes to the latest version and try again";

    /// 403, `apierrors.NewForbidden`: `<resource>.<group> "<name>" is forbidden: <msg>`.
    pub fn forbidden(resource: &str, group: &str, name: &str, msg: &str) -> Self {
        let gr = group_resource(resource, group);
        let message = if name.is_empty() {
            format!("{gr} is forbidden: {msg}")
        } else {
            format!("{gr} {} is forbidden: {msg}", go_quote(name))
        };
        let mut e = Self::simple(403, "Forbidden", message);
        e.details = Some(Box::new(ErrorDetails {
            name: name.into(),
            group: group.into(),
            kind: resource.into(),
            causes: vec![],
        }));
        e
    }

    /// 400.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::simple(400, "BadRequest", message.into())
    }

    /// 401.
    pub fn unauthorized() -> Self {
        Self::simple(401, "Unauthorized", "Unauthorized".into())
    }

    /// 413, as etcd's request size limit surfaces through the apiserver.
    pub fn too_large(message: impl Into<String>) -> Self {
        Self::simple(413, "RequestEntityTooLarge", message.into())
    }

    /// 500.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::simple(
            500,
            "InternalError",
            format!("Internal error occurred: {}", message.into()),
        )
    }

    /// 405.
    pub fn method_not_supported(resource: &str, group: &str, verb: &str) -> Self {
        Self::simple(
            405,
            "MethodNotAllowed",
            format!(
                "{verb} is not supported on resources of kind {}",
                go_quote(&group_resource(resource, group))
            ),
        )
    }

    /// The Status object as JSON, as the apiserver writes it on the wire.
    pub fn to_status(&self) -> Value {
        let mut status = crate::json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        });
        if let Some(d) = &self.details {
            let mut details = crate::api::value::Map::new();
            if !d.name.is_empty() {
                details.insert("name", d.name.clone().into());
            }
            if !d.group.is_empty() {
                details.insert("group", d.group.clone().into());
            }
            if !d.kind.is_empty() {
                details.insert("kind", d.kind.clone().into());
            }
            if !d.causes.is_empty() {
                let causes: Vec<Value> = d
                    .causes
                    .iter()
                    .map(|c| {
                        crate::json!({"reason": c.kind.cause_type(), "message": c.error_body(), "field": c.field})
                    })
                    .collect();
                details.insert("causes", causes.into());
            }
            status["details"] = Value::Object(details);
        }
        status
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ApiError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn go_quote_escapes_as_strconv_quote_does() {
        assert_eq!(go_quote("web-1"), r#""web-1""#);
        assert_eq!(go_quote(""), r#""""#);
        assert_eq!(go_quote("ü ✓"), "\"ü ✓\"");
        assert_eq!(
            go_quote("a\"b\\c\nd\te\rf\u{1}g\u{7f}"),
            r#""a\"b\\c\nd\te\rf\x01g\x7f""#
        );
    }

    #[test]
    fn selector_mismatch_renders_json_value_with_backticks() {
        let e = FieldError::invalid(
            "spec.template.metadata.labels",
            json!({"app": "y"}),
            "`selector` does not match template `labels`",
        );
        assert_eq!(
            e.to_string(),
            r#"spec.template.metadata.labels: Invalid value: {"app":"y"}: `selector` does not match template `labels`"#
        );
    }

    #[test]
    fn required_hides_value_and_invalid_aggregates() {
        let errs = vec![
            FieldError::required("spec.selector", ""),
            FieldError::invalid(
                "spec.replicas",
                json!(-1),
                "must be greater than or equal to 0",
            ),
        ];
        let e = ApiError::invalid("Deployment", "apps", "web", errs);
        assert_eq!(
            e.message,
            r#"Deployment.apps "web" is invalid: [spec.selector: Required value, spec.replicas: Invalid value: -1: must be greater than or equal to 0]"#
        );
        assert_eq!(e.code, 422);
    }

    #[test]
    fn forbidden_without_name_has_no_quotes() {
        let e = ApiError::forbidden(
            "deployments",
            "apps",
            "",
            "User \"jane\" cannot create resource",
        );
        assert_eq!(
            e.message,
            "deployments.apps is forbidden: User \"jane\" cannot create resource"
        );
        let e = ApiError::forbidden("pods", "", "p", "x");
        assert_eq!(e.message, "pods \"p\" is forbidden: x");
    }
}
