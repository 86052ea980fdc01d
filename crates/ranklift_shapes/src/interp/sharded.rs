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
//!
//! Under the shards a map may have a *base*: a frozen map that is never copied (the objects the
//! libraries a function uses made at import time, `interp/library_state.rs`). A read falls
//! through to it; a write copies the one entry into its shard. The shards then hold what the
//! function made or changed, and a write copies a shard of those, not of the libraries'
//! thousands of objects.
//!
//! A shard that grows past [`SPLIT_AT`] entries splits into shards of its own, one level down:
//! a write then copies two small tables of pointers and about 1/1024 of the entries, and a
//! join walks only the sub-shards that differ. A test's module-level loop building 48 models
//! grows its heap to 6,000 objects, and every branch of every constructor had copied and
//! walked a 190-entry shard to change one attribute.

use std::hash::{BuildHasher, BuildHasherDefault, Hash};
use std::sync::Arc;

use super::state::FxMap;

/// Shards per map (and sub-shards per split shard): a power of two; the top bits of a key's
/// hash pick its shard, the next ones its sub-shard.
const SHARDS: usize = 32;
const SHARD_BITS: u32 = SHARDS.trailing_zeros();
/// A shard holding more entries than this splits into sub-shards (see the module doc).
const SPLIT_AT: usize = 64;

type Leaf<K, V> = FxMap<K, V>;
/// A split shard's sub-shards.
type Subs<K, V> = Box<[Option<Arc<Leaf<K, V>>>; SHARDS]>;

/// One shard: its entries, or (once large) sub-shards each shared until written.
#[derive(Clone)]
enum Shard<K, V> {
    Flat(Leaf<K, V>),
    Split(Subs<K, V>),
}

impl<K, V> Default for Shard<K, V> {
    fn default() -> Self {
        Shard::Flat(FxMap::default())
    }
}

/// A copy-on-write map whose shards are shared between copies until written (see the module doc).
#[derive(Clone)]
pub struct ShardedMap<K, V> {
    shards: [Option<Arc<Shard<K, V>>>; SHARDS],
    /// Entries, the base's that no shard shadows included.
    len: usize,
    /// The frozen layer under the shards (see the module doc).
    base: Option<Arc<FxMap<K, V>>>,
}

impl<K, V> Default for ShardedMap<K, V> {
    fn default() -> Self {
        ShardedMap {
            shards: std::array::from_fn(|_| None),
            len: 0,
            base: None,
        }
    }
}

fn hash_of<K: Hash>(k: &K) -> u64 {
    BuildHasherDefault::<ranklift_python::fxhash::FastHasher>::default().hash_one(k)
}

fn top(h: u64) -> usize {
    (h >> (64 - SHARD_BITS)) as usize
}

fn sub(h: u64) -> usize {
    (h >> (64 - 2 * SHARD_BITS)) as usize & (SHARDS - 1)
}

fn same<T>(a: &Option<Arc<T>>, b: &Option<Arc<T>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

impl<K: Hash + Eq + Clone, V: Clone> Shard<K, V> {
    fn get(&self, h: u64, k: &K) -> Option<&V> {
        match self {
            Shard::Flat(m) => m.get(k),
            Shard::Split(s) => s[sub(h)].as_ref()?.get(k),
        }
    }

    /// Only for a key that is here: a split shard copies the sub-shard first if shared.
    fn get_mut(&mut self, h: u64, k: &K) -> Option<&mut V> {
        match self {
            Shard::Flat(m) => m.get_mut(k),
            Shard::Split(s) => Arc::make_mut(s[sub(h)].as_mut()?).get_mut(k),
        }
    }

    fn insert(&mut self, h: u64, k: K, v: V) -> Option<V> {
        match self {
            Shard::Flat(m) => {
                let old = m.insert(k, v);
                if m.len() > SPLIT_AT {
                    let mut subs: Subs<K, V> = Box::new(std::array::from_fn(|_| None));
                    for (k, v) in std::mem::take(m) {
                        let leaf = subs[sub(hash_of(&k))].get_or_insert_with(Arc::default);
                        Arc::make_mut(leaf).insert(k, v);
                    }
                    *self = Shard::Split(subs);
                }
                old
            }
            Shard::Split(s) => {
                Arc::make_mut(s[sub(h)].get_or_insert_with(Arc::default)).insert(k, v)
            }
        }
    }

    fn len(&self) -> usize {
        match self {
            Shard::Flat(m) => m.len(),
            Shard::Split(s) => s.iter().flatten().map(|l| l.len()).sum(),
        }
    }

    fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        let (flat, split) = match self {
            Shard::Flat(m) => (Some(m), None),
            Shard::Split(s) => (None, Some(s)),
        };
        flat.into_iter().flat_map(|m| m.iter()).chain(
            split
                .into_iter()
                .flat_map(|s| s.iter().flatten().flat_map(|l| l.iter())),
        )
    }
}

