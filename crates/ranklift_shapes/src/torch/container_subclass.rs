//! Library model: a program's subclass of `nn.ModuleDict` or `nn.ModuleList`.
//!
//! **Trigger:** on an object whose class derives from `nn.ModuleDict`/`nn.ModuleList` (its
//! `super().__init__()` made the container, `interp/super_call.rs`): `self.add_module(name, m)` /
//! `register_module`, and the container's own methods the class does not define —
//! `items()`, `keys()`, `values()`, `update(...)`, `append(m)`, `extend(...)`, `insert(...)`,
//! iterating it and its `len()` (those of `nn.Sequential` subclasses too);
//! on one deriving from `nn.ModuleDict` or `nn.Sequential`: `self.name = module` and
//! `self.add_module(name, module)` (a name the analysis does not know too).
//!
//! **Result:** `add_module` binds the attribute (as on any module) *and* adds the module to
//! the modules the container holds, under its name, so that iterating them in `forward`
//! (`for name, layer in self.items(): x = layer(x)`) runs each; the container's methods act on
//! those modules as they do on a plain `nn.ModuleDict`/`nn.ModuleList`. Assigning a module to
//! an attribute registers it as torch's `Module.__setattr__` does: a `ModuleDict` holds it
//! under that name, a `Sequential` runs it after the children it had (or in place of the child
//! of that name); `add_module` on a `Sequential` does the same, and under a name the analysis
//! does not know (`"layer{}".format(i)` of an unknown `i`) runs it last, as a new name does.
//!
//! **Why:** DenseNet's dense block is such a subclass: it adds its layers with `add_module` in
//! `__init__` and concatenates their outputs in a loop over `self.items()`. Without this every
//! block's output — and everything after the first block of the model — was unknown.
//!
//! ```python
//! class Block(nn.ModuleDict):
//!     def __init__(self, n):
//!         super().__init__()
//!         for i in range(n):
//!             self.add_module("layer%d" % (i + 1), nn.Conv2d(16, 16, 1))
//!
//!     def forward(self, x):
//!         for name, layer in self.items():
//!             x = layer(x)
//!         return x
//!
//! Block(2)(torch.zeros(2, 8, 4, 4))  # W521: expected input[2, 8, 4, 4] to have 16 channels
//!
//! class Transition(nn.Sequential):       # DenseNet's: halves the channels, then pools
//!     def __init__(self, c):
//!         super().__init__()
//!         self.conv = nn.Conv2d(c, c // 2, 1)
//!         self.pool = nn.AvgPool2d(2)
//! ```
use std::sync::Arc;

use crate::interp::Interp;
use crate::interp::call::Args;
use crate::interp::state::{Binding, Obj, State};
use crate::interp::value::{Int, Seq, Value};
use crate::torch::layers::Layer;

/// The method kind of `add_module`/`register_module` on such an object.
pub const ADDS: &str = "<adds module>";

/// The container methods passed through to the modules held.
const METHODS: &[&str] = &[
    "items", "keys", "values", "update", "append", "extend", "insert",
];

