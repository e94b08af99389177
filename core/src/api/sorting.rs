//! Stable sorts through one comparator type per element type.
//!
//! `slice::sort_by` is generic over its closure, so each call site compiles its own copy of
//! the sort: dozens of them, a real share of the wasm the page downloads. Passing the
//! comparator as `&dyn Fn` leaves one copy per element type; the order is the same stable one.

use std::cmp::Ordering;

/// [`slice::sort_by`], with the comparator behind a reference.
pub fn sort_by<T>(v: &mut [T], compare: &dyn Fn(&T, &T) -> Ordering) {
    v.sort_by(|a, b| compare(a, b));
}

/// [`slice::sort_by_key`], with the key function behind a reference.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], key: &dyn Fn(&T) -> K) {
    v.sort_by_key(|a| key(a));
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
}
