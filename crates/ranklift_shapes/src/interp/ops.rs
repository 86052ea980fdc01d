//! Python's operators over abstract values: arithmetic with constant folding, division by zero
//! (E001), unsupported operand types (E009) with CPython's own messages, array broadcasting
//! (W502) and `@` (W504).

use ruff_python_ast::{CmpOp, Operator, UnaryOp};
use ruff_text_size::TextRange;

use super::state::State;
use super::value::{Int, Seq, Value};
use super::{Exc, Interp};
use crate::Certainty;
use crate::models::{broadcast::broadcast, matmul::matmul};

fn symbol(op: Operator) -> &'static str {
    match op {
        Operator::Add => "+",
        Operator::Sub => "-",
        Operator::Mult => "*",
        Operator::MatMult => "@",
        Operator::Div => "/",
        Operator::Mod => "%",
        Operator::Pow => "** or pow()",
        Operator::LShift => "<<",
        Operator::RShift => ">>",
        Operator::BitOr => "|",
        Operator::BitXor => "^",
        Operator::BitAnd => "&",
        Operator::FloorDiv => "//",
    }
}

/// Types whose binary operators CPython resolves among themselves (no user `__radd__` can
/// rescue an operation between two of them): the only ones E009 is reported for.
fn plain(v: &Value) -> Option<&'static str> {
    match v {
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::None | Value::Str(_) => {
            v.type_name()
        }
        Value::List(_) | Value::Tuple(_) => v.type_name(),
        _ => None,
    }
}

fn is_number(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Float(_) | Value::Bool(_))
}

