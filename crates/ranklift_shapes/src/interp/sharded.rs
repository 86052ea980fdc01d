//! A copy-on-write map in shards: the heap of the abstract state.
//!
//! **Why:** states are copied at every branch and joined where branches meet, and the heap of a
//! program that imports a package holds every object the package's modules made at import time
//! (thousands in statsmodels' or astropy's tests). As one shared map, a write to one object
//! copied all of them and a join walked all of them: 80% of a whole-package run went to copying,
//! freeing and comparing heaps. In shards, each its own shared allocation, a write copies the
//! one shard it lands in and a join or a comparison skips every shard both sides still share —
//! what a function changes, not what it could see.
//!
//! Example: a test function's branch that appends to one list of a 2,500-object heap copies
//! about 80 entries (its shard), not 2,500; the join after the branch looks at that shard only.

use std::hash::{BuildHasher, BuildHasherDefault, Hash};
use std::sync::Arc;

use super::state::FxMap;

/// Shards per map: a power of two; the top bits of a key's hash pick its shard.
const SHARDS: usize = 32;
const SHARD_BITS: u32 = SHARDS.trailing_zeros();

/// A map whose shards are shared between copies until written (see the module doc).
#[derive(Clone)]
pub struct ShardedMap<K, V> {
    shards: [Option<Arc<FxMap<K, V>>>; SHARDS],
    len: usize,
}

impl<K, V> Default for ShardedMap<K, V> {
    fn default() -> Self {
        ShardedMap {
            shards: std::array::from_fn(|_| None),
            len: 0,
        }
    }
}

fn shard_of<K: Hash>(k: &K) -> usize {
    let h = BuildHasherDefault::<ranklift_python::fxhash::FastHasher>::default().hash_one(k);
    (h >> (64 - SHARD_BITS)) as usize
}

impl<K: Hash + Eq + Clone, V: Clone> ShardedMap<K, V> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, k: &K) -> Option<&V> {
        self.shards[shard_of(k)].as_ref()?.get(k)
    }

    pub fn contains_key(&self, k: &K) -> bool {
        self.get(k).is_some()
    }

    /// The value at `k`, for writing: its shard is copied first if shared (and only when `k`
    /// is in it).
    pub fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        let shard = self.shards[shard_of(k)].as_mut()?;
        if !shard.contains_key(k) {
            return None;
        }
        Arc::make_mut(shard).get_mut(k)
    }

    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        let shard = self.shards[shard_of(&k)].get_or_insert_with(Arc::default);
        let old = Arc::make_mut(shard).insert(k, v);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.shards.iter().flatten().flat_map(|s| s.iter())
    }

    /// Both maps, joined: a key in one only keeps its value; a key in both gets `join(a, b)`,
    /// or keeps `a`'s value when that returns `None` (the same value). Shards the two maps
    /// share are shared by the result without being looked at.
    pub fn join_with(&self, other: &Self, mut join: impl FnMut(&V, &V) -> Option<V>) -> Self {
        let mut out = self.clone();
        for (i, theirs) in other.shards.iter().enumerate() {
            let Some(theirs) = theirs else { continue };
            let mine = match &mut out.shards[i] {
                Some(mine) if Arc::ptr_eq(mine, theirs) => continue,
                Some(mine) => mine,
                slot @ None => {
                    out.len += theirs.len();
                    *slot = Some(theirs.clone());
                    continue;
                }
            };
            let mut added = 0;
            let mut changes = Vec::new();
            for (k, y) in theirs.iter() {
                match mine.get(k) {
                    Some(x) => {
                        if let Some(v) = join(x, y) {
                            changes.push((k.clone(), v));
                        }
                    }
                    None => {
                        added += 1;
                        changes.push((k.clone(), y.clone()));
                    }
                }
            }
            if !changes.is_empty() {
                Arc::make_mut(mine).extend(changes);
            }
            out.len += added;
        }
        out
    }
}

impl<K: Hash + Eq, V: PartialEq> PartialEq for ShardedMap<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
            && self
                .shards
                .iter()
                .zip(&other.shards)
                .all(|(a, b)| match (a, b) {
                    (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
                    (None, None) => true,
                    (Some(s), None) | (None, Some(s)) => s.is_empty(),
                })
    }
}

impl<K: Hash + Eq, V: Eq> Eq for ShardedMap<K, V> {}

impl<K: std::fmt::Debug, V: std::fmt::Debug> std::fmt::Debug for ShardedMap<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.shards.iter().flatten().flat_map(|s| s.iter()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_copy_one_shard_and_joins_skip_shared_ones() {
        let mut a: ShardedMap<u32, u32> = ShardedMap::default();
        for k in 0..1000 {
            a.insert(k, k);
        }
        assert_eq!(a.len(), 1000);
        let mut b = a.clone();
        *b.get_mut(&7).unwrap() = 70;
        b.insert(5000, 1);
        // Only the written shards differ.
        let differing = a
            .shards
            .iter()
            .zip(&b.shards)
            .filter(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => !Arc::ptr_eq(x, y),
                _ => true,
            })
            .count();
        assert!(differing <= 2, "{differing} shards copied");
        assert_eq!(a.get(&7), Some(&7));
        assert_eq!(b.get(&7), Some(&70));
        assert_ne!(a, b);
        // The join sees the changed key and the new one; every other key kept.
        let mut seen = Vec::new();
        let j = a.join_with(&b, |x, y| {
            seen.push((*x, *y));
            (x != y).then(|| x.max(y) + 1)
        });
        assert_eq!(j.len(), 1001);
        assert_eq!(j.get(&7), Some(&71));
        assert_eq!(j.get(&5000), Some(&1));
        assert_eq!(j.get(&999), Some(&999));
        // Only the keys of the copied shards were offered to `join`.
        assert!(seen.len() < 200, "{} keys joined", seen.len());
        assert_eq!(a.join_with(&a.clone(), |_, _| panic!("shared")), a);
        assert_eq!(j.iter().count(), 1001);
    }

    #[test]
    fn get_mut_of_a_missing_key_copies_nothing() {
        let mut a: ShardedMap<u32, u32> = ShardedMap::default();
        a.insert(1, 1);
        let b = a.clone();
        assert!(a.get_mut(&2).is_none());
        assert!(a.shards.iter().zip(&b.shards).all(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => Arc::ptr_eq(x, y),
            (None, None) => true,
            _ => false,
        }));
    }
}
