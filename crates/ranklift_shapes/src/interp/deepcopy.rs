//! Language model: `copy.deepcopy` of the program's objects.
//!
//! **Trigger:** `copy.deepcopy(x)` (or `from copy import deepcopy`) where `x` holds instances of
//! the program's classes, lists or dicts.
//!
//! **Result:** what Python builds: every object reachable from `x` copied once (an object
//! reached twice is copied once, so aliasing inside the copy is kept), with the values known of
//! the original; numbers, strings, tensors, arrays, layers, functions and classes are shared as
//! Python shares the immutable ones. An object whose class (or a base) defines `__deepcopy__`,
//! `__reduce__`, `__reduce_ex__`, `__getstate__` or `__setstate__`, or more than
//! [`MAX_OBJECTS`] objects, is left unknown.
//!
//! **Why:** transformer code builds its stack of blocks as copies of one block
//! (`nn.ModuleList([copy.deepcopy(layer) for _ in range(n)])`, a vision transformer's encoder,
//! DETR's `_get_clones`); with each copy unknown, every value after the first block was
//! unknown and no layer of the model was checked.
//!
//! ```python
//! block = Block(config)
//! layers = nn.ModuleList([copy.deepcopy(block) for _ in range(2)])
//! h = layers[1](x)   # the block's output shape, as for `block(x)`
//! ```
use ruff_text_size::TextRange;

use super::Interp;
use super::state::{Binding, FxMap, Obj, State};
use super::value::{Addr, Seq, Value};

/// Objects one deep copy may make; past them the copy is unknown.
const MAX_OBJECTS: usize = 4096;

/// Methods by which a class chooses how it is copied: such an object is not copied here.
const CUSTOM_COPY: [&str; 5] = [
    "__deepcopy__",
    "__reduce__",
    "__reduce_ex__",
    "__getstate__",
    "__setstate__",
];

/// One deep copy's state: the copies made so far, by original.
struct Copier {
    site: Addr,
    made: FxMap<Addr, Addr>,
    failed: bool,
}

impl Interp<'_> {
    /// `copy.deepcopy(v)` at `range` (see the module doc).
    pub(crate) fn deep_copy(&mut self, v: &Value, range: TextRange, st: &mut State) -> Value {
        let mut c = Copier {
            site: self.heap_addr(u32::from(range.start())),
            made: FxMap::default(),
            failed: false,
        };
        let out = self.copy_value(v, &mut c, st);
        if c.failed { Value::Top } else { out }
    }

    fn copy_value(&mut self, v: &Value, c: &mut Copier, st: &mut State) -> Value {
        if c.failed {
            return Value::Top;
        }
        match v {
            Value::Instance(a) => self.copy_obj(*a, c, st).map_or(Value::Top, Value::Instance),
            Value::List(a) => self.copy_obj(*a, c, st).map_or(Value::Top, Value::List),
            Value::Dict(a) => self.copy_obj(*a, c, st).map_or(Value::Top, Value::Dict),
            Value::Tuple(Seq::Exact(items)) => {
                let items: Vec<Value> = items.iter().map(|x| self.copy_value(x, c, st)).collect();
                Value::Tuple(Seq::Exact(items.into()))
            }
            Value::Tuple(Seq::Summary(e, n)) => {
                Value::Tuple(Seq::Summary(Box::new(self.copy_value(e, c, st)), n.clone()))
            }
            Value::Method(recv, name) => {
                Value::Method(Box::new(self.copy_value(recv, c, st)), name.clone())
            }
            // Objects of the heap this copy does not follow (a parser, a namespace, `super()`).
            Value::ArgParser(_) | Value::Namespace(_) | Value::Super(_) => Value::Top,
            // Immutable here (numbers, strings, tensors, arrays, layers as values) or shared by
            // Python's own deep copy (functions, classes, modules).
            _ => v.clone(),
        }
    }

    /// The copy of heap object `a` (made once per copy), or `None` when it cannot be made.
    fn copy_obj(&mut self, a: Addr, c: &mut Copier, st: &mut State) -> Option<Addr> {
        if let Some(n) = c.made.get(&a) {
            return Some(*n);
        }
        let Some(obj) = st.heap.get(&a).cloned() else {
            c.failed = true;
            return None;
        };
        if c.made.len() >= MAX_OBJECTS {
            c.failed = true;
            return None;
        }
        if let Obj::Instance { class, .. } = &*obj
            && CUSTOM_COPY
                .iter()
                .any(|m| self.class_attr(*class, m, 0).is_some())
        {
            c.failed = true;
            return None;
        }
        // A new address per original: the copy site, told apart by the original's address.
        let new = Addr {
            call: c.site.call ^ hash_addr(a),
            ..c.site
        };
        c.made.insert(a, new);
        let copied = match &*obj {
            Obj::Instance { class, attrs } => {
                let mut out = attrs.clone();
                for (_, b) in out.iter_mut() {
                    let value = self.copy_value(&b.value, c, st);
                    *b = Binding { value, ..b.clone() };
                }
                Obj::Instance {
                    class: *class,
                    attrs: out,
                }
            }
            Obj::List(Seq::Exact(items)) => Obj::List(Seq::Exact(
                items.iter().map(|x| self.copy_value(x, c, st)).collect(),
            )),
            Obj::List(Seq::Summary(e, n)) => {
                Obj::List(Seq::Summary(Box::new(self.copy_value(e, c, st)), n.clone()))
            }
            Obj::Dict { items, exact } => Obj::Dict {
                items: items
                    .iter()
                    .map(|(k, v)| (k.clone(), self.copy_value(v, c, st)))
                    .collect(),
                exact: *exact,
            },
        };
        st.insert_obj(new, copied);
        Some(new)
    }
}

fn hash_addr(a: Addr) -> u32 {
    use std::hash::BuildHasher;
    let h =
        std::hash::BuildHasherDefault::<ranklift_python::fxhash::FastHasher>::default().hash_one(a);
    (h >> 32) as u32 | 1
}
