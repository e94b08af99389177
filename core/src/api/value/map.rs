//! A JSON object whose entries are shared until written: cloning one is a reference count,
//! and a write copies only the map it changes (its values stay shared). Kubernetes objects are
//! copied far more often than changed (every watcher, cache and patch takes its own), and a
//! write changes one field of one map; with shared maps those copies cost nothing and the
//! objects of a ReplicaSet's pods share their template's maps.
//!
//! The entries are kept in key order (as `serde_json`'s `BTreeMap`-backed map keeps them, and
//! `kubectl get -o yaml|json` prints them) in one sorted vector: Kubernetes' maps are small,
//! and a vector is a single allocation to copy and a binary search to read.

use super::Value;
use std::borrow::Borrow;
use std::cell::Cell;
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

/// A map key: shared text, so copying a map copies no key.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key(Rc<str>);

impl Key {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Key {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Self {
        Key::interned(s)
    }
}

impl From<String> for Key {
    fn from(s: String) -> Self {
        Key::interned(&s)
    }
}

impl From<&String> for Key {
    fn from(s: &String) -> Self {
        Key::interned(s)
    }
}

/// Keys up to this long are shared through [`KEYS`]: field names and label keys are, and a
/// longer key is rarely one of them.
const INTERNED_MAX_LEN: usize = 48;
/// Slots of the table of shared keys: a few times the field names of the API.
const INTERNED_SLOTS: usize = 2048;

thread_local! {
    /// Recently made keys by a hash of their text, one per slot: a key made again shares the
    /// text of the one before. Every decoded object has hundreds of keys, nearly all of them
    /// field names another object has too; each used to be an allocation of its own (about
    /// 2 KB a pod at scale).
    static KEYS: std::cell::RefCell<Vec<Option<Rc<str>>>> =
        std::cell::RefCell::new(vec![None; INTERNED_SLOTS]);
}

impl Key {
    fn interned(s: &str) -> Key {
        if s.len() > INTERNED_MAX_LEN {
            return Key(Rc::from(s));
        }
        // FNV-1a: keys are short, and any fixed hash keeps runs deterministic.
        let hash = s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let slot = (hash as usize) % INTERNED_SLOTS;
        KEYS.with(|keys| {
            let mut keys = keys.borrow_mut();
            match &keys[slot] {
                Some(text) if **text == *s => Key(Rc::clone(text)),
                _ => {
                    let text: Rc<str> = Rc::from(s);
                    keys[slot] = Some(Rc::clone(&text));
                    Key(text)
                }
            }
        })
    }
}

impl From<&Key> for Key {
    fn from(k: &Key) -> Self {
        k.clone()
    }
}

impl From<Key> for String {
    fn from(k: Key) -> Self {
        k.0.to_string()
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Key {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Key> for str {
    fn eq(&self, other: &Key) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Key> for &str {
    fn eq(&self, other: &Key) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Key> for String {
    fn eq(&self, other: &Key) -> bool {
        **self == *other.0
    }
}

type Entries = Vec<(Key, Value)>;

/// A map's entries and what was worked out from them once, which holds as long as they are
/// shared unchanged: any write goes through [`Map::entries_mut`], which forgets it.
#[derive(Default)]
struct Shared {
    entries: Entries,
    /// The schema struct this map decoded as without a fault (see [`Map::schema_mark`]),
    /// plus one; 0 when none.
    schema_mark: Cell<u16>,
}

impl Clone for Shared {
    fn clone(&self) -> Self {
        Shared {
            entries: self.entries.clone(),
            schema_mark: Cell::new(0),
        }
    }
}

/// Whether two texts of the same length are equal, compared eight bytes at a time in line:
/// map keys are short, and a call to `memcmp` per key looked at cost more than the compare.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
    if n < 8 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    let mut i = 0;
    while i + 8 <= n {
        if word(a, i) != word(b, i) {
            return false;
        }
        i += 8;
    }
    // The last word overlaps the one before it when the length is not a multiple of eight.
    i == n || word(a, n - 8) == word(b, n - 8)
}

/// Inserts an entry, growing a full map by a quarter rather than doubling it: most maps that
/// gain a key are a stored object's copy (a pod's spec gaining `nodeName` at its binding) that
/// lives as long as the object, and half of a doubled map would stay empty.
fn insert_at(entries: &mut Entries, index: usize, entry: (Key, Value)) {
    if entries.len() == entries.capacity() {
        entries.reserve_exact(entries.len() / 4 + 1);
    }
    entries.insert(index, entry);
}

/// Up to this many entries, a key is looked for from the start (by length first) rather than
/// by halving.
const LINEAR_SCAN_MAX: usize = 16;

/// A JSON object: its entries in key order, shared between copies until one is written.
#[derive(Clone, Default)]
pub struct Map {
    /// `None` while empty, so an empty map allocates nothing.
    entries: Option<Rc<Shared>>,
}

impl Map {
    pub fn new() -> Self {
        Map { entries: None }
    }

    pub fn with_capacity(n: usize) -> Self {
        match n {
            0 => Map::new(),
            n => Map {
                entries: Some(Rc::new(Shared {
                    entries: Vec::with_capacity(n),
                    schema_mark: Cell::new(0),
                })),
            },
        }
    }

    fn slice(&self) -> &[(Key, Value)] {
        self.entries
            .as_deref()
            .map_or(&[], |s| s.entries.as_slice())
    }

    /// The entries to write, copied first if another map shares them.
    fn entries_mut(&mut self) -> &mut Entries {
        let shared = Rc::make_mut(self.entries.get_or_insert_with(Default::default));
        shared.schema_mark.set(0);
        &mut shared.entries
    }

    /// The struct of the API schema (an index into the decoder's table) this map is known to
    /// decode as with no error and no unknown field, if it was decoded so since it last
    /// changed: the decoder then need not walk it again. An empty map carries no mark.
    pub fn schema_mark(&self) -> Option<u16> {
        let mark = self.entries.as_ref()?.schema_mark.get();
        mark.checked_sub(1)
    }

    /// Records that the map decodes cleanly as schema struct `index` (see
    /// [`Map::schema_mark`]).
    pub fn set_schema_mark(&self, index: u16) {
        if let Some(shared) = &self.entries {
            shared.schema_mark.set(index.saturating_add(1));
        }
    }

    /// Where `key` is, or where it would go.
    #[inline]
    fn find(&self, key: &str) -> Result<usize, usize> {
        let entries = self.slice();
        if entries.len() <= LINEAR_SCAN_MAX {
            // Most maps are small and their keys differ in length: comparing lengths first
            // finds the key with (almost) no text compared.
            if let Some(i) = entries
                .iter()
                .position(|(k, _)| k.len() == key.len() && same_bytes(k.as_bytes(), key.as_bytes()))
            {
                return Ok(i);
            }
            return Err(entries.partition_point(|(k, _)| &**k < key));
        }
        entries.binary_search_by(|(k, _)| (**k).cmp(key))
    }

    /// Whether the two maps are one shared map (then they are equal without a look inside).
    pub fn ptr_eq(&self, other: &Map) -> bool {
        match (&self.entries, &other.entries) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }

    /// Appends an entry whose key sorts after every key there (the entries of a map that is
    /// already in order, moved one by one).
    pub(super) fn push_in_order(&mut self, key: Key, value: Value) {
        debug_assert!(self.slice().last().is_none_or(|(k, _)| *k < key));
        self.entries_mut().push((key, value));
    }

    pub fn len(&self) -> usize {
        self.slice().len()
    }

    pub fn is_empty(&self) -> bool {
        self.slice().is_empty()
    }

    pub fn clear(&mut self) {
        self.entries = None;
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        let i = self.find(key).ok()?;
        Some(&self.slice()[i].1)
    }

    pub fn get_key_value(&self, key: &str) -> Option<(&Key, &Value)> {
        let i = self.find(key).ok()?;
        let (k, v) = &self.slice()[i];
        Some((k, v))
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// The value at `key` to write (the map is copied first if shared; only when the key is
    /// there).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let i = self.find(key).ok()?;
        Some(&mut self.entries_mut()[i].1)
    }

    /// Sets `key` to `value`, returning the value it replaces. A value equal to the one there
    /// (cheaply seen: the same shared map, or the same text or number) leaves the map as it
    /// was, so it stays shared.
    pub fn insert(&mut self, key: impl Into<Key>, value: Value) -> Option<Value> {
        let key = key.into();
        match self.find(&key) {
            Ok(i) => {
                if self.slice()[i].1.same_as(&value) {
                    return Some(value);
                }
                Some(std::mem::replace(&mut self.entries_mut()[i].1, value))
            }
            Err(i) => {
                insert_at(self.entries_mut(), i, (key, value));
                None
            }
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.find(key).ok()?;
        let (_, v) = self.entries_mut().remove(i);
        if self.slice().is_empty() {
            self.entries = None;
        }
        Some(v)
    }

    pub fn remove_entry(&mut self, key: &str) -> Option<(Key, Value)> {
        let i = self.find(key).ok()?;
        let entry = self.entries_mut().remove(i);
        if self.slice().is_empty() {
            self.entries = None;
        }
        Some(entry)
    }

    /// Moves every entry of `other` into this map (replacing equal keys), leaving it empty.
    pub fn append(&mut self, other: &mut Map) {
        for (k, v) in std::mem::take(other) {
            self.insert(k, v);
        }
    }

    pub fn entry(&mut self, key: impl Into<Key>) -> Entry<'_> {
        let key = key.into();
        match self.find(&key) {
            Ok(index) => Entry::Occupied(OccupiedEntry { map: self, index }),
            Err(index) => Entry::Vacant(VacantEntry {
                map: self,
                index,
                key,
            }),
        }
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter {
            inner: self.slice().iter(),
        }
    }

    /// The entries to write (the map is copied first if shared).
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        let inner = match self.entries {
            None => [].iter_mut(),
            Some(_) => self.entries_mut().iter_mut(),
        };
        IterMut { inner }
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Key> + ExactSizeIterator + Clone {
        self.slice().iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator + Clone {
        self.slice().iter().map(|(_, v)| v)
    }

    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut Value> + ExactSizeIterator {
        self.iter_mut().map(|(_, v)| v)
    }

    pub fn into_values(self) -> impl DoubleEndedIterator<Item = Value> + ExactSizeIterator {
        self.into_iter().map(|(_, v)| v)
    }

    /// Keeps the entries `keep` says yes to (the map is copied first only if one goes).
    pub fn retain(&mut self, mut keep: impl FnMut(&Key, &mut Value) -> bool) {
        if self.entries.is_none() {
            return;
        }
        let entries = self.entries_mut();
        entries.retain_mut(|(k, v)| keep(k, v));
        if entries.is_empty() {
            self.entries = None;
        }
    }
}

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.ptr_eq(other) || self.slice() == other.slice()
    }
}

impl Eq for Map {}

impl std::hash::Hash for Map {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.slice().hash(state);
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl std::ops::Index<&str> for Map {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        self.get(key).expect("no entry found for key")
    }
}

impl std::ops::IndexMut<&str> for Map {
    fn index_mut(&mut self, key: &str) -> &mut Value {
        self.get_mut(key).expect("no entry found for key")
    }
}

impl<K: Into<Key>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
        let mut entries: Entries = iter.into_iter().map(|(k, v)| (k.into(), v)).collect();
        // Sorted, and of equal keys the last one kept (as inserting them one by one would).
        entries.reverse();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|later, earlier| later.0 == earlier.0);
        entries.shrink_to_fit();
        Map {
            entries: (!entries.is_empty()).then(|| {
                Rc::new(Shared {
                    entries,
                    schema_mark: Cell::new(0),
                })
            }),
        }
    }
}

impl<K: Into<Key>> Extend<(K, Value)> for Map {
    fn extend<I: IntoIterator<Item = (K, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl IntoIterator for Map {
    type Item = (Key, Value);
    type IntoIter = IntoIter;
    fn into_iter(self) -> IntoIter {
        let entries = match self.entries {
            None => Vec::new(),
            Some(rc) => Rc::unwrap_or_clone(rc).entries,
        };
        IntoIter {
            inner: entries.into_iter(),
        }
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Key, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a Key, &'a mut Value);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

#[derive(Clone)]
pub struct Iter<'a> {
    inner: std::slice::Iter<'a, (Key, Value)>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Key, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.inner.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

pub struct IterMut<'a> {
    inner: std::slice::IterMut<'a, (Key, Value)>,
}

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a Key, &'a mut Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.inner.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for IterMut<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|(k, v)| (&*k, v))
    }
}

impl ExactSizeIterator for IterMut<'_> {}

pub struct IntoIter {
    inner: std::vec::IntoIter<(Key, Value)>,
}

impl Iterator for IntoIter {
    type Item = (Key, Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.inner.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back()
    }
}

impl ExactSizeIterator for IntoIter {}

/// One key's place in a map, as `BTreeMap::entry` gives it.
pub enum Entry<'a> {
    Vacant(VacantEntry<'a>),
    Occupied(OccupiedEntry<'a>),
}

pub struct VacantEntry<'a> {
    map: &'a mut Map,
    index: usize,
    key: Key,
}

pub struct OccupiedEntry<'a> {
    map: &'a mut Map,
    index: usize,
}

impl<'a> VacantEntry<'a> {
    pub fn key(&self) -> &Key {
        &self.key
    }

