//! Shape hints.
//!
//! - Pytropos' form: `from pytropos.hints.numpy import NdArray` (or `ranklift.hints`), then
//!   `x: NdArray[2, 3] = ...`; `ranklift.hints.Tensor[...]` is the same for PyTorch tensors; `NdArray[int, 2]` leaves a dimension unknown, `NdArray[()]` is a
//!   scalar array, and a string names a dimension: `NdArray["n", 3]`.
//! - `typing.Annotated`: `x: Annotated[np.ndarray, (2, 3)]` or `Annotated[np.ndarray, "n 3"]`
//!   (or `torch.Tensor`; any other first argument is not a shape hint);
//! - jaxtyping: `Float[Tensor, "b 3 h w"]`, `Int[np.ndarray, "n"]` (W303 on a contradiction).
//!
//! **Semantics** (as in Pytropos): a hint refines the computed value when it is more precise
//! (or the value is unknown); a hint that contradicts the computed shape is reported (W301) and
//! the computed value is kept; a dimension that is not a natural number is W302
//! (`NdArray[3, float]`). On a parameter, a hint gives the shape of an argument the analysis
//! does not know (for example when the function is never called in the file).
//!
//! ```python
//! mat: NdArray[1, 12, 6, 7] = np.array(amatrix)   # amatrix unknown: mat is (1,12,6,7)
//! e: NdArray[2, 5] = np.zeros((2, 1))              # W301
//! ```

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};

use std::sync::Arc;

use super::state::{FxMap, State};
use super::value::{Builtin, Int, Seq, Value};
use super::{Exc, Interp};
use crate::{Certainty, Dim, Shape, Tri};

/// What a hint says.
enum Hint {
    Array(Shape),
    /// A PyTorch tensor's shape (`Float[Tensor, "b c"]`, `Annotated[torch.Tensor, "b c"]`).
    Tensor(Shape),
    Int,
    Float,
    /// A hint this analysis does not read.
    Other,
}

