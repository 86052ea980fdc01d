//! Language model: `isinstance(x, C)`.
//!
//! **Trigger:** `isinstance(x, T)` with `T` a builtin type (`type(None)` too), `np.ndarray`, `torch.Tensor`, one of the program's
//! classes, an abstract collection (`collections.abc.Sequence`, `Mapping`, `Iterable`, and their
//! `typing` aliases), or a tuple of them.
//!
//! **Result:** `True` / `False` where the value's type decides it, unknown otherwise. An object of
//! the program is an instance of its own class and of every class of the program it derives
//! from, and of no other class of the program when every base of its class is known (a class
//! derived from a library class or a builtin type may be anything that type is).
//!
//! A `torch.nn` layer the program built is an `nn.Module` and an instance of its own class
//! (`isinstance(self.conv_proj, nn.Conv2d)`), and of no other layer class where its kind is
//! one of the modelled families (linear, convolution, batch and layer norm, embedding, the
//! containers).
//!
//! **Why:** `if isinstance(self.visual, ModifiedResNet):` on an object the program just built
//! was undecided, and an undecided type test forgets what it tests: the model's submodule became
//! unknown, and with it every value the model computed.
//!
//! ```python
//! self.visual = ModifiedResNet(...)
//! if isinstance(self.visual, ModifiedResNet):   # True: the branch runs, `self.visual` stays known
//!     ...
//! ```
use super::Interp;
use super::state::{Obj, State};
use super::value::{Abc, Builtin, Seq, Value};

/// `Sequence`, `Mapping`, `Iterable` (and their kin) of `collections.abc` / `typing`.
pub(crate) fn abc(name: &str) -> Option<Value> {
    let kind = match name {
        "Sequence" | "MutableSequence" => Abc::Sequence,
        "Mapping" | "MutableMapping" => Abc::Mapping,
        "Iterable" | "Collection" | "Container" | "Sized" | "Reversible" => Abc::Iterable,
        _ => return None,
    };
    Some(Value::Builtin(Builtin::Abc(kind)))
}

impl Interp<'_> {
    /// `isinstance(v, cls)`, with the program's classes.
    pub(crate) fn isinstance(&self, v: &Value, cls: &Value, st: &State) -> Option<bool> {
        if let Value::Instance(addr) = v
            && let Some(Obj::Instance { class, .. }) = st.heap.get(addr).map(|o| &**o)
        {
            let items: Vec<&Value> = match cls {
                Value::Tuple(Seq::Exact(items)) => items.iter().collect(),
                c => vec![c],
            };
            let mut answer = Some(false);
            for c in items {
                let one = match c {
                    Value::Class(c) => self.derives_from(*class, *c, 0),
                    // A builtin type: only a class derived from a library class or a builtin
                    // type can be one.
                    Value::Builtin(_) | Value::NpFunc(_) if self.bases_known(*class, 0) => {
                        Some(false)
                    }
                    _ => None,
                };
                answer = or3(answer, one);
                if answer == Some(true) {
                    return answer;
                }
            }
            return answer;
        }
        if let Value::Layer(l) = v {
            return layer_isinstance(l, cls);
        }
        isinstance_value(v, cls)
    }

    /// Is class `k` class `c` or derived from it? Unknown where a base of `k` is not one of the
    /// program's classes (a library class may derive from anything).
    pub(crate) fn derives_from(&self, k: u32, c: u32, depth: usize) -> Option<bool> {
        if k == c {
            return Some(true);
        }
        if depth > 16 {
            return None;
        }
        let mut answer = Some(false);
        for b in &self.classes[k as usize].bases {
            let one = match b {
                Value::Class(b) => self.derives_from(*b, c, depth + 1),
                // `object`, and torch's modules (which derive from no class of the program).
                Value::Builtin(Builtin::Object) | Value::TorchFunc(_) => Some(false),
                _ => None,
            };
            answer = or3(answer, one);
            if answer == Some(true) {
                return answer;
            }
        }
        answer
    }

    /// Are all of class `k`'s ancestors the program's classes, `object` or torch modules?
    pub(crate) fn bases_known(&self, k: u32, depth: usize) -> bool {
        depth <= 16
            && self.classes[k as usize].bases.iter().all(|b| match b {
                Value::Class(b) => self.bases_known(*b, depth + 1),
                Value::Builtin(Builtin::Object) | Value::TorchFunc(_) => true,
                _ => false,
            })
    }
}

