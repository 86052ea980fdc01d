//! Language model: `super()` — the parent class's methods, called on the same object.
//!
//! **Trigger:** `super()` in a method (or `super(C, self)`), then an attribute of it:
//! `super().__init__(*args, **kwargs)`, `super().forward(x)`.
//!
//! **Result:** the attribute is looked up in the bases of the class the method is defined in
//! (depth first, as far as single inheritance goes); a method of the program is bound to the
//! same object and runs. Where that base is a `torch.nn` layer (`class LayerNorm(nn.LayerNorm)`,
//! `class MLP(nn.Sequential)`), `__init__` builds the library layer from its arguments and keeps
//! it on the object, and `forward` (or calling an object whose class defines none) applies it;
//! a subclass without `__init__` builds it from the class call's arguments. `nn.Module`'s own
//! `__init__` does nothing the analysis needs. A parent method called with arguments of unknown
//! contents (`super().__init__(**kwargs)` of a constructor analysed without a caller) is not run:
//! it would learn nothing, at the cost of the whole parent constructor for every subclass.
//!
//! **Why:** without it, sizes handed to a base class (`super().__init__(in_ch, out_ch)`) were
//! lost, and every subclass of a torch layer — normalisation layers that cast, conv-norm-act
//! blocks built as `nn.Sequential` — computed unknown values in every model that used one.
//!
//! ```python
//! class LayerNorm(nn.LayerNorm):
//!     def forward(self, x):
//!         return super().forward(x.float())
//!
//! LayerNorm(32)(torch.zeros(8, 2, 16))  # W521 Given normalized_shape=[32], expected input with shape [*, 32], ...
//! ```
use std::sync::Arc;

use ruff_text_size::TextRange;

use super::Interp;
use super::call::Args;
use super::state::{Binding, Obj, State};
use super::value::Value;
use crate::torch::layers::Layer;

/// Where the library layer of a torch-layer subclass's object is kept (not a Python name).
const LAYER_ATTR: &str = "<torch layer>";

