//! Abstract values: what the interpreter knows about a Python value.
//!
//! Every domain here is a join-semilattice with a top; integers have infinite ascending chains
//! (intervals), so loops use [`Value::widen`], which sends a moving bound to infinity and cuts
//! nesting deeper than [`MAX_DEPTH`]; every other component has finite height. Together this is
//! what makes every loop's fixpoint iteration terminate.

use std::sync::Arc;

use crate::{Dim, Shape};

/// Nesting depth beyond which widening gives up on structure (tuples of tuples of ...).
pub const MAX_DEPTH: usize = 4;

/// An integer: a constant, a named unknown (its name is printed in shapes), or an interval
/// (`None` bounds are infinite; `Range(None, None)` is "some int").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Int {
    Const(i64),
    Sym(Arc<str>),
    Range(Option<i64>, Option<i64>),
}

impl Int {
    pub const ANY: Int = Int::Range(None, None);

    pub fn constant(&self) -> Option<i64> {
        match self {
            Int::Const(c) => Some(*c),
            Int::Range(Some(a), Some(b)) if a == b => Some(*a),
            _ => None,
        }
    }

    fn bounds(&self) -> (Option<i64>, Option<i64>) {
        match self {
            Int::Const(c) => (Some(*c), Some(*c)),
            Int::Sym(_) => (None, None),
            Int::Range(a, b) => (*a, *b),
        }
    }

    pub fn join(&self, other: &Int) -> Int {
        if self == other {
            return self.clone();
        }
        let (a0, a1) = self.bounds();
        let (b0, b1) = other.bounds();
        let lo = a0.zip(b0).map(|(x, y)| x.min(y));
        let hi = a1.zip(b1).map(|(x, y)| x.max(y));
        Int::Range(lo, hi)
    }

    /// Widening: a bound that moved goes to infinity.
    pub fn widen(&self, new: &Int) -> Int {
        if self == new {
            return self.clone();
        }
        let (a0, a1) = self.bounds();
        let (b0, b1) = new.bounds();
        let lo = match (a0, b0) {
            (Some(x), Some(y)) if y >= x => Some(x),
            _ => None,
        };
        let hi = match (a1, b1) {
            (Some(x), Some(y)) if y <= x => Some(x),
            _ => None,
        };
        Int::Range(lo, hi)
    }

    /// The dimension this integer denotes when used as an array size.
    pub fn as_dim(&self) -> Dim {
        match self {
            Int::Const(c) if *c >= 0 => Dim::Known(*c as u64),
            Int::Sym(s) => Dim::Sym(s.clone()),
            _ => Dim::Unknown,
        }
    }

    pub fn from_dim(d: &Dim) -> Int {
        match d {
            Dim::Known(k) => Int::Const(*k as i64),
            Dim::Sym(s) => Int::Sym(s.clone()),
            Dim::Unknown => Int::Range(Some(0), None),
        }
    }

    /// Certainly negative?
    pub fn is_negative(&self) -> bool {
        matches!(self.bounds().1, Some(h) if h < 0)
    }
}

/// A heap address: the allocation site (module, byte offset) and the call site it was reached
/// from (one level of call string), so two calls of one factory function give two objects; and
/// the iteration of the unrolled loops it was made in (`iter`, 0 outside them), so that
/// `for s in strides: layers.append(Block(c, s))` makes one object per iteration, as the
/// program does (one address for all would make every block the last one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Addr {
    pub module: u32,
    pub site: u32,
    pub call: u32,
    pub iter: u32,
}

/// A sequence's contents: every element known, or a summary (element join and length).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Seq {
    Exact(Arc<[Value]>),
    Summary(Box<Value>, Int),
}

impl Seq {
    pub fn empty() -> Seq {
        Seq::Exact(Arc::from(Vec::new()))
    }

    pub fn len(&self) -> Int {
        match self {
            Seq::Exact(v) => Int::Const(v.len() as i64),
            Seq::Summary(_, n) => n.clone(),
        }
    }

    /// The join of all elements (`Top` for an empty sequence's element: nothing is known).
    pub fn element(&self) -> Value {
        match self {
            Seq::Exact(v) => v
                .iter()
                .skip(1)
                .fold(v.first().cloned().unwrap_or(Value::Top), |a, b| a.join(b)),
            Seq::Summary(e, _) => (**e).clone(),
        }
    }

