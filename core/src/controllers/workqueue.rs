//! A controller's work queue (client-go's `workqueue`): keys are de-duplicated while waiting,
//! so a burst of events for one object becomes one sync.

use std::collections::{BTreeSet, VecDeque};

#[derive(Debug, Default)]
pub struct WorkQueue {
    queue: VecDeque<String>,
    waiting: BTreeSet<String>,
    /// The worker's timer is set: it takes the next key when it fires.
    worker_armed: bool,
}

impl WorkQueue {
    /// Adds `key`; false when it was already waiting.
    pub fn add(&mut self, key: impl Into<String>) -> bool {
        let key = key.into();
        if self.waiting.insert(key.clone()) {
            self.queue.push_back(key);
            true
        } else {
            false
        }
    }

    /// Adds `key` for the worker; true when the worker was idle and its timer must be set.
    pub fn add_for_worker(&mut self, key: impl Into<String>) -> bool {
        self.add(key);
        !std::mem::replace(&mut self.worker_armed, true)
    }

    /// The worker's turn: it takes one key (client-go's `processNextWorkItem`), so what the
    /// watches bring between two syncs is seen before the next one, and a burst of keys is
    /// not one long step of the simulation.
    pub fn take_turn(&mut self) -> Option<String> {
        self.worker_armed = false;
        self.pop()
    }

    /// The worker's turn when it is still busy with the key of an earlier turn (a sync that
    /// goes on over several steps): it takes no key.
    pub fn busy_turn(&mut self) {
        self.worker_armed = false;
    }

    /// After a turn: true when the worker is still busy or keys are waiting, and its timer
    /// must be set again (for the same virtual instant).
    pub fn rearm(&mut self, busy: bool) -> bool {
        if (self.queue.is_empty() && !busy) || self.worker_armed {
            return false;
        }
        self.worker_armed = true;
        true
    }

    pub fn pop(&mut self) -> Option<String> {
        let k = self.queue.pop_front()?;
        self.waiting.remove(&k);
        Some(k)
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }
}

/// Keys put back on a queue later (client-go's `AddAfter` and `AddRateLimited`): each waits on a
/// timer of its own, tagged from 1 up (tag 0 is the worker's).
#[derive(Debug, Default)]
pub struct Delayed {
    next_tag: u64,
    waiting: std::collections::BTreeMap<u64, String>,
    failures: std::collections::BTreeMap<String, u32>,
}

impl Delayed {
    /// Reserves a timer tag for `key`; the caller sets the timer with it.
    pub fn add(&mut self, key: impl Into<String>) -> u64 {
        self.next_tag += 1;
        self.waiting.insert(self.next_tag, key.into());
        self.next_tag
    }

    /// The key whose timer fired.
    pub fn take(&mut self, tag: u64) -> Option<String> {
        self.waiting.remove(&tag)
    }

    /// The per-item exponential back-off of `DefaultControllerRateLimiter`: 5 ms doubling on
    /// each failure, at most 1000 s.
    pub fn backoff_ms(&mut self, key: &str) -> u64 {
        let n = self.failures.entry(key.to_string()).or_insert(0);
        let delay = 5u64.saturating_mul(1u64 << (*n).min(40)).min(1_000_000);
        *n += 1;
        delay
    }

    /// The key synced cleanly: its back-off starts over (`Forget`).
    pub fn forget(&mut self, key: &str) {
        self.failures.remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::WorkQueue;

    #[test]
    fn deduplicates_waiting_keys_in_fifo_order() {
        let mut q = WorkQueue::default();
        assert!(q.add("a"));
        assert!(q.add("b"));
        assert!(!q.add("a"));
        assert_eq!(q.pop().as_deref(), Some("a"));
        assert!(q.add("a"), "a key can come back once it was taken");
        assert_eq!(q.pop().as_deref(), Some("b"));
        assert_eq!(q.pop().as_deref(), Some("a"));
        assert!(q.pop().is_none());
    }

    #[test]
    fn the_worker_takes_one_key_per_turn_and_is_armed_once() {
        let mut q = WorkQueue::default();
        assert!(q.add_for_worker("a"), "an idle worker's timer is set");
        assert!(!q.add_for_worker("b"), "an armed worker is not armed twice");
        assert_eq!(q.take_turn().as_deref(), Some("a"));
        assert!(q.rearm(false), "b waits: the worker goes again");
        assert!(!q.rearm(false));
        assert_eq!(q.take_turn().as_deref(), Some("b"));
        assert!(
            q.add_for_worker("c"),
            "added during a turn: the worker is idle again"
        );
        assert!(!q.rearm(false), "already armed by the add");
        assert_eq!(q.take_turn().as_deref(), Some("c"));
        assert!(!q.rearm(false), "nothing left");
        assert!(q.take_turn().is_none());
    }

    #[test]
    fn a_busy_worker_goes_again_without_taking_a_key() {
        let mut q = WorkQueue::default();
        assert!(q.add_for_worker("a"));
        assert_eq!(q.take_turn().as_deref(), Some("a"));
        assert!(q.rearm(true), "busy with a: the worker goes again");
        assert!(!q.add_for_worker("b"), "armed for the busy worker");
        q.busy_turn();
        assert!(q.rearm(true), "still busy with a");
        q.busy_turn();
        assert!(q.rearm(false), "done with a, b waits");
        assert_eq!(q.take_turn().as_deref(), Some("b"));
        assert!(!q.rearm(false));
    }
}
