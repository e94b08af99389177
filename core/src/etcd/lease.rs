//! Leases: a TTL in seconds on the caller's virtual clock; keys attached to a lease are deleted
//! when it is revoked or expires.

use std::collections::BTreeSet;
use std::rc::Rc;

use super::{Etcd, EtcdError, MEMBER_ID, MIN_LEASE_TTL};

/// etcd's lease ids are the low 16 bits of the member id on top, then a millisecond timestamp
/// shifted left by 8, counted up by one per lease. Ours start from a fixed virtual timestamp
/// (2026-01-01T00:00:00Z), so they look the same and are always the same.
const LEASE_ID_PREFIX: u64 = (MEMBER_ID & 0xffff) << 48;
const LEASE_ID_BASE: u64 = ((1_767_225_600_000u64 & 0xff_ffff_ffff) << 8) + 1;
const LEASE_ID_SUFFIX_MASK: u64 = (1 << 48) - 1;

#[derive(Clone, Debug)]
pub(super) struct Lease {
    ttl: i64,
    expiry_ms: u64,
    keys: BTreeSet<Rc<str>>,
}

/// What `etcdctl lease timetolive` shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseTimeToLive {
    pub id: i64,
    /// Seconds left (truncated), never below 0.
    pub ttl: i64,
    pub granted_ttl: i64,
    /// The attached keys, in key order.
    pub keys: Vec<String>,
}

impl Etcd {
    /// Grants a lease of `ttl_seconds` (at least [`MIN_LEASE_TTL`], as etcd raises shorter ones)
    /// starting at `now_ms`; returns its id (never 0, deterministic).
    pub fn lease_grant(&mut self, ttl_seconds: i64, now_ms: u64) -> i64 {
        self.raft_index += 1;
        let suffix = (LEASE_ID_BASE + self.lease_seq) & LEASE_ID_SUFFIX_MASK;
        self.lease_seq += 1;
        let id = (LEASE_ID_PREFIX | suffix) as i64;
        let ttl = ttl_seconds.max(MIN_LEASE_TTL);
        self.leases.insert(
            id,
            Lease {
                ttl,
                expiry_ms: now_ms + ttl as u64 * 1000,
                keys: BTreeSet::new(),
            },
        );
        id
    }

    /// Revokes a lease, deleting its keys in one revision (none if it had no keys); returns the
    /// revision after it.
    pub fn lease_revoke(&mut self, id: i64) -> Result<i64, EtcdError> {
        let lease = self.leases.remove(&id).ok_or(EtcdError::LeaseNotFound)?;
        let keys: Vec<Rc<str>> = lease.keys.into_iter().collect();
        // The lease is gone already, so deleting its keys detaches nothing.
        Ok(self.delete_keys(&keys).revision)
    }

    /// Renews a lease for its full TTL from `now_ms`; returns that TTL.
    pub fn lease_keepalive(&mut self, id: i64, now_ms: u64) -> Result<i64, EtcdError> {
        let lease = self.leases.get_mut(&id).ok_or(EtcdError::LeaseNotFound)?;
        lease.expiry_ms = now_ms + lease.ttl as u64 * 1000;
        Ok(lease.ttl)
    }

    /// The remaining time and the keys of a lease.
    pub fn lease_time_to_live(&self, id: i64, now_ms: u64) -> Result<LeaseTimeToLive, EtcdError> {
        let lease = self.leases.get(&id).ok_or(EtcdError::LeaseNotFound)?;
        Ok(LeaseTimeToLive {
            id,
            ttl: (lease.expiry_ms.saturating_sub(now_ms) / 1000) as i64,
            granted_ttl: lease.ttl,
            keys: lease.keys.iter().map(|k| k.to_string()).collect(),
        })
    }

    /// The ids of every lease, in id order (the order they were granted).
    pub fn lease_leases(&self) -> Vec<i64> {
        self.leases.keys().copied().collect()
    }

