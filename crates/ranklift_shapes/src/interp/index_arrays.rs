//! Library model: index arrays whose kind the code shows — boolean masks and integer
//! positions (NumPy and torch).
//!
//! **Trigger:** `a[i]` or `a[i] = v` where `a` is an array or a tensor and the index `i` is an
//! array of known rank written as
//! - a boolean mask: a comparison, `~`, `&`, `|`, `^` of masks, a predicate such as
//!   `np.isnan`/`torch.isfinite`/`np.isin`/`np.logical_and`, `.astype(bool)`/`.bool()`,
//!   anything made with `dtype=bool`;
//! - integer positions: `np.arange`, `argsort`/`argmax`/`argmin`, `np.where(c)[0]`,
//!   `nonzero`, `randint`, …, entries of such an array, `expand_dims`/`reshape`/`[:, None]` of
//!   one, and `+ - * // %` of them with each other or with integers;
//!
//! or a local name the scope binds only to one kind of such expression. Full slices or an
//! ellipsis after it change nothing (`a[mask, :]`, `a[idx, ...]` select as `a[mask]`).
//!
//! **Result:** a mask's shape must equal the leading sizes of `a` (NumPy's and torch's
//! `IndexError` otherwise, at the first axis that differs); it selects one axis of unknown
//! length (how many entries are true) followed by the axes it did not cover. An assignment
//! through a mask that covers every axis takes a 0-d or 1-d value only (NumPy's `TypeError`);
//! otherwise the value must broadcast to the selection. Integer positions of shape `s` select
//! `s + a.shape[1:]` (bounds are not checked: the values are not known).
//!
//! **Why:** the dtype of an array is not tracked, and the two kinds select differently (`a[idx]`
//! with `idx` of shape `(5, 3)` is `(5, 3, 3)` for integers and `(?,)` for a mask over an `a` of
//! shape `(5, 3)`): without knowing which, `a[a > 0]` and `x[ix[:, None] + np.arange(k)]` had no
//! known rank and everything computed from them was dark; a mask built for one array and used
//! on another was never checked.
//!
//! ```python
//! x = np.zeros((5, 3))
//! valid = np.isfinite(x)
//! x[valid].mean()           # shape (?,)
//! x[valid[:4]]              # W510 IndexError: boolean index did not match indexed array ...
//! windows = x[np.arange(4)[:, None] + np.arange(2)]   # shape (4, 2, 3)
//! ```
use ruff_python_ast::{self as ast, CmpOp, Expr, Operator, Stmt, UnaryOp};

use ruff_text_size::TextRange;

use super::state::{FxMap, FxSet, State};
use super::value::Value;
use super::{Exc, Interp};
use crate::numpy::NumpyVersion;
use crate::{Certainty, Dim, Shape};
use std::sync::Arc;

/// Functions and methods whose result is a boolean array of their operand's shape.
const PREDICATES: &[&str] = &[
    "isnan",
    "isinf",
    "isfinite",
    "isclose",
    "isin",
    "in1d",
    "isneginf",
    "isposinf",
    "signbit",
    "iscomplex",
    "isreal",
    "logical_and",
    "logical_or",
    "logical_not",
    "logical_xor",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "equal",
    "not_equal",
    "eq",
    "ne",
    "gt",
    "ge",
    "lt",
    "le",
    "bool",
];

/// What an index array written as `e` holds (see the module doc); `names` are the local names
/// known to hold one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Mask,
    Int,
}

/// Functions and methods whose result is an array of integer positions.
const POSITIONS: &[&str] = &[
    "arange",
    "argsort",
    "argmax",
    "argmin",
    "argpartition",
    "searchsorted",
    "digitize",
    "randint",
    "flatnonzero",
    "argwhere",
    "ravel_multi_index",
    "randperm",
    "multinomial",
];

/// Functions and methods that keep their first operand's values (and so its kind).
const KEEPS_VALUES: &[&str] = &[
    "expand_dims",
    "reshape",
    "ravel",
    "flatten",
    "squeeze",
    "unsqueeze",
    "view",
    "repeat",
    "tile",
    "transpose",
    "copy",
    "clone",
    "long",
    "int",
];