    pub fn insert(self, value: Value) -> &'a mut Value {
        let entries = self.map.entries_mut();
        insert_at(entries, self.index, (self.key, value));
        &mut entries[self.index].1
    }
}

impl<'a> OccupiedEntry<'a> {
    pub fn key(&self) -> &Key {
        &self.map.slice()[self.index].0
    }

    pub fn get(&self) -> &Value {
        &self.map.slice()[self.index].1
    }

    pub fn get_mut(&mut self) -> &mut Value {
        &mut self.map.entries_mut()[self.index].1
    }

    pub fn into_mut(self) -> &'a mut Value {
        &mut self.map.entries_mut()[self.index].1
    }

    pub fn insert(&mut self, value: Value) -> Value {
        std::mem::replace(self.get_mut(), value)
    }

    pub fn remove(self) -> Value {
        self.map.remove_entry_at(self.index).1
    }
}

impl Map {
    fn remove_entry_at(&mut self, index: usize) -> (Key, Value) {
        let entry = self.entries_mut().remove(index);
        if self.slice().is_empty() {
            self.entries = None;
        }
        entry
    }
}

impl<'a> Entry<'a> {
    pub fn key(&self) -> &Key {
        match self {
            Entry::Vacant(e) => e.key(),
            Entry::Occupied(e) => e.key(),
        }
    }