    pub fn join(&self, other: &Seq) -> Seq {
        match (self, other) {
            (Seq::Exact(a), Seq::Exact(b)) if a.len() == b.len() => {
                Seq::Exact(a.iter().zip(b.iter()).map(|(x, y)| x.join(y)).collect())
            }
            _ => Seq::Summary(
                Box::new(self.element_or(other)),
                self.len().join(&other.len()),
            ),
        }
    }

    fn element_or(&self, other: &Seq) -> Value {
        let empty = |s: &Seq| matches!(s, Seq::Exact(v) if v.is_empty());
        match (empty(self), empty(other)) {
            (true, true) => Value::Top,
            (true, false) => other.element(),
            (false, true) => self.element(),
            (false, false) => self.element().join(&other.element()),
        }
    }

    pub fn widen(&self, new: &Seq, depth: usize) -> Seq {
        match (self, new) {
            (Seq::Exact(a), Seq::Exact(b)) if a.len() == b.len() => Seq::Exact(
                a.iter()
                    .zip(b.iter())
                    .map(|(x, y)| x.widen_at(y, depth + 1))
                    .collect(),
            ),
            _ => {
                let old = match self {
                    Seq::Exact(_) => self.element(),
                    Seq::Summary(e, _) => (**e).clone(),
                };
                Seq::Summary(
                    Box::new(old.widen_at(&self.element_or(new), depth + 1)),
                    self.len().widen(&new.len()),
                )
            }
        }
    }
}

/// A module value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ModRef {
    /// `numpy` or one of its modelled submodules (`numpy.random`, `numpy.linalg`).
    Numpy(&'static str),
    /// `pytropos.hints.numpy` / `ranklift.hints`: where `NdArray` comes from.
    Hints,
    /// `typing` (for `Annotated`).
    Typing,
    /// `jaxtyping`: its dtypes subscripted with an array type and a shape string.
    Jaxtyping,
    /// `sys` (for `version_info`: code for Python 2 is dead).
    Sys,
    /// `platform` (for `python_version_tuple()`: Python 2 branches are dead there too).
    Platform,
    /// `math`: its scalar functions convert array arguments to one number (W515).
    Math,
    /// `copy`: `copy` and `deepcopy` keep what is known of values (arrays, numbers, strings).
    Copy,
    /// `argparse`: the command line's defaults (`interp/argparse.rs`).
    Argparse,
    /// `functools`: `partial` (`interp/partial.rs`).
    Functools,
    /// `collections`: `OrderedDict` is a dict.
    Collections,
    /// `threading`: `local()` (`interp/thread_local.rs`).
    Threading,
    /// `re`: `split`, `findall`, `sub`, `match` (`interp/re_module.rs`).
    Re,
    /// `dataclasses`: `replace` (`interp/dataclass_replace.rs`).
    Dataclasses,
    /// `torch` or one of its modelled submodules (`torch.nn`, `torch.nn.functional`).
    Torch(&'static str),
    /// One of the project's own modules, by index.
    User(u32),
    /// Anything else: its attributes are unknown.
    Opaque,
}

/// An abstract collection type (`collections.abc.Sequence`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Abc {
    Sequence,
    Mapping,
    Iterable,
}

