//! Library model `argparse`: a program's command-line options are their defaults.
//!
//! **Trigger:** `argparse.ArgumentParser(...)`; on the parser (and on the groups it hands out,
//! `add_argument_group` / `add_mutually_exclusive_group`, which share its options)
//! `add_argument(...)` and `set_defaults(...)`; then `parse_args()` or `parse_known_args()`
//! with no explicit argument list.
//!
//! **Result:** a namespace ([`Value::Namespace`]) whose attributes are the options' defaults as
//! argparse computes them: `dest` from the first long option (`--latent-dim` → `latent_dim`),
//! else the first short one, else the positional name, or `dest=`; `default=` converted by
//! `type=` when it is a string (`type=int, default="64"` is `64`), `False` for
//! `action="store_true"` (`True` for `store_false`), `None` for an option without a default, and
//! unknown for a positional argument or `required=True` (the command line must give them).
//! `argparse.Namespace(name=value, ...)` written out (a driver's or a notebook's options) is
//! the same namespace, its attributes the keywords. `args.x = v` sets an attribute; anything the model cannot follow (an option list it cannot
//! read, a namespace handed to a library) leaves that attribute, or all of them, unknown.
//!
//! **Why:** training scripts take every size from the command line (`nn.Linear(opt.latent_dim,
//! 128)`, `torch.randn(opt.batch_size, opt.latent_dim)`): without the defaults every layer and
//! batch is unknown and the whole program goes dark. The defaults are the configuration the
//! script documents and runs with when given no options; a shape error there is a bug of the
//! program as written (other command lines are other programs).
//!
//! ```python
//! parser = argparse.ArgumentParser()
//! parser.add_argument("--latent_dim", type=int, default=100)
//! opt = parser.parse_args()
//! z = torch.randn(64, opt.latent_dim + 1)
//! nn.Linear(opt.latent_dim, 128)(z)   # E: mat1 and mat2 shapes cannot be multiplied (64x101 and 100x128)
//! ```
use std::sync::Arc;

use ruff_text_size::TextRange;

use super::Interp;
use super::call::Args;
use super::state::{Obj, State};
use super::value::{Builtin, Value};

/// Methods of a parser that return the parser itself (for the options they add).
const GROUPS: &[&str] = &["add_argument_group", "add_mutually_exclusive_group"];

impl Interp<'_> {
    /// `argparse.ArgumentParser(...)`: a parser with no options yet.
    pub(crate) fn new_arg_parser(&mut self, range: TextRange, st: &mut State) -> Value {
        let addr = self.heap_addr(u32::from(range.start()));
        st.insert_obj(
            addr,
            Obj::Dict {
                items: Vec::new(),
                exact: true,
            },
        );
        Value::ArgParser(addr)
    }

    /// `argparse.Namespace(**kwargs)`: a namespace whose attributes are the keywords (all of
    /// them known unless some come from a `**mapping` the analysis cannot read).
    pub(crate) fn new_namespace(&mut self, args: &Args, range: TextRange, st: &mut State) -> Value {
        if !args.pos.is_empty() {
            return Value::Top;
        }
        let mut items = Vec::new();
        for (k, v) in &args.kw {
            set(&mut items, k.clone(), v.clone());
        }
        let addr = self.heap_addr(u32::from(range.start()));
        st.insert_obj(
            addr,
            Obj::Dict {
                items,
                exact: !args.unknown,
            },
        );
        Value::Namespace(addr)
    }

    /// A method of a parser (`Value::ArgParser`).
    pub(crate) fn call_arg_parser_method(
        &mut self,
        recv: &Value,
        name: &str,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let Value::ArgParser(addr) = recv else {
            return Value::Top;
        };
        let addr = *addr;
        let Some((mut items, mut exact)) = st.dict(addr) else {
            return Value::Top;
        };
        match name {
            "add_argument" => {
                match option(args) {
                    Some((dest, default)) => set(&mut items, dest, default),
                    None => exact = false,
                }
                st.insert_obj(addr, Obj::Dict { items, exact });
                Value::Top
            }
            "set_defaults" => {
                if args.unknown || !args.pos.is_empty() {
                    exact = false;
                }
                for (k, v) in &args.kw {
                    set(&mut items, k.clone(), v.clone());
                }
                st.insert_obj(addr, Obj::Dict { items, exact });
                Value::None
            }
            _ if GROUPS.contains(&name) => recv.clone(),
            "parse_args" | "parse_known_args" => {
                // An explicit argument list other than an empty one: not the defaults.
                let given = args.get(0, "args");
                if args.unknown || given.is_some_and(|a| !empty_list(a, st)) {
                    return Value::Top;
                }
                let ns = self.heap_addr(u32::from(range.start()));
                st.insert_obj(ns, Obj::Dict { items, exact });
                let ns = Value::Namespace(ns);
                if name == "parse_known_args" {
                    let rest = self.alloc_list(
                        super::value::Seq::Exact(Vec::new().into()),
                        range.end(),
                        st,
                    );
                    Value::Tuple(super::value::Seq::Exact(vec![ns, rest].into()))
                } else {
                    ns
                }
            }
            _ => Value::Top,
        }
    }
}