    pub fn or_insert(self, default: Value) -> &'a mut Value {
        match self {
            Entry::Vacant(e) => e.insert(default),
            Entry::Occupied(e) => e.into_mut(),
        }
    }

    pub fn or_insert_with(self, default: impl FnOnce() -> Value) -> &'a mut Value {
        match self {
            Entry::Vacant(e) => e.insert(default()),
            Entry::Occupied(e) => e.into_mut(),
        }
    }

    pub fn or_default(self) -> &'a mut Value {
        self.or_insert(Value::Null)
    }

    pub fn and_modify(self, f: impl FnOnce(&mut Value)) -> Self {
        match self {
            Entry::Occupied(mut e) => {
                f(e.get_mut());
                Entry::Occupied(e)
            }
            vacant => vacant,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, i64)]) -> Map {
        pairs.iter().map(|(k, v)| (*k, Value::from(*v))).collect()
    }

    #[test]
    fn entries_stay_in_key_order_however_they_are_added() {
        let mut m = Map::new();
        for k in ["zeta", "alpha", "mid", "beta"] {
            m.insert(k, Value::from(k));
        }
        let keys: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
        assert_eq!(keys, ["alpha", "beta", "mid", "zeta"]);
        assert_eq!(m.remove("mid"), Some(Value::from("mid")));
        assert_eq!(m.len(), 3);
        assert!(!m.contains_key("mid"));
    }

    #[test]
    fn collecting_keeps_the_last_of_equal_keys() {
        let m = map(&[("b", 1), ("a", 2), ("b", 3)]);
        assert_eq!(m.len(), 2);
        assert_eq!(m["b"], Value::from(3));
    }

    #[test]
    fn a_copy_is_shared_until_one_side_writes() {
        let original = map(&[("a", 1), ("b", 2)]);
        let mut copy = original.clone();
        assert!(copy.ptr_eq(&original));
        // Setting a value equal to the one there is not a write.
        copy.insert("a", Value::from(1));
        assert!(copy.ptr_eq(&original));
        copy.insert("a", Value::from(10));
        assert!(!copy.ptr_eq(&original));
        assert_eq!(original["a"], Value::from(1));
        assert_eq!(copy["a"], Value::from(10));
        // Removing a key that is not there copies nothing either.
        let mut other = original.clone();
        assert_eq!(other.remove("zzz"), None);
        assert!(other.ptr_eq(&original));
    }

    #[test]
    fn entry_inserts_where_vacant_and_modifies_where_occupied() {
        let mut m = map(&[("a", 1)]);
        *m.entry("c").or_insert(Value::from(0)) = Value::from(5);
        m.entry("a")
            .and_modify(|v| *v = Value::from(2))
            .or_insert(Value::Null);
        assert_eq!(m, map(&[("a", 2), ("c", 5)]));
        let keys: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
        assert_eq!(keys, ["a", "c"]);
    }

    #[test]
    fn texts_compare_equal_only_when_every_byte_is() {
        for n in 0..24 {
            let a: Vec<u8> = (0..n as u8).map(|i| b'a' + i).collect();
            assert!(same_bytes(&a, &a.clone()));
            for i in 0..n {
                let mut b = a.clone();
                b[i] ^= 1;
                assert!(!same_bytes(&a, &b), "length {n}, byte {i}");
            }
        }
    }

    #[test]
    fn a_schema_mark_lasts_until_the_map_is_written() {
        let original = map(&[("a", 1)]);
        assert_eq!(original.schema_mark(), None);
        original.set_schema_mark(7);
        let copy = original.clone();
        assert_eq!(copy.schema_mark(), Some(7));
        let mut written = original.clone();
        written.insert("b", Value::from(2));
        assert_eq!(written.schema_mark(), None);
        assert_eq!(original.schema_mark(), Some(7));
        // A write that changes nothing leaves the map (and its mark) as it was.
        let mut same = original.clone();
        same.insert("a", Value::from(1));
        assert_eq!(same.schema_mark(), Some(7));
        // So does a miss.
        let mut missed = original.clone();
        assert!(missed.get_mut("zzz").is_none());
        assert_eq!(missed.schema_mark(), Some(7));
    }

    #[test]
    fn retain_and_empty_maps() {
        let mut m = map(&[("a", 1), ("b", 2), ("c", 3)]);
        m.retain(|_, v| v.as_i64() != Some(2));
        assert_eq!(m, map(&[("a", 1), ("c", 3)]));
        m.retain(|_, _| false);
        assert!(m.is_empty());
        assert_eq!(m, Map::new());
        assert_eq!(m.iter_mut().count(), 0);
    }
}