impl<'a> Interp<'a> {
    /// Resolve a name or dotted name in an annotation without reporting undefined names.
    fn hint_head(&self, e: &Expr, st: &State) -> Option<Value> {
        match e {
            Expr::Name(n) => {
                let name = n.id.as_str();
                match st.lookup_value(name) {
                    Some(v) => Some(v.clone()),
                    None => match name {
                        "int" => Some(Value::Builtin(Builtin::Int)),
                        "float" => Some(Value::Builtin(Builtin::Float)),
                        _ => None,
                    },
                }
            }
            Expr::Attribute(a) => match (self.hint_head(&a.value, st)?, a.attr.as_str()) {
                (Value::Module(super::value::ModRef::Hints), "NdArray") => {
                    Some(Value::Builtin(Builtin::NdArray))
                }
                (Value::Module(super::value::ModRef::Hints), "Tensor") => {
                    Some(Value::Builtin(Builtin::TensorHint))
                }
                (Value::Module(super::value::ModRef::Typing), "Annotated") => {
                    Some(Value::Builtin(Builtin::Annotated))
                }
                (Value::Module(super::value::ModRef::Jaxtyping), a) if jax_dtype(a) => {
                    Some(Value::Builtin(Builtin::JaxDtype))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Read a hint; `Err` carries the W302 message for a malformed one.
    fn read_hint(&mut self, ann: &Expr, st: &State, scope: &str) -> Result<Hint, String> {
        match ann {
            Expr::Subscript(s) => match self.hint_head(&s.value, st) {
                Some(Value::Builtin(b @ (Builtin::NdArray | Builtin::TensorHint))) => {
                    let items: Vec<&Expr> = match &*s.slice {
                        Expr::Tuple(t) => t.elts.iter().collect(),
                        e => vec![e],
                    };
                    let mut dims = Vec::new();
                    for item in items {
                        dims.push(self.hint_dim(item, st, scope)?);
                    }
                    Ok(if b == Builtin::TensorHint {
                        Hint::Tensor(Shape::Known(dims))
                    } else {
                        Hint::Array(Shape::Known(dims))
                    })
                }
                // `Float[Tensor, "batch 3 h w"]`: jaxtyping's shape string.
                Some(Value::Builtin(Builtin::JaxDtype)) => {
                    let Expr::Tuple(t) = &*s.slice else {
                        return Ok(Hint::Other);
                    };
                    let (Some(kind), Some(Expr::StringLiteral(spec))) =
                        (t.elts.first().and_then(array_kind), t.elts.get(1))
                    else {
                        return Ok(Hint::Other);
                    };
                    let shape = self.jax_shape(spec.value.to_str(), st, scope);
                    Ok(kind.hint(shape))
                }
                Some(Value::Builtin(Builtin::Annotated)) => {
                    let Expr::Tuple(t) = &*s.slice else {
                        return Ok(Hint::Other);
                    };
                    // Only an array type's metadata is a shape: `Annotated[Grid, (100, 360)]`
                    // says something about a `Grid`, which the analysis does not read.
                    let Some(kind) = t.elts.first().and_then(array_kind) else {
                        return Ok(Hint::Other);
                    };
                    let hint: Result<Hint, String> = match t.elts.get(1) {
                        Some(Expr::StringLiteral(spec)) => {
                            let dims = spec
                                .value
                                .to_str()
                                .split([' ', ','])
                                .filter(|w| !w.is_empty())
                                .map(|w| match w.parse::<u64>() {
                                    Ok(k) => Ok(Dim::Known(k)),
                                    Err(_) if w.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                                        Ok(self.named_dim(w, st, scope))
                                    }
                                    Err(_) => Err(format!(
                                        "hint dimension `{w}` is neither a natural number nor a name"
                                    )),
                                })
                                .collect::<Result<Vec<_>, _>>()?;
                            Ok(Hint::Array(Shape::Known(dims)))
                        }
                        Some(Expr::Tuple(dims)) => {
                            let mut out = Vec::new();
                            for d in &dims.elts {
                                out.push(self.hint_dim(d, st, scope)?);
                            }
                            Ok(Hint::Array(Shape::Known(out)))
                        }
                        _ => Ok(Hint::Other),
                    };
                    Ok(match hint? {
                        Hint::Array(shape) => kind.hint(shape),
                        h => h,
                    })
                }
                _ => Ok(Hint::Other),
            },
            Expr::Name(n) if n.id.as_str() == "int" => Ok(Hint::Int),
            Expr::Name(n) if n.id.as_str() == "float" => Ok(Hint::Float),
            _ => Ok(Hint::Other),
        }
    }

    fn hint_dim(&mut self, e: &Expr, st: &State, scope: &str) -> Result<Dim, String> {
        match e {
            Expr::NumberLiteral(ast::ExprNumberLiteral {
                value: ast::Number::Int(i),
                ..
            }) => i
                .as_u64()
                .map(Dim::Known)
                .ok_or_else(|| format!("hint dimension `{i}` is not a natural number")),
            Expr::NumberLiteral(n) => Err(format!(
                "hint dimension `{}` is not a natural number",
                match &n.value {
                    ast::Number::Float(f) => f.to_string(),
                    _ => "complex".to_owned(),
                }
            )),
            Expr::Tuple(t) if t.elts.is_empty() => Err(String::new()),
            Expr::StringLiteral(s) => Ok(self.named_dim(s.value.to_str(), st, scope)),
            Expr::Name(n) => match n.id.as_str() {
                "int" => Ok(Dim::Unknown),
                "float" | "bool" | "complex" | "str" => {
                    Err(format!("hint dimension `{}` is not a natural number", n.id))
                }
                name => match self.hint_head(e, st) {
                    Some(Value::Int(i)) if !i.is_negative() => Ok(i.as_dim()),
                    _ => Ok(Dim::Sym(format!("{name}#{scope}").into())),
                },
            },
            _ => Ok(Dim::Unknown),
        }
    }

    /// A dimension named in a hint: the value of the variable of that name when it holds an
    /// int (so `"n 3"` agrees with `np.zeros((n, 3))`), else a symbol of the hint's own.
    fn named_dim(&self, name: &str, st: &State, scope: &str) -> Dim {
        match st.lookup_value(name) {
            Some(Value::Int(i)) if !i.is_negative() => i.as_dim(),
            _ => Dim::Sym(format!("{name}#{scope}").into()),
        }
    }

    /// `x: H = v`: refine `v` by the hint, or report a contradiction.
    pub(crate) fn apply_hint(
        &mut self,
        ann: &'a Expr,
        v: Value,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let scope = format!("h{}", u32::from(ann.start()));
        let hint = match self.read_hint(ann, st, &scope) {
            Ok(h) => h,
            // `NdArray[()]`: a scalar array.
            Err(m) if m.is_empty() => Hint::Array(Shape::Known(vec![])),
            Err(m) => {
                self.report(range, "W302", Exc::Hint, m, Certainty::Certain);
                return v;
            }
        };
        match hint {
            Hint::Tensor(h) => match &v {
                Value::Top => Value::Tensor(h),
                Value::Tensor(s) if refines(&h, s) => Value::Tensor(h),
                Value::Tensor(s)
                    if s.dims().is_none() || unify(&h, s, &mut FxMap::default()).is_ok() =>
                {
                    v
                }
                Value::Tensor(s) => {
                    self.report(
                        range,
                        "W303",
                        Exc::Hint,
                        format!("the value has shape {s}, but its annotation says {h}"),
                        Certainty::Certain,
                    );
                    v
                }
                _ => v,
            },
            Hint::Array(h) => match &v {
                Value::Top => Value::Array(h),
                Value::Array(s) if refines(&h, s) => Value::Array(h),
                _ => {
                    let shown = |v: &Value| match v {
                        Value::Array(s) => format!("array(shape={s})"),
                        v => v.type_name().unwrap_or("object").to_owned(),
                    };
                    let (hs, vs) = (format!("array(shape={h})"), shown(&v));
                    self.report(
                        range,
                        "W301",
                        Exc::Hint,
                        format!(
                            "Type {hs} is NOT more specific than type {vs}. Incompatible types in assignment (expression has type {vs}, variable has type {hs})"
                        ),
                        Certainty::Certain,
                    );
                    v
                }
            },
            Hint::Int if v == Value::Top => Value::Int(Int::ANY),
            Hint::Float if v == Value::Top => Value::Float(None),
            _ => v,
        }
    }

    /// The shape hint of a parameter or a return annotation, read in the function's scope (the
    /// names in all of one function's hints are the same sizes, as jaxtyping binds them per
    /// call).
    pub(crate) fn shape_hint(
        &mut self,
        ann: &Expr,
        func_scope: &str,
        module: u32,
        st: &State,
    ) -> Option<(bool, Shape)> {
        let saved = self.cur_module;
        self.cur_module = module;
        let hint = self.read_hint(ann, st, func_scope);
        self.cur_module = saved;
        match hint {
            Ok(Hint::Array(h)) => Some((false, h)),
            Ok(Hint::Tensor(h)) => Some((true, h)),
            _ => None,
        }
    }

    /// A parameter's hint: gives the shape of an unknown argument, and checks a known one
    /// (the sizes it names are bound in `bound`: a second parameter naming `b` must agree).
    /// `Err` is the contradiction's message.
    pub(crate) fn param_hint(
        &mut self,
        ann: &Expr,
        v: Value,
        (func_scope, module): (&str, u32),
        bound: &mut FxMap<Arc<str>, Dim>,
        st: &State,
    ) -> Result<Value, (Value, String)> {
        let Some((is_tensor, h)) = self.shape_hint(ann, func_scope, module, st) else {
            // An `int` annotation is not checked at run time and is sometimes wrong (pylops'
            // `nr: int` takes a tuple, as its docstring says): it does not make the argument
            // an int, which would turn `nr[0]` into a certain TypeError.
            return Ok(v);
        };
        let written = h.clone();
        let h = substitute(&h, bound);
        let wrap = |s: Shape| {
            if is_tensor {
                Value::Tensor(s)
            } else {
                Value::Array(s)
            }
        };
        match (&v, is_tensor) {
            (Value::Top, _) => Ok(wrap(h)),
            (Value::Array(s), false) | (Value::Tensor(s), true) => match unify(&h, s, bound) {
                Ok(refined) => Ok(wrap(refined)),
                Err(()) => Err((
                    v.clone(),
                    format!(
                        "has shape {s}, but its annotation says {written}{}",
                        bindings(&written, bound)
                    ),
                )),
            },
            _ => Ok(v),
        }
    }

    /// A function's result against its return annotation; `Some(message)` on a contradiction.
    pub(crate) fn check_return_hint(
        &mut self,
        ann: &Expr,
        ret: &Value,
        (func_scope, module): (&str, u32),
        bound: &mut FxMap<Arc<str>, Dim>,
        st: &State,
    ) -> Option<String> {
        let (is_tensor, h) = self.shape_hint(ann, func_scope, module, st)?;
        let s = match (ret, is_tensor) {
            (Value::Array(s), false) | (Value::Tensor(s), true) => s,
            _ => return None,
        };
        let written = h.clone();
        let h = substitute(&h, bound);
        unify(&h, s, bound).is_err().then(|| {
            format!(
                "returns shape {s}, but its annotation says {written}{}",
                bindings(&written, bound)
            )
        })
    }

    /// jaxtyping's shape string: `"batch 3 h w"`; `_` and `#b` (broadcastable) are unchecked,
    /// a `...` or `*rest` leaves the rank unknown, an expression (`"n+1"`) is unknown.
    fn jax_shape(&self, spec: &str, st: &State, scope: &str) -> Shape {
        let mut dims = Vec::new();
        for w in spec.split_whitespace() {
            if w == "..." || w.starts_with('*') {
                return Shape::AnyRank;
            }
            let w = w.strip_prefix("?").unwrap_or(w);
            dims.push(match w.parse::<u64>() {
                Ok(k) => Dim::Known(k),
                Err(_) if w.starts_with('_') || w.starts_with('#') => Dim::Unknown,
                Err(_) if w.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                    let name = w.split('=').next().unwrap_or(w);
                    self.named_dim(name, st, scope)
                }
                Err(_) => Dim::Unknown,
            });
        }
        Shape::Known(dims)
    }
}

/// jaxtyping's dtype names (`Float[...]`, `Int64[...]`).
pub(crate) fn jax_dtype(name: &str) -> bool {
    matches!(
        name,
        "Shaped"
            | "Num"
            | "Real"
            | "Inexact"
            | "Float"
            | "Complex"
            | "Integer"
            | "Int"
            | "UInt"
            | "Bool"
            | "Key"
            | "BFloat16"
            | "Float16"
            | "Float32"
            | "Float64"
            | "Int8"
            | "Int16"
            | "Int32"
            | "Int64"
            | "UInt8"
            | "UInt16"
            | "UInt32"
            | "UInt64"
            | "Complex64"
            | "Complex128"
    )
}

/// Which array type an annotation names: a PyTorch tensor, a NumPy array, or neither (by the
/// type's own name: `Tensor`, `torch.Tensor`, `np.ndarray`, `npt.NDArray[np.float64]`).
enum ArrayKind {
    Tensor,
    Array,
}

impl ArrayKind {
    fn hint(self, shape: Shape) -> Hint {
        match self {
            ArrayKind::Tensor => Hint::Tensor(shape),
            ArrayKind::Array => Hint::Array(shape),
        }
    }
}

fn array_kind(e: &Expr) -> Option<ArrayKind> {
    let name = match e {
        Expr::Name(n) => n.id.as_str(),
        Expr::Attribute(a) => a.attr.as_str(),
        Expr::Subscript(s) => return array_kind(&s.value),
        _ => return None,
    };
    match name {
        "Tensor" | "FloatTensor" | "LongTensor" => Some(ArrayKind::Tensor),
        "ndarray" | "NDArray" => Some(ArrayKind::Array),
        _ => None,
    }
}

/// ` where b=4, t=7`: the sizes this call bound to the names a hint uses.
fn bindings(h: &Shape, bound: &FxMap<Arc<str>, Dim>) -> String {
    let Some(d) = h.dims() else {
        return String::new();
    };
    let mut parts: Vec<String> = Vec::new();
    for x in d {
        if let Dim::Sym(n) = x
            && let Some(v) = bound.get(n)
        {
            let p = format!("{x}={v}");
            if !parts.contains(&p) {
                parts.push(p);
            }
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" where {}", parts.join(", "))
    }
}

/// `h` with the sizes bound so far in place of their names.
fn substitute(h: &Shape, bound: &FxMap<Arc<str>, Dim>) -> Shape {
    match h.dims() {
        Some(d) => Shape::Known(
            d.iter()
                .map(|x| match x {
                    Dim::Sym(n) => bound.get(n).cloned().unwrap_or_else(|| x.clone()),
                    x => x.clone(),
                })
                .collect(),
        ),
        None => h.clone(),
    }
}

/// The value `s` against the hint `h`: the refined shape (the hint's sizes where the value's
/// are unknown; its names bound to the value's sizes), or `Err` when they certainly differ.
fn unify(h: &Shape, s: &Shape, bound: &mut FxMap<Arc<str>, Dim>) -> Result<Shape, ()> {
    let (Some(hd), Some(sd)) = (h.dims(), s.dims()) else {
        return Ok(if s.dims().is_some() {
            s.clone()
        } else {
            h.clone()
        });
    };
    if hd.len() != sd.len() {
        return Err(());
    }
    let mut out = Vec::with_capacity(sd.len());
    for (hx, sx) in hd.iter().zip(sd) {
        // A name bound earlier in this loop (`"n n"`).
        let hx = match hx {
            Dim::Sym(n) => bound.get(n).cloned().unwrap_or_else(|| hx.clone()),
            x => x.clone(),
        };
        if hx.same(sx) == Tri::No {
            return Err(());
        }
        if let Dim::Sym(n) = &hx
            && !matches!(sx, Dim::Unknown)
            && &**n != sym_text(sx)
        {
            bound.insert(n.clone(), sx.clone());
        }
        out.push(match sx {
            Dim::Unknown => hx,
            x => x.clone(),
        });
    }
    Ok(Shape::Known(out))
}

fn sym_text(d: &Dim) -> &str {
    match d {
        Dim::Sym(n) => n,
        _ => "",
    }
}

/// Is the hint `h` at least as precise as the computed shape `s` and compatible with it?
fn refines(h: &Shape, s: &Shape) -> bool {
    match (h.dims(), s.dims()) {
        (_, None) => true,
        (Some(h), Some(s)) => {
            h.len() == s.len()
                && h.iter().zip(s).all(|(hd, sd)| match sd {
                    Dim::Known(_) => hd == sd,
                    _ => true,
                })
        }
        (None, Some(_)) => false,
    }
}

impl Interp<'_> {
    /// `reveal_shape(x)`: what the analysis knows of `x`, as a finding at the call (W304), as
    /// type checkers' `reveal_type`; the value passes through. A list, tuple or dict shows its
    /// items (the first few, two levels deep), so a container of tensors can be followed too.
    pub(crate) fn reveal_shape(
        &mut self,
        x: Option<&Value>,
        range: TextRange,
        st: &State,
    ) -> Value {
        let v = x.cloned().unwrap_or(Value::Top);
        let text = match &v {
            Value::Top => match self.coverage.origin.map(|o| self.coverage.cause_name(o)) {
                Some(c) if c == super::coverage::NO_CALLER => {
                    "unknown (it comes from the arguments of a function never called here, analysed with unknown inputs)".to_owned()
                }
                Some(c) => format!("unknown (it comes from `{c}`, which the analysis does not model)"),
                None => "unknown (the analysis lost track of this value)".to_owned(),
            },
            Value::Array(_) | Value::Tensor(_) => revealed(&v, st, 0),
            other => format!("not an array or tensor ({})", revealed(other, st, 0)),
        };
        self.report(
            range,
            "W304",
            Exc::Hint,
            format!("reveal_shape: {text}"),
            crate::Certainty::Certain,
        );
        v
    }
}

/// Items shown of a revealed container, and how deep containers inside it are opened.
const REVEAL_ITEMS: usize = 6;
const REVEAL_DEPTH: usize = 2;

/// The text `reveal_shape` gives one value: `Tensor (2, 3)`, `int 4`, `list of 2: [Tensor (1,
/// 8), str 'a']`, `dict of 1: {str 'out': Tensor (1, 3)}`, `list of ? items, each Tensor (?, 4)`.
fn revealed(v: &Value, st: &State, depth: usize) -> String {
    let items = |xs: &[Value], depth: usize| -> String {
        let mut parts: Vec<String> = xs
            .iter()
            .take(REVEAL_ITEMS)
            .map(|x| revealed(x, st, depth + 1))
            .collect();
        if xs.len() > REVEAL_ITEMS {
            parts.push("...".to_owned());
        }
        parts.join(", ")
    };
    let seq = |kind: &str, s: &Seq, open: &str, close: &str| -> String {
        match s {
            Seq::Exact(xs) if depth < REVEAL_DEPTH && !xs.is_empty() => {
                format!("{kind} of {}: {open}{}{close}", xs.len(), items(xs, depth))
            }
            Seq::Exact(xs) => format!("{kind} of {}", xs.len()),
            Seq::Summary(each, _) if depth < REVEAL_DEPTH => {
                format!("{kind} of ? items, each {}", revealed(each, st, depth + 1))
            }
            Seq::Summary(..) => format!("{kind} of ? items"),
        }
    };
    match v {
        Value::Array(s) => format!("ndarray {}", crate::explain::shape_text(s)),
        Value::Tensor(s) => format!("Tensor {}", crate::explain::shape_text(s)),
        Value::Top => "unknown".to_owned(),
        Value::Bool(Some(b)) => format!("bool {}", if *b { "True" } else { "False" }),
        Value::Int(super::value::Int::Const(i)) => format!("int {i}"),
        Value::Str(Some(s)) if s.len() <= 40 => format!("str '{}'", s.escape_debug()),
        Value::Instance(_) => "an object".to_owned(),
        Value::Elem => "a number, an element of an array or tensor".to_owned(),
        Value::Layer(_) => "a torch.nn layer".to_owned(),
        Value::Tuple(s) => seq("tuple", s, "(", ")"),
        Value::List(a) => match st.list(*a) {
            Some(s) => seq("list", &s, "[", "]"),
            None => "list".to_owned(),
        },
        Value::Dict(a) => match st.dict(*a) {
            Some((kv, exact)) if depth < REVEAL_DEPTH && !kv.is_empty() => {
                let mut parts: Vec<String> = kv
                    .iter()
                    .take(REVEAL_ITEMS)
                    .map(|(k, x)| {
                        format!(
                            "{}: {}",
                            revealed(k, st, depth + 1),
                            revealed(x, st, depth + 1)
                        )
                    })
                    .collect();
                if kv.len() > REVEAL_ITEMS {
                    parts.push("...".to_owned());
                }
                if !exact {
                    parts.push("maybe other keys".to_owned());
                }
                format!(
                    "dict of {}{}: {{{}}}",
                    kv.len(),
                    if exact { "" } else { "+" },
                    parts.join(", ")
                )
            }
            Some((kv, true)) => format!("dict of {}", kv.len()),
            _ => "dict".to_owned(),
        },
        other => other.type_name().unwrap_or("a value").to_owned(),
    }
}
