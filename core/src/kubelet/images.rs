//! The node's image side: a built-in catalog of image sizes, reference parsing as containerd
//! normalises it (`nginx` -> `docker.io/library/nginx:latest`), pull times, and the node's
//! image cache with the serial puller (`serializeImagePulls: true`).

use crate::kernel::Millis;
use std::collections::BTreeMap;

/// The sandbox image (`--pod-infra-container-image`).
pub const PAUSE_IMAGE: &str = "registry.k8s.io/pause:3.10";

/// Image sizes in bytes, by repository (Docker Hub library images and registry.k8s.io).
const CATALOG: &[(&str, u64)] = &[
    ("docker.io/library/nginx", 72_195_292),
    ("docker.io/library/redis", 45_180_371),
    ("docker.io/library/busybox", 4_424_472),
    ("docker.io/library/postgres", 157_813_462),
    ("docker.io/library/mysql", 172_354_108),
    ("docker.io/library/httpd", 58_402_981),
    ("docker.io/library/python", 389_432_018),
    ("docker.io/library/node", 398_111_239),
    ("docker.io/library/golang", 292_847_101),
    ("docker.io/library/alpine", 7_987_331),
    ("docker.io/library/ubuntu", 29_754_422),
    ("docker.io/library/debian", 48_494_272),
    ("registry.k8s.io/pause", 320_368),
];

/// Registries that answer (others fail to resolve).
const REGISTRIES: &[&str] = &["docker.io", "registry.k8s.io", "quay.io", "ghcr.io"];

/// Bytes per second a node pulls at, and the fixed cost of resolving and unpacking.
const PULL_BYTES_PER_SEC: u64 = 30_000_000;
const PULL_OVERHEAD_MS: Millis = 350;
/// With `imagePullPolicy: Always` and the image present: only the manifest is checked.
pub const MANIFEST_CHECK_MS: Millis = 420;
/// How long a failing pull takes to fail (resolving the reference).
pub const PULL_FAIL_MS: Millis = 820;

/// A parsed image reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageRef {
    /// `docker.io/library/nginx`.
    pub repository: String,
    /// `1.27` (or `latest`), `None` with a digest only.
    pub tag: Option<String>,
    pub digest: Option<String>,
}

impl ImageRef {
    pub fn parse(image: &str) -> ImageRef {
        let (rest, digest) = match image.split_once('@') {
            Some((r, d)) => (r, Some(d.to_string())),
            None => (image, None),
        };
        let last_slash = rest.rfind('/').map(|i| i + 1).unwrap_or(0);
        let (name, tag) = match rest[last_slash..].rfind(':') {
            Some(i) => (
                &rest[..last_slash + i],
                Some(rest[last_slash + i + 1..].to_string()),
            ),
            None => (rest, None),
        };
        let tag = match (&tag, &digest) {
            (None, None) => Some("latest".to_string()),
            _ => tag,
        };
        let first = name.split('/').next().unwrap_or("");
        let has_host = name.contains('/')
            && (first.contains('.') || first.contains(':') || first == "localhost");
        let repository = if has_host {
            let n = name.replacen("index.docker.io/", "docker.io/", 1);
            if n.starts_with("docker.io/") && n.matches('/').count() == 1 {
                n.replacen("docker.io/", "docker.io/library/", 1)
            } else {
                n
            }
        } else if name.contains('/') {
            format!("docker.io/{name}")
        } else {
            format!("docker.io/library/{name}")
        };
        ImageRef {
            repository,
            tag,
            digest,
        }
    }

    /// What containerd reports as the image: `docker.io/library/nginx:1.27`.
    pub fn full(&self) -> String {
        match (&self.tag, &self.digest) {
            (Some(t), _) => format!("{}:{t}", self.repository),
            (None, Some(d)) => format!("{}@{d}", self.repository),
            (None, None) => self.repository.clone(),
        }
    }

    pub fn registry(&self) -> &str {
        self.repository.split('/').next().unwrap_or("")
    }
}

/// The reference with the default tag applied, as kubelet events print it (`nginx:latest`).
pub fn with_default_tag(image: &str) -> String {
    let last = image.rsplit('/').next().unwrap_or(image);
    if last.contains(':') || image.contains('@') {
        image.to_string()
    } else {
        format!("{image}:latest")
    }
}

/// Whether a tag looks like one the registry has: a version (`1.27`, `3.10`, `16-alpine`),
/// or one of the usual names.
fn tag_exists(tag: &str) -> bool {
    tag.starts_with(|c: char| c.is_ascii_digit())
        || matches!(
            tag,
            "latest"
                | "stable"
                | "mainline"
                | "alpine"
                | "slim"
                | "bookworm"
                | "bullseye"
                | "jammy"
                | "noble"
                | "musl"
                | "glibc"
                | "uclibc"
        )
}

/// The size of an image the registry serves, or the error containerd gives.
pub fn resolve(image: &str) -> Result<u64, String> {
    let r = ImageRef::parse(image);
    let full = r.full();
    let registry = r.registry().to_string();
    if !REGISTRIES.contains(&registry.as_str()) {
        let path = r.repository.split_once('/').map(|x| x.1).unwrap_or("");
        let reference = r.tag.clone().or(r.digest.clone()).unwrap_or_default();
        return Err(format!(
            "rpc error: code = Unknown desc = failed to pull and unpack image \"{full}\": failed to resolve reference \"{full}\": failed to do request: Head \"https://{registry}/v2/{path}/manifests/{reference}\": dial tcp: lookup {registry}: no such host"
        ));
    }
    let size = CATALOG
        .iter()
        .find(|(repo, _)| *repo == r.repository)
        .map(|(_, s)| *s);
    match (size, &r.tag) {
        (Some(s), Some(t)) if tag_exists(t) => Ok(s),
        (Some(s), None) => Ok(s),
        (Some(_), Some(_)) => Err(format!(
            "rpc error: code = NotFound desc = failed to pull and unpack image \"{full}\": failed to resolve reference \"{full}\": {full}: not found"
        )),
        (None, _) => Err(format!(
            "rpc error: code = Unknown desc = failed to pull and unpack image \"{full}\": failed to resolve reference \"{full}\": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed"
        )),
    }
}

