//! The abstract state: variables (module globals and the current function's locals) and a heap
//! of mutable objects (lists, instances) that tracks aliasing.
//!
//! Globals and the heap are shared copy-on-write (`Arc`), so a branch inside a function copies
//! only its locals until it writes a global or an object; joining two states whose parts are the
//! same allocation is free. This is the cure for Pytropos' "very, very costly" store copies.

use std::sync::Arc;

use super::value::{Addr, Seq, Value};

pub use ranklift_python::fxhash::{FastMap as FxMap, FastSet as FxSet};

/// A variable's binding. `maybe_unbound`: unbound on some path reaching here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub value: Value,
    pub maybe_unbound: bool,
}

pub type Env = FxMap<Arc<str>, Binding>;

/// A heap object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Obj {
    List(Seq),
    Instance {
        class: u32,
        attrs: Env,
    },
    /// A dict with constant keys (`{"depths": [1, 1, 4, 7], "widths": [24, 56, 152, 368]}`):
    /// the items in insertion order; `exact` when no other key can be in it.
    Dict {
        items: Vec<(Value, Value)>,
        exact: bool,
    },
}

impl Obj {
    /// A dict of which nothing is known.
    pub fn unknown_dict() -> Obj {
        Obj::Dict {
            items: Vec::new(),
            exact: false,
        }
    }
}

/// The join of two dicts: a key both have joins its values; a key only one has is dropped
/// (lookups of it give an unknown value), and the result is no longer exact.
fn join_dicts(p: &[(Value, Value)], pe: bool, q: &[(Value, Value)], qe: bool, widen: bool) -> Obj {
    let same_keys = p.len() == q.len() && p.iter().zip(q).all(|(a, b)| a.0 == b.0);
    let items = p
        .iter()
        .filter_map(|(k, v)| {
            q.iter()
                .find(|(k2, _)| k2 == k)
                .map(|(_, w)| (k.clone(), if widen { v.widen(w) } else { v.join(w) }))
        })
        .collect();
    Obj::Dict {
        items,
        exact: pe && qe && same_keys,
    }
}

/// Objects are shared too: copying or comparing a heap costs one pointer per object, and a
/// write copies only the object written.
pub type Heap = super::sharded::ShardedMap<Addr, Arc<Obj>>;

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub globals: Arc<Env>,
    /// The current function's locals (`None` at module level).
    pub locals: Option<Arc<Env>>,
    pub heap: Arc<Heap>,
}

impl State {
    pub fn new() -> State {
        State {
            globals: Arc::new(Env::default()),
            locals: None,
            heap: Arc::new(Heap::default()),
        }
    }

    /// The value bound to `name` in the frame (locals first, then globals), if any.
    pub fn lookup_value(&self, name: &str) -> Option<&Value> {
        self.locals
            .as_ref()
            .and_then(|l| l.get(name))
            .or_else(|| self.globals.get(name))
            .map(|b| &b.value)
    }

    pub fn list(&self, a: Addr) -> Option<Seq> {
        match self.heap.get(&a).map(|o| &**o) {
            Some(Obj::List(s)) => Some(s.clone()),
            _ => None,
        }
    }

    /// The items of `v` when it is a tuple or list whose every item is known to be there.
    pub fn exact_items(&self, v: &Value) -> Option<Vec<Value>> {
        match v {
            Value::Tuple(Seq::Exact(items)) => Some(items.to_vec()),
            Value::List(a) => match self.list(*a) {
                Some(Seq::Exact(items)) => Some(items.to_vec()),
                _ => None,
            },
            _ => None,
        }
    }

    /// The object at `a`, for writing (copied first if shared).
    pub fn obj_mut(&mut self, a: Addr) -> Option<&mut Obj> {
        Arc::make_mut(&mut self.heap).get_mut(&a).map(Arc::make_mut)
    }

    /// A dict's items and exactness.
    pub fn dict(&self, a: Addr) -> Option<(Vec<(Value, Value)>, bool)> {
        match self.heap.get(&a).map(|o| &**o) {
            Some(Obj::Dict { items, exact }) => Some((items.clone(), *exact)),
            _ => None,
        }
    }

