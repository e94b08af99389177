//! A controller's work queue (client-go's `workqueue`): keys are de-duplicated while waiting,
//! so a burst of events for one object becomes one sync.

use std::collections::{BTreeSet, VecDeque};

#[derive(Debug, Default)]
pub struct WorkQueue {
    queue: VecDeque<String>,
    waiting: BTreeSet<String>,
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
}
