//! Expressions: names, literals, operators, attributes and displays (comprehensions:
//! `comprehension.rs`).

use std::sync::{Arc, LazyLock};

use ruff_python_ast::{self as ast, Expr, Number};
use ruff_text_size::{Ranged, TextRange};

use super::state::{Obj, State};
use super::value::{Builtin, Int, ModRef, Seq, Value};
use super::{Exc, Interp};
use crate::{Certainty, Dim, Shape};

/// The attributes of Python's plain types (`data/python_types.txt`, recorded from CPython).
static TYPE_ATTRS: LazyLock<super::state::FxSet<(&'static str, &'static str)>> =
    LazyLock::new(|| {
        include_str!("../../data/python_types.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once(' '))
            .collect()
    });

fn builtin(name: &str) -> Option<Value> {
    let b = match name {
        "len" => Builtin::Len,
        "super" => Builtin::Super,
        "all" => Builtin::All,
        "any" => Builtin::Any,
        "range" => Builtin::Range,
        "int" => Builtin::Int,
        "float" => Builtin::Float,
        "bool" => Builtin::Bool,
        "str" => Builtin::Str,
        "list" => Builtin::List,
        "tuple" => Builtin::Tuple,
        "min" => Builtin::Min,
        "max" => Builtin::Max,
        "abs" => Builtin::Abs,
        "round" => Builtin::Round,
        "sum" => Builtin::Sum,
        "enumerate" => Builtin::Enumerate,
        "zip" => Builtin::Zip,
        "isinstance" => Builtin::Isinstance,
        "print" => Builtin::Print,
        "reversed" => Builtin::Reversed,
        "map" => Builtin::Map,
        "sorted" => Builtin::Sorted,
        "dict" => Builtin::Dict,
        "setattr" | "delattr" => Builtin::SetAttr,
        "iter" => Builtin::Iter,
        "getattr" => Builtin::GetAttr,
        "hasattr" => Builtin::HasAttr,
        "type" => Builtin::Type,
        "next" => Builtin::Next,
        "None" => return Some(Value::None),
        "True" => return Some(Value::Bool(Some(true))),
        "False" => return Some(Value::Bool(Some(false))),
        "Ellipsis" => return Some(Value::Ellipsis),
        "object" => Builtin::Object,
        n if ranklift_python::builtins::is_builtin(n) => Builtin::Other,
        _ => return None,
    };
    Some(Value::Builtin(b))
}

/// `type(x)`, or `str(type(x))` / `repr(type(x))`: an expression that tests a type.
fn is_type_call(e: &Expr) -> bool {
    let Expr::Call(c) = e else { return false };
    let Expr::Name(f) = &*c.func else {
        return false;
    };
    match f.id.as_str() {
        "type" => true,
        "str" | "repr" => c.arguments.args.first().is_some_and(is_type_call),
        _ => false,
    }
}

/// An attribute of the `math` module: its constants, and the scalar functions whose array
/// arguments must have one element (anything else is unknown).
fn math_attr(attr: &str) -> Value {
    use super::value::MathFn;
    let f = match attr {
        "pi" => return Value::float(std::f64::consts::PI),
        "e" => return Value::float(std::f64::consts::E),
        "tau" => return Value::float(std::f64::consts::TAU),
        "inf" => return Value::float(f64::INFINITY),
        "sqrt" | "exp" | "expm1" | "log" | "log2" | "log10" | "log1p" | "sin" | "cos" | "tan"
        | "asin" | "acos" | "atan" | "atan2" | "sinh" | "cosh" | "tanh" | "asinh" | "acosh"
        | "atanh" | "hypot" | "degrees" | "radians" | "fabs" | "pow" | "fmod" | "copysign"
        | "erf" | "erfc" | "gamma" | "lgamma" | "cbrt" | "exp2" | "remainder" => {
            // The functions folded on known arguments (`call.rs`); "" for the others.
            const FOLDED: &[&str] = &[
                "sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "atan", "atan2",
                "hypot", "degrees", "radians", "fabs", "pow",
            ];
            MathFn::Float(FOLDED.iter().find(|n| **n == attr).copied().unwrap_or(""))
        }
        "floor" => MathFn::Int("floor"),
        "ceil" => MathFn::Int("ceil"),
        "trunc" => MathFn::Int("trunc"),
        "isnan" | "isinf" | "isfinite" | "isclose" => MathFn::Bool,
        _ => return Value::Top,
    };
    Value::Builtin(Builtin::Math(f))
}

impl<'a> Interp<'a> {
    /// The value of `e`; in the entry module, counted for coverage (literals aside), an
    /// unknown value with the cause it traces back to (`coverage::Coverage`).
    pub(crate) fn eval(&mut self, e: &'a Expr, st: &mut State) -> Value {
        let outer = self.coverage.origin.take();
        let v = self.eval_uncounted(e, st);
        // An unknown value, or a tuple or list holding one (`torch.cat([lost, known])` is
        // lost for the same cause).
        let origin = if super::coverage::holds_unknown(&v, st) {
            let bound = match e {
                Expr::Name(_) | Expr::Attribute(_) if self.coverage.any_bound() => {
                    super::coverage::with_dotted(e, |t| self.coverage.bound(t)).flatten()
                }
                _ => None,
            };
            bound.or(self.coverage.origin)
        } else {
            None
        };
        self.coverage.origin = outer.or(origin);
        if self.cur_module == 0
            && !matches!(
                e,
                Expr::NumberLiteral(_)
                    | Expr::StringLiteral(_)
                    | Expr::BytesLiteral(_)
                    | Expr::BooleanLiteral(_)
                    | Expr::NoneLiteral(_)
                    | Expr::EllipsisLiteral(_)
                    | Expr::FString(_)
                    | Expr::TString(_)
            )
        {
            self.coverage.record(e.range(), &v, origin);
        }
        v
    }

    /// Coverage: `attr` (an attribute expression whose receiver was `recv` and value `out`) read
    /// from a module and unknown — a library attribute the analysis does not model, where it
    /// loses what flows from it. (A modelled function whose result is unknown is not one: its
    /// arguments were.)
    pub(crate) fn note_module_attr(&mut self, recv: &Value, out: &Value, attr: &Expr) {
        if matches!(recv, Value::Module(_)) && matches!(out, Value::Top) {
            let (module, range) = (self.cur_module, attr.range());
            super::coverage::with_dotted(attr, |name| self.coverage.cause(name, module, range));
        }
    }

    fn eval_uncounted(&mut self, e: &'a Expr, st: &mut State) -> Value {
        match e {
            Expr::Name(n) => {
                let v = self.lookup(n.id.as_str(), n.range, st);
                self.record_type(n.range, &v);
                if matches!(v, Value::Top) {
                    self.record_unknown(n.range, self.coverage.bound(n.id.as_str()));
                }
                v
            }
            Expr::NumberLiteral(n) => match &n.value {
                Number::Int(i) => i.as_i64().map_or(Value::Int(Int::ANY), Value::int),
                Number::Float(f) => Value::float(*f),
                // A complex number is a scalar to NumPy and torch (`1j * a` keeps `a`'s shape);
                // its value is not tracked.
                Number::Complex { .. } => Value::Float(None),
            },
            Expr::StringLiteral(s) => {
                let text = s.value.to_str();
                Value::Str((text.len() <= 4096).then(|| text.into()))
            }
            Expr::FString(f) => self.eval_fstring(f, st),
            Expr::TString(_) => Value::Str(None),
            Expr::BytesLiteral(_) => Value::Top,
            Expr::BooleanLiteral(b) => Value::Bool(Some(b.value)),
            Expr::NoneLiteral(_) => Value::None,
            Expr::EllipsisLiteral(_) => Value::Ellipsis,
            Expr::BoolOp(b) => {
                let and = b.op == ast::BoolOp::And;
                let mut result: Option<Value> = None;
                // Operands after an undecided one run only when it went one way
                // (`hasattr(fig, "mne") and fig.mne.backend`): what it tests is forgotten, and
                // None errors in them are possible, not certain (see `report`).
                let mut guards = 0;
                let mut out = None;
                for (i, x) in b.values.iter().enumerate() {
                    let raises_before = self.certain_raises;
                    let v = self.eval(x, st);
                    // An operand that raised for certain ends the chain: Python never evaluates
                    // the operands after it (and a chain of 60,000 stops at once).
                    if self.certain_raises != raises_before || (self.raised && self.cond_expr == 0)
                    {
                        out = Some(Value::Top);
                        break;
                    }
                    let last = i + 1 == b.values.len();
                    let truth = if last {
                        v.truth()
                    } else {
                        self.test_truth(&v, x.range(), st)
                    };
                    if self.raised && self.cond_expr == 0 {
                        out = Some(Value::Top);
                        break;
                    }
                    match truth {
                        // `a and b`: a falsy `a` is the result; `a or b`: a truthy one.
                        Some(t) if t != and && !last => {
                            out = Some(match result.take() {
                                Some(r) => r.join(&v),
                                None => v,
                            });
                            break;
                        }
                        Some(_) if !last => {}
                        _ if last => {
                            out = Some(match result.take() {
                                Some(r) => r.join(&v),
                                None => v,
                            });
                        }
                        _ => {
                            self.forget_tested(x, st);
                            self.after_guard += 1;
                            self.cond_expr += 1;
                            guards += 1;
                            result = Some(match result {
                                Some(r) => r.join(&v),
                                None => v,
                            });
                        }
                    }
                }
                self.after_guard -= guards;
                self.cond_expr -= guards;
                out.or(result).unwrap_or(Value::Top)
            }
            Expr::Named(n) => {
                let v = self.eval(&n.value, st);
                self.assign(&n.target, v.clone(), st);
                v
            }
            Expr::BinOp(b) => {
                let l = self.eval(&b.left, st);
                let r = self.eval(&b.right, st);
                self.binop(b.op, &l, &r, b.range, st)
            }
            Expr::UnaryOp(u) => {
                let v = self.eval(&u.operand, st);
                if u.op == ast::UnaryOp::Not {
                    return Value::Bool(self.test_truth(&v, u.operand.range(), st).map(|b| !b));
                }
                self.unary(u.op, &v)
            }
            Expr::Lambda(l) => match self.make_lambda(l, st) {
                // Not run: `*args`, `**kwargs` or positional-only parameters.
                Value::Top => {
                    self.coverage
                        .cause(super::coverage::LAMBDA, self.cur_module, l.range);
                    Value::Top
                }
                v => v,
            },
            Expr::If(i) => {
                let c = self.eval(&i.test, st);
                match self.test_truth(&c, i.test.range(), st) {
                    Some(true) => self.eval(&i.body, st),
                    Some(false) => self.eval(&i.orelse, st),
                    None => {
                        self.forget_tested(&i.test, st);
                        let mut s2 = st.clone();
                        self.undecided += 1;
                        self.cond_expr += 1;
                        let a = self.eval(&i.body, st);
                        let b = self.eval(&i.orelse, &mut s2);
                        self.cond_expr -= 1;
                        self.undecided -= 1;
                        *st = st.join(&s2);
                        a.join(&b)
                    }
                }
            }
            Expr::Dict(d) => {
                // Constant keys are kept; any other key (or a `**spread` of a dict not known
                // exactly) leaves the dict inexact, its values from other keys unknown. A
                // spread of a known dict or `**kwargs` adds its items in order
                // (`kwargs = {**defaults, **kwargs}`: later keys win, as in Python).
                let mut items: Vec<(Value, Value)> = Vec::new();
                let mut exact = true;
                for item in &d.items {
                    let k = item.key.as_ref().map(|k| self.eval(k, st));
                    let v = self.eval(&item.value, st);
                    let spread = match (&k, &v) {
                        (None, Value::Dict(a)) => st.dict(*a),
                        (None, Value::Kwargs(kw)) => Some((
                            kw.iter()
                                .map(|(n, x)| (Value::Str(Some(n.clone())), x.clone()))
                                .collect(),
                            true,
                        )),
                        _ => None,
                    };
                    match k {
                        Some(k) if k.is_const_key() => {
                            items.retain(|(old, _)| *old != k);
                            items.push((k, v));
                        }
                        None if let Some((more, more_exact)) = spread => {
                            if !more_exact {
                                exact = false;
                                items.clear();
                            }
                            for (k, v) in more {
                                items.retain(|(old, _)| *old != k);
                                items.push((k, v));
                            }
                        }
                        _ => {
                            exact = false;
                            items.clear();
                        }
                    }
                }
                self.alloc_dict(items, exact, d.range.start(), st)
            }
            Expr::Set(s) => {
                for x in &s.elts {
                    self.eval(x, st);
                }
                Value::Top
            }
            Expr::ListComp(c) => {
                let seq = self.comprehension(&c.generators, None, &c.elt, st);
                self.alloc_list(seq, c.range.start(), st)
            }
            Expr::SetComp(c) => {
                self.comprehension(&c.generators, None, &c.elt, st);
                Value::Top
            }
            Expr::Generator(c) => {
                // A generator consumed by `tuple(...)`, `sum(...)`, `np.array(list(...))`: its
                // elements as a tuple summary.
                let seq = self.comprehension(&c.generators, None, &c.elt, st);
                Value::Tuple(seq)
            }
            Expr::DictComp(c) => self.dict_comprehension(c, st),
            Expr::Await(a) => {
                self.eval(&a.value, st);
                Value::Top
            }
            Expr::Yield(y) => {
                if let Some(v) = &y.value {
                    self.eval(v, st);
                }
                Value::Top
            }
            Expr::YieldFrom(y) => {
                self.eval(&y.value, st);
                Value::Top
            }
            Expr::Compare(c) => {
                let mut left = self.eval(&c.left, st);
                let mut result: Option<Value> = None;
                for (op, right) in c.ops.iter().zip(c.comparators.iter()) {
                    let r = self.eval(right, st);
                    let v = self.compare(*op, &left, &r, c.range, st);
                    result = Some(match result {
                        None => v,
                        Some(prev) => match (prev.truth(), v.truth()) {
                            (Some(false), _) => return prev,
                            (Some(true), _) => v,
                            (None, Some(false)) => Value::Bool(Some(false)),
                            _ => Value::Bool(None),
                        },
                    });
                    left = r;
                }
                result.unwrap_or(Value::Top)
            }
            Expr::Call(c) => self.eval_call(c, st),
            Expr::Attribute(a) => {
                let v = self.eval(&a.value, st);
                let out = self.attribute_of(&v, a.attr.as_str(), a.range, st);
                self.note_module_attr(&v, &out, e);
                out
            }
            Expr::Subscript(s) => {
                let obj = self.eval(&s.value, st);
                let idx = self.eval(&s.slice, st);
                if let Some(v) = self.index_array_get(&obj, &idx, &s.slice, s.range) {
                    return v;
                }
                self.get_item(&obj, &idx, s.range, st)
            }
            Expr::Starred(s) => {
                self.eval(&s.value, st);
                Value::Top
            }
            Expr::List(l) => {
                let seq = self.display(&l.elts, st);
                self.alloc_list(seq, l.range.start(), st)
            }
            Expr::Tuple(t) => Value::Tuple(self.display(&t.elts, st)),
            Expr::Slice(s) => {
                let mut part = |x: &'a Option<Box<Expr>>, st: &mut State| {
                    x.as_ref().map(|e| match self.eval(e, st) {
                        Value::None => None,
                        v => Some(v.as_int().unwrap_or(Int::ANY)),
                    })
                };
                let lo = part(&s.lower, st).flatten();
                let hi = part(&s.upper, st).flatten();
                let step = part(&s.step, st).flatten();
                Value::Slice(Box::new([lo, hi, step]))
            }
            Expr::IpyEscapeCommand(_) => Value::Top,
        }
    }

    /// The elements of a list or tuple display, spreading `*x`.
    fn display(&mut self, elts: &'a [Expr], st: &mut State) -> Seq {
        let mut items = Vec::with_capacity(elts.len());
        let mut exact = true;
        let mut extra = Value::Top;
        let mut first_extra = true;
        for x in elts {
            if let Expr::Starred(s) = x {
                let v = self.eval(&s.value, st);
                match &v {
                    Value::Tuple(Seq::Exact(v)) => items.extend(v.iter().cloned()),
                    Value::List(a) => match st.list(*a) {
                        Some(Seq::Exact(v)) => items.extend(v.iter().cloned()),
                        other => {
                            exact = false;
                            let e = other.map_or(Value::Top, |s| s.element());
                            extra = if first_extra { e } else { extra.join(&e) };
                            first_extra = false;
                        }
                    },
                    _ => {
                        exact = false;
                        extra = Value::Top;
                        first_extra = false;
                    }
                }
            } else {
                items.push(self.eval(x, st));
            }
        }
        if exact {
            Seq::Exact(items.into())
        } else {
            let elem = items.iter().fold(extra, |a, b| a.join(b));
            Seq::Summary(Box::new(elem), Int::Range(Some(items.len() as i64), None))
        }
    }

    pub(super) fn iteration_items(&mut self, it: &Value, st: &State) -> Option<Vec<Value>> {
        match self.iteration(it, st) {
            super::stmt::Iteration::Items(v) => Some(v),
            super::stmt::Iteration::Summary(_) => None,
        }
    }

    pub(super) fn iteration_element(&mut self, it: &Value, st: &State) -> Value {
        match self.iteration(it, st) {
            super::stmt::Iteration::Items(v) => v
                .iter()
                .skip(1)
                .fold(v.first().cloned().unwrap_or(Value::Top), |a, b| a.join(b)),
            super::stmt::Iteration::Summary(e) => e,
        }
    }

    pub(crate) fn iteration_len(&mut self, it: &Value, st: &State) -> Int {
        match it {
            Value::Range(r) => match (r.0.constant(), r.1.constant(), r.2.constant()) {
                (Some(a), Some(b), Some(c)) if c != 0 => {
                    Int::Const(super::stmt::range_len(a, b, c))
                }
                // range(n): n elements.
                (Some(0), _, Some(1)) => r.1.clone(),
                _ => Int::Range(Some(0), None),
            },
            Value::Tuple(s) => s.len(),
            Value::List(a) => st.list(*a).map_or(Int::Range(Some(0), None), |s| s.len()),
            Value::Array(s) | Value::Tensor(s) => match s.dims() {
                Some(d) if !d.is_empty() => Int::from_dim(&d[0]),
                _ => Int::Range(Some(0), None),
            },
            Value::Instance(_) => match self
                .container_of(it, st)
                .or_else(|| self.named_tuple_items(it, st))
            {
                Some(l) => self.iteration_len(&l, st),
                None => Int::Range(Some(0), None),
            },
            Value::Layer(l) => match &**l {
                crate::torch::layers::Layer::Dataset { len, .. } => Int::from_dim(len),
                crate::torch::layers::Layer::Sequential(children, _) => {
                    Int::Const(children.len() as i64)
                }
                _ => match it.held_modules() {
                    Some(held) => self.iteration_len(&held, st),
                    None => Int::Range(Some(0), None),
                },
            },
            // A dict of which every key is known.
            Value::Dict(a) => match st.dict(*a) {
                Some((items, true)) => Int::Const(items.len() as i64),
                _ => Int::Range(Some(0), None),
            },
            _ => Int::Range(Some(0), None),
        }
    }

    /// A condition whose truth is unknown may test what its variables are (`isinstance(x, T)`,
    /// `issparse(X)`, `hasattr(m, "fit")`, `x is None`, `if x:`): in the branches it guards,
    /// those variables may differ from what the analysis knows (the branch taking
    /// `X.toarray()` runs only when `X` is sparse). They become unknown there, so that no
    /// *certain* finding rests on a fact the condition may contradict. Comparisons of values
    /// (`x.shape[0] > 5`) keep what is known.
    pub(crate) fn forget_tested(&mut self, test: &Expr, st: &mut State) {
        let mut names: Vec<&str> = Vec::new();
        // `obj.attr` tested the same way (`isinstance(self.scale, str)`).
        let mut attrs: Vec<(&str, &str)> = Vec::new();
        // `hasattr(x, "a")`: of an object of the program (`hasattr(self, "shortcut")`), a test
        // of that one attribute, which may or may not have been set; of any other value (an
        // array, a list), a test of its type, like `isinstance`.
        let mut duck: Vec<(&str, &str)> = Vec::new();
        fn collect<'e>(
            e: &'e Expr,
            out: &mut Vec<&'e str>,
            attrs: &mut Vec<(&'e str, &'e str)>,
            duck: &mut Vec<(&'e str, &'e str)>,
        ) {
            match e {
                Expr::Name(n) => out.push(n.id.as_str()),
                Expr::Attribute(a) => {
                    if let Expr::Name(n) = &*a.value {
                        attrs.push((n.id.as_str(), a.attr.as_str()));
                    }
                }
                Expr::BoolOp(b) => b.values.iter().for_each(|v| collect(v, out, attrs, duck)),
                Expr::UnaryOp(u) => collect(&u.operand, out, attrs, duck),
                // `isinstance(x, T)`, and a test of `x`'s type written out (`"pandas" in
                // str(type(x))`); a value computed from `x` (`set(x).issubset(...)`) is no
                // type test.
                // `hasattr(x, "iloc")`: see `duck` above.
                Expr::Call(c) if matches!(&*c.func, Expr::Name(f) if f.id.as_str() == "hasattr") => {
                    match &*c.arguments.args {
                        [Expr::Name(n), Expr::StringLiteral(s)] => {
                            duck.push((n.id.as_str(), s.value.to_str()));
                        }
                        // `hasattr(self.foo_, "fit")`: the attribute's value is tested.
                        [a @ Expr::Attribute(_), ..] => collect(a, out, attrs, duck),
                        _ => {}
                    }
                }
                // `len(x)`, `any(x)`, `max(x)`: the builtins that compute a value of `x` test
                // that value, not what `x` is (`if not len(ix): break` keeps `ix` an array).
                Expr::Call(c)
                    if matches!(&*c.func, Expr::Name(f) if matches!(
                        f.id.as_str(),
                        "len" | "any" | "all" | "sum" | "min" | "max" | "abs" | "round"
                    )) => {}
                Expr::Call(c) => {
                    for a in c.arguments.args.iter() {
                        if matches!(a, Expr::Name(_) | Expr::Attribute(_)) || is_type_call(a) {
                            collect(a, out, attrs, duck);
                        }
                    }
                }
                // Identity and membership tests, and type tests (`type(x) == int`).
                Expr::Compare(c)
                    if c.ops.iter().all(|o| {
                        matches!(
                            o,
                            ast::CmpOp::Is | ast::CmpOp::IsNot | ast::CmpOp::In | ast::CmpOp::NotIn
                        )
                    }) || std::iter::once(&*c.left)
                        .chain(c.comparators.iter())
                        .any(|x| {
                            matches!(x, Expr::Call(f)
                            if matches!(&*f.func, Expr::Name(n) if n.id.as_str() == "type"))
                                || matches!(x, Expr::Attribute(a) if is_type_call(&a.value))
                        }) =>
                {
                    for x in std::iter::once(&*c.left).chain(c.comparators.iter()) {
                        // `type(x).__module__ == "numpy"` tests `x`'s type.
                        let x = match x {
                            Expr::Attribute(a) if is_type_call(&a.value) => &*a.value,
                            x => x,
                        };
                        if matches!(x, Expr::Name(_) | Expr::Attribute(_)) || is_type_call(x) {
                            collect(x, out, attrs, duck);
                        }
                    }
                }
                _ => {}
            }
        }
        collect(test, &mut names, &mut attrs, &mut duck);
        for (n, a) in duck {
            if matches!(st.lookup_value(n), Some(Value::Instance(_))) {
                attrs.push((n, a));
            } else {
                names.push(n);
            }
        }
        self.forget(&names, &attrs, st);
    }

    /// Make `names` and `base.attr` (of an instance) unknown in `st` (functions, classes,
    /// modules and the torch layers the program built stay: a type test or `hasattr` on a
    /// layer does not make it another kind of object).
    pub(crate) fn forget(&mut self, names: &[&str], attrs: &[(&str, &str)], st: &mut State) {
        for &(base, attr) in attrs {
            let Some(&Value::Instance(addr)) = st.lookup_value(base) else {
                continue;
            };
            if let Some(Obj::Instance { attrs, .. }) = st.obj_mut(addr)
                && let Some(b) = attrs.get_mut(attr)
                && !matches!(
                    b.value,
                    Value::Top
                        | Value::Func(_)
                        | Value::Class(_)
                        | Value::Module(_)
                        | Value::Layer(_)
                )
            {
                b.value = Value::Top;
            }
        }
        for &n in names {
            let in_locals = st.locals.as_ref().is_some_and(|l| l.contains_key(n));
            let known = if in_locals {
                st.locals.as_ref().and_then(|l| l.get(n))
            } else {
                st.globals.get(n)
            };
            let Some(b) = known else { continue };
            if matches!(
                b.value,
                Value::Top
                    | Value::Func(_)
                    | Value::Class(_)
                    | Value::Module(_)
                    | Value::NpFunc(_)
                    | Value::TorchFunc(_)
                    | Value::Layer(_)
            ) {
                continue;
            }
            let nb = super::state::Binding {
                value: Value::Top,
                maybe_unbound: b.maybe_unbound,
            };
            if in_locals {
                if let Some(l) = &mut st.locals {
                    Arc::make_mut(l).insert(n.into(), nb);
                }
            } else {
                Arc::make_mut(&mut st.globals).insert(n.into(), nb);
            }
        }
    }

    /// Does a function enclosing function `f` bind `name`?
    fn enclosing_binds(&self, f: u32, name: &str) -> bool {
        let mut cur = self.funcs[f as usize].parent;
        while let Some(p) = cur {
            if self.funcs[p as usize].scope.locals.contains(name) {
                return true;
            }
            cur = self.funcs[p as usize].parent;
        }
        false
    }

    /// Read a variable.
    pub(crate) fn lookup(&mut self, name: &str, range: TextRange, st: &mut State) -> Value {
        if let Some(f) = self.cur_func {
            // Read the scope in place: cloning its `Arc` on every lookup made threads running
            // the same shared function contend on one reference count.
            let (local, global) = {
                let scope = &self.funcs[f as usize].scope;
                (scope.locals.contains(name), scope.globals.contains(name))
            };
            if local {
                let b = st.locals.as_ref().and_then(|l| l.get(name)).cloned();
                return match b {
                    Some(b) => {
                        if b.maybe_unbound {
                            self.report(
                                range,
                                "W201",
                                Exc::Name,
                                format!(
                                    "local variable '{name}' may be used before it is assigned"
                                ),
                                Certainty::Possible("it is assigned on some paths only".to_owned()),
                            );
                        }
                        b.value
                    }
                    None => {
                        self.report(
                            range,
                            "W201",
                            Exc::Name,
                            format!("cannot access local variable '{name}' where it is not associated with a value"),
                            Certainty::Certain,
                        );
                        Value::Top
                    }
                };
            }
            // A comprehension's variable: bound in the function's locals while the
            // comprehension runs, though not a local of the function itself.
            if !global && let Some(b) = st.locals.as_ref().and_then(|l| l.get(name)) {
                return b.value.clone();
            }
            if !global
                && let Some(c) = &self.funcs[f as usize].closure
                && let Some(b) = c.get(name)
            {
                return b.value.clone();
            }
            // A variable of an enclosing function that was not bound yet when this function was
            // defined (the function itself, for recursion; a helper defined after it): Python
            // looks it up when the call runs, so it is unknown here, not undefined.
            if !global && self.enclosing_binds(f, name) {
                return Value::Top;
            }
        } else if let Some(l) = &st.locals
            && let Some(b) = l.get(name)
        {
            // A class body.
            return b.value.clone();
        } else if st.locals.is_some()
            && let Some(f) = self.class_outer_func
            && (self.funcs[f as usize].scope.locals.contains(name) || self.enclosing_binds(f, name))
        {
            // A class body inside a function reads that function's names (a decorator defined
            // in a test function): their values are not kept here.
            return Value::Top;
        }
        let runtime_global = self.module_scopes[self.cur_module as usize]
            .as_ref()
            .is_some_and(|s| s.runtime_globals.contains(name));
        // Inside a function, a global that functions reassign may hold any of their values.
        if runtime_global && (self.cur_func.is_some() || st.globals.get(name).is_none()) {
            return Value::Top;
        }
        if let Some(b) = st.globals.get(name) {
            if b.maybe_unbound && builtin(name).is_none() {
                self.report(
                    range,
                    "W201",
                    Exc::Name,
                    format!("name '{name}' may be undefined"),
                    Certainty::Possible("it is assigned on some paths only".to_owned()),
                );
            }
            return b.value.clone();
        }
        if let Some(v) = builtin(name) {
            return v;
        }
        if (name.starts_with("__") && name.ends_with("__")) || self.blind_globals {
            return Value::Top;
        }
        let module_scope = self.module_scopes[self.cur_module as usize].as_ref();
        let star = module_scope.is_some_and(|s| s.star_import);
        // A function reading a global the module binds further down may also be called after
        // that point (`def f(): ... UnitBase` above `class UnitBase`), where it works.
        let later =
            self.cur_func.is_some() && module_scope.is_some_and(|s| s.locals.contains(name));
        if !star {
            self.report(
                range,
                "W201",
                Exc::Name,
                format!("name '{name}' is not defined"),
                if later {
                    Certainty::Possible(
                        "the module defines it later; calls made after that see it".into(),
                    )
                } else {
                    Certainty::Certain
                },
            );
        }
        Value::Top
    }

    /// `obj.attr` (reads).
    pub(crate) fn attribute_of(
        &mut self,
        obj: &Value,
        attr: &str,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let missing = |this: &mut Self, owner: String| {
            this.report(
                range,
                "E011",
                Exc::Attribute,
                format!("{owner} has no attribute '{attr}'"),
                Certainty::Certain,
            );
            Value::Top
        };
        // A NumPy name missing from the recorded version, in a branch whose condition is
        // undecided, is version-dependent code (`if NP_LT_2: ... else: np.exceptions...`):
        // possible, not certain.
        if let Value::Module(ModRef::Numpy(m)) = obj
            && self.undecided > 0
            && crate::numpy::module_attr(self.config.numpy, m, attr).is_none()
        {
            self.report(
                range,
                "E011",
                Exc::Attribute,
                format!("module '{m}' has no attribute '{attr}'"),
                Certainty::Possible(
                    "under a condition that may select another NumPy version's code".into(),
                ),
            );
            return Value::Top;
        }
        match obj {
            Value::Super(s) => {
                let (recv, class) = (s.0.clone(), s.1);
                self.super_attr(&recv, class, attr)
            }
            Value::Method(pattern, kind) if &**kind == super::re_module::PATTERN => {
                super::re_module::pattern_attribute(pattern, attr)
            }
            Value::Module(ModRef::Numpy(m)) => {
                match crate::numpy::module_attr(self.config.numpy, m, attr) {
                    Some(v) => v,
                    None => self.numpy_missing(m, &format!("module '{m}'"), attr, range),
                }
            }
            Value::Module(ModRef::Jaxtyping) => match super::hints::jax_dtype(attr) {
                true => Value::Builtin(Builtin::JaxDtype),
                false => Value::Top,
            },
            Value::Module(ModRef::Hints) => match attr {
                "NdArray" => Value::Builtin(Builtin::NdArray),
                "Tensor" => Value::Builtin(Builtin::TensorHint),
                "reveal_shape" => Value::Builtin(Builtin::RevealShape),
                _ => Value::Top,
            },
            // Python 3.8 or later (what ranklift's users run): `if sys.version_info[0] < 3:`
            // blocks are dead code, whose Python 2 names (`unicode`) are never looked up.
            Value::Module(ModRef::Sys) => match attr {
                "version_info" => Value::Tuple(Seq::Exact(
                    vec![
                        Value::int(3),
                        Value::Int(Int::Range(Some(8), None)),
                        Value::Int(Int::Range(Some(0), None)),
                        Value::Str(None),
                        Value::Int(Int::Range(Some(0), None)),
                    ]
                    .into(),
                )),
                _ => Value::Top,
            },
            Value::Module(ModRef::Platform) => Value::Method(Box::new(obj.clone()), attr.into()),
            Value::Module(ModRef::Math) => math_attr(attr),
            Value::Module(ModRef::Torch(m)) => crate::torch::module_attr(m, attr),
            Value::Tensor(_) => crate::torch::ops::attribute(obj, attr),
            // A container's `named_children()` / `children()` (`torch/named_children.rs`).
            Value::Layer(l)
                if matches!(
                    **l,
                    crate::torch::layers::Layer::Sequential(..)
                        | crate::torch::layers::Layer::ModuleList(_)
                        | crate::torch::layers::Layer::ModuleDict(_)
                ) && matches!(attr, "named_children" | "children") =>
            {
                self.children_method(obj, attr).unwrap_or(Value::Top)
            }
            // The methods that grow an `nn.Sequential` (`torch/containers.rs`).
            Value::Layer(l)
                if matches!(**l, crate::torch::layers::Layer::Sequential(..))
                    && crate::torch::containers::GROWING.contains(&attr) =>
            {
                Value::Method(Box::new(obj.clone()), attr.into())
            }
            // `layer.forward(x)` runs the layer as `layer(x)` does (its hooks aside).
            Value::Layer(l)
                if attr == "forward"
                    && !matches!(
                        **l,
                        crate::torch::layers::Layer::ModuleList(_)
                            | crate::torch::layers::Layer::ModuleDict(_)
                    ) =>
            {
                obj.clone()
            }
            Value::Layer(l) if obj.held_modules().is_none() => {
                crate::torch::layers::attribute(l, attr)
            }
            Value::Layer(_) if obj.held_modules().is_some() => {
                // `self.transformer.wte`: a ModuleDict's key.
                if let Some(Value::Dict(a)) = obj.held_modules()
                    && let Some((items, exact)) = st.dict(a)
                {
                    let key = Value::Str(Some(attr.into()));
                    if let Some((_, v)) = items.iter().find(|(k, _)| *k == key) {
                        return v.clone();
                    }
                    if !exact {
                        return Value::Top;
                    }
                }
                Value::Method(Box::new(obj.clone()), attr.into())
            }
            Value::Builtin(Builtin::Object) if attr == "__new__" => {
                Value::Builtin(Builtin::ObjectNew)
            }
            Value::Module(ModRef::Copy) => match attr {
                "copy" => Value::Builtin(Builtin::Copy),
                "deepcopy" => Value::Builtin(Builtin::DeepCopy),
                _ => Value::Top,
            },
            Value::Module(ModRef::Collections) => match attr {
                "OrderedDict" => Value::Builtin(Builtin::Dict),
                "namedtuple" => Value::Builtin(Builtin::NamedTuple),
                "abc" => Value::Module(ModRef::Collections),
                _ => super::isinstance::abc(attr).unwrap_or(Value::Top),
            },
            Value::Module(ModRef::Functools) => match attr {
                "partial" => Value::Builtin(Builtin::Partial),
                _ => Value::Top,
            },
            Value::Module(ModRef::Threading) => super::thread_local::attribute(attr),
            Value::Module(ModRef::Re) => super::re_module::attribute(attr),
            Value::Module(ModRef::Dataclasses) => super::dataclass_replace::attribute(attr),
            Value::Module(ModRef::Argparse) => match attr {
                "ArgumentParser" => Value::Builtin(Builtin::ArgParser),
                "Namespace" => Value::Builtin(Builtin::Namespace),
                _ => Value::Top,
            },
            Value::ArgParser(_) => Value::Method(Box::new(obj.clone()), attr.into()),
            // An option's value, or unknown (set outside the parser's sight).
            Value::Namespace(addr) => st
                .dict(*addr)
                .and_then(|(items, _)| {
                    let key = Value::Str(Some(attr.into()));
                    items.into_iter().find(|(k, _)| *k == key).map(|(_, v)| v)
                })
                .unwrap_or(Value::Top),
            Value::Module(ModRef::Typing) => match attr {
                "Annotated" => Value::Builtin(Builtin::Annotated),
                "NamedTuple" => Value::Builtin(Builtin::NamedTuple),
                // False when the program runs: `if TYPE_CHECKING:` blocks hold stubs for type
                // checkers (`def set_fit_request(self, **kwargs): pass`), not the real code.
                "TYPE_CHECKING" => Value::Bool(Some(false)),
                _ => super::isinstance::abc(attr).unwrap_or(Value::Top),
            },
            Value::Module(ModRef::User(m))
                if self.module_scopes[*m as usize]
                    .as_ref()
                    .is_some_and(|s| s.runtime_globals.contains(attr)) =>
            {
                Value::Top
            }
            Value::Module(ModRef::User(m)) => {
                let g = match &self.modules[*m as usize].status {
                    super::ModStatus::Done(g) => g.get(attr).map(|b| b.value.clone()),
                    _ => None,
                };
                match g {
                    Some(v) => v,
                    None => {
                        let sub = format!("{}.{attr}", self.modules[*m as usize].src.name);
                        if self.module_named(&sub).is_some() {
                            self.module_value(&sub)
                        } else {
                            Value::Top
                        }
                    }
                }
            }
            Value::Array(s) => match attr {
                "shape" => shape_tuple(s),
                "ndim" => match s.rank() {
                    Some(r) => Value::int(r as i64),
                    None => Value::Int(Int::Range(Some(0), Some(64))),
                },
                "size" => match s.size() {
                    Some(n) => Value::int(n as i64),
                    None => match s.dims() {
                        Some([d]) => Value::Int(Int::from_dim(d)),
                        _ => Value::Int(Int::Range(Some(0), None)),
                    },
                },
                "T" => Value::Array(crate::models::transpose::transpose(s, None).shape),
                "real" | "imag" => Value::Array(s.clone()),
                "dtype" | "flat" | "strides" | "itemsize" | "nbytes" | "data" | "flags"
                | "base" | "ctypes" => Value::Top,
                _ if crate::numpy::ndarray_has(self.config.numpy, attr) => {
                    Value::Method(Box::new(obj.clone()), attr.into())
                }
                // A 0-d result is, at run time, usually a NumPy scalar (`np.sqrt(16)` is a
                // `numpy.float64`, a subclass of `float`): what scalars have and arrays lack.
                _ if s.rank().is_none_or(|r| r == 0) && SCALAR_ATTRS.contains(&attr) => Value::Top,
                // A 0-d value may also be one element of an array whose dtype the analysis does
                // not track: an object (`axes = np.asarray(axes).reshape(1, 1)[0, 0]` is a
                // matplotlib `Axes`, and `axes.plot` exists).
                _ if s.rank() == Some(0) => Value::Top,
                // Attributes of the ndarray subclasses NumPy itself returns (masked arrays,
                // matrices), or of one the project defines (NumPy functions return its
                // instances): the value may be one on a path the analysis cannot tell apart
                // (`if np.ma.isMaskedArray(a): ... b.mask`, `np.squeeze(masked).unmasked`).
                _ if SUBCLASS_ATTRS.contains(&attr) || self.config.array_like.contains(attr) => {
                    let reason = if SUBCLASS_ATTRS.contains(&attr) {
                        "a masked array or matrix has it, and the value may be one"
                    } else {
                        "an ndarray subclass of the program has it, and NumPy functions return \
                         its instances"
                    };
                    self.report(
                        range,
                        "E011",
                        Exc::Attribute,
                        format!("'numpy.ndarray' object has no attribute '{attr}'"),
                        Certainty::Possible(reason.into()),
                    );
                    Value::Top
                }
                _ => self.numpy_missing("numpy.ndarray", "'numpy.ndarray' object", attr, range),
            },
            Value::Instance(addr) if attr == "__dict__" => {
                // The attributes can now change through the dict (`self.__dict__.update(kw)`).
                forget_attributes(st, *addr);
                Value::Top
            }
            Value::Instance(addr) => {
                let (class, own, opaque) = match st.heap.get(addr).map(|o| &**o) {
                    Some(Obj::Instance { class, attrs }) => (
                        Some(*class),
                        attrs.get(attr).map(|b| b.value.clone()),
                        attrs.contains_key(OPAQUE),
                    ),
                    _ => (None, None, false),
                };
                // An opaque instance may be changed through aliases the analysis does not see
                // (`node = heappop(nodes); node.left_child = ...`): its data attributes are
                // unknown, even those it set itself.
                if let Some(v) = own {
                    return if opaque && !matches!(v, Value::Func(_) | Value::Method(..)) {
                        Value::Top
                    } else {
                        v
                    };
                }
                let Some(class) = class else {
                    return Value::Top;
                };
                if let Some(m) = self.named_tuple_method(obj, attr, st) {
                    return m;
                }
                // `h.update(...)` on an `AttrDict` (`interp/attr_dict.rs`).
                if self.attr_dict_written(*addr, Some(attr), st) {
                    return Value::Top;
                }
                // The context of an autograd `Function`: its methods keep the program's
                // attributes (`torch/autograd_function.rs`).
                if let Some(m) = self.autograd_context_attr(class, attr) {
                    return m;
                }
                // `nn.Module`'s own methods on a subclass instance: those that return the
                // module (`model = Net().to(device)`) or change nothing tracked.
                if self.class_attr(class, attr, 0).is_none() && self.is_torch_module(class, 0) {
                    // `eval()` / `train()` also set the `training` flag (`torch/train_mode.rs`).
                    if matches!(attr, "eval" | "train") {
                        return Value::Method(Box::new(obj.clone()), format!("<{attr}>").into());
                    }
                    if crate::torch::layers::RETURNS_SELF.contains(&attr) {
                        return Value::Method(Box::new(obj.clone()), "<returns self>".into());
                    }
                    if let Some(m) = self.children_method(obj, attr) {
                        return m;
                    }
                    // A subclass of a torch layer (`class Linear(nn.Linear)` overriding
                    // `forward`): the parameters and settings of the layer it is.
                    if let Some(layer) = self.stored_layer(obj, st) {
                        let v = crate::torch::layers::attribute(&layer, attr);
                        if !matches!(v, Value::Top) {
                            return v;
                        }
                    }
                    if crate::torch::layers::HARMLESS.contains(&attr) {
                        return Value::Method(Box::new(Value::None), "<harmless>".into());
                    }
                    if let Some(m) = self.container_subclass_method(obj, attr, st) {
                        return m;
                    }
                    if matches!(
                        attr,
                        "register_buffer" | "register_parameter" | "add_module"
                    ) {
                        return Value::Method(Box::new(obj.clone()), "<registers>".into());
                    }
                    // Set by `nn.Module.__init__` and by `train()` / `eval()`: a bool.
                    if attr == "training" {
                        return Value::Bool(None);
                    }
                }
                match self.class_attr(class, attr, 0) {
                    // Data attributes of an opaque instance may have been set elsewhere; those
                    // of a class made by a metaclass may have become descriptors.
                    // (A metaclass may also wrap properties: astropy's `_ModelMeta` turns a
                    // `bounding_box` property returning a tuple into a bounding-box object.)
                    // A base the analysis cannot see may bring such a metaclass too.
                    Some(v)
                        if (opaque && !matches!(v, Value::Func(_) | Value::Method(..)))
                            || (self.classes[class as usize].meta
                                && !matches!(v, Value::Func(_)))
                            || (matches!(&v, Value::Method(_, k)
                                if super::call::property_setter(k).is_some())
                                && self.library_base(class, 0)) =>
                    {
                        Value::Top
                    }
                    // A descriptor (`__get__`) computes what the read returns.
                    Some(Value::Instance(a)) if self.is_descriptor(st, a) => Value::Top,
                    Some(Value::Func(f)) => Value::Method(Box::new(obj.clone()), func_key(f)),
                    Some(Value::Method(inner, kind))
                        if super::call::property_setter(&kind).is_some() =>
                    {
                        if let Value::Func(f) = *inner {
                            let args = super::call::Args::default();
                            self.call_function(f, Some(obj.clone()), args, range, st)
                        } else {
                            Value::Top
                        }
                    }
                    Some(Value::Method(inner, kind)) if &*kind == "<static>" => *inner,
                    // A classmethod read from an instance is bound to its class.
                    Some(Value::Method(inner, kind)) if &*kind == "<classmethod>" => match *inner {
                        Value::Func(f) => Value::Method(Box::new(Value::Class(class)), func_key(f)),
                        _ => Value::Top,
                    },
                    Some(v) => v,
                    None => Value::Top,
                }
            }
            Value::Class(c) => match self.class_attr(*c, attr, 0) {
                // A base class from a library may come with a metaclass that turns class
                // attributes into something else (`class Color(Enum): RED = 1` makes `Color.RED`
                // a member, not 1).
                Some(v)
                    if (self.library_base(*c, 0) || self.classes[*c as usize].meta)
                        && !matches!(v, Value::Func(_) | Value::Method(..)) =>
                {
                    Value::Top
                }
                Some(Value::Method(inner, kind)) if &*kind == "<static>" => *inner,
                // A classmethod is bound to the class (`cls(...)` in it builds an instance).
                Some(Value::Method(inner, kind)) if &*kind == "<classmethod>" => match *inner {
                    Value::Func(f) => Value::Method(Box::new(Value::Class(*c)), func_key(f)),
                    _ => Value::Top,
                },
                Some(v) => v,
                None if attr == "apply" => self.autograd_apply(*c, range, st).unwrap_or(Value::Top),
                None => Value::Top,
            },
            Value::Kwargs(_) | Value::Dict(_) => Value::Method(Box::new(obj.clone()), attr.into()),
            // Named tuples (`sys.version_info.major`, `platform.uname().system`) are tuples.
            Value::Tuple(Seq::Exact(items))
                if items.len() == 5
                    && matches!(
                        attr,
                        "major" | "minor" | "micro" | "releaselevel" | "serial"
                    ) =>
            {
                let i = ["major", "minor", "micro", "releaselevel", "serial"]
                    .iter()
                    .position(|a| *a == attr)
                    .unwrap_or(0);
                items[i].clone()
            }
            // torch's named tuples (`torch.return_types`): `x.topk(3).indices`,
            // `x.max(dim=1).values`, `torch.linalg.qr(a).Q` — a tuple of tensors has fields.
            Value::Tuple(Seq::Exact(items))
                if items.iter().any(|v| matches!(v, Value::Tensor(_)))
                    && items
                        .iter()
                        .all(|v| matches!(v, Value::Tensor(_) | Value::Top))
                    && !TYPE_ATTRS.contains(&("tuple", attr)) =>
            {
                match (items.len(), attr) {
                    (2, "values") => items[0].clone(),
                    (2, "indices") => items[1].clone(),
                    _ => Value::Top,
                }
            }
            Value::List(_)
            | Value::Tuple(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::None
            | Value::Bool(_)
            | Value::Str(_) => {
                let ty = obj.type_name().unwrap_or("object");
                if matches!(obj, Value::Int(_) | Value::Float(_) | Value::Bool(_))
                    && !TYPE_ATTRS.contains(&(ty, attr))
                    && crate::numpy::scalar_attr(attr)
                {
                    return Value::Top;
                }
                if TYPE_ATTRS.contains(&(ty, attr)) {
                    match (obj, attr) {
                        (Value::Int(_) | Value::Float(_) | Value::Bool(_), "real") => obj.clone(),
                        (Value::Int(_) | Value::Bool(_), "imag") => Value::int(0),
                        _ => Value::Method(Box::new(obj.clone()), attr.into()),
                    }
                } else {
                    missing(self, format!("'{ty}' object"))
                }
            }
            _ => Value::Top,
        }
    }

    /// Look an attribute up on a class and its bases (depth-first, like a simple MRO).
    /// E011 for a name NumPy (at `--numpy-version`) lacks: NumPy's own words when it explains
    /// the removal (`np.NaN`, `ndarray.ptp`), else Python's "`owner` has no attribute".
    fn numpy_missing(&mut self, key: &str, owner: &str, attr: &str, range: TextRange) -> Value {
        let message = match self.config.numpy.missing_message(key, attr) {
            Some(msg) => msg.to_owned(),
            None => format!("{owner} has no attribute '{attr}'"),
        };
        self.report(range, "E011", Exc::Attribute, message, Certainty::Certain);
        Value::Top
    }

    /// Does the class derive from a class the analysis does not know (a library's)?
    /// Is the heap object at `addr` an instance of a class defining `__get__`?
    fn is_descriptor(&self, st: &State, addr: super::value::Addr) -> bool {
        match st.heap.get(&addr).map(|o| &**o) {
            Some(Obj::Instance { class, .. }) => self.class_attr(*class, "__get__", 0).is_some(),
            _ => false,
        }
    }

    pub(crate) fn library_base(&self, class: u32, depth: usize) -> bool {
        depth <= 16
            && self.classes[class as usize].bases.iter().any(|b| match b {
                Value::Class(b) => self.library_base(*b, depth + 1),
                // `torch.autograd.Function`'s context has attributes of its own
                // (`save_for_backward`, `needs_input_grad`).
                Value::TorchFunc(name) => *name == crate::torch::autograd_function::FUNCTION,
                // `nn.Module` has no metaclass and no properties a subclass's attributes
                // could become.
                Value::Builtin(_) => false,
                _ => true,
            })
    }

    /// Does the class derive from `torch.nn.Module` (or another `torch.nn` class)?
    pub(crate) fn is_torch_module(&self, class: u32, depth: usize) -> bool {
        depth <= 16
            && self.classes[class as usize].bases.iter().any(|b| match b {
                Value::Class(b) => self.is_torch_module(*b, depth + 1),
                Value::TorchFunc(name) => name.starts_with("torch.nn."),
                _ => false,
            })
    }

    /// Does the class derive from the modelled library class `name` (a `Value::TorchFunc`)?
    pub(crate) fn derives_from_library(&self, class: u32, name: &str, depth: usize) -> bool {
        depth <= 16
            && self.classes[class as usize].bases.iter().any(|b| match b {
                Value::Class(b) => self.derives_from_library(*b, name, depth + 1),
                Value::TorchFunc(n) => *n == name,
                _ => false,
            })
    }

    pub(crate) fn class_attr(&self, class: u32, attr: &str, depth: usize) -> Option<Value> {
        if depth > 16 {
            return None;
        }
        let c = &self.classes[class as usize];
        if let Some(b) = c.attrs.get(attr) {
            return Some(b.value.clone());
        }
        for base in &c.bases {
            if let Value::Class(b) = base
                && let Some(v) = self.class_attr(*b, attr, depth + 1)
            {
                return Some(v);
            }
        }
        None
    }
}

