//! A hash map cut into shards by key, for maps that grow to hundreds of thousands of keys.
//! A hash map grows by rehashing every key into a table twice the size, all in one insert:
//! for 100,000 string keys that is one step of tens of milliseconds (each key's bytes are
//! read again), a long task in the page. In shards, each grows on its own, so one insert
//! rehashes at most a sixty-fourth of the keys; the total work is the same.

use rustc_hash::{FxBuildHasher, FxHashMap};
use std::borrow::Borrow;
use std::hash::{BuildHasher, Hash};

const SHARD_BITS: u32 = 6;

#[derive(Clone, Debug)]
pub struct ShardedMap<K, V> {
    /// Empty until the first insert, so a map that stays small costs nothing more.
    shards: Vec<FxHashMap<K, V>>,
    len: usize,
}

impl<K, V> Default for ShardedMap<K, V> {
    fn default() -> Self {
        ShardedMap {
            shards: Vec::new(),
            len: 0,
        }
    }
}

/// A key type's shard. One function per key type, not per map: the page's wasm is kept small.
pub trait Shard {
    fn shard(&self) -> usize;
}

/// The shard of a key's hash. Not the hash's own bits: the shard's map uses the low ones for
/// the bucket and the high ones as tags, and keys alike in those would crowd each shard's
/// table. A multiply by an odd constant spreads every bit of the hash into the top ones.
fn shard_of_hash(hash: u64) -> usize {
    (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SHARD_BITS)) as usize
}

impl Shard for str {
    #[inline(never)]
    fn shard(&self) -> usize {
        shard_of_hash(FxBuildHasher.hash_one(self))
    }
}

impl Shard for String {
    fn shard(&self) -> usize {
        self.as_str().shard()
    }
}

impl Shard for usize {
    fn shard(&self) -> usize {
        shard_of_hash(FxBuildHasher.hash_one(self))
    }
}

impl<K: Hash + Eq + Shard, V> ShardedMap<K, V> {
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + Shard + ?Sized,
    {
        self.shards.get(key.shard())?.get(key)
    }

    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + Shard + ?Sized,
    {
        self.shards.get_mut(key.shard())?.get_mut(key)
    }

    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + Shard + ?Sized,
    {
        self.get(key).is_some()
    }

    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        if self.shards.is_empty() {
            self.shards.resize_with(1 << SHARD_BITS, FxHashMap::default);
        }
        let old = self.shards[key.shard()].insert(key, value);
        self.len += usize::from(old.is_none());
        old
    }

    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + Shard + ?Sized,
    {
        let old = self.shards.get_mut(key.shard())?.remove(key);
        self.len -= usize::from(old.is_some());
        old
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the map, keeping the shards' room for what comes next.
    pub fn clear(&mut self) {
        self.shards.iter_mut().for_each(FxHashMap::clear);
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_replaced_and_removed_across_shards() {
        let mut m: ShardedMap<String, usize> = ShardedMap::default();
        assert!(m.get("a").is_none() && m.remove("a").is_none() && m.is_empty());
        for i in 0..1000 {
            assert_eq!(m.insert(format!("k{i}"), i), None);
        }
        assert_eq!(m.insert("k7".into(), 70), Some(7));
        assert_eq!(m.len(), 1000);
        assert_eq!(m.get("k7"), Some(&70));
        *m.get_mut("k8").expect("k8") += 1;
        assert_eq!(m.get("k8"), Some(&9));
        assert_eq!(m.remove("k9"), Some(9));
        assert!(!m.contains_key("k9") && m.contains_key("k10"));
        assert_eq!(m.len(), 999);
        m.clear();
        assert!(m.is_empty() && m.get("k10").is_none());
    }

    #[test]
    fn keys_spread_over_the_shards_and_within_each() {
        let keys: Vec<String> = (0..64_000)
            .map(|i| format!("/registry/pods/default/web-{i}"))
            .collect();
        let mut per_shard = [0usize; 1 << SHARD_BITS];
        for k in &keys {
            per_shard[k.as_str().shard()] += 1;
        }
        // About a thousand each: no shard holds more than half as many again.
        assert!(
            per_shard.iter().all(|&n| (600..1500).contains(&n)),
            "{per_shard:?}"
        );
        // Within a shard, the map's own bucket bits (the hash's low ones) still differ.
        let mut low_bits = std::collections::BTreeSet::new();
        for k in keys.iter().filter(|k| k.as_str().shard() == 0) {
            low_bits.insert(FxBuildHasher.hash_one(k.as_str()) & 1023);
        }
        assert!(low_bits.len() > 500, "{}", low_bits.len());
    }
}
