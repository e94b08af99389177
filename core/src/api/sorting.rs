//! Stable sorts that compile to one copy of the sorting code.
//!
//! `slice::sort_by` is generic over its element type and its closure, so each call site
//! compiles its own copy of the sort (about 3.5 KB of wasm each): dozens of them, a real share
//! of what the page downloads. In the page's wasm these functions sort the *indices* of the
//! elements, always `usize` with a `&dyn` comparator, so there is one copy of the sort, and
//! then move the elements into that order. Native builds, where size does not matter, call
//! the slice methods. A stable order is unique, so both give the same result.

use std::cmp::Ordering;

/// [`slice::sort_by`], with the comparator behind a reference.
pub fn sort_by<T>(v: &mut [T], compare: &dyn Fn(&T, &T) -> Ordering) {
    if cfg!(target_arch = "wasm32") {
        sort_by_index(v, compare);
    } else {
        v.sort_by(compare);
    }
}

/// [`slice::sort_by_key`], with the key function behind a reference.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], key: &dyn Fn(&T) -> K) {
    sort_by(v, &|a, b| key(a).cmp(&key(b)));
}

/// [`slice::sort_by_cached_key`]: the key of each element is worked out once, not at every
/// comparison (for keys that cost something, such as a parsed timestamp).
pub fn sort_by_cached_key<T, K: Ord>(v: &mut [T], key: &dyn Fn(&T) -> K) {
    let keys: Vec<K> = v.iter().map(key).collect();
    let order = stable_order(v.len(), &|a, b| keys[a].cmp(&keys[b]));
    permute(v, order);
}

/// [`slice::sort`] (stable).
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, &|a, b| a.cmp(b));
}

/// The stable sort of `v` through its indices (what the page's wasm uses).
pub fn sort_by_index<T>(v: &mut [T], compare: &dyn Fn(&T, &T) -> Ordering) {
    let order = stable_order(v.len(), &|a, b| compare(&v[a], &v[b]));
    permute(v, order);
}

/// The indices `0..len` in the stable order of `compare`: the one instantiation of the sort.
#[inline(never)]
fn stable_order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Rearranges `v` so that `v[i]` becomes the old `v[order[i]]`, following each cycle of the
/// permutation once (`order` is consumed as the record of what is done).
pub(crate) fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    for start in 0..v.len() {
        let mut at = start;
        while order[at] != start {
            let next = order[at];
            v.swap(at, next);
            order[at] = at;
            at = next;
        }
        order[at] = at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_are_stable_like_the_slice_methods() {
        let mut a = vec![(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd')];
        let mut b = a.clone();
        sort_by(&mut a, &|x, y| x.0.cmp(&y.0));
        b.sort_by_key(|x| x.0);
        assert_eq!(a, b);
        assert_eq!(a, [(1, 'b'), (1, 'd'), (2, 'a'), (2, 'c')]);
        sort_by_key(&mut a, &|x| std::cmp::Reverse(x.0));
        assert_eq!(a, [(2, 'a'), (2, 'c'), (1, 'b'), (1, 'd')]);
    }

    #[test]
    fn the_index_sort_gives_the_slice_sort_order() {
        // A deterministic spread of keys with many ties, several lengths, cycles of every size.
        for len in [0usize, 1, 2, 3, 7, 31, 200, 1_000] {
            let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ len as u64;
            let items: Vec<(u64, usize)> = (0..len)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed % 17, i)
                })
                .collect();
            let mut by_index = items.clone();
            let mut by_slice = items.clone();
            sort_by_index(&mut by_index, &|a, b| a.0.cmp(&b.0));
            by_slice.sort_by_key(|a| a.0);
            assert_eq!(by_index, by_slice, "length {len}");
        }
    }

    #[test]
    fn the_cached_key_sort_computes_each_key_once_and_is_stable() {
        let calls = std::cell::Cell::new(0);
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        sort_by_cached_key(&mut v, &|x| {
            calls.set(calls.get() + 1);
            x.0
        });
        assert_eq!(v, [(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        assert_eq!(calls.get(), 5);
    }

    #[test]
    fn the_index_sort_moves_owned_values_without_losing_any() {
        let mut v: Vec<String> = ["delta", "alpha", "charlie", "bravo", "alpha"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        sort_by_index(&mut v, &|a, b| a.cmp(b));
        assert_eq!(v, ["alpha", "alpha", "bravo", "charlie", "delta"]);
    }
}
