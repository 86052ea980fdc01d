//! Dimensions.

use std::fmt;
use std::sync::Arc;

/// One dimension of a shape.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Dim {
    /// A size known exactly.
    Known(u64),
    /// An unknown size with a name: two occurrences of the same name are the same size.
    Sym(Arc<str>),
    /// Nothing known.
    Unknown,
}

/// Three-valued answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tri {
    Yes,
    No,
    Maybe,
}

impl Dim {
    pub fn sym(name: &str) -> Dim {
        Dim::Sym(name.into())
    }

    /// Are the two dimensions certainly equal, certainly different, or unknown?
    pub fn same(&self, other: &Dim) -> Tri {
        match (self, other) {
            (Dim::Known(a), Dim::Known(b)) => {
                if a == b {
                    Tri::Yes
                } else {
                    Tri::No
                }
            }
            (Dim::Sym(a), Dim::Sym(b)) if a == b => Tri::Yes,
            _ => Tri::Maybe,
        }
    }

    /// Is the dimension 1?
    pub fn is_one(&self) -> Tri {
        match self {
            Dim::Known(1) => Tri::Yes,
            Dim::Known(_) => Tri::No,
            _ => Tri::Maybe,
        }
    }

    pub fn known(&self) -> Option<u64> {
        match self {
            Dim::Known(n) => Some(*n),
            _ => None,
        }
    }

    /// Least upper bound (at a control-flow merge): equal dimensions stay, others become unknown.
    /// Commutative, associative and idempotent.
    pub fn join(&self, other: &Dim) -> Dim {
        if self == other {
            self.clone()
        } else {
            Dim::Unknown
        }
    }

    /// A short explanation of why a comparison involving this dimension is undecided.
    pub fn why_unknown(&self) -> Option<String> {
        match self {
            Dim::Sym(n) => Some(format!("dimension `{}` unknown", sym_name(n))),
            Dim::Unknown => Some("a dimension is unknown".to_owned()),
            Dim::Known(_) => None,
        }
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Known(n) => write!(f, "{n}"),
            Dim::Sym(s) => write!(f, "{}", sym_name(s)),
            Dim::Unknown => write!(f, "?"),
        }
    }
}

/// The printed name of a symbol: the interpreter keeps symbols of different definitions apart
/// with a `#suffix` that users do not need to see.
fn sym_name(s: &str) -> &str {
    s.split('#').next().unwrap_or(s)
}