/// `isinstance(v, cls)` for builtin classes and the program's own classes (or a tuple of them),
/// when the value's kind decides it. NumPy scalars blur some answers: an `np.int64` is not an
/// `int` and an `np.bool_` not a `bool`, while an `np.float64` is a `float` — so ints and bools
/// stay undecided against `int`/`bool`, and 0-d arrays (maybe scalars) too. A literal list,
/// tuple, dict, string, number, None or array is never an instance of a class of the program
/// (a feature extractor's dict of maps is not a `torch.Tensor`).
pub(crate) fn isinstance_value(v: &Value, cls: &Value) -> Option<bool> {
    /// A class `isinstance` may be asked about: a builtin, one of the program's, `np.ndarray`.
    #[derive(Clone, Copy)]
    enum Cls {
        Builtin(Builtin),
        User,
        NdArray,
        Tensor,
    }
    let one_class = |x: &Value| match x {
        Value::Builtin(b) => Some(Cls::Builtin(*b)),
        Value::Class(_) => Some(Cls::User),
        Value::NpFunc("numpy.ndarray") => Some(Cls::NdArray),
        Value::TorchFunc("torch.Tensor") => Some(Cls::Tensor),
        _ => None,
    };
    let classes: Vec<Cls> = match cls {
        Value::Tuple(Seq::Exact(items)) => {
            items.iter().map(one_class).collect::<Option<Vec<_>>>()?
        }
        c => vec![one_class(c)?],
    };
    let concrete = matches!(
        v,
        Value::List(_)
            | Value::Tuple(_)
            | Value::Str(_)
            | Value::Float(_)
            | Value::Int(_)
            | Value::Bool(_)
            | Value::None
            | Value::Array(_)
            | Value::Range(_)
            | Value::Func(_)
            | Value::Dict(_)
            | Value::Kwargs(_)
    );
    let mut answer = Some(false);
    for c in classes {
        let one = match (v, c) {
            // A class of the program.
            (_, Cls::User) => concrete.then_some(false),
            // An array of rank 1 or more is an ndarray (a rank-0 result may be a NumPy scalar).
            (Value::Array(s), Cls::NdArray) => s.rank().is_some_and(|r| r > 0).then_some(true),
            (_, Cls::NdArray) => concrete.then_some(false),
            // A tensor is a `torch.Tensor`; a list of tensors is not (DenseNet's layers take
            // either: `if isinstance(input, Tensor): prev_features = [input]`).
            (Value::Tensor(_), Cls::Tensor) => Some(true),
            (_, Cls::Tensor) => concrete.then_some(false),
            (
                _,
                Cls::Builtin(
                    Builtin::Object
                    | Builtin::Other
                    | Builtin::NdArray
                    | Builtin::TensorHint
                    | Builtin::Annotated
                    | Builtin::JaxDtype,
                ),
            ) => None,
            (
                Value::List(_) | Value::Tuple(_) | Value::Str(_) | Value::Range(_),
                Cls::Builtin(Builtin::Abc(Abc::Sequence | Abc::Iterable)),
            )
            | (
                Value::Dict(_) | Value::Kwargs(_),
                Cls::Builtin(Builtin::Abc(Abc::Mapping | Abc::Iterable)),
            )
            | (Value::Tensor(_), Cls::Builtin(Builtin::Abc(Abc::Iterable))) => Some(true),
            (
                Value::Dict(_) | Value::Kwargs(_) | Value::Tensor(_),
                Cls::Builtin(Builtin::Abc(_)),
            ) => Some(false),
            // `dict` and `OrderedDict` are one builtin here: a dict may be either.
            (Value::Dict(_) | Value::Kwargs(_), Cls::Builtin(Builtin::Dict)) => None,
            (Value::List(_), Cls::Builtin(Builtin::List))
            | (Value::Tuple(_), Cls::Builtin(Builtin::Tuple)) => Some(true),
            (Value::Str(_), Cls::Builtin(Builtin::Str))
            | (Value::Float(_), Cls::Builtin(Builtin::Float)) => Some(true),
            // A Python int (sizes, lengths, literals: NumPy's integers are 0-d arrays here) is
            // an `int` and not a `bool`; a bool is both.
            (Value::Int(_) | Value::Bool(_), Cls::Builtin(Builtin::Int))
            | (Value::Bool(_), Cls::Builtin(Builtin::Bool)) => Some(true),
            (Value::Int(_), Cls::Builtin(Builtin::Bool)) => Some(false),
            (Value::None, Cls::Builtin(Builtin::NoneType)) => Some(true),
            (Value::Array(s), _) if s.rank().is_none_or(|r| r == 0) => None,
            _ => concrete.then_some(false),
        };
        answer = or3(answer, one);
        if answer == Some(true) {
            return answer;
        }
    }
    answer
}