impl Interp<'_> {
    /// `obj.attr` where `obj`'s class derives from a torch container and does not define
    /// `attr`: the container's method (on the modules held), or [`ADDS`]; `None` otherwise.
    pub(crate) fn container_subclass_method(
        &self,
        obj: &Value,
        attr: &str,
        st: &State,
    ) -> Option<Value> {
        let stored = self.stored_layer(obj, st)?;
        let sequential = matches!(*stored, Layer::Sequential(..));
        let layer = Value::Layer(stored);
        if matches!(attr, "add_module" | "register_module")
            && (sequential || layer.held_modules().is_some())
        {
            return Some(Value::Method(Box::new(obj.clone()), ADDS.into()));
        }
        layer.held_modules()?;
        METHODS
            .contains(&attr)
            .then(|| Value::Method(Box::new(layer), attr.into()))
    }

    /// The torch container an object of a program's subclass of one is, when its class does
    /// not define how it iterates (`__iter__`, `__len__`): what `for m in obj` and `len(obj)`
    /// go through.
    pub(crate) fn container_of(&self, obj: &Value, st: &State) -> Option<Value> {
        let layer = self.stored_layer(obj, st)?;
        if !matches!(
            *layer,
            Layer::Sequential(..) | Layer::ModuleList(_) | Layer::ModuleDict(_)
        ) {
            return None;
        }
        let Value::Instance(addr) = obj else {
            return None;
        };
        let class = self.instance_class(st, *addr)?;
        (self.class_attr(class, "__iter__", 0).is_none()
            && self.class_attr(class, "__len__", 0).is_none())
        .then_some(Value::Layer(layer))
    }

    /// `obj.name = value` on an instance: a module assigned to an attribute of a `Sequential`
    /// or `ModuleDict` subclass's object joins the modules it runs or holds.
    pub(crate) fn register_child(
        &mut self,
        addr: crate::interp::value::Addr,
        name: &str,
        value: &Value,
        st: &mut State,
    ) {
        let obj = Value::Instance(addr);
        let Some(layer) = self.stored_layer(&obj, st) else {
            return;
        };
        let is_module = match value {
            Value::Layer(_) => true,
            Value::Instance(a) => self
                .instance_class(st, *a)
                .is_some_and(|c| self.is_torch_module(c, 0)),
            _ => false,
        };
        if !is_module {
            return;
        }
        match &*layer {
            Layer::Sequential(children, names) => {
                let mut children = children.to_vec();
                let mut names = names.to_vec();
                match names.iter().position(|n| &**n == name) {
                    Some(i) => children[i] = value.clone(),
                    None => {
                        children.push(value.clone());
                        names.push(name.into());
                    }
                }
                let grown = Layer::Sequential(children.into(), names.into());
                self.store_layer(&obj, Value::Layer(Arc::new(grown)), st);
            }
            Layer::ModuleDict(d) => {
                if let Some(Obj::Dict { items, .. }) = st.obj_mut(*d) {
                    let key = Value::Str(Some(name.into()));
                    match items.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, v)) => *v = value.clone(),
                        None => items.push((key, value.clone())),
                    }
                }
            }
            _ => {}
        }
    }

    /// `obj.add_module(name, module)` on such an object: the attribute, and the module held (a
    /// `Sequential` runs it after the children it had, or in place of the child of that name).
    pub(crate) fn add_held_module(&mut self, obj: &Value, args: &Args, st: &mut State) {
        let stored = self.stored_layer(obj, st);
        let held = stored.clone().and_then(|l| Value::Layer(l).held_modules());
        let (Value::Instance(addr), [Value::Str(Some(name)), module]) = (obj, args.pos.as_slice())
        else {
            // A sequence grows as `seq.add_module(...)` does (`torch/containers.rs`): the module
            // runs last, under no attribute when its name is not known.
            if let Some(seq) = stored.filter(|l| matches!(**l, Layer::Sequential(..))) {
                let grown = crate::torch::containers::grown(&Value::Layer(seq), "add_module", args)
                    .unwrap_or(Value::Top);
                self.store_layer(obj, grown, st);
                return;
            }
            match (held, args.pos.as_slice()) {
                (Some(Value::List(l)), [_, module]) if !args.unknown => {
                    let args = Args {
                        pos: vec![module.clone()],
                        ..Args::default()
                    };
                    self.call_list_method(l, "append", &args, Default::default(), st);
                }
                // Whatever it added, the modules held are no longer known.
                (Some(Value::Dict(d)), _) => st.insert_obj(d, Obj::unknown_dict()),
                (Some(Value::List(l)), _) => st.insert_obj(
                    l,
                    Obj::List(Seq::Summary(
                        Box::new(Value::Top),
                        Int::Range(Some(0), None),
                    )),
                ),
                _ => {}
            }
            return;
        };
        if let Some(Obj::Instance { attrs, .. }) = st.obj_mut(*addr) {
            attrs.insert(
                name.clone(),
                Binding {
                    value: module.clone(),
                    maybe_unbound: false,
                },
            );
        }
        match held {
            Some(Value::Dict(d)) => {
                if let Some(Obj::Dict { items, .. }) = st.obj_mut(d) {
                    let key = Value::Str(Some(name.clone()));
                    match items.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, v)) => *v = module.clone(),
                        None => items.push((key, module.clone())),
                    }
                }
            }
            Some(Value::List(l)) => {
                let args = Args {
                    pos: vec![module.clone()],
                    ..Args::default()
                };
                self.call_list_method(l, "append", &args, Default::default(), st);
            }
            _ => self.register_child(*addr, name, module, st),
        }
    }
}