/// `args.device = ...`: the option's value from now on.
pub(crate) fn set_option(st: &mut State, ns: super::value::Addr, attr: &str, v: Value) {
    if let Some((mut items, exact)) = st.dict(ns) {
        set(&mut items, attr.into(), v);
        st.insert_obj(ns, Obj::Dict { items, exact });
    }
}

fn empty_list(v: &Value, st: &State) -> bool {
    match v {
        Value::None => true,
        Value::List(a) => {
            matches!(st.list(*a), Some(super::value::Seq::Exact(items)) if items.is_empty())
        }
        Value::Tuple(super::value::Seq::Exact(items)) => items.is_empty(),
        _ => false,
    }
}

fn set(items: &mut Vec<(Value, Value)>, dest: Arc<str>, v: Value) {
    let key = Value::Str(Some(dest));
    match items.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = v,
        None => items.push((key, v)),
    }
}

/// The destination and default value of `add_argument(*names, **options)`, as argparse
/// computes them; `None` when the names cannot be read.
fn option(args: &Args) -> Option<(Arc<str>, Value)> {
    if args.unknown {
        return None;
    }
    let names: Vec<Arc<str>> = args
        .pos
        .iter()
        .map(|v| match v {
            Value::Str(Some(s)) => Some(s.clone()),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let first = names.first()?;
    let kw = |k: &str| args.kw.iter().find(|(n, _)| &**n == k).map(|(_, v)| v);
    let positional = !first.starts_with('-');
    let dest: Arc<str> = match kw("dest") {
        Some(Value::Str(Some(d))) => d.clone(),
        Some(_) => return None,
        None if positional => first.clone(),
        None => {
            let long = names.iter().find(|n| n.starts_with("--"));
            let name = long.unwrap_or(first);
            name.trim_start_matches('-').replace('-', "_").into()
        }
    };
    let action = match kw("action") {
        Some(Value::Str(Some(a))) => Some(a.clone()),
        Some(_) => return Some((dest, Value::Top)),
        None => None,
    };
    let required = matches!(kw("required"), Some(Value::Bool(Some(true))))
        || kw("required").is_some_and(|v| !matches!(v, Value::Bool(_)));
    let default = match kw("default") {
        Some(d) => convert(d, kw("type"), kw("nargs")),
        None => match action.as_deref() {
            Some("store_true") => Value::Bool(Some(false)),
            Some("store_false") => Value::Bool(Some(true)),
            _ if positional || required => Value::Top,
            _ => Value::None,
        },
    };
    Some((dest, default))
}

/// argparse converts a string default with the option's `type` (and only a string one).
fn convert(default: &Value, ty: Option<&Value>, nargs: Option<&Value>) -> Value {
    let Value::Str(Some(s)) = default else {
        return default.clone();
    };
    if nargs.is_some() {
        return Value::Top;
    }
    match ty {
        None | Some(Value::Builtin(Builtin::Str)) => default.clone(),
        Some(Value::Builtin(Builtin::Int)) => match s.trim().parse::<i64>() {
            Ok(n) => Value::int(n),
            Err(_) => Value::Top,
        },
        Some(Value::Builtin(Builtin::Float)) => match s.trim().parse::<f64>() {
            Ok(f) => Value::float(f),
            Err(_) => Value::Top,
        },
        Some(_) => Value::Top,
    }
}