/// The `torch.nn` classes the analysis always builds as a layer of their own kind (or not at
/// all): `isinstance` of any other layer against them is `False`.
const OWN_KIND: &[&str] = &[
    "Linear",
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "ConvTranspose3d",
    "BatchNorm1d",
    "BatchNorm2d",
    "BatchNorm3d",
    "LayerNorm",
    "Embedding",
    "Sequential",
    "ModuleList",
    "ModuleDict",
    "GroupNorm",
    "MaxPool1d",
    "MaxPool2d",
    "MaxPool3d",
    "AvgPool1d",
    "AvgPool2d",
    "AvgPool3d",
];

/// `isinstance(layer, cls)` for a `torch.nn` layer the program built.
fn layer_isinstance(l: &crate::torch::layers::Layer, cls: &Value) -> Option<bool> {
    use crate::torch::layers::Layer;
    // One of several modules: which one is not known.
    if matches!(l, Layer::Either(_)) {
        return None;
    }
    let items: Vec<&Value> = match cls {
        Value::Tuple(Seq::Exact(items)) => items.iter().collect(),
        c => vec![c],
    };
    // The layer's own class, where its kind names one.
    let own: Option<String> = match l {
        Layer::Linear { .. } => Some("Linear".into()),
        Layer::Conv { nd, transposed, .. } => Some(format!(
            "{}{nd}d",
            if *transposed { "ConvTranspose" } else { "Conv" }
        )),
        Layer::BatchNorm { nd, .. } => Some(format!("BatchNorm{nd}d")),
        Layer::LayerNorm { .. } => Some("LayerNorm".into()),
        Layer::Embedding { .. } => Some("Embedding".into()),
        Layer::Sequential(..) => Some("Sequential".into()),
        Layer::ModuleList(_) => Some("ModuleList".into()),
        Layer::ModuleDict(_) => Some("ModuleDict".into()),
        Layer::GroupNorm(_) => Some("GroupNorm".into()),
        Layer::InstanceNorm(l) => Some(format!("InstanceNorm{}d", l.nd)),
        Layer::Pool { nd, max, .. } => {
            Some(format!("{}Pool{nd}d", if *max { "Max" } else { "Avg" }))
        }
        _ => None,
    };
    let mut answer = Some(false);
    for c in items {
        let one = match c {
            Value::TorchFunc("torch.nn.Module") => Some(true),
            Value::TorchFunc(name) => match (&own, name.strip_prefix("torch.nn.")) {
                (Some(own), Some(asked)) => Some(own == asked),
                // A class whose every instance is a layer of its own kind (`nn.MaxPool2d`
                // builds a pooling layer or nothing known): a layer of another kind — an
                // activation, a dropout — is not one (VGG's `isinstance(layer, nn.MaxPool2d)`
                // over its features).
                (None, Some(asked)) if OWN_KIND.contains(&asked) => Some(false),
                _ => None,
            },
            // A class of the program, a builtin type: a library layer is none of them.
            Value::Class(_) | Value::Builtin(_) => Some(false),
            _ => None,
        };
        answer = or3(answer, one);
        if answer == Some(true) {
            return answer;
        }
    }
    answer
}

/// Three-valued "or": true if either is, false if both are, unknown otherwise.
fn or3(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}