/// A part of one map the join or comparison walks: a whole shard, or one sub-shard.
enum Part<'m, K, V> {
    Shard(&'m Shard<K, V>),
    Leaf(&'m Leaf<K, V>),
}

// By hand: a derive would ask `K` and `V` to be `Copy`.
impl<K, V> Clone for Part<'_, K, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K, V> Copy for Part<'_, K, V> {}

impl<'m, K: Hash + Eq + Clone, V: Clone> Part<'m, K, V> {
    fn get(self, k: &K) -> Option<&'m V> {
        match self {
            Part::Shard(s) => s.get(hash_of(k), k),
            Part::Leaf(l) => l.get(k),
        }
    }

    fn len(self) -> usize {
        match self {
            Part::Shard(s) => s.len(),
            Part::Leaf(l) => l.len(),
        }
    }

    fn iter(self) -> Box<dyn Iterator<Item = (&'m K, &'m V)> + 'm> {
        match self {
            Part::Shard(s) => Box::new(s.iter()),
            Part::Leaf(l) => Box::new(l.iter()),
        }
    }
}

/// The pairs of parts of two maps that differ: shards, or sub-shards of shards split on both
/// sides; what the two maps share is not in it.
type Parts<'m, K, V> = Vec<(Option<Part<'m, K, V>>, Option<Part<'m, K, V>>)>;

impl<K: Hash + Eq + Clone, V: Clone> ShardedMap<K, V> {
    /// A map that holds `base`'s entries without copying them (see the module doc).
    pub fn with_base(base: Arc<FxMap<K, V>>) -> Self {
        ShardedMap {
            len: base.len(),
            base: Some(base),
            ..ShardedMap::default()
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn in_shards(&self, h: u64, k: &K) -> bool {
        self.shards[top(h)]
            .as_ref()
            .is_some_and(|s| s.get(h, k).is_some())
    }

    pub fn get(&self, k: &K) -> Option<&V> {
        let h = hash_of(k);
        if let Some(v) = self.shards[top(h)].as_ref().and_then(|s| s.get(h, k)) {
            return Some(v);
        }
        self.base.as_ref()?.get(k)
    }

    pub fn contains_key(&self, k: &K) -> bool {
        self.get(k).is_some()
    }

    /// The value at `k`, for writing: its shard is copied first if shared (and only when `k`
    /// is in the map); a base entry is copied into its shard.
    pub fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        let h = hash_of(k);
        let i = top(h);
        if !self.in_shards(h, k) {
            let v = self.base.as_ref()?.get(k)?.clone();
            Arc::make_mut(self.shards[i].get_or_insert_with(Arc::default)).insert(h, k.clone(), v);
        }
        Arc::make_mut(self.shards[i].as_mut()?).get_mut(h, k)
    }

    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        let h = hash_of(&k);
        let below = match &self.base {
            Some(b) if !self.in_shards(h, &k) => b.get(&k).cloned(),
            _ => None,
        };
        let shard = self.shards[top(h)].get_or_insert_with(Arc::default);
        let old = Arc::make_mut(shard).insert(h, k, v).or(below);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        let below = self
            .base
            .iter()
            .flat_map(|b| b.iter())
            .filter(|(k, _)| !self.in_shards(hash_of(k), k));
        self.shards
            .iter()
            .flatten()
            .flat_map(|s| s.iter())
            .chain(below)
    }

    /// The same entries, all in shards (no base).
    fn flattened(&self) -> Self {
        let mut out = ShardedMap::default();
        for (k, v) in self.iter() {
            out.insert(k.clone(), v.clone());
        }
        out
    }

    /// The parts of the two maps' shards that differ (both maps over the same base).
    fn differing<'m>(&'m self, other: &'m Self) -> Parts<'m, K, V> {
        let mut out = Vec::new();
        for (a, b) in self.shards.iter().zip(&other.shards) {
            if same(a, b) {
                continue;
            }
            match (a.as_deref(), b.as_deref()) {
                (Some(Shard::Split(x)), Some(Shard::Split(y))) => {
                    for (p, q) in x.iter().zip(y.iter()) {
                        if !same(p, q) {
                            out.push((p.as_deref().map(Part::Leaf), q.as_deref().map(Part::Leaf)));
                        }
                    }
                }
                (a, b) => out.push((a.map(Part::Shard), b.map(Part::Shard))),
            }
        }
        out
    }