/// Python builtins the interpreter models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Builtin {
    Len,
    Range,
    Int,
    Float,
    Bool,
    Str,
    List,
    Tuple,
    Min,
    Max,
    Abs,
    Sum,
    Enumerate,
    Zip,
    /// `map(f, items)`.
    Map,
    Isinstance,
    Print,
    Reversed,
    Sorted,
    /// `dict(a=1, b=2)`.
    Dict,
    /// `setattr(obj, name, value)` / `delattr(obj, name)`.
    SetAttr,
    /// `getattr(obj, "name")`: `obj.name`.
    GetAttr,
    /// `hasattr(obj, "name")` (`interp/getattr_default.rs`).
    HasAttr,
    /// `type(x)`: known for `None` only (`type(None)`, the class `NoneType`).
    Type,
    /// `type(None)`: what `isinstance(x, (Cls, type(None)))` tests.
    NoneType,
    /// `iter(x)` / `next(it)`: followed for a `DataLoader` (`next(iter(loader))` is a batch).
    Iter,
    Next,
    /// `NdArray` from the hints module (subscripted in annotations).
    NdArray,
    /// `Tensor` from the hints module: `NdArray`'s form for PyTorch tensors.
    TensorHint,
    /// `reveal_shape(x)` from the hints module: report what the analysis knows of `x` (W304),
    /// as type checkers' `reveal_type`.
    RevealShape,
    /// `functools.partial` (`interp/partial.rs`).
    Partial,
    /// `collections.namedtuple` / `typing.NamedTuple` (`interp/named_tuple.rs`).
    NamedTuple,
    /// A function of `re` (`interp/re_module.rs`).
    Re(&'static str),
    /// `dataclasses.replace` / `asdict` (`interp/dataclass_replace.rs`).
    DataclassReplace,
    DataclassAsdict,
    /// `super` (`interp/super_call.rs`).
    Super,
    /// `all(items)` / `any(items)`: decided over a known sequence of known truths.
    All,
    /// `round(x[, ndigits])`.
    Round,
    Any,
    /// The abstract collections of `collections.abc` / `typing`, for `isinstance`
    /// (`interp/isinstance.rs`): `Sequence`, `Mapping`, `Iterable`.
    Abc(Abc),
    /// `typing.Annotated`.
    Annotated,
    /// A jaxtyping dtype (`Float`, `Int`, `Shaped`, ...): `Float[Tensor, "b c h w"]`.
    JaxDtype,
    /// `object` (and NumPy's `object_`, `void`): as a dtype, elements may be any object
    /// (sequences included). Calls give an unknown value.
    Object,
    /// `object.__new__(cls)` (and `super().__new__(cls)` reaching it): a new instance of
    /// `cls` with no attributes, `__init__` not run.
    ObjectNew,
    /// A scalar function of the `math` module, by what it returns.
    Math(MathFn),
    /// `copy.copy`.
    Copy,
    /// `copy.deepcopy` (`interp/deepcopy.rs`).
    DeepCopy,
    /// `argparse.ArgumentParser`.
    ArgParser,
    /// `argparse.Namespace`.
    Namespace,
    /// Any other builtin: calls give an unknown value.
    Other,
}

