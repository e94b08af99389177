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