pub(crate) fn kind(e: &Expr, names: &FxMap<Arc<str>, Kind>) -> Option<Kind> {
    match e {
        Expr::Compare(c) => c
            .ops
            .iter()
            .all(|op| {
                matches!(
                    op,
                    CmpOp::Lt | CmpOp::LtE | CmpOp::Gt | CmpOp::GtE | CmpOp::Eq | CmpOp::NotEq
                )
            })
            .then_some(Kind::Mask),
        Expr::UnaryOp(u) if u.op == UnaryOp::Invert => {
            (kind(&u.operand, names) == Some(Kind::Mask)).then_some(Kind::Mask)
        }
        Expr::BinOp(b) => {
            let (l, r) = (kind(&b.left, names), kind(&b.right, names));
            match b.op {
                Operator::BitAnd | Operator::BitOr | Operator::BitXor
                    if l == Some(Kind::Mask) || r == Some(Kind::Mask) =>
                {
                    Some(Kind::Mask)
                }
                Operator::Add
                | Operator::Sub
                | Operator::Mult
                | Operator::FloorDiv
                | Operator::Mod => {
                    let int = |k: Option<Kind>, e: &Expr| {
                        k == Some(Kind::Int)
                            || matches!(e, Expr::NumberLiteral(n) if n.value.is_int())
                    };
                    (int(l, &b.left) && int(r, &b.right) && (l.is_some() || r.is_some()))
                        .then_some(Kind::Int)
                }
                _ => None,
            }
        }
        Expr::Name(n) => names.get(n.id.as_str()).copied(),
        Expr::Named(n) => kind(&n.value, names),
        // The entries of an integer array are integers; `np.where(c)[0]`, `x.nonzero()[0]`
        // are the positions of one axis.
        Expr::Subscript(s) => match kind(&s.value, names) {
            Some(Kind::Int) => Some(Kind::Int),
            _ => match &*s.value {
                Expr::Call(c)
                    if matches!(&*c.func, Expr::Attribute(a)
                        if matches!(a.attr.as_str(), "where" | "nonzero")
                            && (a.attr.as_str() == "nonzero" || c.arguments.args.len() == 1)) =>
                {
                    Some(Kind::Int)
                }
                _ => None,
            },
        },
        Expr::Attribute(a) if a.attr.as_str() == "T" => kind(&a.value, names),
        Expr::Call(c) => {
            let dtype = c.arguments.keywords.iter().find_map(|k| {
                k.arg
                    .as_ref()
                    .is_some_and(|a| a.as_str() == "dtype")
                    .then(|| dtype_kind(&k.value))
                    .flatten()
            });
            if dtype.is_some() {
                return dtype;
            }
            let (name, receiver) = match &*c.func {
                Expr::Attribute(a) => (a.attr.as_str(), Some(&*a.value)),
                Expr::Name(n) => (n.id.as_str(), None),
                _ => return None,
            };
            if PREDICATES.contains(&name) {
                return Some(Kind::Mask);
            }
            if POSITIONS.contains(&name) {
                return Some(Kind::Int);
            }
            if matches!(name, "astype" | "to" | "type") {
                return c.arguments.args.first().and_then(dtype_kind);
            }
            if KEEPS_VALUES.contains(&name) {
                // A method keeps its receiver's values; a function, its first argument's.
                let operand = match receiver {
                    Some(r) if !is_module_name(r) => Some(r),
                    _ => c.arguments.args.first(),
                };
                return operand.and_then(|o| kind(o, names));
            }
            None
        }
        _ => None,
    }
}

/// `np`, `numpy`, `torch` (a module, whose functions take the operand as an argument).
fn is_module_name(e: &Expr) -> bool {
    matches!(e, Expr::Name(n) if matches!(n.id.as_str(), "np" | "numpy" | "torch" | "jnp"))
}

/// The kind a dtype names: `bool`, `np.bool_`, `torch.bool`, `"bool"` a mask; `int`,
/// `np.int64`, `torch.long`, `"int32"`, … integers.
fn dtype_kind(e: &Expr) -> Option<Kind> {
    let name = match e {
        Expr::Name(n) => n.id.as_str(),
        Expr::Attribute(a) => a.attr.as_str(),
        Expr::StringLiteral(s) => s.value.to_str(),
        _ => return None,
    };
    match name {
        "bool" | "bool_" => Some(Kind::Mask),
        "int" | "long" | "intp" | "int_" | "int8" | "int16" | "int32" | "int64" | "uint8"
        | "uint16" | "uint32" | "uint64" => Some(Kind::Int),
        _ => None,
    }
}