    /// Both maps, joined: a key in one only keeps its value; a key in both gets `join(a, b)`,
    /// or keeps `a`'s value when that returns `None` (the same value). Shards the two maps
    /// share are shared by the result without being looked at, and so is their base.
    pub fn join_with(&self, other: &Self, join: impl FnMut(&V, &V) -> Option<V>) -> Self {
        self.join_changed(other, join)
            .unwrap_or_else(|| self.clone())
    }

    /// [`Self::join_with`], or `None` when the join is this map itself (every key of `other`
    /// here, and `join` keeping this side's value for each): the caller keeps its own copy,
    /// still shared, without comparing the two maps first.
    pub fn join_changed(
        &self,
        other: &Self,
        mut join: impl FnMut(&V, &V) -> Option<V>,
    ) -> Option<Self> {
        if !same(&self.base, &other.base) {
            return Some(self.flattened().join_with(&other.flattened(), join));
        }
        let base = self.base.as_deref();
        let mut changes = Vec::new();
        for (mine, theirs) in self.differing(other) {
            for (k, y) in theirs.into_iter().flat_map(Part::iter) {
                match mine.and_then(|m| m.get(k)).or_else(|| base?.get(k)) {
                    // `None` from `join`: the same value — this side's, or the base's it reads.
                    Some(x) => {
                        if let Some(v) = join(x, y) {
                            changes.push((k.clone(), v));
                        }
                    }
                    None => changes.push((k.clone(), y.clone())),
                }
            }
            // Keys this side changed over the base that the other side still reads there.
            if let (Some(mine), Some(base)) = (mine, base) {
                for (k, x) in mine.iter() {
                    if theirs.is_some_and(|t| t.get(k).is_some()) {
                        continue;
                    }
                    if let Some(y) = base.get(k)
                        && let Some(v) = join(x, y)
                    {
                        changes.push((k.clone(), v));
                    }
                }
            }
        }
        if changes.is_empty() {
            return None;
        }
        let mut out = self.clone();
        for (k, v) in changes {
            out.insert(k, v);
        }
        Some(out)
    }
}

