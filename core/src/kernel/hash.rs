//! FNV-1a, the one stable hash of the simulation: random stream names, image digests, Event
//! de-duplication keys and the kubelet's status fingerprints all use it, so the same input
//! hashes the same on every run and platform.

/// FNV-1a's starting state (its 64-bit offset basis).
pub const FNV1A_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a of `bytes` continued from the state `h` (start from [`FNV1A_START`]). On slices, so
/// the page's wasm holds one copy of the loop.
pub fn fnv1a_from(h: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(h, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(FNV1A_START, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_values() {
        // The FNV-1a 64-bit test vectors of the reference implementation.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(fnv1a_from(fnv1a(b"foo"), b"bar"), fnv1a(b"foobar"));
    }
}
