//! Shapes.

use std::fmt;

use crate::dim::Dim;

/// The shape of an array.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A tuple of dimensions (rank known).
    Known(Vec<Dim>),
    /// Rank unknown (the top of the domain).
    AnyRank,
}

impl Shape {
    /// A shape of known sizes.
    pub fn of(dims: &[u64]) -> Shape {
        Shape::Known(dims.iter().map(|&d| Dim::Known(d)).collect())
    }

    pub fn dims(&self) -> Option<&[Dim]> {
        match self {
            Shape::Known(d) => Some(d),
            Shape::AnyRank => None,
        }
    }

    pub fn rank(&self) -> Option<usize> {
        self.dims().map(<[Dim]>::len)
    }

    /// The number of elements, when every dimension is known.
    pub fn size(&self) -> Option<u64> {
        self.dims()?
            .iter()
            .try_fold(1u64, |acc, d| d.known().and_then(|k| acc.checked_mul(k)))
    }

    /// Least upper bound: same rank joins dimension-wise, different ranks give unknown rank.
    /// Commutative, associative and idempotent.
    pub fn join(&self, other: &Shape) -> Shape {
        match (self, other) {
            (Shape::Known(a), Shape::Known(b)) if a.len() == b.len() => {
                Shape::Known(a.iter().zip(b).map(|(x, y)| x.join(y)).collect())
            }
            (a, b) if a == b => a.clone(),
            _ => Shape::AnyRank,
        }
    }
}

/// NumPy's tuple format: `(2,3)`, `(4,)`, `()`.
impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::AnyRank => write!(f, "(...)"),
            Shape::Known(d) if d.len() == 1 => write!(f, "({},)", d[0]),
            Shape::Known(d) => {
                write!(f, "(")?;
                for (i, x) in d.iter().enumerate() {
                    if i > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{x}")?;
                }
                write!(f, ")")
            }
        }
    }
}