/// The names a body (not its nested functions or classes) binds only to index arrays of one
/// kind: every binding is a plain `name = <expr>` (or `name &= <mask>`, `|=`, `^=`, `+=` …)
/// of that kind. The least fixpoint, so that `both = finite & (x > 0)` after
/// `finite = np.isfinite(x)` counts and a cycle does not.
pub(crate) fn index_names(body: &[Stmt], params: &[&str]) -> FxMap<Arc<str>, Kind> {
    let mut bindings: Vec<(&str, Bound)> = params.iter().map(|p| (*p, Bound::Other)).collect();
    collect(body, &mut bindings);
    let mut by_name: FxMap<&str, Vec<Bound>> = FxMap::default();
    let mut other: FxSet<&str> = FxSet::default();
    for (name, value) in bindings {
        match value {
            Bound::Other => {
                other.insert(name);
            }
            v => by_name.entry(name).or_default().push(v),
        }
    }
    by_name.retain(|name, _| !other.contains(name));
    let mut known: FxMap<Arc<str>, Kind> = FxMap::default();
    loop {
        let grown: Vec<(&str, Kind)> = by_name
            .iter()
            .filter_map(|(name, values)| {
                // One binding decides the kind without the name itself; the others may use
                // the name as having it (`ix = ix[ix + k < n]` keeps positions positions).
                let grounded = values.iter().find_map(|v| v.kind(&known))?;
                let mut assumed = known.clone();
                assumed.insert((*name).into(), grounded);
                values
                    .iter()
                    .all(|v| v.kind(&assumed) == Some(grounded))
                    .then_some((*name, grounded))
            })
            .collect();
        if grown.is_empty() {
            return known;
        }
        for (name, k) in grown {
            by_name.remove(name);
            known.insert(name.into(), k);
        }
    }
}