/// The method-name encoding of a user function bound to an instance.
pub(crate) fn func_key(f: u32) -> Arc<str> {
    format!("<func {f}>").into()
}

/// `x.shape` as a tuple of ints.
pub(crate) fn shape_tuple(s: &Shape) -> Value {
    match s.dims() {
        Some(d) => Value::Tuple(Seq::Exact(
            d.iter().map(|d| Value::Int(Int::from_dim(d))).collect(),
        )),
        None => Value::Tuple(Seq::Summary(
            Box::new(Value::Int(Int::from_dim(&Dim::Unknown))),
            Int::Range(Some(0), Some(64)),
        )),
    }
}

/// Attributes of `numpy.ma.MaskedArray` and `numpy.matrix` that a plain ndarray lacks.
/// Attributes of NumPy's scalar types (`float64`, `float32`, `int64`, `complex128`, `bool_`,
/// `str_`, `bytes_`) that `ndarray` lacks: `dir()` of each minus `dir(np.ndarray)`, recorded
/// from NumPy 1.24.3 and 2.2.6 (the same list for both).
const SCALAR_ATTRS: &[&str] = &[
    "as_integer_ratio",
    "bit_count",
    "capitalize",
    "casefold",
    "center",
    "count",
    "decode",
    "denominator",
    "encode",
    "endswith",
    "expandtabs",
    "find",
    "format",
    "format_map",
    "fromhex",
    "hex",
    "index",
    "is_integer",
    "isalnum",
    "isalpha",
    "isascii",
    "isdecimal",
    "isdigit",
    "isidentifier",
    "islower",
    "isnumeric",
    "isprintable",
    "isspace",
    "istitle",
    "isupper",
    "join",
    "ljust",
    "lower",
    "lstrip",
    "maketrans",
    "numerator",
    "removeprefix",
    "removesuffix",
    "replace",
    "rfind",
    "rindex",
    "rjust",
    "rpartition",
    "rsplit",
    "rstrip",
    "split",
    "splitlines",
    "startswith",
    "strip",
    "swapcase",
    "title",
    "translate",
    "upper",
    "zfill",
];

