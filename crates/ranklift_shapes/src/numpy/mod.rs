//! The NumPy library model, as data: a table from each function (and `ndarray` method) to the
//! rule its result shape follows ([`Sig`]). Most entries are one of a few generic signatures
//! (element-wise, broadcasting, constructors from a shape, reductions); the rest name a small
//! model function below, each documented with its trigger and an example. To support another
//! library (TensorFlow, PyTorch), add a table like this one.
//!
//! Attribute access is checked against the names NumPy really has
//! (`data/numpy_names.txt`, recorded from NumPy 1.24.3): `np.arcos` is E011, as in Python.

use std::sync::LazyLock;

use ruff_text_size::TextRange;

use crate::interp::Interp;
use crate::interp::call::Args;
use crate::interp::state::{FxMap as HashMap, FxSet as HashSet, State};
use crate::interp::value::{Int, ModRef, Seq, Value};
use crate::models::{self, reshape::NewDim};
use crate::{Certainty, Dim, Outcome, Shape};

mod allclose;
mod creation;
mod cross;
mod delete;
mod fft;
mod finfo;
mod gradient;
mod linalg;
mod multinomial;
mod sizes;
mod testing;

use allclose::{allclose, array_equal};
use creation::*;
use cross::cross;
use delete::delete;
use fft::*;
use finfo::{finfo, iinfo};
use gradient::gradient;
use linalg::*;
use multinomial::multinomial;
use sizes::*;

