//! Shape hints.
//!
//! - Pytropos' form: `from pytropos.hints.numpy import NdArray` (or `ranklift.hints`), then
//!   `x: NdArray[2, 3] = ...`; `NdArray[int, 2]` leaves a dimension unknown, `NdArray[()]` is a
//!   scalar array, and a string names a dimension: `NdArray["n", 3]`.
//! - `typing.Annotated`: `x: Annotated[np.ndarray, (2, 3)]` or `Annotated[np.ndarray, "n 3"]`.
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

use super::state::State;
use super::value::{Builtin, Int, Value};
use super::{Exc, Interp};
use crate::{Certainty, Dim, Shape};

/// What a hint says.
enum Hint {
    Array(Shape),
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
                (Value::Module(super::value::ModRef::Typing), "Annotated") => {
                    Some(Value::Builtin(Builtin::Annotated))
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
                Some(Value::Builtin(Builtin::NdArray)) => {
                    let items: Vec<&Expr> = match &*s.slice {
                        Expr::Tuple(t) => t.elts.iter().collect(),
                        e => vec![e],
                    };
                    let mut dims = Vec::new();
                    for item in items {
                        dims.push(self.hint_dim(item, st, scope)?);
                    }
                    Ok(Hint::Array(Shape::Known(dims)))
                }
                Some(Value::Builtin(Builtin::Annotated)) => {
                    let Expr::Tuple(t) = &*s.slice else {
                        return Ok(Hint::Other);
                    };
                    match t.elts.get(1) {
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
                    }
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

    /// A parameter's hint: gives the shape of an unknown argument.
    pub(crate) fn param_hint(&mut self, ann: &Expr, v: Value, module: u32, st: &State) -> Value {
        let saved = self.cur_module;
        self.cur_module = module;
        let scope = format!("p{}", u32::from(ann.start()));
        let hint = self.read_hint(ann, st, &scope);
        self.cur_module = saved;
        match (hint, &v) {
            (Ok(Hint::Array(h)), Value::Top) => Value::Array(h),
            (Ok(Hint::Array(h)), Value::Array(s)) if refines(&h, s) => Value::Array(h),
            // An `int` annotation is not checked at run time and is sometimes wrong (pylops'
            // `nr: int` takes a tuple, as its docstring says): it does not make the argument an
            // int, which would turn `nr[0]` into a certain TypeError.
            _ => v,
        }
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
