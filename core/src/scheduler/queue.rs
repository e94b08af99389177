//! The scheduling queue (`pkg/scheduler/backend/queue`): activeQ ordered by priority then
//! arrival (PrioritySort), backoffQ for pods waiting out their backoff, and the unschedulable
//! pods, which wait for a cluster event that could make them schedulable.

use crate::api::value::Value;
use crate::kernel::Millis;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

/// `podInitialBackoffDuration`: 1s, doubling per failed attempt.
pub const INITIAL_BACKOFF_MS: Millis = 1_000;
/// `podMaxBackoffDuration`: 10s.
pub const MAX_BACKOFF_MS: Millis = 10_000;

/// The backoff after `attempts` failed attempts.
pub fn backoff(attempts: u32) -> Millis {
    let mut d = INITIAL_BACKOFF_MS;
    for _ in 1..attempts {
        d = d.saturating_mul(2);
        if d >= MAX_BACKOFF_MS {
            return MAX_BACKOFF_MS;
        }
    }
    d.min(MAX_BACKOFF_MS)
}

/// A pod in the queue (`framework.QueuedPodInfo`).
#[derive(Clone, Debug)]
struct Entry {
    priority: i64,
    /// Arrival order in the queue (its timestamp).
    seq: u64,
    attempts: u32,
    backoff_until: Millis,
    /// When it joined the unschedulable pods.
    since: Millis,
    /// The pod's spec and labels when it last failed: a change moves it back.
    fingerprint: Value,
}

/// Where a queued pod is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Active,
    Backoff,
    Unschedulable,
    /// Popped and being scheduled.
    InFlight,
}

#[derive(Default)]
pub struct SchedulingQueue {
    seq: u64,
    active: BTreeSet<(Reverse<i64>, u64, String)>,
    entries: BTreeMap<String, (Place, Entry)>,
    /// The keys whose place is `Backoff` (backoffQ), so a flush does not walk every entry.
    backoff: BTreeSet<String>,
}

impl SchedulingQueue {
    pub fn place(&self, key: &str) -> Option<Place> {
        self.entries.get(key).map(|(p, _)| *p)
    }

    pub fn has_active(&self) -> bool {
        !self.active.is_empty()
    }

    /// A new pod: straight to activeQ.
    pub fn add(&mut self, key: &str, priority: i64) {
        if self.entries.contains_key(key) {
            return;
        }
        self.seq += 1;
        let e = Entry {
            priority,
            seq: self.seq,
            attempts: 0,
            backoff_until: 0,
            since: 0,
            fingerprint: Value::Null,
        };
        self.active
            .insert((Reverse(priority), e.seq, key.to_string()));
        self.entries.insert(key.to_string(), (Place::Active, e));
    }

    /// The next pod to schedule: highest priority, then earliest arrival.
    pub fn pop(&mut self) -> Option<String> {
        let first = self.active.iter().next().cloned()?;
        self.active.remove(&first);
        // It stays known (in flight) until it is bound, requeued or deleted.
        if let Some((p, _)) = self.entries.get_mut(&first.2) {
            *p = Place::InFlight;
        }
        Some(first.2)
    }

    /// Forgets a pod (bound or deleted).
    pub fn delete(&mut self, key: &str) {
        self.backoff.remove(key);
        if let Some((Place::Active, e)) = self.entries.remove(key) {
            self.active
                .remove(&(Reverse(e.priority), e.seq, key.to_string()));
        }
    }

    /// A pod that failed: it waits in the unschedulable pods (or, after an error, in
    /// backoffQ). Returns when its backoff ends.
    pub fn requeue_failed(
        &mut self,
        key: &str,
        priority: i64,
        fingerprint: Value,
        now: Millis,
        unschedulable: bool,
    ) -> Millis {
        let attempts = self.entries.get(key).map_or(0, |(_, e)| e.attempts) + 1;
        self.delete(key);
        self.seq += 1;
        let until = now + backoff(attempts);
        let e = Entry {
            priority,
            seq: self.seq,
            attempts,
            backoff_until: until,
            since: now,
            fingerprint,
        };
        let place = if unschedulable {
            Place::Unschedulable
        } else {
            Place::Backoff
        };
        if place == Place::Backoff {
            self.backoff.insert(key.to_string());
        }
        self.entries.insert(key.to_string(), (place, e));
        until
    }