type Model = fn(&mut Interp<'_>, &Args, TextRange, &mut State) -> Value;

/// How a NumPy function's result shape follows from its arguments.
#[derive(Clone, Copy)]
pub enum Sig {
    /// Element-wise on one array: the result has the first argument's shape (`np.sqrt(x)`).
    Same,
    /// Element-wise on two operands: broadcasting (`np.add(x, y)`).
    Broadcast2,
    /// Element-wise on three operands (`np.clip(x, lo, hi)`).
    Broadcast3,
    /// The first argument is the shape (`np.zeros((2, 3))`).
    FromShape,
    /// Every positional argument is a dimension (`np.random.rand(2, 3)`).
    FromDims,
    /// `size=` (keyword, or positional at this index) is the shape; without it, a float scalar.
    Size(usize),
    /// As [`Size`], but the scalar is an integer (`np.random.randint(2, 100)`).
    SizeInt(usize),
    /// A reduction of the first argument over `axis` (position 1) with `keepdims`.
    Reduce,
    /// A hand-written model.
    Custom(Model),
}

use Sig::*;

/// `numpy.*` functions. Names are fully qualified.
const FUNCTIONS: &[(&str, Sig)] = &[
    // Element-wise, one operand.
    ("numpy.abs", Same),
    ("numpy.absolute", Same),
    ("numpy.fabs", Same),
    ("numpy.negative", Same),
    ("numpy.positive", Same),
    ("numpy.sqrt", Same),
    ("numpy.cbrt", Same),
    ("numpy.square", Same),
    ("numpy.exp", Same),
    ("numpy.exp2", Same),
    ("numpy.expm1", Same),
    ("numpy.log", Same),
    ("numpy.log2", Same),
    ("numpy.log10", Same),
    ("numpy.log1p", Same),
    ("numpy.sin", Same),
    ("numpy.cos", Same),
    ("numpy.tan", Same),
    ("numpy.arcsin", Same),
    ("numpy.arccos", Same),
    ("numpy.arctan", Same),
    ("numpy.sinh", Same),
    ("numpy.cosh", Same),
    ("numpy.tanh", Same),
    ("numpy.arcsinh", Same),
    ("numpy.arccosh", Same),
    ("numpy.arctanh", Same),
    ("numpy.degrees", Same),
    ("numpy.radians", Same),
    ("numpy.deg2rad", Same),
    ("numpy.rad2deg", Same),
    ("numpy.floor", Same),
    ("numpy.ceil", Same),
    ("numpy.trunc", Same),
    ("numpy.rint", Same),
    ("numpy.round", Same),
    ("numpy.around", Same),
    ("numpy.sign", Same),
    ("numpy.reciprocal", Same),
    ("numpy.isnan", Same),
    ("numpy.isinf", Same),
    ("numpy.isfinite", Same),
    ("numpy.logical_not", Same),
    ("numpy.nan_to_num", Same),
    ("numpy.conj", Same),
    ("numpy.real", Same),
    ("numpy.imag", Same),
    ("numpy.copy", Same),
    ("numpy.sort", Same),
    ("numpy.flip", Same),
    ("numpy.fliplr", Same),
    ("numpy.flipud", Same),
    ("numpy.roll", Same),
    ("numpy.isin", Same),
    ("numpy.invert", Same),
    ("numpy.angle", Same),
    ("numpy.spacing", Same),
    ("numpy.asfortranarray", Same),
    ("numpy.zeros_like", Custom(creation::like)),
    ("numpy.ones_like", Custom(creation::like)),
    ("numpy.empty_like", Custom(creation::like)),
    ("numpy.full_like", Custom(creation::like)),
    ("numpy.argsort", Same),
    ("numpy.ascontiguousarray", Same),
    ("numpy.linalg.inv", Custom(linalg_square)),
    ("numpy.linalg.cholesky", Custom(linalg_square)),
    ("numpy.linalg.det", Custom(linalg_det)),
    ("numpy.linalg.eigvals", Custom(linalg_eigvals)),
    ("numpy.linalg.eigvalsh", Custom(linalg_eigvals)),
    ("numpy.linalg.eig", Custom(linalg_eig)),
    ("numpy.linalg.eigh", Custom(linalg_eig)),
    ("numpy.linalg.pinv", Custom(linalg_pinv)),
    ("numpy.linalg.svd", Custom(linalg_svd)),
    ("numpy.linalg.qr", Custom(linalg_qr)),
    ("numpy.linalg.solve", Custom(linalg_solve)),
    ("numpy.linalg.lstsq", Custom(linalg_lstsq)),
    ("numpy.repeat", Custom(repeat)),
    ("numpy.tile", Custom(tile)),
    ("numpy.broadcast_to", Custom(broadcast_to)),
    ("numpy.resize", Custom(resize)),
    ("numpy.broadcast_arrays", Custom(broadcast_arrays)),
    ("numpy.atleast_1d", Custom(atleast_1d)),
    ("numpy.atleast_2d", Custom(atleast_2d)),
    ("numpy.cov", Custom(cov)),
    ("numpy.diff", Custom(diff)),
    ("numpy.trace", Custom(trace)),
    ("numpy.unique", Custom(unknown_length)),
    ("numpy.bincount", Custom(unknown_length)),
    ("numpy.flatnonzero", Custom(unknown_length)),
    ("numpy.linalg.norm", Custom(linalg_norm)),
    ("numpy.diag", Custom(diag)),
    ("numpy.triu", Custom(triangle)),
    ("numpy.tril", Custom(triangle)),
    // Element-wise, two operands.
    ("numpy.add", Broadcast2),
    ("numpy.subtract", Broadcast2),
    ("numpy.multiply", Broadcast2),
    ("numpy.divide", Broadcast2),
    ("numpy.true_divide", Broadcast2),
    ("numpy.floor_divide", Broadcast2),
    ("numpy.power", Broadcast2),
    ("numpy.float_power", Broadcast2),
    ("numpy.mod", Broadcast2),
    ("numpy.remainder", Broadcast2),
    ("numpy.fmod", Broadcast2),
    ("numpy.maximum", Broadcast2),
    ("numpy.minimum", Broadcast2),
    ("numpy.fmax", Broadcast2),
    ("numpy.fmin", Broadcast2),
    ("numpy.arctan2", Broadcast2),
    ("numpy.hypot", Broadcast2),
    ("numpy.isclose", Broadcast2),
    ("numpy.logaddexp", Broadcast2),
    ("numpy.logaddexp2", Broadcast2),
    ("numpy.logical_and", Broadcast2),
    ("numpy.logical_or", Broadcast2),
    ("numpy.logical_xor", Broadcast2),
    ("numpy.greater", Broadcast2),
    ("numpy.greater_equal", Broadcast2),
    ("numpy.less", Broadcast2),
    ("numpy.less_equal", Broadcast2),
    ("numpy.equal", Broadcast2),
    ("numpy.not_equal", Broadcast2),
    ("numpy.copysign", Broadcast2),
    ("numpy.heaviside", Broadcast2),
    // Three operands.
    ("numpy.clip", Broadcast3),
    // Constructors.
    ("numpy.zeros", FromShape),
    ("numpy.ones", FromShape),
    ("numpy.empty", FromShape),
    ("numpy.full", FromShape),
    ("numpy.ndarray", FromShape),
    ("numpy.random.rand", FromDims),
    ("numpy.random.randn", FromDims),
    ("numpy.random.random", Size(0)),
    ("numpy.random.random_sample", Size(0)),
    ("numpy.random.sample", Size(0)),
    ("numpy.random.standard_normal", Size(0)),
    ("numpy.random.normal", Size(2)),
    ("numpy.random.uniform", Size(2)),
    ("numpy.random.randint", SizeInt(2)),
    ("numpy.random.random_integers", SizeInt(2)),
    ("numpy.random.binomial", SizeInt(2)),
    ("numpy.random.geometric", SizeInt(1)),
    ("numpy.random.negative_binomial", SizeInt(2)),
    ("numpy.random.hypergeometric", SizeInt(3)),
    ("numpy.random.zipf", SizeInt(1)),
    ("numpy.random.beta", Size(2)),
    ("numpy.random.gamma", Size(2)),
    ("numpy.random.poisson", SizeInt(1)),
    ("numpy.random.exponential", Size(1)),
    ("numpy.random.choice", Custom(random_choice)),
    ("numpy.random.multinomial", Custom(multinomial)),
    ("numpy.random.seed", Custom(returns_none)),
    ("numpy.finfo", Custom(finfo)),
    ("numpy.delete", Custom(delete)),
    ("numpy.cross", Custom(cross)),
    ("numpy.gradient", Custom(gradient)),
    ("numpy.allclose", Custom(allclose)),
    ("numpy.array_equal", Custom(array_equal)),
    ("numpy.array_equiv", Custom(array_equal)),
    ("numpy.iinfo", Custom(iinfo)),
    ("numpy.random.default_rng", Custom(generator)),
    ("numpy.random.RandomState", Custom(random_state)),
    // `Generator` methods whose signature differs from the module function of the same name.
    ("numpy.random.Generator.integers", SizeInt(2)),
    // Reductions.
    ("numpy.sum", Reduce),
    ("numpy.mean", Reduce),
    ("numpy.average", Reduce),
    ("numpy.max", Reduce),
    ("numpy.min", Reduce),
    ("numpy.amax", Reduce),
    ("numpy.amin", Reduce),
    ("numpy.prod", Reduce),
    ("numpy.std", Reduce),
    ("numpy.var", Reduce),
    ("numpy.median", Reduce),
    ("numpy.nansum", Reduce),
    ("numpy.nanmean", Reduce),
    ("numpy.nanmax", Reduce),
    ("numpy.nanmin", Reduce),
    ("numpy.all", Reduce),
    ("numpy.any", Reduce),
    ("numpy.argmax", Reduce),
    ("numpy.count_nonzero", Reduce),
    ("numpy.argmin", Reduce),
    ("numpy.ptp", Reduce),
    // Hand-written models.
    ("numpy.array", Custom(array)),
    ("numpy.asarray", Custom(array)),
    ("numpy.asanyarray", Custom(array)),
    ("numpy.arange", Custom(arange)),
    ("numpy.linspace", Custom(linspace)),
    ("numpy.logspace", Custom(linspace)),
    ("numpy.corrcoef", Custom(cov)),
    ("numpy.nonzero", Custom(nonzero)),
    ("numpy.append", Custom(append)),
    ("numpy.pad", Custom(pad)),
    ("numpy.einsum", Custom(einsum)),
    ("numpy.fft.fft", Custom(fft)),
    ("numpy.fft.ifft", Custom(fft)),
    ("numpy.fft.rfft", Custom(rfft)),
    ("numpy.fft.fftshift", Same),
    ("numpy.fft.ifftshift", Same),
    ("numpy.fft.fftfreq", Custom(fftfreq)),
    ("numpy.fft.fft2", Custom(fft_same)),
    ("numpy.fft.ifft2", Custom(fft_same)),
    ("numpy.fft.fftn", Custom(fft_same)),
    ("numpy.fft.ifftn", Custom(fft_same)),
    ("numpy.fft.rfft2", Custom(fft_real)),
    ("numpy.fft.rfftn", Custom(fft_real)),
    ("numpy.fft.irfft", Custom(fft_inverse_real)),
    ("numpy.fft.irfft2", Custom(fft_inverse_real)),
    ("numpy.fft.irfftn", Custom(fft_inverse_real)),
    ("numpy.fft.rfftfreq", Custom(rfftfreq)),
    ("numpy.meshgrid", Custom(meshgrid)),
    ("numpy.kron", Custom(kron)),
    ("numpy.column_stack", Custom(column_stack)),
    ("numpy.searchsorted", Custom(searchsorted)),
    ("numpy.eye", Custom(eye)),
    ("numpy.identity", Custom(identity)),
    ("numpy.dot", Custom(dot)),
    ("numpy.matmul", Custom(matmul)),
    ("numpy.outer", Custom(outer)),
    ("numpy.reshape", Custom(reshape)),
    ("numpy.transpose", Custom(transpose)),
    ("numpy.swapaxes", Custom(swapaxes)),
    ("numpy.concatenate", Custom(concatenate)),
    ("numpy.stack", Custom(stack)),
    ("numpy.vstack", Custom(vstack)),
    ("numpy.hstack", Custom(hstack)),
    ("numpy.expand_dims", Custom(expand_dims)),
    ("numpy.squeeze", Custom(squeeze)),
    ("numpy.shape", Custom(shape_of)),
    ("numpy.ndim", Custom(ndim_of)),
    ("numpy.isscalar", Custom(isscalar)),
    ("numpy.size", Custom(size_of)),
    ("numpy.ravel", Custom(ravel)),
    ("numpy.cumsum", Custom(cumulative)),
    ("numpy.cumprod", Custom(cumulative)),
    ("numpy.where", Custom(where_)),
    ("numpy.random.permutation", Custom(permutation)),
];

/// `ndarray` methods: the receiver is the first argument.
const METHODS: &[(&str, Sig)] = &[
    ("copy", Same),
    ("astype", Same),
    ("round", Same),
    ("conj", Same),
    ("clip", Same),
    ("argsort", Same),
    ("repeat", Custom(repeat)),
    ("nonzero", Custom(nonzero)),
    ("searchsorted", Custom(searchsorted)),
    ("trace", Custom(trace)),
    ("sum", Reduce),
    ("mean", Reduce),
    ("max", Reduce),
    ("min", Reduce),
    ("prod", Reduce),
    ("std", Reduce),
    ("var", Reduce),
    ("all", Reduce),
    ("any", Reduce),
    ("argmax", Reduce),
    ("argmin", Reduce),
    ("ptp", Reduce),
    ("dot", Custom(dot)),
    ("reshape", Custom(reshape)),
    ("transpose", Custom(transpose)),
    ("swapaxes", Custom(swapaxes)),
    ("squeeze", Custom(squeeze)),
    ("flatten", Custom(ravel)),
    ("ravel", Custom(ravel)),
    ("cumsum", Custom(cumulative)),
    ("cumprod", Custom(cumulative)),
    ("fill", Custom(returns_none)),
    ("sort", Custom(returns_none)),
];

static FUNCTION_TABLE: LazyLock<HashMap<&'static str, (&'static str, Sig)>> =
    LazyLock::new(|| all_functions().map(|(n, s)| (n, (n, s))).collect());