    pub fn insert_obj(&mut self, a: Addr, obj: Obj) {
        Arc::make_mut(&mut self.heap).insert(a, Arc::new(obj));
    }

    pub fn join(&self, other: &State) -> State {
        self.combine(other, false)
    }

    pub fn widen(&self, new: &State) -> State {
        self.combine(new, true)
    }

    fn combine(&self, other: &State, widen: bool) -> State {
        let locals = match (&self.locals, &other.locals) {
            (Some(a), Some(b)) => Some(combine_env(a, b, widen)),
            (a, _) => a.clone(),
        };
        State {
            globals: combine_env(&self.globals, &other.globals, widen),
            locals,
            heap: combine_heap(&self.heap, &other.heap, widen),
        }
    }
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

fn combine_value(a: &Value, b: &Value, widen: bool) -> Value {
    if widen { a.widen(b) } else { a.join(b) }
}

pub fn combine_env(a: &Arc<Env>, b: &Arc<Env>, widen: bool) -> Arc<Env> {
    if Arc::ptr_eq(a, b) {
        return a.clone();
    }
    match combine_bindings(a, b, widen) {
        Some(joined) => Arc::new(joined),
        None => a.clone(),
    }
}

/// The join (or widening) of two sets of bindings: a name bound on one side only may be
/// unbound. `None` when the result is `a` itself (equal sides included), so the caller keeps
/// `a`'s allocation.
///
/// One pass over `a` finds the bindings that change; only when some do is `a` copied (a
/// table copy, no re-hashing) and those patched. Most joins in real code differ in a few
/// names out of hundreds (a branch that assigned one local, a module whose loop bound one
/// global), and rebuilding the whole table for them was the cost.
fn combine_bindings(a: &Env, b: &Env, widen: bool) -> Option<Env> {
    let mut changed: Vec<(Arc<str>, Binding)> = Vec::new();
    let mut shared = 0usize;
    for (k, x) in a.iter() {
        match b.get(k) {
            Some(y) => {
                shared += 1;
                if x != y {
                    changed.push((
                        k.clone(),
                        Binding {
                            value: combine_value(&x.value, &y.value, widen),
                            maybe_unbound: x.maybe_unbound || y.maybe_unbound,
                        },
                    ));
                }
            }
            None if !x.maybe_unbound => changed.push((
                k.clone(),
                Binding {
                    value: x.value.clone(),
                    maybe_unbound: true,
                },
            )),
            None => {}
        }
    }
    let only_b = b.len() - shared;
    if changed.is_empty() && only_b == 0 {
        return None;
    }
    let mut out = a.clone();
    out.reserve(only_b);
    for (k, binding) in changed {
        out.insert(k, binding);
    }
    if only_b > 0 {
        for (k, y) in b.iter() {
            if !a.contains_key(k) {
                out.insert(
                    k.clone(),
                    Binding {
                        value: y.value.clone(),
                        maybe_unbound: true,
                    },
                );
            }
        }
    }
    Some(out)
}

fn combine_heap(a: &Arc<Heap>, b: &Arc<Heap>, widen: bool) -> Arc<Heap> {
    if Arc::ptr_eq(a, b) {
        return a.clone();
    }
    // `None`: the join is `a` (equal heaps included), which stays shared.
    let joined = a.join_changed(b, |x, y| {
        if Arc::ptr_eq(x, y) || x == y {
            return None;
        }
        let joined = match (&**x, &**y) {
            (Obj::List(p), Obj::List(q)) => {
                Obj::List(if widen { p.widen(q, 0) } else { p.join(q) })
            }
            (Obj::Instance { class: c, attrs: p }, Obj::Instance { class: d, attrs: q })
                if c == d =>
            {
                Obj::Instance {
                    class: *c,
                    attrs: combine_bindings(p, q, widen).unwrap_or_else(|| p.clone()),
                }
            }
            (
                Obj::Dict {
                    items: p,
                    exact: pe,
                },
                Obj::Dict {
                    items: q,
                    exact: qe,
                },
            ) => join_dicts(p, *pe, q, *qe, widen),
            _ => Obj::List(Seq::Summary(Box::new(Value::Top), super::value::Int::ANY)),
        };
        Some(Arc::new(joined))
    });
    joined.map_or_else(|| a.clone(), Arc::new)
}
