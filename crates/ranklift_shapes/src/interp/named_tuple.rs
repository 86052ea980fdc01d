//! Library model: named tuples — `collections.namedtuple(...)`, `typing.NamedTuple(...)` and
//! `class P(NamedTuple)`.
//!
//! **Trigger:** a class made by `namedtuple("P", ["a", "b"], defaults=...)` (field names as a
//! list or as one string, `"a b"` / `"a, b"`), by `NamedTuple("P", [("a", int), ...])`, or by a
//! `class` statement with `NamedTuple` among its bases; then its instances built, read by
//! field, indexed, unpacked, iterated, measured with `len`, copied with `_replace(**kw)` or
//! turned into a dict with `_asdict()`; defaults set the old way,
//! `P.__new__.__defaults__ = (None,) * len(P._fields)`.
//!
//! **Result:** the class binds its fields from a call's arguments (by position, then by name,
//! then from the defaults, which apply to the last fields), as a dataclass does; an instance
//! is the tuple of its fields wherever a tuple is expected (`p[0]`, `a, b = p`, `for x in p`,
//! `len(p)`). `P._fields` is the tuple of names.
//!
//! **Why:** configuration passes through named tuples in real models — EfficientNet's block
//! and global parameters (`BlockArgs`, `GlobalParams`, defaults set through `__new__`, copied
//! with `_replace(**override_params)`), torchvision's auxiliary outputs. Left unknown, every
//! channel count read from one was unknown, and with it the whole network.
//!
//! ```python
//! Params = collections.namedtuple("Params", ["width", "classes"])
//! Params.__new__.__defaults__ = (None,) * len(Params._fields)
//! p = Params(width=32)._replace(classes=10)
//! fc = nn.Linear(p.width, p.classes)
//! fc(torch.zeros(2, 16))  # W520 RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (2x16 and 32x10)
//! ```
use std::sync::Arc;

use ruff_python_ast::{Expr, ExprAttribute};
use ruff_text_size::TextRange;

use super::Interp;
use super::call::Args;
use super::state::{Binding, Env, Obj, State};
use super::value::{Seq, Value};