    /// Revokes every lease whose TTL has run out at `now_ms` (expiry <= now), earliest expiry
    /// first (then by id), each deleting its keys in a revision of its own; returns their ids.
    pub fn expire_leases(&mut self, now_ms: u64) -> Vec<i64> {
        let mut expired: Vec<(u64, i64)> = self
            .leases
            .iter()
            .filter(|(_, l)| l.expiry_ms <= now_ms)
            .map(|(id, l)| (l.expiry_ms, *id))
            .collect();
        expired.sort_unstable();
        for (_, id) in &expired {
            // Every id was just found in the map.
            let _ = self.lease_revoke(*id);
        }
        expired.into_iter().map(|(_, id)| id).collect()
    }

    /// The earliest expiry among the leases, for the caller to schedule `expire_leases`.
    pub fn next_lease_expiry(&self) -> Option<u64> {
        self.leases.values().map(|l| l.expiry_ms).min()
    }

    pub(super) fn attach_lease(&mut self, id: i64, key: &Rc<str>) {
        if let Some(l) = self.leases.get_mut(&id) {
            l.keys.insert(key.clone());
        }
    }

    pub(super) fn detach_lease(&mut self, id: i64, key: &str) {
        if id == 0 {
            return;
        }
        if let Some(l) = self.leases.get_mut(&id) {
            l.keys.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;

    fn v(s: &str) -> Rc<str> {
        Rc::from(s)
    }

    #[test]
    fn lease_ids_look_like_etcds() {
        let mut e = Etcd::new();
        let a = e.lease_grant(3600, 0);
        let b = e.lease_grant(3600, 0);
        assert_ne!(a, 0);
        assert_eq!(b, a + 1);
        assert_eq!(format!("{a:016x}").get(..4), Some("694d"));
        assert_eq!(Etcd::new().lease_grant(10, 0), a, "deterministic");
    }

    #[test]
    fn leases_expire_and_delete_their_keys() {
        let mut e = Etcd::new();
        let hour = e.lease_grant(3600, 1_000);
        let short = e.lease_grant(10, 1_000);
        e.put("/registry/events/default/a", v("a"), hour).unwrap(); // 2
        e.put("/registry/events/default/b", v("b"), hour).unwrap(); // 3
        e.put("/s", v("s"), short).unwrap(); // 4
        e.put("/plain", v("p"), 0).unwrap(); // 5
        assert_eq!(e.put("/x", v("x"), 12345), Err(EtcdError::LeaseNotFound));
        let ttl = e.lease_time_to_live(hour, 1_000 + 1_500).unwrap();
        assert_eq!((ttl.ttl, ttl.granted_ttl, ttl.keys.len()), (3598, 3600, 2));
        assert!(e.expire_leases(10_999).is_empty());
        assert_eq!(e.next_lease_expiry(), Some(11_000));
        assert_eq!(e.lease_keepalive(short, 5_000), Ok(10));
        assert!(e.expire_leases(11_000).is_empty(), "kept alive");
        assert_eq!(e.expire_leases(15_000), vec![short]);
        assert_eq!(e.get("/s", None).unwrap(), None);
        assert_eq!(e.revision(), 6);
        // Detaching a key from its lease by putting it without one.
        e.put("/registry/events/default/b", v("b2"), 0).unwrap(); // 7
        let w = e.watch("/registry/events/", true, 0).unwrap();
        assert_eq!(e.expire_leases(3_601_000), vec![hour]);
        assert_eq!(e.revision(), 8, "one revision for the lease's keys");
        let evs = e.take_events(w);
        assert_eq!(evs.len(), 1);
        assert_eq!(
            (evs[0].kind, evs[0].kv.key.as_str()),
            (EventKind::Delete, "/registry/events/default/a")
        );
        assert!(e.get("/registry/events/default/b", None).unwrap().is_some());
        assert!(e.get("/plain", None).unwrap().is_some());
        assert_eq!(e.lease_time_to_live(hour, 0), Err(EtcdError::LeaseNotFound));
        assert_eq!(e.lease_revoke(hour), Err(EtcdError::LeaseNotFound));
        assert!(e.lease_leases().is_empty());
        // A revoked lease without keys writes nothing.
        let l = e.lease_grant(60, 0);
        assert_eq!(e.lease_revoke(l), Ok(8));
    }
}