/// [`FUNCTIONS`] and the models that list their functions in their own file.
fn all_functions() -> impl Iterator<Item = (&'static str, Sig)> {
    let asserts = testing::ASSERTIONS
        .iter()
        .map(|n| (*n, Custom(testing::assertion)));
    FUNCTIONS.iter().copied().chain(asserts)
}

/// The same table by `(module, attribute)`, for attribute access without building strings.
static ATTR_TABLE: LazyLock<HashMap<(&'static str, &'static str), &'static str>> =
    LazyLock::new(|| {
        all_functions()
            .filter_map(|(n, _)| n.rsplit_once('.').map(|(m, a)| ((m, a), n)))
            .collect()
    });

static METHOD_TABLE: LazyLock<HashMap<&'static str, Sig>> =
    LazyLock::new(|| METHODS.iter().copied().collect());

/// Is `attr` an attribute NumPy scalars have (`np.float64(1).astype(int)`, `.item()`,
/// `.shape`)? A number the analysis holds may be a NumPy scalar (NumPy's reductions and
/// `np.linalg.norm` return them; `np.float64` subclasses `float`), so these are not errors on a
/// number.
pub fn scalar_attr(attr: &str) -> bool {
    METHOD_TABLE.contains_key(attr)
        || matches!(
            attr,
            "shape"
                | "ndim"
                | "dtype"
                | "size"
                | "item"
                | "itemsize"
                | "nbytes"
                | "T"
                | "tolist"
                | "tobytes"
                | "view"
                | "flat"
                | "flatten"
                | "ravel"
                | "squeeze"
                | "transpose"
                | "fill"
                | "byteswap"
                | "setflags"
                | "base"
                | "strides"
                | "data"
                | "__array__"
                | "__array_interface__"
        )
}

/// The NumPy a program runs with: attribute names and messages differ between 1.x and 2.x.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NumpyVersion {
    /// NumPy 1.24–1.26 (names recorded from 1.24.3).
    V1,
    /// NumPy 2.x (names recorded from 2.2.6); what `pip install numpy` gives today.
    #[default]
    V2,
}

impl NumpyVersion {
    /// `1`, `1.24`, `1.26.4`, `2`, `2.2`: the major version decides.
    pub fn parse(s: &str) -> Result<NumpyVersion, String> {
        match s.split('.').next() {
            Some("1") => Ok(NumpyVersion::V1),
            Some("2") => Ok(NumpyVersion::V2),
            _ => Err(format!(
                "unsupported NumPy version {s:?}: use 1 (1.24 to 1.26) or 2 (2.x)"
            )),
        }
    }

    fn names(self) -> &'static Names {
        match self {
            NumpyVersion::V1 => &NAMES_1,
            NumpyVersion::V2 => &NAMES_2,
        }
    }

    /// NumPy's own AttributeError message for a name this version lacks, when it has one of
    /// its own ("`np.NaN` was removed in the NumPy 2.0 release. Use `np.nan` instead.").
    pub fn missing_message(self, owner: &str, name: &str) -> Option<&'static str> {
        self.names().missing.get(&(owner, name)).copied()
    }
}

struct Names {
    present: HashSet<(&'static str, &'static str)>,
    missing: HashMap<(&'static str, &'static str), &'static str>,
}

impl Names {
    fn contains(&self, k: &(&str, &str)) -> bool {
        self.present.contains(k)
    }
}

/// A names file (`data/gen_numpy_names.py`): `owner name` for what NumPy has,
/// `! owner name message` for what it lacks, with its message.
fn parse_names(text: &'static str) -> Names {
    let mut present = HashSet::default();
    let mut missing = HashMap::default();
    for l in text.lines().filter(|l| !l.starts_with('#')) {
        if let Some(rest) = l.strip_prefix("! ") {
            let mut it = rest.splitn(3, ' ');
            if let (Some(o), Some(n), Some(m)) = (it.next(), it.next(), it.next()) {
                missing.insert((o, n), m);
            }
        } else if let Some(k) = l.split_once(' ') {
            present.insert(k);
        }
    }
    Names { present, missing }
}

/// What every attribute NumPy has (recorded, see the module docs), per version.
static NAMES_1: LazyLock<Names> =
    LazyLock::new(|| parse_names(include_str!("../../data/numpy_names.txt")));
static NAMES_2: LazyLock<Names> =
    LazyLock::new(|| parse_names(include_str!("../../data/numpy2_names.txt")));

/// The modelled NumPy module with this name.
pub fn module(name: &str) -> Option<&'static str> {
    match name {
        "numpy" => Some("numpy"),
        "numpy.random" => Some("numpy.random"),
        "numpy.linalg" => Some("numpy.linalg"),
        "numpy.fft" => Some("numpy.fft"),
        "numpy.testing" => Some("numpy.testing"),
        _ => None,
    }
}