impl<'a> Interp<'a> {
    pub(crate) fn binop(
        &mut self,
        op: Operator,
        l: &Value,
        r: &Value,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        // An element of an array next to a number or an array is taken for a NumPy scalar.
        let scalar = Value::Array(crate::Shape::Known(Vec::new()));
        let numeric = |v: &Value| {
            matches!(
                v,
                Value::Array(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Elem
            )
        };
        let (l, r) = match (l, r) {
            (Value::Elem, x) if numeric(x) => {
                (&scalar, if *x == Value::Elem { &scalar } else { r })
            }
            (x, Value::Elem) if numeric(x) => (l, &scalar),
            _ => (l, r),
        };
        // An operand of unknown type (a sparse matrix, a Series, a tensor) decides the result's
        // type through its own operators or `__array_priority__`: not known to be an array.
        if matches!(l, Value::Top | Value::Elem | Value::Instance(_))
            || matches!(r, Value::Top | Value::Elem | Value::Instance(_))
        {
            return Value::Top;
        }
        // Tensors: PyTorch's broadcasting and matmul (crate::torch::ops).
        if matches!(l, Value::Tensor(_)) || matches!(r, Value::Tensor(_)) {
            return self.tensor_binop(op == Operator::MatMult, l, r, range);
        }
        // Arrays (and anything NumPy converts to an array, next to an array).
        if matches!(l, Value::Array(_)) || matches!(r, Value::Array(_)) {
            let heap = |a| st.list(a);
            let (Some(a), Some(b)) = (l.array_shape(&heap), r.array_shape(&heap)) else {
                return Value::Top;
            };
            self.pending = Some((range, vec![a.clone(), b.clone()], Some(symbol(op))));
            let outcome = if op == Operator::MatMult {
                matmul(&a, &b)
            } else {
                broadcast(&a, &b)
            };
            return self.outcome(range, outcome);
        }
        if matches!(l, Value::Top) || matches!(r, Value::Top) {
            return Value::Top;
        }
        if is_number(l) && is_number(r) {
            return self.arith(op, l, r, range);
        }
        match (op, l, r) {
            (Operator::Add, Value::Str(a), Value::Str(b)) => {
                return Value::Str(match (a, b) {
                    (Some(a), Some(b)) if a.len() + b.len() < 4096 => {
                        Some(format!("{a}{b}").into())
                    }
                    _ => None,
                });
            }
            (Operator::Mod, Value::Str(f), args) => {
                return Value::Str(
                    f.as_deref()
                        .filter(|f| f.len() < 4096)
                        .and_then(|f| super::percent_format::percent_format(f, args))
                        .map(Into::into),
                );
            }
            (Operator::Add, Value::Tuple(a), Value::Tuple(b)) => {
                return Value::Tuple(concat(a, b));
            }
            (Operator::Add, Value::List(a), Value::List(b)) => {
                let (Some(a), Some(b)) = (st.list(*a), st.list(*b)) else {
                    return Value::Top;
                };
                return self.alloc_list(concat(&a, &b), range.start(), st);
            }
            (Operator::Mult, Value::Str(_), Value::Int(_) | Value::Bool(_))
            | (Operator::Mult, Value::Int(_) | Value::Bool(_), Value::Str(_)) => {
                return Value::Str(None);
            }
            (Operator::Mult, Value::Tuple(s), n) | (Operator::Mult, n, Value::Tuple(s))
                if matches!(n, Value::Int(_) | Value::Bool(_)) =>
            {
                return Value::Tuple(repeat(s, n));
            }
            (Operator::Mult, Value::List(a), n) | (Operator::Mult, n, Value::List(a))
                if matches!(n, Value::Int(_) | Value::Bool(_)) =>
            {
                let Some(s) = st.list(*a) else {
                    return Value::Top;
                };
                return self.alloc_list(repeat(&s, n), range.start(), st);
            }
            _ => {}
        }
        // Both operand types known and plain: CPython raises TypeError.
        if let (Some(a), Some(b)) = (plain(l), plain(r)) {
            let message = match (op, l) {
                (Operator::Add, Value::Str(_) | Value::List(_) | Value::Tuple(_)) => {
                    format!("can only concatenate {a} (not \"{b}\") to {a}")
                }
                (Operator::Mult, Value::Str(_) | Value::List(_) | Value::Tuple(_)) => {
                    format!("can't multiply sequence by non-int of type '{b}'")
                }
                (Operator::Mult, _)
                    if matches!(r, Value::Str(_) | Value::List(_) | Value::Tuple(_)) =>
                {
                    format!("can't multiply sequence by non-int of type '{a}'")
                }
                _ => format!(
                    "unsupported operand type(s) for {}: '{a}' and '{b}'",
                    symbol(op)
                ),
            };
            self.report(range, "E009", Exc::Type, message, Certainty::Certain);
        }
        Value::Top
    }

    /// Arithmetic between Python numbers, folding constants.
    fn arith(&mut self, op: Operator, l: &Value, r: &Value, range: TextRange) -> Value {
        let float = matches!(l, Value::Float(_)) || matches!(r, Value::Float(_));
        // Division by zero.
        if matches!(op, Operator::Div | Operator::FloorDiv | Operator::Mod) {
            let zero = match r {
                Value::Float(Some(b)) => Some(f64::from_bits(*b) == 0.0),
                _ => r.as_int().and_then(|i| i.constant()).map(|c| c == 0),
            };
            if zero == Some(true) {
                self.report(
                    range,
                    "E001",
                    Exc::ZeroDivision,
                    zero_division_message(op, float).to_owned(),
                    Certainty::Certain,
                );
                return Value::Top;
            }
            if zero.is_none()
                && let Some(i) = r.as_int()
                && contains_zero(&i)
            {
                self.report(
                    range,
                    "E001",
                    Exc::ZeroDivision,
                    zero_division_message(op, float).to_owned(),
                    Certainty::Possible("the divisor may be zero".to_owned()),
                );
            }
        }
        if op == Operator::Pow && l.as_f64() == Some(0.0) && r.as_f64().is_some_and(|x| x < 0.0) {
            self.report(
                range,
                "E001",
                Exc::ZeroDivision,
                "0.0 cannot be raised to a negative power".to_owned(),
                Certainty::Certain,
            );
            return Value::Top;
        }
        if float || op == Operator::Div {
            let (Some(a), Some(b)) = (l.as_f64(), r.as_f64()) else {
                return Value::Float(None);
            };
            let v = match op {
                Operator::Add => a + b,
                Operator::Sub => a - b,
                Operator::Mult => a * b,
                Operator::Div => a / b,
                Operator::FloorDiv => (a / b).floor(),
                Operator::Mod => a - b * (a / b).floor(),
                Operator::Pow => a.powf(b),
                _ => return Value::Top,
            };
            return if v.is_finite() {
                Value::float(v)
            } else {
                Value::Float(None)
            };
        }
        let (Some(a), Some(b)) = (l.as_int(), r.as_int()) else {
            return Value::Top;
        };
        let (Some(x), Some(y)) = (a.constant(), b.constant()) else {
            // Identities that keep a symbol: n + 0, n * 1.
            return match (op, &a, b.constant()) {
                (Operator::Add | Operator::Sub, Int::Sym(_), Some(0)) => Value::Int(a),
                (Operator::Mult | Operator::FloorDiv, Int::Sym(_), Some(1)) => Value::Int(a),
                _ => Value::Int(interval(op, &a, &b)),
            };
        };
        let v = match op {
            Operator::Add => x.checked_add(y),
            Operator::Sub => x.checked_sub(y),
            Operator::Mult => x.checked_mul(y),
            Operator::FloorDiv => floor_div(x, y),
            Operator::Mod => floor_div(x, y)
                .and_then(|q| q.checked_mul(y))
                .map(|p| x - p),
            Operator::Pow if y >= 0 => u32::try_from(y).ok().and_then(|e| x.checked_pow(e)),
            Operator::Pow => return Value::Float(None),
            Operator::LShift if (0..63).contains(&y) => {
                x.checked_shl(y as u32).filter(|v| v >> y == x)
            }
            Operator::RShift if y >= 0 => Some(x >> y.min(63)),
            Operator::BitAnd => Some(x & y),
            Operator::BitOr => Some(x | y),
            Operator::BitXor => Some(x ^ y),
            _ => None,
        };
        match v {
            Some(v) => Value::int(v),
            None => Value::Int(Int::ANY),
        }
    }

    /// The truth of `v` used as a condition (`if`, `while`, `assert`, `not`, `and`/`or`, a
    /// conditional expression, `bool()`): an array of more than one element raises
    /// (`models/truth.rs`), and then the truth is unknown.
    pub(crate) fn test_truth(&mut self, v: &Value, range: TextRange, st: &State) -> Option<bool> {
        if let Value::Array(s) = v
            && let Some(o) = crate::models::truth::truth(s)
        {
            self.outcome(range, o);
            return None;
        }
        if let Value::Instance(addr) = v {
            return self.instance_truth(*addr, st);
        }
        truth_in(v, st)
    }

    pub(crate) fn unary(&mut self, op: UnaryOp, v: &Value) -> Value {
        match (op, v) {
            (UnaryOp::Not, v) => Value::Bool(v.truth().map(|b| !b)),
            (UnaryOp::USub | UnaryOp::UAdd, Value::Elem) => Value::Elem,
            (_, Value::Array(s)) => Value::Array(s.clone()),
            (UnaryOp::USub | UnaryOp::UAdd | UnaryOp::Invert, Value::Tensor(s)) => {
                Value::Tensor(s.clone())
            }
            (UnaryOp::USub, Value::Int(i)) => Value::Int(match i.constant() {
                Some(c) => c.checked_neg().map_or(Int::ANY, Int::Const),
                None => Int::ANY,
            }),
            (UnaryOp::USub, Value::Float(f)) => {
                Value::Float(f.map(|b| (-f64::from_bits(b)).to_bits()))
            }
            (UnaryOp::USub | UnaryOp::UAdd | UnaryOp::Invert, Value::Bool(b)) => {
                let i = b.map(i64::from);
                Value::Int(match (op, i) {
                    (UnaryOp::USub, Some(i)) => Int::Const(-i),
                    (UnaryOp::UAdd, Some(i)) => Int::Const(i),
                    (UnaryOp::Invert, Some(i)) => Int::Const(!i),
                    _ => Int::ANY,
                })
            }
            (UnaryOp::UAdd, Value::Int(_) | Value::Float(_)) => v.clone(),
            (UnaryOp::Invert, Value::Int(i)) => Value::Int(match i.constant() {
                Some(c) => Int::Const(!c),
                None => Int::ANY,
            }),
            _ => Value::Top,
        }
    }

    /// One comparison `l op r`.
    pub(crate) fn compare(
        &mut self,
        op: CmpOp,
        l: &Value,
        r: &Value,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        if (matches!(l, Value::Tensor(_)) || matches!(r, Value::Tensor(_)))
            && !matches!(op, CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn)
        {
            return self.tensor_binop(false, l, r, range);
        }
        if matches!(l, Value::Array(_)) || matches!(r, Value::Array(_)) {
            if matches!(op, CmpOp::Is | CmpOp::IsNot) {
                return Value::Bool(match (l, r) {
                    (Value::Array(_), Value::None) | (Value::None, Value::Array(_)) => {
                        Some(op == CmpOp::IsNot)
                    }
                    _ => None,
                });
            }
            if matches!(op, CmpOp::In | CmpOp::NotIn) {
                return Value::Bool(None);
            }
            let heap = |a| st.list(a);
            return match (l.array_shape(&heap), r.array_shape(&heap)) {
                (Some(a), Some(b)) => {
                    let o = broadcast(&a, &b);
                    self.outcome(range, o)
                }
                _ => Value::Top,
            };
        }
        // `==`, `<`, ... on a value of unknown type may be element-wise (an array) or anything a
        // class's `__eq__`/`__lt__` returns: not necessarily a bool.
        let rich = !matches!(op, CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn);
        let unknown = |v: &Value| matches!(v, Value::Top | Value::Instance(_));
        if rich && (unknown(l) || unknown(r)) {
            return Value::Top;
        }
        match op {
            CmpOp::Is | CmpOp::IsNot => {
                let same = match (l, r) {
                    (Value::None, Value::None) => Some(true),
                    (Value::None, x) | (x, Value::None) => match x {
                        Value::Top => None,
                        Value::Instance(_) => Some(false),
                        // Library functions, classes and layers are objects, never None
                        // (`if norm_layer is None:` with `norm_layer=nn.BatchNorm2d`).
                        Value::NpFunc(_)
                        | Value::TorchFunc(_)
                        | Value::Layer(_)
                        | Value::Builtin(_)
                        | Value::Class(_)
                        | Value::Module(_) => Some(false),
                        _ => x.type_name().map(|_| false),
                    },
                    (Value::Bool(Some(a)), Value::Bool(Some(b))) => Some(a == b),
                    // Classes of the program are known objects (`if test_class is ScaleSpace:`
                    // in a loop over classes); one is not another, nor any other kind of value.
                    (Value::Class(a), Value::Class(b)) => Some(a == b),
                    (Value::Class(_), x) | (x, Value::Class(_))
                        if !matches!(x, Value::Top | Value::Instance(_)) =>
                    {
                        Some(false)
                    }
                    _ => None,
                };
                Value::Bool(same.map(|s| s == (op == CmpOp::Is)))
            }
            CmpOp::Eq | CmpOp::NotEq => {
                let eq = match (l, r) {
                    (Value::Str(Some(a)), Value::Str(Some(b))) => Some(a == b),
                    // Classes compare by identity unless their metaclass says otherwise
                    // (`n = ... if block == BasicBlock else ...` with `block=Bottleneck`).
                    (Value::Class(a), Value::Class(b))
                        if !self.class_is_meta(*a) && !self.class_is_meta(*b) =>
                    {
                        Some(a == b)
                    }
                    (Value::Str(_), x) | (x, Value::Str(_)) if is_number(x) => Some(false),
                    (Value::None, Value::None) => Some(true),
                    // `None == v` for a built-in `v` (a number, a string, a tuple: the
                    // `shape != self.lastshape` of a lazily initialised object) is False.
                    (Value::None, x) | (x, Value::None) if x.type_name().is_some() => Some(false),
                    (Value::Tuple(_), x) | (x, Value::Tuple(_))
                        if is_number(x) || matches!(x, Value::Str(_)) =>
                    {
                        Some(false)
                    }
                    (Value::Tuple(Seq::Exact(a)), Value::Tuple(Seq::Exact(b)))
                        if a.len() != b.len() =>
                    {
                        Some(false)
                    }
                    (Value::Tuple(Seq::Exact(a)), Value::Tuple(Seq::Exact(b))) => {
                        let mut all = Some(true);
                        for (x, y) in a.iter().zip(b.iter()) {
                            match self.compare(CmpOp::Eq, x, y, range, st).truth() {
                                Some(true) => {}
                                Some(false) => {
                                    all = Some(false);
                                    break;
                                }
                                None => all = None,
                            }
                        }
                        all
                    }
                    _ if is_number(l) && is_number(r) => match (l.as_f64(), r.as_f64()) {
                        (Some(a), Some(b)) => Some(a == b),
                        _ => match (l.as_int(), r.as_int()) {
                            (Some(Int::Sym(a)), Some(Int::Sym(b))) if a == b => Some(true),
                            (Some(a), Some(b)) => disjoint(&a, &b).then_some(false),
                            _ => None,
                        },
                    },
                    _ => None,
                };
                Value::Bool(eq.map(|e| e == (op == CmpOp::Eq)))
            }
            // Membership in a known list or tuple: `ndim in [2, 3]` is decided when `ndim` is.
            CmpOp::In | CmpOp::NotIn => {
                if let Some(found) = super::strings::contains(r, l) {
                    return Value::Bool(Some(found == (op == CmpOp::In)));
                }
                if let Value::Kwargs(items) = r {
                    let found = match l {
                        Value::Str(Some(k)) => Some(items.iter().any(|(x, _)| x == k)),
                        _ => None,
                    };
                    return Value::Bool(found.map(|f| f == (op == CmpOp::In)));
                }
                // A constant key in a dict: there, or not where no other key can be.
                if let Value::Dict(a) = r {
                    let found = match st.dict(*a) {
                        Some((items, exact)) if l.is_const_key() => {
                            if items.iter().any(|(k, _)| k == l) {
                                Some(true)
                            } else {
                                exact.then_some(false)
                            }
                        }
                        _ => None,
                    };
                    return Value::Bool(found.map(|f| f == (op == CmpOp::In)));
                }
                let items = match r {
                    Value::Tuple(Seq::Exact(items)) => Some(items.to_vec()),
                    Value::List(a) => match st.list(*a) {
                        Some(Seq::Exact(items)) => Some(items.to_vec()),
                        _ => None,
                    },
                    _ => None,
                };
                let found = items.and_then(|items| {
                    let mut acc = Some(false);
                    for x in &items {
                        match self.compare(CmpOp::Eq, l, x, range, st).truth() {
                            Some(true) => return Some(true),
                            Some(false) => {}
                            None => acc = None,
                        }
                    }
                    acc
                });
                Value::Bool(found.map(|f| f == (op == CmpOp::In)))
            }
            CmpOp::Lt | CmpOp::LtE | CmpOp::Gt | CmpOp::GtE => {
                if is_number(l) && is_number(r) {
                    if let (Some(a), Some(b)) = (l.as_f64(), r.as_f64()) {
                        return Value::Bool(Some(match op {
                            CmpOp::Lt => a < b,
                            CmpOp::LtE => a <= b,
                            CmpOp::Gt => a > b,
                            _ => a >= b,
                        }));
                    }
                    if let (Some(a), Some(b)) = (l.as_int(), r.as_int()) {
                        return Value::Bool(order(op, &a, &b));
                    }
                    return Value::Bool(None);
                }
                // Known strings compare by code points, as Python's do (`"3" < "3"`).
                if let (Value::Str(Some(a)), Value::Str(Some(b))) = (l, r) {
                    return Value::Bool(Some(match op {
                        CmpOp::Lt => a < b,
                        CmpOp::LtE => a <= b,
                        CmpOp::Gt => a > b,
                        _ => a >= b,
                    }));
                }
                // Tuples compare lexicographically (`sys.version_info >= (3, 8)`), in
                // three-valued logic: a[i:] op b[i:] = first(i) or (eq(i) and rest(i + 1)).
                if let (Value::Tuple(Seq::Exact(a)), Value::Tuple(Seq::Exact(b))) = (l, r) {
                    let strict = if matches!(op, CmpOp::Lt | CmpOp::LtE) {
                        CmpOp::Lt
                    } else {
                        CmpOp::Gt
                    };
                    let (la, lb) = (a.len(), b.len());
                    let mut acc = Some(match op {
                        CmpOp::Lt => la < lb,
                        CmpOp::LtE => la <= lb,
                        CmpOp::Gt => la > lb,
                        _ => la >= lb,
                    });
                    let loose = if strict == CmpOp::Lt {
                        CmpOp::LtE
                    } else {
                        CmpOp::GtE
                    };
                    for (x, y) in a.iter().zip(b.iter()).rev() {
                        // With the rest decided, the element's own (strict or loose) order is
                        // the answer: `x >= y` is known even where `x > y` and `x == y` are not.
                        if let Some(rest) = acc {
                            let o = if rest { loose } else { strict };
                            acc = self.compare(o, x, y, range, st).truth();
                            continue;
                        }
                        let first = self.compare(strict, x, y, range, st).truth();
                        let eq = self.compare(CmpOp::Eq, x, y, range, st).truth();
                        let and = match (eq, acc) {
                            (Some(false), _) | (_, Some(false)) => Some(false),
                            (Some(true), Some(true)) => Some(true),
                            _ => None,
                        };
                        acc = match (first, and) {
                            (Some(true), _) | (_, Some(true)) => Some(true),
                            (Some(false), Some(false)) => Some(false),
                            _ => None,
                        };
                    }
                    return Value::Bool(acc);
                }
                let comparable = matches!(
                    (l, r),
                    (Value::Str(_), Value::Str(_))
                        | (Value::List(_), Value::List(_))
                        | (Value::Tuple(_), Value::Tuple(_))
                );
                if !comparable && let (Some(a), Some(b)) = (plain(l), plain(r)) {
                    let sym = match op {
                        CmpOp::Lt => "<",
                        CmpOp::LtE => "<=",
                        CmpOp::Gt => ">",
                        _ => ">=",
                    };
                    self.report(
                        range,
                        "E009",
                        Exc::Type,
                        format!("'{sym}' not supported between instances of '{a}' and '{b}'"),
                        Certainty::Certain,
                    );
                    return Value::Top;
                }
                Value::Bool(None)
            }
        }
    }
}

/// CPython 3.11's message for a zero divisor.
fn zero_division_message(op: Operator, float: bool) -> &'static str {
    match (op, float) {
        (Operator::Div, false) => "division by zero",
        (Operator::Div, true) => "float division by zero",
        (Operator::FloorDiv, false) => "integer division or modulo by zero",
        (Operator::FloorDiv, true) => "float floor division by zero",
        (Operator::Mod, false) => "integer modulo by zero",
        _ => "float modulo",
    }
}