/// A scalar function of the `math` module: the kind of number it returns. Every argument is
/// converted to a Python number first (an array of more than one element cannot be: W515).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MathFn {
    /// `sqrt`, `exp`, `log`, `sin`, `atan2`, `hypot`, ...: a float (named for folding).
    Float(&'static str),
    /// `floor`, `ceil`, `trunc`: an int.
    Int(&'static str),
    /// `isnan`, `isinf`, `isfinite`, `isclose`.
    Bool,
}

/// An abstract Python value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    /// Anything.
    Top,
    /// One element of a 1-d array (`v[0]`), or a tensor's `.item()`: a NumPy scalar or a
    /// Python number, unless the (untracked) dtype is
    /// `object`, when it may be anything. It counts as a scalar where that can only hide an
    /// error, never invent one: inside `np.array([...])` and in arithmetic with numbers and
    /// arrays (`np.array([[0, -w[2], w[1]], ...])` is 3×3). Everywhere else it is [`Value::Top`].
    Elem,
    /// A function's `**kwargs` as its call passed them (names and values, in order): read with
    /// `.get`, `[...]`, `in`, `len`, and passed on with `**kwargs`. A change to it (`pop`,
    /// `kwargs[k] = v`) rebinds the variable (see `interp/call.rs`); anything else is unknown.
    Kwargs(Arc<[(Arc<str>, Value)]>),
    Int(Int),
    /// A float; the bits of a known value.
    Float(Option<u64>),
    Bool(Option<bool>),
    None,
    Str(Option<Arc<str>>),
    /// A NumPy array, of which only the shape is tracked.
    Array(Shape),
    /// A PyTorch tensor, of which only the shape is tracked (`crate::torch`).
    Tensor(Shape),
    /// A modelled PyTorch function or `torch.nn` class, by qualified name (`torch.nn.Linear`).
    TorchFunc(&'static str),
    /// A `torch.nn` layer built by the program, with the constructor arguments its forward
    /// rule needs (`crate::torch::layers`).
    Layer(Arc<crate::torch::layers::Layer>),
    Tuple(Seq),
    /// A list lives on the heap (lists are mutable and aliased).
    List(Addr),
    /// So does a dict (`state::Obj::Dict`).
    Dict(Addr),
    /// `range(start, stop, step)`.
    Range(Box<(Int, Int, Int)>),
    Slice(Box<[Option<Int>; 3]>),
    Ellipsis,
    Func(u32),
    Class(u32),
    Instance(Addr),
    Module(ModRef),
    Builtin(Builtin),
    /// A modelled NumPy function, by qualified name (`numpy.zeros`).
    NpFunc(&'static str),
    /// A bound method: receiver and method name.
    Method(Box<Value>, Arc<str>),
    /// An `argparse.ArgumentParser`: its options' destinations and defaults live in a heap dict
    /// (`interp/argparse.rs`).
    ArgParser(Addr),
    /// What its `parse_args()` returns: the options' values (a heap dict of their names).
    Namespace(Addr),
    /// What `functools.partial(f, ...)` made (`interp/partial.rs`).
    Partial(Arc<super::partial::Partial>),
    /// `super()`: the object, and the class whose bases are searched (`interp/super_call.rs`).
    Super(Arc<(Value, u32)>),
    /// A `lambda` (`interp/lambda.rs`): an index into the lambdas made.
    Lambda(u32),
}

impl Value {
    pub fn int(c: i64) -> Value {
        Value::Int(Int::Const(c))
    }

    pub fn float(f: f64) -> Value {
        Value::Float(Some(f.to_bits()))
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Float(Some(b)) => Some(f64::from_bits(*b)),
            Value::Int(i) => i.constant().map(|c| c as f64),
            Value::Bool(Some(b)) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<Int> {
        match self {
            Value::Int(i) => Some(i.clone()),
            Value::Bool(Some(b)) => Some(Int::Const(i64::from(*b))),
            Value::Bool(None) => Some(Int::Range(Some(0), Some(1))),
            _ => None,
        }
    }

    /// The Python type name CPython prints in messages, when the type is known.
    pub fn type_name(&self) -> Option<&'static str> {
        Some(match self {
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Bool(_) => "bool",
            Value::None => "NoneType",
            Value::Str(_) => "str",
            Value::Array(_) => "numpy.ndarray",
            Value::Tensor(_) => "Tensor",
            Value::Tuple(_) => "tuple",
            Value::List(_) => "list",
            Value::Dict(_) => "dict",
            Value::Range(_) => "range",
            Value::Slice(_) => "slice",
            Value::Ellipsis => "ellipsis",
            Value::Func(_) => "function",
            Value::Partial(_) => "functools.partial",
            Value::Super(_) => "super",
            Value::Module(
                ModRef::Opaque
                | ModRef::User(_)
                | ModRef::Sys
                | ModRef::Platform
                | ModRef::Math
                | ModRef::Copy
                | ModRef::Functools
                | ModRef::Collections
                | ModRef::Threading
                | ModRef::Re
                | ModRef::Dataclasses,
            ) => "module",
            _ => return None,
        })
    }

    /// `kwargs[key]` of a [`Value::Kwargs`], when the call passed `key`.
    pub fn kwarg(items: &[(Arc<str>, Value)], key: &str) -> Option<Value> {
        items
            .iter()
            .find(|(k, _)| &**k == key)
            .map(|(_, v)| v.clone())
    }

    /// A [`Value::Kwargs`] without `key` (after `kwargs.pop(key)` / `del kwargs[key]`), with
    /// `value` under it instead when given (`kwargs[key] = value`).
    pub fn kwargs_with(items: &[(Arc<str>, Value)], key: &Arc<str>, value: Option<Value>) -> Value {
        let rest = items.iter().filter(|(k, _)| k != key).cloned();
        Value::Kwargs(rest.chain(value.map(|v| (key.clone(), v))).collect())
    }

    /// Can this value be a dict key the analysis tells apart from others (a constant)?
    pub fn is_const_key(&self) -> bool {
        match self {
            Value::Str(Some(_)) | Value::Float(Some(_)) | Value::Bool(Some(_)) | Value::None => {
                true
            }
            Value::Int(i) => i.constant().is_some(),
            _ => false,
        }
    }

    /// Data that lives outside the heap (arrays, numbers, strings, None, tuples of those): a
    /// copy of it is equal to it.
    pub fn is_plain_data(&self) -> bool {
        match self {
            Value::Array(_)
            | Value::Tensor(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::Bool(_)
            | Value::Str(_)
            | Value::None => true,
            Value::Tuple(Seq::Exact(items)) => items.iter().all(Value::is_plain_data),
            _ => false,
        }
    }

    /// Truthiness, when known.
    pub fn truth(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => *b,
            Value::Int(i) => match i {
                Int::Const(c) => Some(*c != 0),
                Int::Range(Some(lo), _) if *lo > 0 => Some(true),
                Int::Range(_, Some(hi)) if *hi < 0 => Some(true),
                _ => None,
            },
            Value::Float(Some(b)) => Some(f64::from_bits(*b) != 0.0),
            Value::None => Some(false),
            Value::Str(Some(s)) => Some(!s.is_empty()),
            Value::Tuple(Seq::Exact(v)) => Some(!v.is_empty()),
            Value::Kwargs(v) => Some(!v.is_empty()),
            Value::Func(_) | Value::Class(_) | Value::Module(_) | Value::NpFunc(_) => Some(true),
            Value::TorchFunc(_) | Value::Layer(_) => Some(true),
            Value::Builtin(_) | Value::Method(..) | Value::Ellipsis => Some(true),
            _ => None,
        }
    }

    /// Least upper bound. Commutative, associative, idempotent; different kinds give `Top`.
    pub fn join(&self, other: &Value) -> Value {
        if self == other {
            return self.clone();
        }
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => Value::Int(a.join(b)),
            (Value::Float(_), Value::Float(_)) => Value::Float(None),
            (Value::Bool(_), Value::Bool(_)) => Value::Bool(None),
            (Value::Str(_), Value::Str(_)) => Value::Str(None),
            (Value::Array(a), Value::Array(b)) => Value::Array(a.join(b)),
            (Value::Tensor(a), Value::Tensor(b)) => Value::Tensor(a.join(b)),
            (Value::Tuple(a), Value::Tuple(b)) => Value::Tuple(a.join(b)),
            (Value::Range(a), Value::Range(b)) => {
                Value::Range(Box::new((a.0.join(&b.0), a.1.join(&b.1), a.2.join(&b.2))))
            }
            (Value::Slice(a), Value::Slice(b)) => {
                let j = |x: &Option<Int>, y: &Option<Int>| match (x, y) {
                    (Some(x), Some(y)) => Some(x.join(y)),
                    (None, None) => None,
                    _ => Some(Int::ANY),
                };
                Value::Slice(Box::new([
                    j(&a[0], &b[0]),
                    j(&a[1], &b[1]),
                    j(&a[2], &b[2]),
                ]))
            }
            (a, b) => crate::torch::either::join(a, b).unwrap_or(Value::Top),
        }
    }

    /// Widening (`self` is the previous loop-head value, `new` the value after one more pass).
    pub fn widen(&self, new: &Value) -> Value {
        self.widen_at(new, 0)
    }

    fn widen_at(&self, new: &Value, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return if self == new {
                self.clone()
            } else {
                Value::Top
            };
        }
        match (self, new) {
            (Value::Int(a), Value::Int(b)) => Value::Int(a.widen(b)),
            (Value::Tuple(a), Value::Tuple(b)) => Value::Tuple(a.widen(b, depth)),
            (Value::Range(a), Value::Range(b)) => Value::Range(Box::new((
                a.0.widen(&b.0),
                a.1.widen(&b.1),
                a.2.widen(&b.2),
            ))),
            _ => self.join(new),
        }
    }

    /// The shape this value has when NumPy turns it into an array (scalars are `()`), or
    /// `None` when it cannot be an array operand at all (strings, `None`, functions, ...).
    pub fn array_shape(&self, heap: &dyn Fn(Addr) -> Option<Seq>) -> Option<Shape> {
        self.array_shape_at(heap, 0)
    }

    fn array_shape_at(&self, heap: &dyn Fn(Addr) -> Option<Seq>, depth: usize) -> Option<Shape> {
        match self {
            Value::Array(s) | Value::Tensor(s) => Some(s.clone()),
            Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Elem => {
                Some(Shape::Known(vec![]))
            }
            Value::Top => Some(Shape::AnyRank),
            Value::Tuple(seq) => Some(seq_shape(seq, heap, depth)),
            Value::List(a) => Some(match heap(*a) {
                Some(seq) => seq_shape(&seq, heap, depth),
                None => Shape::AnyRank,
            }),
            _ => None,
        }
    }
}