const SUBCLASS_ATTRS: &[&str] = &[
    "mask",
    "fill_value",
    "filled",
    "compressed",
    "harden_mask",
    "soften_mask",
    "hardmask",
    "recordmask",
    "sharedmask",
    "unshare_mask",
    "count",
    "anom",
    "A",
    "A1",
    "H",
    "I",
    "getA",
    "getA1",
    "getH",
    "getI",
];

/// An instance whose `__dict__` is replaced or handed out: what the analysis knew of its own
/// attributes no longer holds (`self.__dict__ = self` in a dict subclass makes the keyword
/// arguments its attributes).
pub(crate) fn forget_attributes(st: &mut State, addr: super::value::Addr) {
    if let Some(Obj::Instance { attrs, .. }) = st.obj_mut(addr) {
        attrs.clear();
        attrs.insert(
            OPAQUE.into(),
            super::state::Binding {
                value: Value::Top,
                maybe_unbound: false,
            },
        );
    }
}

/// Marks an instance that code the analysis does not see may hold and change (it escaped into
/// a library call, or its `__dict__` did): its data attributes read as unknown.
pub(crate) const OPAQUE: &str = "<opaque>";

/// Does `obj` — a number, a string, `None` or a list — certainly lack attribute `attr`? A
/// number may be a NumPy scalar, which has the attributes NumPy scalars have.
pub(crate) fn plain_lacks(obj: &Value, attr: &str) -> bool {
    let numeric = matches!(obj, Value::Int(_) | Value::Float(_) | Value::Bool(_));
    if !(numeric || matches!(obj, Value::None | Value::Str(_) | Value::List(_))) {
        return false;
    }
    let ty = obj.type_name().unwrap_or("object");
    let known = TYPE_ATTRS.contains(&(ty, attr))
        || attr.starts_with("__")
        || (numeric && crate::numpy::scalar_attr(attr));
    !known
}
