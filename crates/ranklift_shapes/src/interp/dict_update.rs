//! Language model: `obj.__dict__.update(...)` with known keys sets those attributes.
//!
//! **Trigger:** a call `X.__dict__.update(kwargs)` (or `update(k=v, ...)`, `update(**d)`)
//! where `X` is an instance of the program's classes and every key handed over is a known
//! string.
//!
//! **Result:** each key becomes an attribute of `X` with its value, as Python's update of the
//! instance dict does; the call returns `None`. With keys not all known (`update(d)` of a dict
//! read from a file), `X`'s attributes are unknown, as any other use of `X.__dict__` makes them.
//!
//! **Why:** configuration nodes (minGPT's `CfgNode`, yacs-style configs) take their fields as
//! `def __init__(self, **kwargs): self.__dict__.update(kwargs)`; with the instance's attributes
//! then unknown for good, the sizes set on it afterwards (`config.n_embd = 16`) were lost and
//! every layer of the model built from it was unknown.
//!
//! ```python
//! class CfgNode:
//!     def __init__(self, **kwargs):
//!         self.__dict__.update(kwargs)
//!
//! C = CfgNode(n_embd=16)
//! C.n_layer = 2
//! nn.Linear(C.n_embd, 4 * C.n_embd)   # Linear(16, 64)
//! ```
use std::sync::Arc;

use ruff_python_ast::{self as ast, Expr};

use super::Interp;
use super::state::{Binding, Obj, State};
use super::value::Value;

impl<'a> Interp<'a> {
    /// `X.__dict__.update(...)` (see the module doc), or `None` when `c` is another call.
    pub(crate) fn dict_update(&mut self, c: &'a ast::ExprCall, st: &mut State) -> Option<Value> {
        let Expr::Attribute(update) = &*c.func else {
            return None;
        };
        let Expr::Attribute(dict) = &*update.value else {
            return None;
        };
        if update.attr.as_str() != "update" || dict.attr.as_str() != "__dict__" {
            return None;
        }
        let obj = self.eval(&dict.value, st);
        let mut items: Option<Vec<(Arc<str>, Value)>> = Some(Vec::new());
        let take = |v: Value, st: &State, items: &mut Option<Vec<(Arc<str>, Value)>>| {
            let got: Option<Vec<(Arc<str>, Value)>> = match v {
                Value::Kwargs(kw) => Some(kw.iter().cloned().collect()),
                Value::Dict(a) => st
                    .dict(a)
                    .and_then(|(d, exact)| super::attr_dict::string_items(d, exact)),
                _ => None,
            };
            match (items.as_mut(), got) {
                (Some(all), Some(got)) => all.extend(got),
                _ => *items = None,
            }
        };
        if c.arguments.args.len() > 1 {
            items = None;
        }
        for a in c.arguments.args.iter() {
            let v = self.eval(a, st);
            take(v, st, &mut items);
        }
        for k in c.arguments.keywords.iter() {
            let v = self.eval(&k.value, st);
            match &k.arg {
                Some(name) => {
                    if let Some(all) = items.as_mut() {
                        all.push((name.as_str().into(), v));
                    }
                }
                None => take(v, st, &mut items),
            }
        }
        let Value::Instance(addr) = obj else {
            return Some(Value::Top);
        };
        match (items, st.obj_mut(addr)) {
            (Some(items), Some(Obj::Instance { attrs, .. }))
                if !attrs.contains_key(super::expr::OPAQUE) =>
            {
                for (k, value) in items {
                    attrs.insert(
                        k,
                        Binding {
                            value,
                            maybe_unbound: false,
                        },
                    );
                }
            }
            _ => super::expr::forget_attributes(st, addr),
        }
        Some(Value::None)
    }
}