fn contains_zero(i: &Int) -> bool {
    match i {
        Int::Const(c) => *c == 0,
        // An unknown int may be zero.
        Int::Sym(_) => true,
        Int::Range(lo, hi) => lo.is_none_or(|l| l <= 0) && hi.is_none_or(|h| h >= 0),
    }
}

fn bounds(i: &Int) -> (Option<i64>, Option<i64>) {
    match i {
        Int::Const(c) => (Some(*c), Some(*c)),
        Int::Sym(_) => (None, None),
        Int::Range(a, b) => (*a, *b),
    }
}

fn disjoint(a: &Int, b: &Int) -> bool {
    let (a0, a1) = bounds(a);
    let (b0, b1) = bounds(b);
    matches!((a1, b0), (Some(x), Some(y)) if x < y)
        || matches!((b1, a0), (Some(x), Some(y)) if x < y)
}

/// `a < b` etc. decided from intervals when they do not overlap.
fn order(op: CmpOp, a: &Int, b: &Int) -> Option<bool> {
    let (a0, a1) = bounds(a);
    let (b0, b1) = bounds(b);
    let lt = |x: Option<i64>, y: Option<i64>| matches!((x, y), (Some(x), Some(y)) if x < y);
    let le = |x: Option<i64>, y: Option<i64>| matches!((x, y), (Some(x), Some(y)) if x <= y);
    match op {
        CmpOp::Lt if lt(a1, b0) => Some(true),
        CmpOp::Lt if le(b1, a0) => Some(false),
        CmpOp::LtE if le(a1, b0) => Some(true),
        CmpOp::LtE if lt(b1, a0) => Some(false),
        CmpOp::Gt => order(CmpOp::Lt, b, a),
        CmpOp::GtE => order(CmpOp::LtE, b, a),
        _ => None,
    }
}

