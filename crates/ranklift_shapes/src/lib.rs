//! `ranklift shapes`: finds tensor-shape errors (and a few plain Python errors) before the code
//! runs, by abstract interpretation.
//!
//! Layers, bottom up:
//!
//! - [`Dim`]: a dimension — a known size, a *symbolic* size (an unknown `n` that stays `n`, so
//!   `x.dot(x.T)` is known to be fine), or unknown.
//! - [`Shape`]: a tuple of dimensions, or an array of unknown rank; printed as NumPy prints shapes.
//! - [`models`]: one file per NumPy operation (broadcasting, `dot`, `matmul`, `reshape`, ...). Each
//!   returns the result shape and, when the operation fails, a [`ShapeError`] that is either
//!   *certain* (it fails on every execution reaching it: reported by default) or *possible* (it
//!   fails for some values of the unknowns: reported with `--possible`, with the reason).
//!
//! - [`interp`]: the abstract interpreter (values, state, statements, calls, hints).
//! - [`numpy`]: the NumPy library model, a table from functions to shape rules.
//! - [`check`]: files in, diagnostics out; [`codes`]: the code table.
//!
//! Messages use NumPy's own wording; `tests/numpy_cases.json` holds NumPy's actual result for every
//! case the tests check, produced by `tests/gen_numpy_cases.py`.
//!
//! | code | operation |
//! |---|---|
//! | W502 | operands cannot be broadcast together |
//! | W503 | `dot`: shapes not aligned |
//! | W504 | `matmul` / `@`: core dimension mismatch or too few dimensions |
//! | W505 | `reshape`: size mismatch or more than one `-1` |
//! | W506 | `concatenate` / `stack`: dimensions do not match |
//! | W507 | axis out of bounds (reductions, `expand_dims`, `squeeze`, `concatenate`) |
//! | W508 | `transpose`: bad or repeated axes |
//! | W509 | `squeeze`: the axis to squeeze out does not have size one |
//! (The full code table, with E0xx/W2xx/W3xx codes, is in [`codes`].)
//!
//! Architecture invariant: `models` and the domains do no I/O and see no Python syntax; only
//! `check` reads files.

pub mod check;
pub mod codes;
mod dim;
pub mod explain;
pub mod interp;
pub mod models;
pub mod numpy;
mod shape;
pub mod torch;

pub use dim::{Dim, Tri};
pub use shape::Shape;

/// Whether a shape error happens on every execution or only for some values of the unknowns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Certainty {
    Certain,
    /// The reason it may fail, e.g. "dimension `n` unknown".
    Possible(String),
}

/// A shape error found by a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError {
    pub code: &'static str,
    /// NumPy's message (the text after `ValueError: `).
    pub message: String,
    pub certainty: Certainty,
}

/// What an operation produces: its result shape (unknown rank after a certain error) and the error,
/// if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub shape: Shape,
    pub error: Option<ShapeError>,
}