/// The field names of `field_names`: a string of names separated by commas or spaces, or a
/// sequence of names (or of `(name, type)` pairs, `typing.NamedTuple`'s functional form).
fn field_names(v: &Value, st: &State) -> Option<Vec<Arc<str>>> {
    let name = |v: &Value| match v {
        Value::Str(Some(s)) => Some(s.clone()),
        Value::Tuple(Seq::Exact(pair)) => match pair.first() {
            Some(Value::Str(Some(s))) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    };
    match v {
        Value::Str(Some(s)) => Some(
            s.replace(',', " ")
                .split_whitespace()
                .map(Arc::from)
                .collect(),
        ),
        v => st.exact_items(v)?.iter().map(name).collect(),
    }
}

impl<'a> Interp<'a> {
    /// `namedtuple(typename, field_names, defaults=...)` / `NamedTuple(typename, fields)`: a
    /// class of the program with those fields, made once per call site (a later run of the
    /// same line remakes it in place). Unknown when the names are.
    pub(crate) fn make_named_tuple(&mut self, args: &Args, range: TextRange, st: &State) -> Value {
        let names = args
            .get(1, "field_names")
            .or_else(|| args.kw("fields"))
            .and_then(|v| field_names(v, st));
        let Some(names) = names.filter(|_| !args.unknown) else {
            return Value::Top;
        };
        let mut attrs = Env::default();
        attrs.insert(
            "_fields".into(),
            Binding {
                value: names_tuple(&names),
                maybe_unbound: false,
            },
        );
        let key = (self.cur_module, u32::from(range.start()));
        let id = match self.class_index.get(&key) {
            Some(&id) => {
                self.classes[id as usize] = Arc::new(super::ClassDef {
                    attrs,
                    bases: Vec::new(),
                    meta: false,
                    fields: Some(names.clone()),
                    tuple: true,
                });
                id
            }
            None => {
                let id = self.classes.len() as u32;
                self.classes.push(Arc::new(super::ClassDef {
                    attrs,
                    bases: Vec::new(),
                    meta: false,
                    fields: Some(names.clone()),
                    tuple: true,
                }));
                self.class_index.insert(key, id);
                id
            }
        };
        if let Some(d) = args.kw("defaults") {
            let d = d.clone();
            self.set_named_tuple_defaults(id, &d, st);
        }
        Value::Class(id)
    }

    /// The defaults of named tuple class `c`: the last fields' (unknown when `defaults` is
    /// neither `None` nor an exact sequence no longer than the fields).
    fn set_named_tuple_defaults(&mut self, c: u32, defaults: &Value, st: &State) {
        let Some(fields) = self.classes[c as usize].fields.clone() else {
            return;
        };
        let values: Vec<Option<Value>> = match defaults {
            Value::None => vec![None; fields.len()],
            v => match st.exact_items(v).filter(|d| d.len() <= fields.len()) {
                Some(d) => std::iter::repeat_n(None, fields.len() - d.len())
                    .chain(d.into_iter().map(Some))
                    .collect(),
                None => vec![Some(Value::Top); fields.len()],
            },
        };
        let class = Arc::make_mut(&mut self.classes[c as usize]);
        for (f, v) in fields.iter().zip(values) {
            match v {
                Some(value) => {
                    class.attrs.insert(
                        f.clone(),
                        Binding {
                            value,
                            maybe_unbound: false,
                        },
                    );
                }
                None => {
                    class.attrs.remove(f);
                }
            }
        }
    }

    /// `P.__new__.__defaults__ = value` for a named tuple class `P`: its defaults. True when
    /// the assignment was that.
    pub(crate) fn assign_named_tuple_defaults(
        &mut self,
        target: &'a ExprAttribute,
        value: &Value,
        st: &mut State,
    ) -> bool {
        if target.attr.as_str() != "__defaults__" {
            return false;
        }
        let Expr::Attribute(new) = &*target.value else {
            return false;
        };
        if new.attr.as_str() != "__new__" {
            return false;
        }
        match self.eval(&new.value, st) {
            Value::Class(c) if self.classes[c as usize].tuple => {
                self.set_named_tuple_defaults(c, value, st);
                true
            }
            _ => false,
        }
    }

    /// The named tuple class of `v`'s instance, if it is one.
    fn named_tuple_class(&self, v: &Value, st: &State) -> Option<u32> {
        let Value::Instance(addr) = v else {
            return None;
        };
        let c = self.instance_class(st, *addr)?;
        let mut k = c;
        for _ in 0..16 {
            let class = &self.classes[k as usize];
            if class.tuple {
                return Some(c);
            }
            k = match class.bases.first() {
                Some(Value::Class(b)) => *b,
                _ => return None,
            };
        }
        None
    }

    /// A named tuple instance as the tuple it is: its fields' values in order (unknown where a
    /// field was never bound).
    pub(crate) fn named_tuple_items(&self, v: &Value, st: &State) -> Option<Value> {
        let c = self.named_tuple_class(v, st)?;
        let fields = self.classes[c as usize].fields.clone()?;
        let Value::Instance(addr) = v else {
            return None;
        };
        let Some(Obj::Instance { attrs, .. }) = st.heap.get(addr).map(|o| &**o) else {
            return None;
        };
        let items: Vec<Value> = fields
            .iter()
            .map(|f| attrs.get(f).map_or(Value::Top, |b| b.value.clone()))
            .collect();
        Some(Value::Tuple(Seq::Exact(items.into())))
    }

    /// `p._replace` / `p._asdict` of a named tuple instance, as a method to call.
    pub(crate) fn named_tuple_method(&self, obj: &Value, attr: &str, st: &State) -> Option<Value> {
        (matches!(attr, "_replace" | "_asdict") && self.named_tuple_class(obj, st).is_some())
            .then(|| Value::Method(Box::new(obj.clone()), format!("<namedtuple {attr}>").into()))
    }

    /// A call of `p._replace(**changes)` (a new instance, the named fields changed) or
    /// `p._asdict()` (a dict of the fields, in order).
    pub(crate) fn call_named_tuple_method(
        &mut self,
        obj: &Value,
        name: &str,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let (Some(c), Some(Value::Tuple(Seq::Exact(items)))) = (
            self.named_tuple_class(obj, st),
            self.named_tuple_items(obj, st),
        ) else {
            return Value::Top;
        };
        let fields = self.classes[c as usize].fields.clone().unwrap_or_default();
        match name {
            "<namedtuple _asdict>" => {
                let items = fields
                    .iter()
                    .zip(items.iter())
                    .map(|(f, v)| (Value::Str(Some(f.clone())), v.clone()))
                    .collect();
                self.alloc_dict(items, true, range.start(), st)
            }
            _ => {
                // A field the class does not have is Python's `ValueError`; the analysis
                // gives up on the result instead.
                if args.unknown
                    || !args.pos.is_empty()
                    || args.kw.iter().any(|(k, _)| !fields.contains(k))
                {
                    return Value::Top;
                }
                let made = self.fresh_instance(c, range, st);
                let mut bound = Env::default();
                for (f, v) in fields.iter().zip(items.iter()) {
                    let value = args.kw(f).cloned().unwrap_or_else(|| v.clone());
                    bound.insert(
                        f.clone(),
                        Binding {
                            value,
                            maybe_unbound: false,
                        },
                    );
                }
                if let Value::Instance(addr) = &made
                    && let Some(Obj::Instance { attrs, .. }) = st.obj_mut(*addr)
                {
                    *attrs = bound;
                }
                made
            }
        }
    }
}

/// `("a", "b")`: what `P._fields` is.
fn names_tuple(names: &[Arc<str>]) -> Value {
    Value::Tuple(Seq::Exact(
        names
            .iter()
            .map(|n| Value::Str(Some(n.clone())))
            .collect::<Vec<_>>()
            .into(),
    ))
}