/// How a statement binds a name.
#[derive(Clone, Copy)]
enum Bound<'a> {
    /// `name = value`.
    Plain(&'a Expr),
    /// `name &= value` (also `|=`, `^=`): a mask stays a mask with a mask.
    Logical(&'a Expr),
    /// `name += value` (also `-=`, `*=`): integers stay integers with integers.
    Arithmetic(&'a Expr),
    /// Any other way (a parameter, unpacking, a loop target, an import, ...).
    Other,
}

impl Bound<'_> {
    fn kind(&self, known: &FxMap<Arc<str>, Kind>) -> Option<Kind> {
        match self {
            Bound::Plain(e) => kind(e, known),
            Bound::Logical(e) => (kind(e, known) == Some(Kind::Mask)).then_some(Kind::Mask),
            Bound::Arithmetic(e) => (kind(e, known) == Some(Kind::Int)
                || matches!(e, Expr::NumberLiteral(n) if n.value.is_int()))
            .then_some(Kind::Int),
            Bound::Other => None,
        }
    }
}

/// Every binding of a name in `body`.
fn collect<'a>(body: &'a [Stmt], out: &mut Vec<(&'a str, Bound<'a>)>) {
    fn targets<'a>(e: &'a Expr, out: &mut Vec<(&'a str, Bound<'a>)>) {
        match e {
            Expr::Name(n) => out.push((n.id.as_str(), Bound::Other)),
            Expr::Tuple(t) => t.elts.iter().for_each(|x| targets(x, out)),
            Expr::List(t) => t.elts.iter().for_each(|x| targets(x, out)),
            Expr::Starred(s) => targets(&s.value, out),
            _ => {}
        }
    }
    for s in body {
        match s {
            Stmt::Assign(a) => {
                for t in &a.targets {
                    match t {
                        Expr::Name(n) => out.push((n.id.as_str(), Bound::Plain(&a.value))),
                        t => targets(t, out),
                    }
                }
            }
            Stmt::AnnAssign(a) => match (&*a.target, &a.value) {
                (Expr::Name(n), Some(v)) => out.push((n.id.as_str(), Bound::Plain(v))),
                (t, _) => targets(t, out),
            },
            Stmt::AugAssign(a) => match (&*a.target, a.op) {
                (Expr::Name(n), Operator::BitAnd | Operator::BitOr | Operator::BitXor) => {
                    out.push((n.id.as_str(), Bound::Logical(&a.value)));
                }
                (Expr::Name(n), Operator::Add | Operator::Sub | Operator::Mult) => {
                    out.push((n.id.as_str(), Bound::Arithmetic(&a.value)));
                }
                (t, _) => targets(t, out),
            },
            Stmt::For(f) => {
                targets(&f.target, out);
                collect(&f.body, out);
                collect(&f.orelse, out);
            }
            Stmt::While(w) => {
                collect(&w.body, out);
                collect(&w.orelse, out);
            }
            Stmt::If(i) => {
                collect(&i.body, out);
                for c in &i.elif_else_clauses {
                    collect(&c.body, out);
                }
            }
            Stmt::With(w) => {
                for item in &w.items {
                    if let Some(v) = &item.optional_vars {
                        targets(v, out);
                    }
                }
                collect(&w.body, out);
            }
            Stmt::Try(t) => {
                collect(&t.body, out);
                for h in &t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    if let Some(n) = &h.name {
                        out.push((n.as_str(), Bound::Other));
                    }
                    collect(&h.body, out);
                }
                collect(&t.orelse, out);
                collect(&t.finalbody, out);
            }
            Stmt::Match(m) => {
                for c in &m.cases {
                    collect(&c.body, out);
                }
            }
            Stmt::FunctionDef(f) => out.push((f.name.as_str(), Bound::Other)),
            Stmt::ClassDef(c) => out.push((c.name.as_str(), Bound::Other)),
            Stmt::Import(i) => {
                for a in &i.names {
                    let n = a.asname.as_ref().unwrap_or(&a.name);
                    out.push((
                        n.as_str().split('.').next().unwrap_or_default(),
                        Bound::Other,
                    ));
                }
            }
            Stmt::ImportFrom(i) => {
                for a in &i.names {
                    out.push((a.asname.as_ref().unwrap_or(&a.name).as_str(), Bound::Other));
                }
            }
            Stmt::Delete(d) => d.targets.iter().for_each(|t| targets(t, out)),
            _ => {}
        }
    }
}

/// What indexing with a mask of shape `mask` selects from `dims`: the shape, or the error
/// NumPy (`tensor == false`) or torch raises.
pub(crate) fn select(
    dims: &[Dim],
    mask: &[Dim],
    tensor: bool,
    numpy: NumpyVersion,
) -> Result<Shape, (&'static str, String)> {
    if mask.len() > dims.len() {
        return Err((
            "W510",
            if tensor {
                format!("too many indices for tensor of dimension {}", dims.len())
            } else {
                format!(
                    "too many indices for array: array is {}-dimensional, but {} were indexed",
                    dims.len(),
                    mask.len()
                )
            },
        ));
    }
    for (i, (m, d)) in mask.iter().zip(dims).enumerate() {
        if let (Some(m), Some(d)) = (m.known(), d.known())
            && m != d
        {
            let message = if tensor {
                format!(
                    "The shape of the mask {} at index {i} does not match the shape of the indexed tensor {} at index {i}",
                    torch_list(mask),
                    torch_list(dims)
                )
            } else if numpy == NumpyVersion::V1 {
                format!(
                    "boolean index did not match indexed array along dimension {i}; dimension is {d} but corresponding boolean dimension is {m}"
                )
            } else {
                format!(
                    "boolean index did not match indexed array along axis {i}; size of axis is {d} but size of corresponding boolean axis is {m}"
                )
            };
            return Err(("W510", message));
        }
    }
    let mut out = vec![Dim::Unknown];
    out.extend_from_slice(&dims[mask.len()..]);
    Ok(Shape::Known(out))
}

/// `[5, 3]`, as torch prints a size in its messages (unknown sizes as `?`).
fn torch_list(d: &[Dim]) -> String {
    let parts: Vec<String> = d
        .iter()
        .map(|x| x.known().map_or("?".to_owned(), |n| n.to_string()))
        .collect();
    format!("[{}]", parts.join(", "))
}