/// How long pulling `bytes` takes.
pub fn pull_ms(bytes: u64) -> Millis {
    PULL_OVERHEAD_MS + bytes * 1000 / PULL_BYTES_PER_SEC
}

/// A stable `sha256:` digest for an image (the same image has the same ID on every node).
pub fn digest(image: &str) -> String {
    let mut out = String::with_capacity(64);
    let mut h = crate::kernel::hash::FNV1A_START;
    for round in 0..4u64 {
        h = crate::kernel::hash::fnv1a_from(h, image.as_bytes());
        h = crate::kernel::hash::fnv1a_from(h, &round.to_le_bytes());
        out.push_str(&format!("{h:016x}"));
    }
    format!("sha256:{out}")
}

/// `imageID` in container statuses: `docker.io/library/nginx@sha256:...`.
pub fn image_id(image: &str) -> String {
    let r = ImageRef::parse(image);
    format!("{}@{}", r.repository, digest(&r.full()))
}

/// Go's `time.Duration.String()` of a millisecond count (`2.9s`, `812ms`, `1m5.2s`).
pub fn go_duration(ms: Millis) -> String {
    if ms == 0 {
        return "0s".into();
    }
    if ms < 1000 {
        return format!("{ms}ms");
    }
    let frac = |ms: Millis| {
        let s = ms / 1000;
        let f = ms % 1000;
        if f == 0 {
            format!("{s}")
        } else {
            let t = format!("{f:03}");
            format!("{s}.{}", t.trim_end_matches('0'))
        }
    };
    let h = ms / 3_600_000;
    let m = (ms % 3_600_000) / 60_000;
    let rest = ms % 60_000;
    if h > 0 {
        format!("{h}h{m}m{}s", frac(rest))
    } else if m > 0 {
        format!("{m}m{}s", frac(rest))
    } else {
        format!("{}s", frac(rest))
    }
}

/// The node's images and its one puller.
#[derive(Clone, Debug, Default)]
pub struct ImageCache {
    /// Image (`full()` form) to the time it is (or will be) present.
    present: BTreeMap<String, Millis>,
    /// When the serial puller is free again.
    busy_until: Millis,
}

/// A pull the puller accepted: when it starts and ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pull {
    pub start: Millis,
    pub done: Millis,
}

impl ImageCache {
    /// Whether the image is on the node at `now`.
    pub fn has(&self, image: &str, now: Millis) -> bool {
        self.present
            .get(&ImageRef::parse(image).full())
            .is_some_and(|&t| t <= now)
    }

    /// When the image is (or will be, while being pulled) on the node.
    pub fn ready_at(&self, image: &str) -> Option<Millis> {
        self.present.get(&ImageRef::parse(image).full()).copied()
    }

    /// Queues a pull taking `ms` behind the ones already running.
    pub fn queue(&mut self, now: Millis, ms: Millis) -> Pull {
        let start = self.busy_until.max(now);
        let done = start + ms;
        self.busy_until = done;
        Pull { start, done }
    }

    pub fn add(&mut self, image: &str, at: Millis) {
        let e = self
            .present
            .entry(ImageRef::parse(image).full())
            .or_insert(at);
        *e = (*e).min(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_references_as_containerd_does() {
        assert_eq!(
            ImageRef::parse("nginx").full(),
            "docker.io/library/nginx:latest"
        );
        assert_eq!(
            ImageRef::parse("nginx:1.27").full(),
            "docker.io/library/nginx:1.27"
        );
        assert_eq!(
            ImageRef::parse("registry.k8s.io/pause:3.10").full(),
            "registry.k8s.io/pause:3.10"
        );
        assert_eq!(
            ImageRef::parse("bitnami/redis:7").full(),
            "docker.io/bitnami/redis:7"
        );
        assert_eq!(with_default_tag("nginx"), "nginx:latest");
        assert_eq!(
            with_default_tag("localhost:5000/x"),
            "localhost:5000/x:latest"
        );
    }

    #[test]
    fn resolves_known_images_and_fails_others() {
        assert_eq!(resolve("nginx:1.27"), Ok(72_195_292));
        assert!(resolve("nginx:does-not-exist")
            .unwrap_err()
            .ends_with("docker.io/library/nginx:does-not-exist: not found"));
        assert!(resolve("example.com/nope:1")
            .unwrap_err()
            .contains("no such host"));
        assert!(resolve(PAUSE_IMAGE).is_ok());
    }

    #[test]
    fn formats_durations_like_go() {
        assert_eq!(go_duration(812), "812ms");
        assert_eq!(go_duration(2_900), "2.9s");
        assert_eq!(go_duration(1_562), "1.562s");
        assert_eq!(go_duration(65_200), "1m5.2s");
        assert_eq!(go_duration(10_000), "10s");
    }

    #[test]
    fn the_puller_is_serial() {
        let mut c = ImageCache::default();
        assert_eq!(
            c.queue(0, 100),
            Pull {
                start: 0,
                done: 100
            }
        );
        assert_eq!(
            c.queue(50, 100),
            Pull {
                start: 100,
                done: 200
            }
        );
        c.add("nginx", 200);
        assert!(!c.has("nginx:latest", 199));
        assert!(c.has("docker.io/library/nginx:latest", 200));
    }
}
