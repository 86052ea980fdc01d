//! Library model: `dataclasses.replace(obj, **changes)` and `dataclasses.asdict(obj)`.
//!
//! **Trigger:** `dataclasses.replace(obj, name=value, ...)` / `dataclasses.asdict(obj)` (or the
//! names imported from `dataclasses`) on an instance of a `@dataclass` (or a named tuple) of
//! the program.
//!
//! **Result:** `replace`: a new instance of the same class, made as Python makes it — the class
//! called with every field's current value, the named ones changed, so `__post_init__` runs
//! again. Unknown when the object is not such an instance, when a change names no field
//! (Python's `TypeError`) or when the changes are unknown (`**kwargs` of unknown keys).
//! `asdict`: a dict of the fields in order (a field holding another object, which `asdict`
//! would convert in turn, is unknown); the object itself is not changed.
//!
//! **Why:** configuration dataclasses are copied with a change per model variant (timm's
//! `replace(cfg, embed_dim=...)`, a default config specialised per size); left unknown, every
//! size read from the copy was unknown, and with it the model built from it.
//!
//! ```python
//! @dataclass
//! class Cfg:
//!     width: int = 64
//!     classes: int = 10
//!
//! cfg = dataclasses.replace(Cfg(), width=32)
//! nn.Linear(cfg.width, cfg.classes)(torch.zeros(2, 64))  # W520 ... (2x64 and 32x10)
//! ```
use ruff_text_size::TextRange;

use super::Interp;
use super::call::Args;
use super::state::{Obj, State};
use super::value::{Builtin, Value};

/// Attribute `attr` of the module `dataclasses`.
pub(crate) fn attribute(attr: &str) -> Value {
    match attr {
        "replace" => Value::Builtin(Builtin::DataclassReplace),
        "asdict" => Value::Builtin(Builtin::DataclassAsdict),
        _ => Value::Top,
    }
}

impl Interp<'_> {
    /// `dataclasses.asdict(obj)`.
    pub(crate) fn dataclass_asdict(
        &mut self,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let (Some(Value::Instance(addr)), 1, false) =
            (args.pos.first(), args.pos.len(), args.unknown)
        else {
            return Value::Top;
        };
        let Some(c) = self.instance_class(st, *addr) else {
            return Value::Top;
        };
        let Some(fields) = self.classes[c as usize].fields.clone() else {
            return Value::Top;
        };
        let Some(Obj::Instance { attrs, .. }) = st.heap.get(addr).map(|o| &**o) else {
            return Value::Top;
        };
        let items = fields
            .iter()
            .map(|f| {
                let v = match attrs.get(f).map(|b| &b.value) {
                    Some(Value::Instance(_) | Value::List(_) | Value::Dict(_)) | None => Value::Top,
                    Some(v) => v.clone(),
                };
                (Value::Str(Some(f.clone())), v)
            })
            .collect();
        self.alloc_dict(items, true, range.start(), st)
    }

    /// `dataclasses.replace(obj, **changes)`.
    pub(crate) fn dataclass_replace(
        &mut self,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let (Some(Value::Instance(addr)), false) = (args.pos.first(), args.unknown) else {
            return Value::Top;
        };
        if args.pos.len() != 1 {
            return Value::Top;
        }
        let Some(c) = self.instance_class(st, *addr) else {
            return Value::Top;
        };
        let Some(fields) = self.classes[c as usize].fields.clone() else {
            return Value::Top;
        };
        if args.kw.iter().any(|(k, _)| !fields.contains(k)) {
            return Value::Top;
        }
        let Some(Obj::Instance { attrs, .. }) = st.heap.get(addr).map(|o| &**o) else {
            return Value::Top;
        };
        let kw: Vec<_> = fields
            .iter()
            .map(|f| {
                let v = args
                    .kw(f)
                    .cloned()
                    .or_else(|| attrs.get(f).map(|b| b.value.clone()))
                    .unwrap_or(Value::Top);
                (f.clone(), v)
            })
            .collect();
        let call = Args {
            pos: Vec::new(),
            kw,
            unknown: false,
        };
        self.call_value(&Value::Class(c), call, range, st)
    }
}