/// `module.attr`: a modelled function, a submodule, a constant, an unmodelled attribute
/// (unknown value), or `None` when NumPy has no such attribute.
pub fn module_attr(version: NumpyVersion, module: &str, attr: &str) -> Option<Value> {
    if let Some(name) = ATTR_TABLE.get(&(module, attr)) {
        return Some(Value::NpFunc(name));
    }
    // A `Generator` (`np.random.default_rng()`): its methods draw like the module's functions
    // of the same name (`rng.normal(0, 1, size=(3, 2))`); anything else is unknown, not an error.
    if module == GENERATOR {
        return Some(
            ATTR_TABLE
                .get(&("numpy.random", attr))
                .map_or(Value::Top, |name| Value::NpFunc(name)),
        );
    }
    if let Some(v) = finfo::limit(module, attr) {
        return Some(v);
    }
    // `np.r_` / `np.c_` / `np.mgrid` / `np.ogrid` are used by subscript (`interp/index.rs`,
    // `models/index_tricks.rs`).
    if let ("numpy", "r_" | "c_" | "mgrid" | "ogrid") = (module, attr) {
        return Some(Value::NpFunc(match attr {
            "r_" => "numpy.r_",
            "c_" => "numpy.c_",
            "mgrid" => "numpy.mgrid",
            _ => "numpy.ogrid",
        }));
    }
    if let ("numpy", "random" | "linalg" | "fft" | "testing") = (module, attr) {
        return self::module(&format!("{module}.{attr}")).map(|m| Value::Module(ModRef::Numpy(m)));
    }
    // Every module has `__dict__`, `__spec__`, ... (`dir()` does not list all of them).
    if attr.starts_with("__") && attr.ends_with("__") {
        return Some(Value::Top);
    }
    if !version.names().contains(&(module, attr)) {
        return None;
    }
    Some(match (module, attr) {
        ("numpy", "pi" | "e" | "inf" | "nan" | "euler_gamma") => Value::Float(None),
        ("numpy", "newaxis") => Value::None,
        ("numpy", "object_" | "void") => Value::Builtin(crate::interp::value::Builtin::Object),
        _ => Value::Top,
    })
}

/// Are this function's arguments sizes (so that an unknown int passed to it is a dimension)?
pub fn takes_dims(name: &str) -> bool {
    match FUNCTION_TABLE.get(name) {
        Some((_, FromShape | FromDims | Size(_) | SizeInt(_))) => true,
        Some(_) => matches!(
            name,
            "numpy.reshape" | "numpy.arange" | "numpy.eye" | "numpy.identity" | "numpy.linspace"
        ),
        None => false,
    }
}

/// Does `ndarray` have this attribute?
pub fn ndarray_has(version: NumpyVersion, attr: &str) -> bool {
    version.names().contains(&("numpy.ndarray", attr))
}

impl<'a> Interp<'a> {
    pub(crate) fn call_numpy(
        &mut self,
        name: &str,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        match FUNCTION_TABLE.get(name) {
            // An object of a class (an ndarray subclass such as astropy's `Quantity`, a masked
            // array) given to a NumPy function that takes arrays may answer it itself
            // (`__array_function__`) and keep its class: the result is not a plain ndarray.
            Some((_, Custom(_))) if !takes_dims(name) && self.objects_among(args, st) => Value::Top,
            Some((_, sig)) => self.apply_sig(*sig, args, range, st),
            None => Value::Top,
        }
    }

    /// Is an argument (or an element of a list or tuple argument) an object of a class?
    fn objects_among(&self, args: &Args, st: &State) -> bool {
        let object = |v: &Value| matches!(v, Value::Instance(_));
        args.pos
            .iter()
            .chain(args.kw.iter().map(|(_, v)| v))
            .any(|v| match v {
                Value::Tuple(Seq::Exact(items)) => items.iter().any(object),
                Value::List(a) => match st.list(*a) {
                    Some(Seq::Exact(items)) => items.iter().any(object),
                    Some(Seq::Summary(e, _)) => object(&e),
                    None => false,
                },
                v => object(v),
            })
    }

    pub(crate) fn call_array_method(
        &mut self,
        recv: &Value,
        name: &str,
        mut args: Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let Some(sig) = METHOD_TABLE.get(name) else {
            return Value::Top;
        };
        args.pos.insert(0, recv.clone());
        self.apply_sig(*sig, &args, range, st)
    }