/// Interval arithmetic for `+ - *` on non-constant ints (anything else: unknown).
fn interval(op: Operator, a: &Int, b: &Int) -> Int {
    let (a0, a1) = bounds(a);
    let (b0, b1) = bounds(b);
    let add = |x: Option<i64>, y: Option<i64>| x.zip(y).and_then(|(x, y)| x.checked_add(y));
    match op {
        Operator::Add => Int::Range(add(a0, b0), add(a1, b1)),
        Operator::Sub => Int::Range(
            a0.zip(b1).and_then(|(x, y)| x.checked_sub(y)),
            a1.zip(b0).and_then(|(x, y)| x.checked_sub(y)),
        ),
        Operator::Mult if a0.is_some_and(|x| x >= 0) && b0.is_some_and(|x| x >= 0) => Int::Range(
            a0.zip(b0).and_then(|(x, y)| x.checked_mul(y)),
            a1.zip(b1).and_then(|(x, y)| x.checked_mul(y)),
        ),
        // Python's `x % m` takes the sign of `m`: in `0..m` for any `x` when `m > 0`
        // (`out[i % 5]`); never further from zero than `x` itself when `x >= 0`.
        Operator::Mod if b0.is_some_and(|m| m > 0) => {
            let hi = b1.map(|m| m - 1);
            let hi = match (hi, a0.is_some_and(|x| x >= 0).then_some(a1).flatten()) {
                (Some(h), Some(x)) => Some(h.min(x)),
                (h, _) => h,
            };
            Int::Range(Some(0), hi)
        }
        // `x // m` of a non-negative `x` by a positive `m` stays in `0..=x`.
        Operator::FloorDiv if a0.is_some_and(|x| x >= 0) && b0.is_some_and(|m| m > 0) => {
            Int::Range(
                a0.zip(b1).and_then(|(x, m)| floor_div(x, m)),
                a1.zip(b0).and_then(|(x, m)| floor_div(x, m)),
            )
        }
        _ => Int::ANY,
    }
}

