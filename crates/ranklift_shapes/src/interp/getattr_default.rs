//! Language model: `getattr(obj, "name", default)` and `hasattr(obj, "name")` on an object of
//! the program's classes.
//!
//! **Trigger:** a three-argument `getattr` or a `hasattr` with a constant name, on an object
//! whose class and bases are all the program's (or `object`, or torch's `nn.Module` and its
//! containers), or on a namespace (`argparse.Namespace`, `threading.local()`: its entries, when
//! all are known); `hasattr` also on a number, string, `None` or list.
//!
//! **Result:** the attribute (`hasattr`: `True`) when the object or its class has it; `default`
//! (`hasattr`: `False`) when it certainly
//! has not — no such attribute set on the object so far, none in its classes, no
//! `__getattr__` of the program, not one of `nn.Module`'s own (recorded from torch's
//! `dir(nn.Module())`, with the containers' methods) nor a child a container holds under that
//! name; unknown otherwise (an object changed where the analysis cannot see, a base class
//! from a library, a metaclass).
//!
//! **Why:** models mark their blocks with optional attributes and pick stages by them
//! (torchvision's MobileNetV3 segmentation heads: `[i for i, b in enumerate(backbone) if
//! getattr(b, "_is_cn", False)]`); unknown, which stage feeds each head was lost, and so was
//! every size after it. And a constructor that validates its argument (`if not
//! hasattr(backbone, "out_channels"): raise ValueError(...)`, every torchvision detector) made,
//! undecided, the attribute it tested unknown past the test.
//!
//! ```python
//! class Block(nn.Module):
//!     def __init__(self, stride):
//!         super().__init__()
//!         self._is_cn = stride > 1
//!
//! getattr(Block(2), "_is_cn", False)       # True
//! getattr(nn.Sequential(), "_is_cn", False) # False (nn.Sequential has no such attribute)
//! hasattr(Block(2), "_is_cn")               # True: `if not hasattr(...): raise` is skipped
//! ```
use super::Interp;
use super::expr::OPAQUE;
use super::state::{Obj, State};
use super::value::Value;
use crate::torch::layers::Layer;

/// `dir(nn.Module())` in torch 2, without the dunder names (never decided here).
const MODULE_ATTRS: &[&str] = &[
    "T_destination",
    "_apply",
    "_backward_hooks",
    "_backward_pre_hooks",
    "_buffers",
    "_call_impl",
    "_compiled_call_impl",
    "_forward_hooks",
    "_forward_hooks_always_called",
    "_forward_hooks_with_kwargs",
    "_forward_pre_hooks",
    "_forward_pre_hooks_with_kwargs",
    "_get_backward_hooks",
    "_get_backward_pre_hooks",
    "_get_name",
    "_is_full_backward_hook",
    "_load_from_state_dict",
    "_load_state_dict_post_hooks",
    "_load_state_dict_pre_hooks",
    "_maybe_warn_non_full_backward_hook",
    "_modules",
    "_named_members",
    "_non_persistent_buffers_set",
    "_parameters",
    "_register_load_state_dict_pre_hook",
    "_register_state_dict_hook",
    "_replicate_for_data_parallel",
    "_save_to_state_dict",
    "_slow_forward",
    "_state_dict_hooks",
    "_state_dict_pre_hooks",
    "_version",
    "_wrapped_call_impl",
    "add_module",
    "apply",
    "bfloat16",
    "buffers",
    "call_super_init",
    "children",
    "compile",
    "cpu",
    "cuda",
    "double",
    "dump_patches",
    "eval",
    "extra_repr",
    "float",
    "forward",
    "get_buffer",
    "get_extra_state",
    "get_parameter",
    "get_submodule",
    "half",
    "ipu",
    "load_state_dict",
    "modules",
    "mtia",
    "named_buffers",
    "named_children",
    "named_modules",
    "named_parameters",
    "parameters",
    "register_backward_hook",
    "register_buffer",
    "register_forward_hook",
    "register_forward_pre_hook",
    "register_full_backward_hook",
    "register_full_backward_pre_hook",
    "register_load_state_dict_post_hook",
    "register_load_state_dict_pre_hook",
    "register_module",
    "register_parameter",
    "register_state_dict_post_hook",
    "register_state_dict_pre_hook",
    "requires_grad_",
    "set_extra_state",
    "set_submodule",
    "share_memory",
    "state_dict",
    "to",
    "to_empty",
    "train",
    "training",
    "type",
    "xpu",
    "zero_grad",
    // What `nn.Sequential`, `nn.ModuleList` and `nn.ModuleDict` add.
    "_get_item_by_idx",
    "_get_abs_string_index",
    "append",
    "extend",
    "insert",
    "pop",
    "clear",
    "items",
    "keys",
    "update",
    "values",
];

