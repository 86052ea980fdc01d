//! Language model: a `dict` subclass whose items are its attributes (`self.__dict__ = self`).
//!
//! **Trigger:** a class deriving from `dict` whose `__init__` hands its arguments to
//! `super().__init__(...)` and then sets `self.__dict__ = self` (the `AttrDict` of many
//! training scripts' configuration).
//!
//! **Result:** `super().__init__(...)` on the `dict` base keeps the items `dict(...)` would
//! make of those arguments; `self.__dict__ = self` then makes each item an attribute
//! (`h.upsample_rates`). When the items are not all known (a dict read from a JSON file), the
//! attributes are unknown, as before. A later write through the mapping side (`h["k"] = v`,
//! `h.update(...)`, `setdefault`, `pop`, `clear`, ...) also leaves every attribute unknown:
//! the analysis does not follow the items and the attributes together.
//!
//! **Why:** a vocoder's generator reads every size from such a configuration object
//! (`h.upsample_initial_channel // (2 ** i)`); without it each size, every layer built from
//! them and the whole generator were unknown.
//!
//! ```python
//! class AttrDict(dict):
//!     def __init__(self, *args, **kwargs):
//!         super().__init__(*args, **kwargs)
//!         self.__dict__ = self
//!
//! h = AttrDict(channels=32, kernel=7)
//! conv = nn.Conv1d(80, h.channels, h.kernel)   # Conv1d(80, 32, 7)
//! ```
use std::sync::Arc;

use ruff_text_size::TextRange;

use super::Interp;
use super::call::Args;
use super::state::{Binding, Obj, State};
use super::value::{Addr, Builtin, Value};

/// Where the items handed to `dict.__init__` are kept on the instance (not a Python name).
const ITEMS: &str = "<dict items>";

/// Marks an instance whose attributes are its items (after `self.__dict__ = self`).
const ATTR_DICT: &str = "<attr dict>";

/// The method name of `super().__init__` bound to a `dict` base.
pub(crate) const DICT_INIT: &str = "<dict init>";

/// `dict`'s methods that change the items.
const MUTATORS: &[&str] = &[
    "update",
    "setdefault",
    "pop",
    "popitem",
    "clear",
    "__setitem__",
    "__delitem__",
    "__ior__",
];

impl Interp<'_> {
    /// `super().__init__(...)` whose base is `dict`: the items it makes, kept on the object.
    pub(crate) fn dict_init(&mut self, recv: &Value, args: Args, range: TextRange, st: &mut State) {
        let Value::Instance(addr) = recv else {
            return;
        };
        let items = if args.unknown {
            Value::Top
        } else {
            self.call_value(&Value::Builtin(Builtin::Dict), args, range, st)
        };
        set_attr(st, *addr, ITEMS, items);
    }

    /// `obj.__dict__ = value`: where `value` is the instance itself and its items are known
    /// string keys, they become its attributes; otherwise its attributes are unknown.
    pub(crate) fn set_instance_dict(&mut self, addr: Addr, value: &Value, st: &mut State) {
        let own = matches!(value, Value::Instance(a) if *a == addr);
        let items = match st.heap.get(&addr).map(|o| &**o) {
            Some(Obj::Instance { attrs, .. }) if own => match attrs.get(ITEMS).map(|b| &b.value) {
                Some(Value::Dict(d)) => st.dict(*d),
                _ => None,
            },
            _ => None,
        };
        let attrs = items.and_then(|(items, exact)| string_items(items, exact));
        match attrs {
            Some(attrs) => {
                for (k, v) in attrs {
                    set_attr(st, addr, &k, v);
                }
                set_attr(st, addr, ATTR_DICT, Value::None);
            }
            None => super::expr::forget_attributes(st, addr),
        }
    }

    /// `h["k"] = v` or `h.update` (any of `dict`'s mutators) on an instance whose attributes
    /// are its items: the attributes are no longer known. Returns whether it was one.
    pub(crate) fn attr_dict_written(
        &self,
        addr: Addr,
        method: Option<&str>,
        st: &mut State,
    ) -> bool {
        let marked = matches!(st.heap.get(&addr).map(|o| &**o),
            Some(Obj::Instance { attrs, .. }) if attrs.contains_key(ATTR_DICT));
        if marked && method.is_none_or(|m| MUTATORS.contains(&m)) {
            super::expr::forget_attributes(st, addr);
            return true;
        }
        false
    }
}

/// A dict's items as attribute names and values: when the dict is exact and every key a known
/// string.
pub(super) fn string_items(
    items: Vec<(Value, Value)>,
    exact: bool,
) -> Option<Vec<(Arc<str>, Value)>> {
    if !exact {
        return None;
    }
    items
        .into_iter()
        .map(|(k, v)| match k {
            Value::Str(Some(k)) => Some((k, v)),
            _ => None,
        })
        .collect()
}

fn set_attr(st: &mut State, addr: Addr, name: &str, value: Value) {
    if let Some(Obj::Instance { attrs, .. }) = st.obj_mut(addr) {
        attrs.insert(
            name.into(),
            Binding {
                value,
                maybe_unbound: false,
            },
        );
    }
}