    /// Whether an unschedulable pod's spec or labels changed since it failed.
    pub fn changed(&self, key: &str, fingerprint: &Value) -> bool {
        matches!(self.entries.get(key), Some((Place::Unschedulable, e)) if &e.fingerprint != fingerprint)
    }

    fn activate(&mut self, key: &str) {
        if let Some((p, e)) = self.entries.get_mut(key) {
            self.backoff.remove(key);
            *p = Place::Active;
            self.active
                .insert((Reverse(e.priority), e.seq, key.to_string()));
        }
    }

    /// A cluster event that may help: unschedulable pods move to activeQ, or to backoffQ if
    /// still backing off. Returns the earliest backoff end among those moved to backoffQ.
    pub fn move_all_to_active_or_backoff(&mut self, now: Millis) -> Option<Millis> {
        let keys: Vec<String> = self
            .entries
            .iter()
            .filter(|(_, (p, _))| *p == Place::Unschedulable)
            .map(|(k, _)| k.clone())
            .collect();
        let mut earliest = None;
        for k in keys {
            let until = self.entries[&k].1.backoff_until;
            if until <= now {
                self.activate(&k);
            } else {
                self.entries.get_mut(&k).expect("queued").0 = Place::Backoff;
                self.backoff.insert(k.clone());
                earliest = Some(earliest.map_or(until, |e: Millis| e.min(until)));
            }
        }
        earliest
    }

    /// Unschedulable pods that waited longer than `max` are retried as if an event came.
    pub fn flush_unschedulable_leftover(&mut self, now: Millis, max: Millis) -> Option<Millis> {
        let keys: Vec<String> = self
            .entries
            .iter()
            .filter(|(_, (p, e))| *p == Place::Unschedulable && now - e.since > max)
            .map(|(k, _)| k.clone())
            .collect();
        let mut earliest = None;
        for k in keys {
            if let Some(until) = self.move_one(&k, now) {
                earliest = Some(earliest.map_or(until, |e: Millis| e.min(until)));
            }
        }
        earliest
    }

    /// Moves one unschedulable pod whose spec changed.
    pub fn move_one(&mut self, key: &str, now: Millis) -> Option<Millis> {
        let until = self.entries.get(key)?.1.backoff_until;
        if until <= now {
            self.activate(key);
            None
        } else {
            self.entries.get_mut(key)?.0 = Place::Backoff;
            self.backoff.insert(key.to_string());
            Some(until)
        }
    }

    /// Pods whose backoff has ended move from backoffQ to activeQ.
    pub fn flush_backoff(&mut self, now: Millis) {
        // The backoffQ keys in key order, as a walk of every entry would find them.
        let keys: Vec<String> = self
            .backoff
            .iter()
            .filter(|k| {
                self.entries
                    .get(*k)
                    .is_some_and(|(p, e)| *p == Place::Backoff && e.backoff_until <= now)
            })
            .cloned()
            .collect();
        for k in keys {
            self.activate(&k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_ten_seconds() {
        let b: Vec<Millis> = (1..=6).map(backoff).collect();
        assert_eq!(b, [1000, 2000, 4000, 8000, 10000, 10000]);
    }

    #[test]
    fn priority_then_arrival() {
        let mut q = SchedulingQueue::default();
        q.add("a", 0);
        q.add("b", 10);
        q.add("c", 0);
        assert_eq!(q.pop().as_deref(), Some("b"));
        assert_eq!(q.pop().as_deref(), Some("a"));
        assert_eq!(q.pop().as_deref(), Some("c"));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn unschedulable_pods_wait_for_an_event() {
        let mut q = SchedulingQueue::default();
        q.add("a", 0);
        q.pop();
        assert_eq!(q.requeue_failed("a", 0, Value::Null, 100, true), 1100);
        q.flush_backoff(5000);
        assert!(!q.has_active());
        assert_eq!(q.move_all_to_active_or_backoff(500), Some(1100));
        assert!(!q.has_active());
        q.flush_backoff(1100);
        assert_eq!(q.pop().as_deref(), Some("a"));
        // Left waiting for more than five minutes: retried without an event.
        q.requeue_failed("a", 0, Value::Null, 2000, true);
        assert_eq!(q.flush_unschedulable_leftover(200_000, 300_000), None);
        assert!(!q.has_active());
        assert_eq!(q.flush_unschedulable_leftover(302_001, 300_000), None);
        assert!(q.has_active());
    }
}