fn concat(a: &Seq, b: &Seq) -> Seq {
    match (a, b) {
        (Seq::Exact(x), Seq::Exact(y)) => Seq::Exact(x.iter().chain(y.iter()).cloned().collect()),
        _ => Seq::Summary(
            Box::new(a.join(b).element()),
            match (a.len().constant(), b.len().constant()) {
                (Some(x), Some(y)) => Int::Const(x + y),
                _ => Int::Range(Some(0), None),
            },
        ),
    }
}

fn repeat(s: &Seq, n: &Value) -> Seq {
    match (s, n.as_int().and_then(|i| i.constant())) {
        (Seq::Exact(x), Some(k)) if (x.len() as i64) * k.max(0) <= 4096 => Seq::Exact(
            x.iter()
                .cloned()
                .cycle()
                .take(x.len() * k.max(0) as usize)
                .collect(),
        ),
        _ => Seq::Summary(Box::new(s.element()), Int::Range(Some(0), None)),
    }
}

/// Python's `//` on ints (rounds toward negative infinity).
fn floor_div(x: i64, y: i64) -> Option<i64> {
    let q = x.checked_div(y)?;
    Some(if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    })
}

/// The truth of `v`, with the heap: a list or dict is true when it holds anything (known when
/// its items are: `if not block_setting: raise ...` on the list the caller passed is decided).
pub(crate) fn truth_in(v: &Value, st: &State) -> Option<bool> {
    match v {
        Value::List(a) => match st.list(*a) {
            Some(super::value::Seq::Exact(items)) => Some(!items.is_empty()),
            _ => None,
        },
        Value::Dict(a) => match st.dict(*a) {
            Some((items, true)) => Some(!items.is_empty()),
            Some((items, false)) if !items.is_empty() => Some(true),
            _ => None,
        },
        v => v.truth(),
    }
}
