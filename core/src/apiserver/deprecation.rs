//! API lifecycle warnings (`k8s.io/apiserver/pkg/endpoints/deprecation`). A type whose
//! `prerelease-lifecycle-gen` tags say it is deprecated in this release or an earlier one gets
//! a `Warning` header on every response for its resource, whatever the verb and outcome:
//! `<group/version> <Kind> is deprecated in v1.X+[, unavailable in v1.Y+][; use <group/version>
//! <Kind>]`. Clients show it (kubectl prints `Warning: ...` on stderr).

use crate::api::ResourceInfo;

/// The server's release (v1.35).
const SERVER_VERSION: (u32, u32) = (1, 35);

/// What the lifecycle tags of one type say.
struct Lifecycle {
    api_version: &'static str,
    kind: &'static str,
    deprecated: (u32, u32),
    removed: Option<(u32, u32)>,
    replacement: Option<(&'static str, &'static str)>,
}

/// The deprecated types kubeplay serves.
const LIFECYCLES: &[Lifecycle] = &[
    // KEP-4974: `+k8s:prerelease-lifecycle-gen:deprecated=1.33` and
    // `replacement=discovery.k8s.io,v1,EndpointSlice` on core/v1 Endpoints.
    Lifecycle {
        api_version: "v1",
        kind: "Endpoints",
        deprecated: (1, 33),
        removed: None,
        replacement: Some(("discovery.k8s.io/v1", "EndpointSlice")),
    },
];

/// The deprecation warning of a request for `info` (`deprecation.WarningMessage`), if its
/// type is deprecated in this release.
pub fn warning(info: &ResourceInfo) -> Option<String> {
    let l = LIFECYCLES
        .iter()
        .find(|l| l.api_version == info.api_version() && l.kind == info.kind)?;
    if SERVER_VERSION < l.deprecated {
        return None;
    }
    let mut msg = format!(
        "{} {} is deprecated in v{}.{}+",
        l.api_version, l.kind, l.deprecated.0, l.deprecated.1
    );
    if let Some((major, minor)) = l.removed {
        msg.push_str(&format!(", unavailable in v{major}.{minor}+"));
    }
    if let Some((api_version, kind)) = l.replacement {
        msg.push_str(&format!("; use {api_version} {kind}"));
    }
    Some(msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::resources::for_kind;

    #[test]
    fn only_v1_endpoints_is_deprecated() {
        assert_eq!(
            warning(for_kind("v1", "Endpoints").unwrap()).as_deref(),
            Some("v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice")
        );
        assert_eq!(
            warning(for_kind("discovery.k8s.io/v1", "EndpointSlice").unwrap()),
            None
        );
        assert_eq!(warning(for_kind("v1", "Pod").unwrap()), None);
    }
}