impl<K: Hash + Eq + Clone, V: PartialEq + Clone> ShardedMap<K, V> {
    /// Add the entries of `other` whose keys are not here (what an import brings into the
    /// importer's heap). A shard this map lacks, or holds only entries `other`'s shard has
    /// too, is taken from `other` as it is — shared, not copied entry by entry: an entry
    /// importing ten modules of a package whose heaps hold 6,000 objects each had copied
    /// them all ten times.
    pub fn add_missing(&mut self, other: &Self) {
        if self.base.is_some() || other.base.is_some() {
            let missing: Vec<(K, V)> = other
                .iter()
                .filter(|(k, _)| !self.contains_key(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            for (k, v) in missing {
                self.insert(k, v);
            }
            return;
        }
        for i in 0..SHARDS {
            let Some(theirs) = &other.shards[i] else {
                continue;
            };
            if same(&self.shards[i], &other.shards[i]) {
                continue;
            }
            if let (Some(Shard::Split(_)), Shard::Split(subs)) =
                (self.shards[i].as_deref(), &**theirs)
            {
                self.len += self.shards[i]
                    .as_mut()
                    .map_or(0, |m| add_missing_subs(Arc::make_mut(m), subs));
                continue;
            }
            let mine = self.shards[i].as_deref();
            let mine_len = mine.map_or(0, Shard::len);
            let within =
                mine.is_none_or(|m| m.iter().all(|(k, v)| theirs.get(hash_of(k), k) == Some(v)));
            if within {
                self.len += theirs.len() - mine_len;
                self.shards[i] = Some(theirs.clone());
                continue;
            }
            let missing: Vec<(K, V)> = theirs
                .iter()
                .filter(|(k, _)| mine.is_none_or(|m| m.get(hash_of(k), k).is_none()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            for (k, v) in missing {
                self.insert(k, v);
            }
        }
    }
}

/// [`ShardedMap::add_missing`] between two split shards, sub-shard by sub-shard (the few
/// objects an importer made itself leave most of them to be taken as they are); how many
/// entries were added.
fn add_missing_subs<K: Hash + Eq + Clone, V: PartialEq + Clone>(
    mine: &mut Shard<K, V>,
    theirs: &Subs<K, V>,
) -> usize {
    let Shard::Split(mine) = mine else {
        return 0;
    };
    let mut added = 0;
    for (m, t) in mine.iter_mut().zip(theirs.iter()) {
        let Some(t) = t else {
            continue;
        };
        match m {
            Some(leaf) if Arc::ptr_eq(leaf, t) => {}
            Some(leaf) if !leaf.iter().all(|(k, v)| t.get(k) == Some(v)) => {
                let leaf = Arc::make_mut(leaf);
                for (k, v) in t.iter() {
                    if !leaf.contains_key(k) {
                        leaf.insert(k.clone(), v.clone());
                        added += 1;
                    }
                }
            }
            _ => {
                added += t.len() - m.as_ref().map_or(0, |l| l.len());
                *m = Some(t.clone());
            }
        }
    }
    added
}

impl<K: Hash + Eq + Clone, V: PartialEq + Clone> PartialEq for ShardedMap<K, V> {
    fn eq(&self, other: &Self) -> bool {
        if self.len != other.len {
            return false;
        }
        if !same(&self.base, &other.base) {
            return self.iter().all(|(k, v)| other.get(k) == Some(v));
        }
        let no_base = self.base.is_none();
        self.differing(other).into_iter().all(|(a, b)| {
            if no_base {
                // The parts hold every entry of their keys: equal maps, entry for entry.
                a.map_or(0, Part::len) == b.map_or(0, Part::len)
                    && a.into_iter()
                        .flat_map(Part::iter)
                        .all(|(k, v)| b.and_then(|b| b.get(k)) == Some(v))
            } else {
                a.into_iter()
                    .chain(b)
                    .flat_map(Part::iter)
                    .all(|(k, _)| self.get(k) == other.get(k))
            }
        })
    }
}

impl<K: Hash + Eq + Clone, V: Eq + Clone> Eq for ShardedMap<K, V> {}

impl<K: std::fmt::Debug + Hash + Eq + Clone, V: std::fmt::Debug + Clone> std::fmt::Debug
    for ShardedMap<K, V>
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
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
    fn a_base_is_read_through_written_by_copy_and_joined_entry_by_entry() {
        let base: FxMap<u32, u32> = (0..1000).map(|k| (k, k)).collect();
        let a = ShardedMap::with_base(Arc::new(base));
        assert_eq!(a.len(), 1000);
        assert_eq!(a.get(&7), Some(&7));
        assert!(a.shards.iter().all(Option::is_none), "nothing copied");
        let (mut b, mut c) = (a.clone(), a.clone());
        *b.get_mut(&7).unwrap() = 70;
        assert_eq!(b.insert(8, 80), Some(8));
        assert_eq!(b.insert(5000, 1), None);
        *c.get_mut(&9).unwrap() = 90;
        assert_eq!((b.len(), c.len()), (1001, 1000));
        // Only the written entries were copied out of the base.
        let copied: usize = b.shards.iter().flatten().map(|s| s.len()).sum();
        assert_eq!(copied, 3);
        assert_eq!(a.get(&7), Some(&7));
        assert_ne!(a, b);
        assert_eq!(a, a.clone());
        let mut same = a.clone();
        *same.get_mut(&3).unwrap() = 3;
        assert_eq!(a, same, "a copy of an unchanged base entry is equal to it");
        // Each changed key is joined with the other side's value, from its shards or the base.
        let mut seen = Vec::new();
        let j = b.join_with(&c, |x, y| {
            seen.push((*x, *y));
            (x != y).then(|| x.max(y) + 1)
        });
        seen.sort_unstable();
        // 9: changed on the other side only (this side reads the base); 7 and 8: on this side
        // only (the other reads the base); 5000: made on this side, nothing to join it with.
        assert_eq!(seen, [(9, 90), (70, 7), (80, 8)]);
        assert_eq!(j.get(&7), Some(&71));
        assert_eq!(j.get(&8), Some(&81));
        assert_eq!(j.get(&9), Some(&91));
        assert_eq!(j.get(&5000), Some(&1));
        assert_eq!(j.get(&999), Some(&999));
        assert_eq!(j.len(), 1001);
        assert_eq!(j.iter().count(), 1001);
        // Maps over different bases are joined entry by entry.
        let other = ShardedMap::with_base(Arc::new((0..1000).map(|k| (k, k)).collect()));
        let k = a.join_with(&other, |x, y| (x != y).then_some(0));
        assert_eq!(k.len(), 1000);
        assert_eq!(k, other);
    }

    #[test]
    fn a_large_shard_splits_and_a_write_copies_one_sub_shard() {
        let mut a: ShardedMap<u32, u32> = ShardedMap::default();
        for k in 0..6000 {
            a.insert(k, k);
        }
        assert!(
            a.shards
                .iter()
                .flatten()
                .all(|s| matches!(**s, Shard::Split(_))),
            "6,000 entries over 32 shards: each past {SPLIT_AT}"
        );
        assert_eq!((a.len(), a.iter().count()), (6000, 6000));
        assert!((0..6000).all(|k| a.get(&k) == Some(&k)));
        let mut b = a.clone();
        *b.get_mut(&7).unwrap() = 70;
        assert_eq!(b.insert(9000, 1), None);
        assert_eq!(b.insert(8, 80), Some(8));
        assert_ne!(a, b);
        let mut c = b.clone();
        *c.get_mut(&7).unwrap() = 7;
        *c.get_mut(&8).unwrap() = 8;
        assert_ne!(b, c);
        let mut back = c.clone();
        back.insert(9000, 1);
        assert_eq!(back, c);
        // The join is offered the keys of the written sub-shards only (about 6 each), not
        // their shards' 190.
        let mut seen = 0;
        let j = a.join_with(&b, |x, y| {
            seen += 1;
            (x != y).then(|| x.max(y) + 1)
        });
        assert!(seen < 40, "{seen} keys joined");
        assert_eq!(j.get(&7), Some(&71));
        assert_eq!(j.get(&8), Some(&81));
        assert_eq!(j.get(&9000), Some(&1));
        assert_eq!(j.get(&5999), Some(&5999));
        assert_eq!((j.len(), j.iter().count()), (6001, 6001));
        // Nothing changed: the map itself, still shared.
        assert!(
            a.join_changed(&a.clone(), |_, _| panic!("shared"))
                .is_none()
        );
        assert!(b.join_changed(&a, |x, y| (x < y).then_some(*y)).is_none());
    }

    #[test]
    fn add_missing_keeps_this_sides_values_and_shares_the_shards_it_takes() {
        let mut lib: ShardedMap<u32, u32> = ShardedMap::default();
        for k in 0..3000 {
            lib.insert(k, k);
        }
        // An importer that read part of the library already and changed one entry.
        let mut mine: ShardedMap<u32, u32> = ShardedMap::default();
        for k in 0..100 {
            mine.insert(k, k);
        }
        mine.insert(5, 50);
        mine.insert(9999, 1);
        let mut grown = mine.clone();
        grown.add_missing(&lib);
        assert_eq!((grown.len(), grown.iter().count()), (3001, 3001));
        assert_eq!(grown.get(&5), Some(&50), "this side's value is kept");
        assert_eq!(grown.get(&9999), Some(&1));
        assert!(
            (0..3000)
                .filter(|k| *k != 5)
                .all(|k| grown.get(&k) == Some(&k))
        );
        // Shards holding only what `lib` holds are `lib`'s own.
        let shared = grown
            .shards
            .iter()
            .zip(&lib.shards)
            .filter(|(a, b)| same(a, b))
            .count();
        assert!(shared >= SHARDS - 2, "{shared} shards shared");
        // Both sides split: sub-shard by sub-shard, the ones holding a subset taken as they are.
        let mut big: ShardedMap<u32, u32> = ShardedMap::default();
        for k in 0..2500 {
            big.insert(k, k);
        }
        big.insert(5, 50);
        big.insert(7777, 7);
        big.add_missing(&lib);
        assert_eq!((big.len(), big.iter().count()), (3001, 3001));
        assert_eq!((big.get(&5), big.get(&7777)), (Some(&50), Some(&7)));
        assert!(
            (0..3000)
                .filter(|k| *k != 5)
                .all(|k| big.get(&k) == Some(&k))
        );
        let subs = |m: &ShardedMap<u32, u32>| -> Vec<*const Leaf<u32, u32>> {
            m.shards
                .iter()
                .flatten()
                .flat_map(|s| match &**s {
                    Shard::Split(subs) => subs.iter().flatten().map(Arc::as_ptr).collect(),
                    Shard::Flat(_) => Vec::new(),
                })
                .collect()
        };
        let theirs = subs(&lib);
        let taken = subs(&big).iter().filter(|p| theirs.contains(p)).count();
        assert!(
            taken > theirs.len() - 4,
            "{taken} of {} sub-shards shared",
            theirs.len()
        );
        // Into an empty map: every shard taken as it is; a base is read entry by entry.
        let mut empty = ShardedMap::default();
        empty.add_missing(&lib);
        assert_eq!(empty, lib);
        let mut based = ShardedMap::with_base(Arc::new((0..10).map(|k| (k, 100 + k)).collect()));
        based.add_missing(&lib);
        assert_eq!(based.len(), 3000);
        assert_eq!((based.get(&3), based.get(&2999)), (Some(&103), Some(&2999)));
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