impl Outcome {
    pub fn ok(shape: Shape) -> Outcome {
        Outcome { shape, error: None }
    }
    pub fn certain(code: &'static str, message: String) -> Outcome {
        Outcome {
            shape: Shape::AnyRank,
            error: Some(ShapeError {
                code,
                message,
                certainty: Certainty::Certain,
            }),
        }
    }
    pub fn possible(shape: Shape, code: &'static str, message: String, reason: String) -> Outcome {
        Outcome {
            shape,
            error: Some(ShapeError {
                code,
                message,
                certainty: Certainty::Possible(reason),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::models::{
        broadcast::broadcast, dot::dot, expand_squeeze::squeeze, matmul::matmul, reshape,
    };
    use super::*;

    fn s(dims: &[Dim]) -> Shape {
        Shape::Known(dims.to_vec())
    }
    fn k(n: u64) -> Dim {
        Dim::Known(n)
    }

    #[test]
    fn joins_are_semilattices() {
        let dims = [k(1), k(3), Dim::sym("n"), Dim::sym("m"), Dim::Unknown];
        for a in &dims {
            assert_eq!(a.join(a), *a);
            for b in &dims {
                assert_eq!(a.join(b), b.join(a));
                for c in &dims {
                    assert_eq!(a.join(&b.join(c)), a.join(b).join(c));
                }
            }
        }
        let shapes = [
            Shape::of(&[2, 3]),
            Shape::of(&[2, 4]),
            Shape::of(&[2]),
            s(&[Dim::sym("n"), k(3)]),
            Shape::AnyRank,
        ];
        for a in &shapes {
            assert_eq!(a.join(a), *a);
            for b in &shapes {
                assert_eq!(a.join(b), b.join(a));
                for c in &shapes {
                    assert_eq!(a.join(&b.join(c)), a.join(b).join(c));
                }
            }
        }
        // Widening terminates: a chain of joins reaches a fixpoint in at most rank + 1 steps.
        let mut acc = Shape::of(&[1, 1]);
        for i in 2..100 {
            let next = acc.join(&Shape::of(&[i, 1]));
            if next == acc {
                break;
            }
            acc = next;
        }
        assert_eq!(acc, s(&[Dim::Unknown, k(1)]));
    }

    #[test]
    fn symbolic_dimensions_keep_their_names() {
        let n = Dim::sym("n");
        let m = Dim::sym("m");
        // x: (n, m); x.dot(x.T) is (n, n) and certainly fine.
        assert_eq!(
            dot(&s(&[n.clone(), m.clone()]), &s(&[m.clone(), n.clone()])),
            Outcome::ok(s(&[n.clone(), n.clone()]))
        );
        // (n, 3) + (n, 3) is fine; (k,) + (1,) keeps k (Pytropos gave (1,)).
        assert_eq!(
            broadcast(&s(&[n.clone(), k(3)]), &s(&[n.clone(), k(3)])),
            Outcome::ok(s(&[n.clone(), k(3)]))
        );
        assert_eq!(
            broadcast(&s(&[Dim::sym("k")]), &Shape::of(&[1])),
            Outcome::ok(s(&[Dim::sym("k")]))
        );
        // (n,) + (3,) may fail: only a possible error, with the reason, and the result is (3,).
        let o = broadcast(&s(std::slice::from_ref(&n)), &Shape::of(&[3]));
        assert_eq!(o.shape, Shape::of(&[3]));
        assert_eq!(
            o.error.unwrap().certainty,
            Certainty::Possible("dimension `n` unknown".into())
        );
        // Batched matmul with a symbolic batch.
        assert_eq!(
            matmul(&s(&[Dim::sym("b"), n.clone(), k(4)]), &Shape::of(&[4, 2])),
            Outcome::ok(s(&[Dim::sym("b"), n.clone(), k(2)]))
        );
        // reshape(-1) always succeeds; reshape((n, 3)) of an (n, 3) array too.
        assert_eq!(
            reshape::reshape(&s(&[n.clone(), k(3)]), &[reshape::NewDim::Infer]).error,
            None
        );
        let same = [
            reshape::NewDim::Size(n.clone()),
            reshape::NewDim::Size(k(3)),
        ];
        assert_eq!(reshape::reshape(&s(&[n.clone(), k(3)]), &same).error, None);
        // squeeze of an unknown dimension: possible.
        assert!(matches!(
            squeeze(&s(&[n, k(3)]), Some(0)).error.unwrap().certainty,
            Certainty::Possible(_)
        ));
    }

    #[test]
    fn numpy_shape_format() {
        assert_eq!(Shape::of(&[2, 3]).to_string(), "(2,3)");
        assert_eq!(Shape::of(&[4]).to_string(), "(4,)");
        assert_eq!(Shape::of(&[]).to_string(), "()");
        assert_eq!(s(&[Dim::sym("n"), Dim::Unknown]).to_string(), "(n,?)");
    }
}