/// `np.array(seq).shape` for a nested sequence: the outer length, then the elements' common
/// shape. Ragged contents (which NumPy ≥ 1.24 rejects) and unknown contents give unknown rank;
/// the ragged error itself is reported by the `np.array` model.
fn seq_shape(seq: &Seq, heap: &dyn Fn(Addr) -> Option<Seq>, depth: usize) -> Shape {
    if depth > 32 {
        return Shape::AnyRank;
    }
    let n = seq.len().as_dim();
    let inner = match seq {
        Seq::Exact(v) if v.is_empty() => Some(Shape::Known(vec![])),
        Seq::Exact(v) => {
            let mut shapes = v.iter().map(|e| e.array_shape_at(heap, depth + 1));
            let first = shapes.next().flatten();
            shapes
                .try_fold(first, |acc, s| match (acc, s) {
                    (Some(a), Some(b)) if a == b => Ok(Some(a)),
                    _ => Err(()),
                })
                .ok()
                .flatten()
        }
        Seq::Summary(e, _) => e.array_shape_at(heap, depth + 1),
    };
    match inner {
        Some(Shape::Known(mut d)) => {
            d.insert(0, n);
            Shape::Known(d)
        }
        _ => Shape::AnyRank,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<Value> {
        let seq = |v: Vec<Value>| Value::Tuple(Seq::Exact(v.into()));
        vec![
            Value::Top,
            Value::int(1),
            Value::int(5),
            Value::Int(Int::Range(Some(0), None)),
            Value::Int(Int::Sym("n".into())),
            Value::float(1.5),
            Value::Float(None),
            Value::Bool(Some(true)),
            Value::None,
            Value::Str(Some("a".into())),
            Value::Array(Shape::of(&[2, 3])),
            Value::Array(Shape::of(&[2, 4])),
            Value::Array(Shape::AnyRank),
            seq(vec![]),
            seq(vec![Value::int(1)]),
            seq(vec![Value::int(2), Value::float(1.0)]),
            Value::Tuple(Seq::Summary(
                Box::new(Value::int(3)),
                Int::Range(Some(1), Some(4)),
            )),
        ]
    }

    /// Join is idempotent and commutative on every pair, associative on every triple.
    #[test]
    fn value_join_is_a_semilattice() {
        let s = samples();
        for a in &s {
            assert_eq!(a.join(a), *a, "idempotent: {a:?}");
            for b in &s {
                assert_eq!(a.join(b), b.join(a), "commutative: {a:?} {b:?}");
                for c in &s {
                    assert_eq!(
                        a.join(&b.join(c)),
                        a.join(b).join(c),
                        "associative: {a:?} {b:?} {c:?}"
                    );
                }
            }
        }
    }

    /// Widening reaches a fixpoint on strictly growing chains: an int counting up, a tuple that
    /// grows by one element per iteration, a nesting that deepens.
    #[test]
    fn widening_terminates() {
        let chains: Vec<Box<dyn Fn(i64) -> Value>> = vec![
            Box::new(Value::int),
            Box::new(|i| Value::Tuple(Seq::Exact(vec![Value::int(0); i as usize].into()))),
            Box::new(|i| {
                let mut v = Value::int(0);
                for _ in 0..i {
                    v = Value::Tuple(Seq::Exact(vec![v].into()));
                }
                v
            }),
            Box::new(|i| Value::Array(Shape::of(&[i as u64, 3]))),
        ];
        for chain in chains {
            let mut acc = chain(0);
            let mut steps = 0;
            for i in 1..1000 {
                let next = acc.widen(&acc.join(&chain(i)));
                if next == acc {
                    break;
                }
                acc = next;
                steps += 1;
            }
            assert!(steps < 20, "no fixpoint after {steps} steps: {acc:?}");
        }
    }
}