/// The torch classes whose attributes are `MODULE_ATTRS` and the children they hold.
const TORCH_BASES: &[&str] = &[
    "torch.nn.Module",
    "torch.nn.Sequential",
    "torch.nn.ModuleList",
    "torch.nn.ModuleDict",
];

impl Interp<'_> {
    /// `getattr(obj, name, default)` on an object of the program's classes: the attribute,
    /// the default, or `None` when it is not certain which (see the module's doc).
    pub(crate) fn getattr_with_default(
        &self,
        obj: &Value,
        name: &str,
        st: &State,
    ) -> Option<GetattrDefault> {
        if let Value::Namespace(addr) = obj {
            // A namespace (`argparse.Namespace`, `threading.local()`) has exactly its entries
            // when all of them are known.
            let (items, exact) = st.dict(*addr)?;
            let key = Value::Str(Some(name.into()));
            return if items.iter().any(|(k, _)| *k == key) {
                Some(GetattrDefault::Attribute)
            } else {
                exact.then_some(GetattrDefault::Default)
            };
        }
        let Value::Instance(addr) = obj else {
            return None;
        };
        let Some(Obj::Instance { class, attrs }) = st.heap.get(addr).map(|o| &**o) else {
            return None;
        };
        if attrs.contains_key(OPAQUE) || name.starts_with("__") {
            return None;
        }
        if let Some(b) = attrs.get(name) {
            return (!b.maybe_unbound).then_some(GetattrDefault::Attribute);
        }
        if self.class_attr(*class, name, 0).is_some() {
            return Some(GetattrDefault::Attribute);
        }
        if !self.plain_hierarchy(*class, 0)
            || self.class_attr(*class, "__getattr__", 0).is_some()
            || self.class_attr(*class, "__getattribute__", 0).is_some()
        {
            return None;
        }
        if self.is_torch_module(*class, 0) {
            if MODULE_ATTRS.contains(&name) {
                return None;
            }
            // A child held under that name is an attribute too.
            if let Some(layer) = self.stored_layer(obj, st) {
                match &*layer {
                    Layer::Sequential(_, names) if names.iter().all(|n| &**n != name) => {}
                    Layer::ModuleList(_) => {}
                    Layer::ModuleDict(d) => match st.dict(*d) {
                        Some((items, true))
                            if items.iter().all(
                                |(k, _)| !matches!(k, Value::Str(Some(k)) if &**k == name),
                            ) => {}
                        _ => return None,
                    },
                    _ => return None,
                }
            }
        }
        Some(GetattrDefault::Default)
    }

    /// `hasattr(obj, name)`, where it is certain.
    pub(crate) fn hasattr(&self, obj: &Value, name: &str, st: &State) -> Option<bool> {
        if crate::interp::expr::plain_lacks(obj, name) {
            return Some(false);
        }
        match self.getattr_with_default(obj, name, st)? {
            GetattrDefault::Attribute => Some(true),
            GetattrDefault::Default => Some(false),
        }
    }

    /// Are `class` and its bases the program's own (no metaclass), `object`, or torch's
    /// module and containers?
    fn plain_hierarchy(&self, class: u32, depth: usize) -> bool {
        depth <= 16
            && !self.class_is_meta(class)
            && self.class_bases(class).iter().all(|b| match b {
                Value::Class(b) => self.plain_hierarchy(*b, depth + 1),
                Value::Builtin(super::value::Builtin::Object) => true,
                Value::TorchFunc(t) => TORCH_BASES.contains(t),
                _ => false,
            })
    }
}

/// What a `getattr` with a default reads.
pub(crate) enum GetattrDefault {
    /// The attribute (the object or its class has it).
    Attribute,
    /// The default (it has none).
    Default,
}
