//! The event queue: events fire in order of virtual time, and events at the same time in the
//! order they were scheduled (a sequence number breaks ties, as nexosim does).

use super::Millis;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry<E> {
    at: Millis,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

pub struct EventQueue<E> {
    now: Millis,
    seq: u64,
    heap: BinaryHeap<Entry<E>>,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            now: 0,
            seq: 0,
            heap: BinaryHeap::new(),
        }
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        Self::default()
    }

    /// The current virtual time.
    pub fn now(&self) -> Millis {
        self.now
    }

    /// Schedules `event` at `now + delay`.
    pub fn schedule(&mut self, delay: Millis, event: E) {
        let at = self.now.saturating_add(delay);
        self.schedule_at(at, event);
    }

    /// Schedules `event` at an absolute time (never in the past).
    pub fn schedule_at(&mut self, at: Millis, event: E) {
        let at = at.max(self.now);
        self.seq += 1;
        self.heap.push(Entry {
            at,
            seq: self.seq,
            event,
        });
    }

    /// The time of the next event, if any.
    pub fn peek_time(&self) -> Option<Millis> {
        self.heap.peek().map(|e| e.at)
    }

    /// The next event, without removing it.
    pub fn peek(&self) -> Option<&E> {
        self.heap.peek().map(|e| &e.event)
    }

    /// Removes the next event and advances the clock to its time.
    pub fn pop(&mut self) -> Option<(Millis, E)> {
        let e = self.heap.pop()?;
        self.now = e.at;
        Some((e.at, e.event))
    }

    /// Moves the clock forward to `t` without firing anything (for `--until`).
    pub fn advance_to(&mut self, t: Millis) {
        self.now = self.now.max(t);
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_time_then_insertion() {
        let mut q = EventQueue::new();
        q.schedule(10, "b");
        q.schedule(5, "a");
        q.schedule(10, "c");
        q.schedule(0, "first");
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![(0, "first"), (5, "a"), (10, "b"), (10, "c")]);
        assert_eq!(q.now(), 10);
    }
}