/// `a[mask] = value` with a mask over every axis of `a`: NumPy takes a 0-d or 1-d value only.
pub(crate) fn full_mask_value_error(value: &[Dim]) -> Option<(Certainty, String)> {
    (value.len() > 1).then(|| {
        (
            Certainty::Certain,
            format!(
                "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has {} dimensions",
                value.len()
            ),
        )
    })
}

/// `a[mask, :]`, `a[idx, ...]`: an index array followed only by full slices or an ellipsis
/// selects as the index array alone; the array's expression and value, else `index` and `idx`.
fn lone_index_array<'e, 'v>(index: &'e Expr, idx: &'v Value) -> (&'e Expr, &'v Value) {
    if let (Expr::Tuple(t), Value::Tuple(super::value::Seq::Exact(items))) = (index, idx)
        && t.elts.len() == items.len()
        && t.elts.len() >= 2
        && t.elts[1..].iter().all(|e| match e {
            Expr::Slice(s) => s.lower.is_none() && s.upper.is_none() && s.step.is_none(),
            Expr::EllipsisLiteral(_) => true,
            _ => false,
        })
    {
        return (&t.elts[0], &items[0]);
    }
    (index, idx)
}

impl Interp<'_> {
    /// What kind of index array `index` (the expression between the brackets) is here.
    fn index_kind(&self, index: &Expr) -> Option<Kind> {
        let scope = match self.cur_func {
            Some(f) => Some(self.funcs[f as usize].scope.clone()),
            None => self.module_scopes[self.cur_module as usize].clone(),
        };
        let empty = FxMap::default();
        kind(index, scope.as_ref().map_or(&empty, |s| &s.index_arrays))
    }

    /// The selection `obj[index]` makes when `index` is an index array of a known kind and
    /// rank over an array or tensor of known rank, or the error it raises (reported here).
    fn index_array_selection(
        &mut self,
        dims: &[Dim],
        idx: &Value,
        index: &Expr,
        tensor: bool,
        range: TextRange,
    ) -> Option<Result<(Kind, Shape), ()>> {
        let positions = match idx {
            Value::Array(m) | Value::Tensor(m) => m.dims()?,
            _ => return None,
        };
        let kind = self.index_kind(index)?;
        let selected = match kind {
            Kind::Mask => select(dims, positions, tensor, self.config.numpy),
            Kind::Int if dims.is_empty() => return None,
            Kind::Int => {
                let mut out = positions.to_vec();
                out.extend_from_slice(&dims[1..]);
                Ok(Shape::Known(out))
            }
        };
        Some(match selected {
            Ok(s) => Ok((kind, s)),
            Err((code, message)) => {
                self.report(range, code, Exc::Index, message, Certainty::Certain);
                Err(())
            }
        })
    }

    /// `obj[index]` through an index array of a known kind (see the module doc); `None` to
    /// leave it to plain indexing.
    pub(crate) fn index_array_get(
        &mut self,
        obj: &Value,
        idx: &Value,
        index: &Expr,
        range: TextRange,
    ) -> Option<Value> {
        let (dims, tensor) = match obj {
            Value::Array(s) => (s.dims()?, false),
            Value::Tensor(s) => (s.dims()?, true),
            _ => return None,
        };
        let (index, idx) = lone_index_array(index, idx);
        let shape = match self.index_array_selection(dims, idx, index, tensor, range)? {
            Ok((_, s)) => s,
            Err(()) => Shape::AnyRank,
        };
        Some(if tensor {
            Value::Tensor(shape)
        } else {
            Value::Array(shape)
        })
    }

    /// `obj[index] = value` through an index array of a known kind: `Some(())` when checked
    /// (and reported) here, `None` to leave it to plain indexing.
    pub(crate) fn index_array_set(
        &mut self,
        obj: &Value,
        idx: &Value,
        index: &Expr,
        value: &Value,
        range: TextRange,
        st: &State,
    ) -> Option<()> {
        let Value::Array(s) = obj else { return None };
        let dims = s.dims()?;
        let (index, idx) = lone_index_array(index, idx);
        let (kind, target) = match self.index_array_selection(dims, idx, index, false, range)? {
            Ok(t) => t,
            Err(()) => return Some(()),
        };
        let heap = |a| st.list(a);
        let Some(v) = value.array_shape(&heap) else {
            return Some(());
        };
        let Some(vd) = v.dims() else { return Some(()) };
        let seq = matches!(value, Value::List(_) | Value::Tuple(_));
        if kind == Kind::Mask && target.rank() == Some(1) {
            if let Some((c, m)) = full_mask_value_error(vd)
                && !seq
            {
                self.report(range, "W502", Exc::Type, m, c);
            }
            return Some(());
        }
        // Otherwise the value broadcasts into the selection, as for any advanced index.
        self.check_setitem(&v, &target, seq, true, range);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ranklift_python::parse::ParsedModule;
    use ranklift_python::source::SourceFile;

    fn parse(text: &str) -> ParsedModule {
        let file = SourceFile::from_bytes(std::path::Path::new("m.py"), text.as_bytes()).unwrap();
        ParsedModule::parse(file, "m.py").unwrap()
    }

    fn kinds(src: &str) -> Vec<String> {
        let m = parse(src);
        let mut v: Vec<String> = index_names(m.suite(), &[])
            .iter()
            .map(|(s, k)| format!("{s}: {k:?}"))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn names_bound_only_to_one_kind_have_that_kind() {
        let src = "finite = np.isfinite(x)\nboth = finite & (x > 0)\nboth |= y < 1\n\
                   idx = np.argsort(x)\nflag = x > 0\nflag = compute()\n\
                   a = b\nb = a\nm: np.ndarray = x.astype(bool)\nfor k in ks:\n    k2 = ~finite\n\
                   ix = np.where(c == 1)[0]\nix = ix[ix + 2 < n]\nwin = np.expand_dims(ix, axis=1) + np.arange(3)\n\
                   j = np.arange(4)\nj += 1\nhalf = np.arange(4) * 0.5\nmixed = np.arange(3)\nmixed = x > 0\n";
        assert_eq!(
            kinds(src),
            [
                "both: Mask",
                "finite: Mask",
                "idx: Int",
                "ix: Int",
                "j: Int",
                "k2: Mask",
                "m: Mask",
                "win: Int"
            ]
        );
    }

    #[test]
    fn a_parameter_or_an_unpacked_name_is_not_a_mask() {
        let m = parse("def f(mask):\n    mask = mask > 0\n    a, b = x > 0, y\n");
        let Stmt::FunctionDef(f) = &m.suite()[0] else {
            unreachable!()
        };
        let names = index_names(&f.body, &["mask"]);
        assert!(names.is_empty(), "{names:?}");
    }

    #[test]
    fn the_selection_and_the_errors_numpy_and_torch_raise() {
        let k = |v: &[u64]| v.iter().map(|&n| Dim::Known(n)).collect::<Vec<_>>();
        assert_eq!(
            select(&k(&[5, 3]), &k(&[5]), false, NumpyVersion::V2),
            Ok(Shape::Known(vec![Dim::Unknown, Dim::Known(3)]))
        );
        assert_eq!(
            select(&k(&[5, 3]), &k(&[5, 3]), true, NumpyVersion::V2),
            Ok(Shape::Known(vec![Dim::Unknown]))
        );
        // Messages as NumPy 2.2, NumPy 1.24 and torch 2 print them (run on these machines).
        assert_eq!(
            select(&k(&[5, 3]), &k(&[4]), false, NumpyVersion::V2)
                .unwrap_err()
                .1,
            "boolean index did not match indexed array along axis 0; size of axis is 5 but size of corresponding boolean axis is 4"
        );
        assert_eq!(
            select(&k(&[5, 3]), &k(&[5, 2]), false, NumpyVersion::V1)
                .unwrap_err()
                .1,
            "boolean index did not match indexed array along dimension 1; dimension is 3 but corresponding boolean dimension is 2"
        );
        assert_eq!(
            select(&k(&[5, 3]), &k(&[4]), true, NumpyVersion::V2)
                .unwrap_err()
                .1,
            "The shape of the mask [4] at index 0 does not match the shape of the indexed tensor [5, 3] at index 0"
        );
        assert_eq!(
            select(&k(&[5, 3]), &k(&[5, 3, 2]), true, NumpyVersion::V2)
                .unwrap_err()
                .1,
            "too many indices for tensor of dimension 2"
        );
    }
}