    fn apply_sig(&mut self, sig: Sig, args: &Args, range: TextRange, st: &mut State) -> Value {
        // The array operands, for the message of an error the model raises.
        let shapes: Vec<crate::Shape> = args
            .pos
            .iter()
            .flat_map(|v| match v {
                Value::Array(s) => vec![s.clone()],
                // `np.concatenate([a, b])`: the arrays of a sequence argument.
                Value::Tuple(Seq::Exact(items)) => items
                    .iter()
                    .filter_map(|x| match x {
                        Value::Array(s) => Some(s.clone()),
                        _ => None,
                    })
                    .collect(),
                Value::List(addr) => match st.list(*addr) {
                    Some(Seq::Exact(items)) => items
                        .iter()
                        .filter_map(|x| match x {
                            Value::Array(s) => Some(s.clone()),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            })
            .collect();
        self.pending = Some((range, shapes, None));
        // A `*args`/`**kwargs` of unknown contents: any argument may be anything (a custom
        // model may even return something other than an array).
        if args.unknown {
            return match sig {
                Custom(_) => Value::Top,
                _ => Value::Array(Shape::AnyRank),
            };
        }
        // An operand of unknown type may be a pandas Series, an xarray or a sparse matrix: they
        // answer NumPy's functions themselves (`__array_ufunc__`, `__array_function__`), so the
        // result is not known to be an ndarray.
        let foreign = |v: Option<&Value>| matches!(v, Some(Value::Top | Value::Instance(_)));
        match sig {
            Same | Reduce if foreign(args.pos.first()) => return Value::Top,
            Broadcast2 if args.pos.iter().take(2).any(|v| foreign(Some(v))) => return Value::Top,
            Broadcast3 if args.pos.iter().take(3).any(|v| foreign(Some(v))) => return Value::Top,
            _ => {}
        }
        match sig {
            // An `axis=` must exist (`np.flip(x, axis=1)` on a 1-d `x` is an AxisError).
            Same => match (
                self.arg_shape(args.get(0, "a"), st),
                const_int(args.kw("axis")),
            ) {
                (Some(s), Some(axis)) => match s.rank().map(|r| models::normalize_axis(axis, r)) {
                    Some(Err(e)) => self.outcome(range, Outcome::certain("W507", e)),
                    _ => Value::Array(s),
                },
                (Some(s), None) => Value::Array(s),
                (None, _) => Value::Top,
            },
            Broadcast2 | Broadcast3 => {
                let n = if matches!(sig, Broadcast2) { 2 } else { 3 };
                let mut acc: Option<Shape> = None;
                for i in 0..n {
                    let Some(s) = self.arg_shape(args.pos.get(i), st) else {
                        return Value::Array(Shape::AnyRank);
                    };
                    acc = Some(match acc {
                        None => s,
                        Some(a) => {
                            let o = models::broadcast::broadcast(&a, &s);
                            match self.outcome(range, o) {
                                Value::Array(s) => s,
                                _ => Shape::AnyRank,
                            }
                        }
                    });
                }
                Value::Array(acc.unwrap_or(Shape::AnyRank))
            }
            FromShape => match args.get(0, "shape") {
                // Object or structured elements (`np.empty(2, dtype=object)`): an element may
                // be a sequence, so element shapes are not checked.
                // (The second positional argument is `full`'s fill value: only a string or a
                // type there is taken for a dtype.)
                Some(_)
                    if args.kw("dtype").is_some_and(loose_dtype)
                        || args.pos.get(1).is_some_and(|d| {
                            matches!(d, Value::Str(_) | Value::Builtin(_)) && loose_dtype(d)
                        }) =>
                {
                    Value::Array(Shape::AnyRank)
                }
                Some(v) => {
                    let v = v.clone();
                    Value::Array(self.whole_shape_arg(&v, range, st))
                }
                None => Value::Top,
            },
            FromDims => {
                let mut dims = Vec::new();
                for v in args.pos.clone() {
                    match self.shape_arg(&v, range, st) {
                        Shape::Known(d) if d.len() == 1 => dims.push(d[0].clone()),
                        _ => return Value::Array(Shape::AnyRank),
                    }
                }
                Value::Array(Shape::Known(dims))
            }
            Size(i) | SizeInt(i) => match args.get(i, "size").cloned() {
                None | Some(Value::None) => match self.distribution_params(args, i, st) {
                    // Scalar parameters draw one scalar.
                    Some(None) if matches!(sig, Size(_)) => Value::Float(None),
                    Some(None) => Value::Int(crate::interp::value::Int::ANY),
                    // Array parameters draw one value per element (broadcast together).
                    Some(Some(shape)) => Value::Array(shape),
                    None => Value::Top,
                },
                Some(v) => Value::Array(self.whole_shape_arg(&v, range, st)),
            },
            Reduce => {
                let Some(a) = self.arg_shape(args.pos.first(), st) else {
                    return Value::Top;
                };
                let keepdims = matches!(args.kw("keepdims"), Some(Value::Bool(Some(true))));
                match axes_arg(args.get(1, "axis")) {
                    Axes::Unknown => Value::Array(Shape::AnyRank),
                    Axes::All => self.outcome(range, models::reduce::reduce(&a, None, keepdims)),
                    Axes::Some(ax) => {
                        self.outcome(range, models::reduce::reduce(&a, Some(&ax), keepdims))
                    }
                }
            }
            Custom(f) => f(self, args, range, st),
        }
    }

    /// The parameters of a random distribution (`np.random.poisson(lam)`: the arguments before
    /// `size` at position `size_at`, and keywords other than `size`/`dtype`): `Some(None)` when
    /// all are Python scalars, `Some(Some(shape))` for their broadcast shape when some are arrays
    /// or lists, `None` when one is of unknown kind (then so is the draw).
    fn distribution_params(
        &self,
        args: &Args,
        size_at: usize,
        st: &State,
    ) -> Option<Option<Shape>> {
        let params = args.pos.iter().take(size_at).chain(
            args.kw
                .iter()
                .filter(|(k, _)| !matches!(&**k, "size" | "dtype"))
                .map(|(_, v)| v),
        );
        let mut shape: Option<Shape> = None;
        for v in params {
            match v {
                Value::Int(_) | Value::Float(_) | Value::Bool(_) => {}
                Value::Array(_) | Value::List(_) | Value::Tuple(_) => {
                    let s = self.arg_shape(Some(v), st)?;
                    shape = Some(match shape {
                        None => s,
                        Some(prev) => match models::broadcast::broadcast(&prev, &s) {
                            o if o.error.is_none() => o.shape,
                            _ => Shape::AnyRank,
                        },
                    });
                }
                _ => return None,
            }
        }
        if args.unknown {
            return None;
        }
        Some(shape)
    }

    /// The shape of an array operand (scalars and nested lists included).
    pub(crate) fn arg_shape(&self, v: Option<&Value>, st: &State) -> Option<Shape> {
        let heap = |a| st.list(a);
        v?.array_shape(&heap)
    }

    /// A `shape` argument: an int or a sequence of ints. Floats are a TypeError (E017),
    /// negative sizes a ValueError (W511), as in NumPy.
    /// A whole `shape`/`size` argument: a float there is reported as NumPy reports it (a float
    /// *inside* a tuple gets Python's int-conversion message from [`Self::shape_arg`]).
    pub(crate) fn whole_shape_arg(&mut self, v: &Value, range: TextRange, st: &State) -> Shape {
        if let Value::Float(bits) = v {
            let got = match bits {
                Some(b) => format!(", got '{}'", python_float_repr(f64::from_bits(*b))),
                None => ", got a float".to_owned(),
            };
            self.report(
                range,
                "E017",
                crate::interp::Exc::Type,
                format!("expected a sequence of integers or a single integer{got}"),
                Certainty::Certain,
            );
            return Shape::AnyRank;
        }
        self.shape_arg(v, range, st)
    }

    pub(crate) fn shape_arg(&mut self, v: &Value, range: TextRange, st: &State) -> Shape {
        let items: Vec<Value> = match v {
            Value::Int(_) | Value::Bool(_) | Value::Float(_) => vec![v.clone()],
            Value::Tuple(Seq::Exact(items)) => items.to_vec(),
            Value::List(a) => match st.list(*a) {
                Some(Seq::Exact(items)) => items.to_vec(),
                Some(Seq::Summary(_, n)) => match n.constant() {
                    Some(k) => return Shape::Known(vec![Dim::Unknown; k as usize]),
                    None => return Shape::AnyRank,
                },
                None => return Shape::AnyRank,
            },
            Value::Tuple(Seq::Summary(_, n)) => match n.constant() {
                Some(k) => return Shape::Known(vec![Dim::Unknown; k as usize]),
                None => return Shape::AnyRank,
            },
            _ => return Shape::AnyRank,
        };
        let mut dims = Vec::with_capacity(items.len());
        for item in &items {
            match item {
                Value::Float(_) => {
                    self.report(
                        range,
                        "E017",
                        crate::interp::Exc::Type,
                        "'float' object cannot be interpreted as an integer".to_owned(),
                        Certainty::Certain,
                    );
                    return Shape::AnyRank;
                }
                v => match v.as_int() {
                    Some(i) if i.is_negative() => {
                        self.report(
                            range,
                            "W511",
                            crate::interp::Exc::Value,
                            "negative dimensions are not allowed".to_owned(),
                            Certainty::Certain,
                        );
                        return Shape::AnyRank;
                    }
                    Some(i) => dims.push(i.as_dim()),
                    None => dims.push(Dim::Unknown),
                },
            }
        }
        Shape::Known(dims)
    }
}

/// An `axis` argument.
enum Axes {
    /// `None` / absent: all axes.
    All,
    Some(Vec<i64>),
    Unknown,
}

fn axes_arg(v: Option<&Value>) -> Axes {
    match v {
        None | Some(Value::None) => Axes::All,
        Some(Value::Int(i)) => i.constant().map_or(Axes::Unknown, |c| Axes::Some(vec![c])),
        Some(Value::Tuple(Seq::Exact(items))) => items
            .iter()
            .map(|x| x.as_int().and_then(|i| i.constant()))
            .collect::<Option<Vec<_>>>()
            .map_or(Axes::Unknown, Axes::Some),
        _ => Axes::Unknown,
    }
}

fn const_int(v: Option<&Value>) -> Option<i64> {
    v.and_then(Value::as_int).and_then(|i| i.constant())
}

/// An integer argument with a default (`None`: given, but not a known integer).
fn int_arg_or(args: &Args, i: usize, name: &str, default: i64) -> Option<i64> {
    match args.get(i, name) {
        None => Some(default),
        v => const_int(v),
    }
}

/// The shapes of a sequence of arrays (`np.concatenate([a, b])`), when its length is known.
fn shapes_of_seq(interp: &Interp<'_>, v: Option<&Value>, st: &State) -> Option<Vec<Shape>> {
    let items = match v? {
        Value::Tuple(Seq::Exact(items)) => items.to_vec(),
        Value::List(a) => match st.list(*a)? {
            Seq::Exact(items) => items.to_vec(),
            Seq::Summary(..) => return None,
        },
        _ => return None,
    };
    items
        .iter()
        .map(|x| interp.arg_shape(Some(x), st))
        .collect()
}

/// A dtype whose elements may be sequences or records: `object` (`np.object_`, `"O"`),
/// structured (`[("a", "f8"), ...]`, `"f8,i4"`), void, or a string the analysis does not know.
fn loose_dtype(v: &Value) -> bool {
    use crate::interp::value::Builtin;
    match v {
        Value::Builtin(Builtin::Object) | Value::List(_) | Value::Tuple(_) | Value::Str(None) => {
            true
        }
        Value::Str(Some(s)) => {
            let s = s.trim_start_matches(['|', '<', '>', '=']);
            s.starts_with('O') || s.starts_with('V') || s == "object" || s.contains(',')
        }
        _ => false,
    }
}

/// Two array operands, or `None` when either is not an array-like.
fn two(i: &Interp<'_>, args: &Args, st: &State) -> Option<(Shape, Shape)> {
    Some((
        i.arg_shape(args.pos.first(), st)?,
        i.arg_shape(args.pos.get(1), st)?,
    ))
}

/// `np.dot(a, b)` / `a.dot(b)`: W503 when the contracted dimensions differ.
///
/// ```python
/// np.dot(np.zeros((2, 3)), np.zeros((4, 1)))  # W503 shapes (2,3) and (4,1) not aligned: 3 (dim 1) != 4 (dim 0)
/// ```
fn dot(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    match two(i, args, st) {
        Some((a, b)) => i.outcome(range, models::dot::dot(&a, &b)),
        None => Value::Top,
    }
}

/// `np.matmul(a, b)`: like `@` (W504).
fn matmul(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    match two(i, args, st) {
        Some((a, b)) => i.outcome(range, models::matmul::matmul(&a, &b)),
        None => Value::Top,
    }
}

/// `np.outer(a, b)`: `(a.size, b.size)`.
fn outer(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    let size = |s: Option<Shape>| match s {
        Some(s) => match (s.size(), s.dims()) {
            (Some(n), _) => Dim::Known(n),
            (None, Some([d])) => d.clone(),
            _ => Dim::Unknown,
        },
        None => Dim::Unknown,
    };
    let a = size(i.arg_shape(args.pos.first(), st));
    let b = size(i.arg_shape(args.pos.get(1), st));
    Value::Array(Shape::Known(vec![a, b]))
}

/// `np.reshape(a, newshape)` / `a.reshape(d0, d1, ...)` / `a.reshape((d0, d1))` (W505).
///
/// ```python
/// np.zeros((2, 3)).reshape(-1, 2)  # (3,2)
/// np.zeros((2, 3)).reshape(4)      # W505 cannot reshape array of size 6 into shape (4,)
/// ```
fn reshape(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(a) = args.pos.first().cloned() else {
        return Value::Top;
    };
    let rest: Vec<Value> = match args.pos.get(1) {
        Some(_) => args.pos[1..].to_vec(),
        None => match args.kw("newshape").or_else(|| args.kw("shape")) {
            Some(v) => vec![v.clone()],
            None => return Value::Top,
        },
    };
    i.reshape_value(&a, &rest, range, st)
}

impl<'a> Interp<'a> {
    /// Reshape `a` to the shape given by `spec` (one int or tuple, or several ints).
    pub(crate) fn reshape_value(
        &mut self,
        a: &Value,
        spec: &[Value],
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let Some(shape) = self.arg_shape(Some(a), st) else {
            return Value::Top;
        };
        let items: Vec<Value> = match spec {
            [Value::Tuple(Seq::Exact(v))] => v.to_vec(),
            [Value::List(addr)] => match st.list(*addr) {
                Some(Seq::Exact(v)) => v.to_vec(),
                _ => return Value::Array(Shape::AnyRank),
            },
            [Value::Tuple(_)] => return Value::Array(Shape::AnyRank),
            v => v.to_vec(),
        };
        let mut new = Vec::with_capacity(items.len());
        for x in &items {
            match x.as_int() {
                Some(Int::Const(-1)) => new.push(NewDim::Infer),
                Some(i) if i.constant().is_some_and(|c| c < -1) => {
                    return Value::Array(Shape::AnyRank);
                }
                Some(i) => new.push(NewDim::Size(i.as_dim())),
                None => return Value::Array(Shape::AnyRank),
            }
        }
        let o = models::reshape::reshape(&shape, &new);
        self.outcome(range, o)
    }
}

/// `np.transpose(a, axes)` / `a.transpose(*axes)` (W507, W508).
fn transpose(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    let axes: Option<Vec<i64>> = match &args.pos[1..] {
        [] => match args.kw("axes") {
            None | Some(Value::None) => None,
            Some(v) => match axes_arg(Some(v)) {
                Axes::Some(ax) => Some(ax),
                _ => return Value::Array(Shape::AnyRank),
            },
        },
        [Value::None] => None,
        [v @ Value::Tuple(_)] => match axes_arg(Some(v)) {
            Axes::Some(ax) => Some(ax),
            _ => return Value::Array(Shape::AnyRank),
        },
        many => match many.iter().map(|v| const_int(Some(v))).collect() {
            Some(ax) => Some(ax),
            None => return Value::Array(Shape::AnyRank),
        },
    };
    i.outcome(range, models::transpose::transpose(&a, axes.as_deref()))
}

/// `np.swapaxes(a, i, j)`: exchanges two dimensions (W507).
fn swapaxes(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let (Some(a), Some(x), Some(y)) = (
        i.arg_shape(args.pos.first(), st),
        const_int(args.get(1, "axis1")),
        const_int(args.get(2, "axis2")),
    ) else {
        return Value::Array(Shape::AnyRank);
    };
    let Some(d) = a.dims() else {
        return Value::Array(Shape::AnyRank);
    };
    let (p, q) = match (
        models::normalize_axis(x, d.len()),
        models::normalize_axis(y, d.len()),
    ) {
        (Ok(p), Ok(q)) => (p, q),
        (Err(m), _) | (_, Err(m)) => {
            return i.outcome(range, Outcome::certain("W507", m));
        }
    };
    let mut out = d.to_vec();
    out.swap(p, q);
    Value::Array(Shape::Known(out))
}

fn axis_or(args: &Args, i: usize, default: i64) -> Option<Option<i64>> {
    match args.get(i, "axis") {
        None => Some(Some(default)),
        Some(Value::None) => Some(None),
        Some(v) => const_int(Some(v)).map(Some),
    }
}

/// `np.concatenate(arrays, axis=0)` (W506, W507); `axis=None` flattens first.
///
/// ```python
/// np.concatenate([np.zeros((2, 3)), np.zeros((2, 4))])  # W506 ... along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4
/// ```
fn concatenate(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(shapes) = shapes_of_seq(i, args.pos.first(), st) else {
        return Value::Array(Shape::AnyRank);
    };
    match axis_or(args, 1, 0) {
        Some(Some(axis)) => i.outcome(range, models::concatenate::concatenate(&shapes, axis)),
        Some(None) => {
            let total: Option<u64> = shapes.iter().map(Shape::size).sum();
            Value::Array(Shape::Known(vec![total.map_or(Dim::Unknown, Dim::Known)]))
        }
        None => Value::Array(Shape::AnyRank),
    }
}

/// `np.stack(arrays, axis=0)`: all shapes equal (W506).
fn stack(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(shapes) = shapes_of_seq(i, args.pos.first(), st) else {
        return Value::Array(Shape::AnyRank);
    };
    match axis_or(args, 1, 0) {
        Some(Some(axis)) => i.outcome(range, models::concatenate::stack(&shapes, axis)),
        _ => Value::Array(Shape::AnyRank),
    }
}

/// `np.vstack(arrays)`: 1-D arrays become rows, then concatenation along axis 0.
fn vstack(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    join_promoted(i, args, range, st, 0, |n| vec![Dim::Known(1), n.clone()])
}

/// Concatenation along `axis` after each scalar became `(1, 1)` and each 1-D array `promote`d
/// (`vstack`: a row, `column_stack`: a column).
fn join_promoted(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
    axis: i64,
    promote: fn(&Dim) -> Vec<Dim>,
) -> Value {
    let Some(shapes) = shapes_of_seq(i, args.pos.first(), st) else {
        return Value::Array(Shape::AnyRank);
    };
    let shapes: Vec<Shape> = shapes
        .into_iter()
        .map(|s| match s.dims() {
            Some([]) => Shape::of(&[1, 1]),
            Some([n]) => Shape::Known(promote(n)),
            _ => s,
        })
        .collect();
    i.outcome(range, models::concatenate::concatenate(&shapes, axis))
}

/// `np.hstack(arrays)`: along axis 1, or axis 0 when the arrays are 1-D.
fn hstack(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(shapes) = shapes_of_seq(i, args.pos.first(), st) else {
        return Value::Array(Shape::AnyRank);
    };
    let shapes: Vec<Shape> = shapes
        .into_iter()
        .map(|s| match s.dims() {
            Some([]) => Shape::of(&[1]),
            _ => s,
        })
        .collect();
    let axis = if shapes.first().and_then(Shape::rank) == Some(1) {
        0
    } else {
        1
    };
    i.outcome(range, models::concatenate::concatenate(&shapes, axis))
}

/// `np.expand_dims(a, axis)` (W507).
fn expand_dims(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    match (
        i.arg_shape(args.pos.first(), st),
        const_int(args.get(1, "axis")),
    ) {
        (Some(a), Some(axis)) => i.outcome(range, models::expand_squeeze::expand_dims(&a, axis)),
        _ => Value::Array(Shape::AnyRank),
    }
}

/// `np.squeeze(a, axis=None)` / `a.squeeze(axis)` (W507, W509).
fn squeeze(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    match axis_or(args, 1, 0) {
        _ if args.get(1, "axis").is_none() => {
            i.outcome(range, models::expand_squeeze::squeeze(&a, None))
        }
        Some(axis) => i.outcome(range, models::expand_squeeze::squeeze(&a, axis)),
        None => Value::Array(Shape::AnyRank),
    }
}

/// `np.shape(a)`: the shape as a tuple.
fn shape_of(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    match i.arg_shape(args.pos.first(), st) {
        Some(s) => crate::interp::shape_tuple(&s),
        None => Value::Top,
    }
}

/// `np.ndim(a)`.
fn ndim_of(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    match i.arg_shape(args.pos.first(), st).and_then(|s| s.rank()) {
        Some(r) => Value::int(r as i64),
        None => Value::Int(Int::Range(Some(0), Some(64))),
    }
}

/// `np.isscalar(v)`: True for Python's numbers and strings, False for an array of rank 1 or more,
/// a list, a tuple or None (`if np.isscalar(f): ... else: <array code>`, cma's `monotoneTFosc`);
/// unknown for a 0-d result, which may be a NumPy scalar (True) or a 0-d array (False).
fn isscalar(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    let Some(v) = args.pos.first() else {
        return Value::Bool(None);
    };
    Value::Bool(match v {
        Value::Int(_) | Value::Float(_) | Value::Str(_) => Some(true),
        Value::Bool(_) => Some(true),
        Value::None | Value::Tuple(_) | Value::List(_) => Some(false),
        Value::Array(_) => match i.arg_shape(Some(v), st).and_then(|s| s.rank()) {
            Some(r) if r >= 1 => Some(false),
            _ => None,
        },
        _ => None,
    })
}

/// `np.size(a)`.
fn size_of(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    match i.arg_shape(args.pos.first(), st).and_then(|s| s.size()) {
        Some(n) => Value::int(n as i64),
        None => Value::Int(Int::Range(Some(0), None)),
    }
}

fn flat(s: &Shape) -> Shape {
    Shape::Known(vec![match (s.size(), s.dims()) {
        (Some(n), _) => Dim::Known(n),
        (None, Some([d])) => d.clone(),
        _ => Dim::Unknown,
    }])
}

/// `np.ravel(a)` / `a.flatten()` / `a.ravel()`: `(a.size,)`.
fn ravel(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    match i.arg_shape(args.pos.first(), st) {
        Some(s) => Value::Array(flat(&s)),
        None => Value::Top,
    }
}

/// `np.cumsum(a, axis=None)`: flattened without an axis, the same shape with one (W507).
fn cumulative(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    match args.get(1, "axis") {
        None | Some(Value::None) => Value::Array(flat(&a)),
        Some(v) => match (const_int(Some(v)), a.rank()) {
            (Some(ax), Some(r)) => match models::normalize_axis(ax, r) {
                Ok(_) => Value::Array(a),
                Err(m) => i.outcome(range, Outcome::certain("W507", m)),
            },
            _ => Value::Array(a),
        },
    }
}

/// `np.where(cond, x, y)`: broadcasting of the three; `np.where(cond)` alone gives indices.
fn where_(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    match args.pos.len() {
        3 => i.apply_sig(Broadcast3, args, range, st),
        // `np.where(cond)` is `np.asarray(cond).nonzero()` (NumPy's documentation).
        1 if args.kw.is_empty() => nonzero(i, args, range, st),
        _ => Value::Top,
    }
}

/// `np.random.permutation(x)`: `(x,)` for an int, `x`'s shape for an array.
fn permutation(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    match args.pos.first() {
        Some(Value::Int(n)) => Value::Array(Shape::Known(vec![n.as_dim()])),
        v => i.arg_shape(v, st).map_or(Value::Top, Value::Array),
    }
}

/// In-place methods (`a.fill(0)`, `a.sort()`): `None`.
fn returns_none(_: &mut Interp<'_>, _: &Args, _: TextRange, _: &mut State) -> Value {
    Value::None
}

/// `np.random.choice(a, size=None, replace=True, p=None)`: with `size`, an array of that shape;
/// without, one element of `a` (of unknown type: `a` may be an int, a list of strings, ...).
fn random_choice(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    match args.get(1, "size").cloned() {
        None | Some(Value::None) => Value::Top,
        Some(v) => Value::Array(i.whole_shape_arg(&v, range, st)),
    }
}

/// Python's `repr` of a float (shortest round-trip digits; exponent form outside
/// [1e-4, 1e16), with a sign and at least two exponent digits).
fn python_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let a = x.abs();
    if a == 0.0 || (1e-4..1e16).contains(&a) {
        let s = format!("{x:?}");
        if s.contains('.') || s.contains('e') {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        // Rust: "1e16", "1.5e-7"; Python: "1e+16", "1.5e-07".
        let s = format!("{x:e}");
        let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let (sign, digits) = match exp.strip_prefix('-') {
            Some(d) => ('-', d),
            None => ('+', exp),
        };
        format!("{mant}e{sign}{digits:0>2}")
    }
}

/// `np.linalg.norm(x, ord=None, axis=None, keepdims=False)`: a float over the whole array, or a
/// reduction over `axis` (AxisError W507 when it is out of bounds).
///
/// ```python
/// np.linalg.norm(np.ones((10, 3)), axis=1)   # (10,)
/// np.linalg.norm(np.ones((10, 3)), axis=2)   # W507 axis 2 is out of bounds for array of dimension 2
/// ```
fn linalg_norm(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    let keepdims = matches!(args.get(3, "keepdims"), Some(Value::Bool(Some(true))));
    match args.get(2, "axis") {
        None | Some(Value::None) if !keepdims => Value::Float(None),
        None | Some(Value::None) => i.outcome(range, models::reduce::reduce(&a, None, true)),
        v => match axes_arg(v) {
            Axes::Some(ax) => i.outcome(range, models::reduce::reduce(&a, Some(&ax), keepdims)),
            _ => Value::Array(Shape::AnyRank),
        },
    }
}

/// `np.diag(v, k=0)`: a 1-d `v` of length n gives an (n+|k|, n+|k|) matrix; a 2-d one its k-th
/// diagonal (length unknown unless k = 0 and both sides are known).
///
/// ```python
/// np.diag(np.ones(7))          # (7, 7)
/// np.diag(np.ones((3, 5)))     # (3,)
/// ```
fn diag(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    let k = int_arg_or(args, 1, "k", 0);
    match (a.dims(), k) {
        (Some([n]), Some(k)) => {
            let d = match n.known() {
                Some(n) => Dim::Known(n + k.unsigned_abs()),
                None if k == 0 => n.clone(),
                None => Dim::Unknown,
            };
            Value::Array(Shape::Known(vec![d.clone(), d]))
        }
        (Some([n, m]), Some(0)) => {
            let d = match (n.known(), m.known()) {
                (Some(x), Some(y)) => Dim::Known(x.min(y)),
                _ => Dim::Unknown,
            };
            Value::Array(Shape::Known(vec![d]))
        }
        (Some([_, _]), _) => Value::Array(Shape::Known(vec![Dim::Unknown])),
        _ => Value::Array(Shape::AnyRank),
    }
}

/// `np.triu(m, k=0)` / `np.tril(m, k=0)`: `m`'s shape (the triangle of its last two axes); a
/// 1-d `m` of length n is broadcast against the (n, n) mask, so the result is square.
///
/// ```python
/// np.triu(np.ones((4, 5)), 1)  # (4, 5)
/// np.tril(np.ones(3))          # (3, 3)
/// ```
fn triangle(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    match i.arg_shape(args.pos.first(), st) {
        Some(a) => match a.dims() {
            Some([n]) => Value::Array(Shape::Known(vec![n.clone(), n.clone()])),
            Some([]) => Value::Top,
            _ => Value::Array(a),
        },
        None => Value::Top,
    }
}

/// The pseudo-module standing for a `numpy.random.Generator` object.
const GENERATOR: &str = "numpy.random.Generator";

/// `np.random.default_rng(seed)`: a `Generator`, whose methods are modelled through
/// [`GENERATOR`].
///
/// ```python
/// rng = np.random.default_rng(0)
/// rng.random((10, 3))          # (10, 3)
/// rng.integers(0, 5, size=4)   # (4,)
/// ```
fn generator(_: &mut Interp<'_>, _: &Args, _: TextRange, _: &mut State) -> Value {
    Value::Module(ModRef::Numpy(GENERATOR))
}

/// `np.random.RandomState(seed)`: the legacy generator has the module's own functions
/// (`rs.rand(2, 3)`, `rs.randint(0, 5, size=4)`).
fn random_state(_: &mut Interp<'_>, _: &Args, _: TextRange, _: &mut State) -> Value {
    Value::Module(ModRef::Numpy("numpy.random"))
}