impl Interp<'_> {
    /// A call of the parent's method `id` found by `super()`: run on the object, unless its
    /// arguments are of unknown contents (see the module's doc).
    pub(crate) fn call_super_method(
        &mut self,
        id: u32,
        recv: &Value,
        args: Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        if args.unknown {
            return if self.funcs[id as usize].def.name.as_str() == "__init__" {
                Value::None
            } else {
                Value::Top
            };
        }
        self.call_function(id, Some(recv.clone()), args, range, st)
    }

    /// `super()` / `super(C, obj)`.
    pub(crate) fn make_super(&mut self, args: &Args, st: &mut State) -> Value {
        match args.pos.as_slice() {
            [Value::Class(c), recv] if !matches!(recv, Value::Top) => {
                Value::Super(Arc::new((recv.clone(), *c)))
            }
            [] if !args.unknown => {
                let Some(f) = self.cur_func else {
                    return Value::Top;
                };
                let f = &self.funcs[f as usize];
                let (Some(class), Some(first)) = (
                    f.class,
                    f.def
                        .parameters
                        .posonlyargs
                        .iter()
                        .chain(&f.def.parameters.args)
                        .next(),
                ) else {
                    return Value::Top;
                };
                // Of an unknown object (a method analysed without a caller) nothing is learnt by
                // running the parent's methods on it: unknown, at no cost.
                let name = first.parameter.name.as_str();
                match st.lookup_value(name) {
                    Some(Value::Top) | None => Value::Top,
                    Some(recv) => Value::Super(Arc::new((recv.clone(), class))),
                }
            }
            _ => Value::Top,
        }
    }

    /// `super().attr`: found in the bases of `class`, bound to `recv`.
    pub(crate) fn super_attr(&mut self, recv: &Value, class: u32, attr: &str) -> Value {
        let bases = self.classes[class as usize].bases.clone();
        for base in &bases {
            match base {
                Value::Class(b) => match self.class_attr(*b, attr, 0) {
                    // A static method: `super().__new__(cls, ...)` passes the class itself.
                    Some(Value::Func(id)) if attr == "__new__" => return Value::Func(id),
                    Some(Value::Func(id)) => {
                        return Value::Method(
                            Box::new(recv.clone()),
                            format!("<super {id}>").into(),
                        );
                    }
                    Some(v) => return v,
                    None => {
                        if self.torch_layer_base(*b, 0).is_some()
                            && matches!(attr, "__init__" | "forward")
                        {
                            return Value::Method(
                                Box::new(Value::Super(Arc::new((recv.clone(), *b)))),
                                attr.into(),
                            );
                        }
                    }
                },
                // `dict.__init__`: the items of an `AttrDict` (`interp/attr_dict.rs`).
                Value::Builtin(super::value::Builtin::Dict) if attr == "__init__" => {
                    return Value::Method(
                        Box::new(Value::Super(Arc::new((recv.clone(), class)))),
                        super::attr_dict::DICT_INIT.into(),
                    );
                }
                Value::TorchFunc(name) if matches!(attr, "__init__" | "forward") => {
                    return if is_layer(name) {
                        Value::Method(
                            Box::new(Value::Super(Arc::new((recv.clone(), class)))),
                            attr.into(),
                        )
                    } else {
                        // `nn.Module.__init__`: nothing to model.
                        Value::Method(Box::new(Value::None), "<nothing>".into())
                    };
                }
                _ => {}
            }
        }
        // `object.__new__`, where no base of the program's defines one.
        if attr == "__new__" && self.bases_known(class, 0) {
            return Value::Builtin(super::value::Builtin::ObjectNew);
        }
        Value::Top
    }

    /// `super().__init__(...)` / `super().forward(...)` where the base is a torch layer.
    pub(crate) fn call_super_layer(
        &mut self,
        recv: &Value,
        class: u32,
        name: &str,
        args: Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        match name {
            super::attr_dict::DICT_INIT => {
                self.dict_init(recv, args, range, st);
                Value::None
            }
            "__init__" => {
                if let Some(layer) = self.torch_layer_base(class, 0) {
                    // The containers hold their modules on the heap (and a Sequential may be
                    // built from a dict): made as a call of the class makes them.
                    let built = if matches!(
                        layer,
                        "torch.nn.ModuleDict" | "torch.nn.ModuleList" | "torch.nn.Sequential"
                    ) {
                        self.call_value(&Value::TorchFunc(layer), args, range, st)
                    } else {
                        let args = self.lists_as_tuples(args, st);
                        let error = (!args.unknown)
                            .then(|| {
                                crate::torch::attention::construct_error(layer, &args).or_else(
                                    || {
                                        crate::torch::conv_groups::construct_error(
                                            &layer["torch.nn.".len()..],
                                            &args,
                                        )
                                    },
                                )
                            })
                            .flatten();
                        // The layer's own checks, as a direct call of the class makes them
                        // (`super().__init__(in, out, k, groups=g)` of a `Conv2d` subclass).
                        if let Some((exc, m)) = error {
                            self.torch_error(range, "W521", exc, m);
                            return Value::None;
                        }
                        crate::torch::layers::construct(layer, &args)
                    };
                    self.store_layer(recv, built, st);
                }
                Value::None
            }
            "forward" => match self.stored_layer(recv, st) {
                Some(l) => self.call_layer(&l, args, range, st),
                None => Value::Top,
            },
            _ => Value::Top,
        }
    }

    /// The `torch.nn` layer class `class` derives from (directly or through the program's
    /// classes), if any.
    pub(crate) fn torch_layer_base(&self, class: u32, depth: usize) -> Option<&'static str> {
        if depth > 16 {
            return None;
        }
        self.classes[class as usize]
            .bases
            .iter()
            .find_map(|b| match b {
                Value::TorchFunc(name) if is_layer(name) => Some(*name),
                Value::Class(b) => self.torch_layer_base(*b, depth + 1),
                _ => None,
            })
    }

    /// The library layer kept on a torch-layer subclass's object.
    pub(crate) fn stored_layer(&self, recv: &Value, st: &State) -> Option<Arc<Layer>> {
        let Value::Instance(addr) = recv else {
            return None;
        };
        match st.heap.get(addr).map(|o| &**o) {
            Some(Obj::Instance { attrs, .. }) => match attrs.get(LAYER_ATTR).map(|b| &b.value) {
                Some(Value::Layer(l)) => Some(l.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    /// Keep `layer` (what the library constructor made) on the object.
    pub(crate) fn store_layer(&mut self, recv: &Value, layer: Value, st: &mut State) {
        if let Value::Instance(addr) = recv
            && let Some(Obj::Instance { attrs, .. }) = st.obj_mut(*addr)
        {
            attrs.insert(
                LAYER_ATTR.into(),
                Binding {
                    value: layer,
                    maybe_unbound: false,
                },
            );
        }
    }
}

/// A `torch.nn` class with a forward rule (not `nn.Module` itself).
fn is_layer(name: &str) -> bool {
    name.starts_with("torch.nn.") && name != "torch.nn.Module"
}
