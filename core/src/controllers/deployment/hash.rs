//! `pod-template-hash` (`controller.ComputeHash`): FNV-1a 32-bit over a deterministic dump of
//! the pod template, then the collision count, written in decimal with each digit mapped to
//! the safe alphabet (`rand.SafeEncodeString`), so it only uses `4-9bcdf`.
//!
//! Kubernetes dumps the Go struct; we hash the canonical JSON of the template as stored (keys
//! sorted at every level), so hashes have the real shape but not the real values.

use crate::api::value::Value;
use crate::api::Object;

const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// FNV-1a, 32-bit.
pub fn fnv1a32(bytes: &[u8], mut h: u32) -> u32 {
    for b in bytes {
        h ^= *b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

pub const FNV32_OFFSET: u32 = 0x811c_9dc5;

/// JSON with object keys sorted at every level, whatever order the map keeps.
pub fn canonical_json(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
            crate::api::sorting::sort(&mut keys);
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push(':');
                canonical_json(&m[k], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical_json(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// `rand.SafeEncodeString`: each character `c` becomes `alphanums[c % 27]`.
pub fn safe_encode(s: &str) -> String {
    s.bytes()
        .map(|c| ALPHANUMS[c as usize % ALPHANUMS.len()] as char)
        .collect()
}

/// The pod-template-hash of `template` (a PodTemplateSpec) with the Deployment's collisionCount.
pub fn compute_hash(template: &Object, collision_count: Option<i64>) -> String {
    let mut text = String::new();
    canonical_json(template, &mut text);
    let mut h = fnv1a32(text.as_bytes(), FNV32_OFFSET);
    if let Some(c) = collision_count {
        let mut buf = [0u8; 8];
        buf[..4].copy_from_slice(&(c as u32).to_le_bytes());
        h = fnv1a32(&buf, h);
    }
    safe_encode(&h.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn template(image: &str) -> Object {
        json!({"metadata": {"labels": {"app": "nginx"}},
               "spec": {"containers": [{"name": "nginx", "image": image}]}})
    }

    #[test]
    fn fnv_matches_the_reference_vectors() {
        assert_eq!(fnv1a32(b"", FNV32_OFFSET), 0x811c9dc5);
        assert_eq!(fnv1a32(b"a", FNV32_OFFSET), 0xe40c292c);
        assert_eq!(fnv1a32(b"foobar", FNV32_OFFSET), 0xbf9cf968);
    }

    #[test]
    fn digits_map_like_safe_encode_string() {
        assert_eq!(safe_encode("0123456789"), "456789bcdf");
    }

    #[test]
    fn hash_has_the_real_shape_and_is_stable() {
        let a = compute_hash(&template("nginx:1.26"), None);
        assert!(!a.is_empty() && a.len() <= 10, "{a}");
        assert!(a.chars().all(|c| "456789bcdf".contains(c)), "{a}");
        assert_eq!(a, compute_hash(&template("nginx:1.26"), None));
        assert_ne!(a, compute_hash(&template("nginx:1.27"), None));
        assert_ne!(a, compute_hash(&template("nginx:1.26"), Some(1)));
        // Key order does not matter.
        let b = json!({"spec": {"containers": [{"image": "nginx:1.26", "name": "nginx"}]},
                       "metadata": {"labels": {"app": "nginx"}}});
        assert_eq!(a, compute_hash(&b, None));
    }
}
