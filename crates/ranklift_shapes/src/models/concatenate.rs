//! `np.concatenate(arrays, axis)` and `np.stack(arrays, axis)`.
//!
//! **Finding:** W506 when ranks differ or a dimension other than the concatenation axis differs
//! (`stack`: when the shapes differ at all); W507 when the axis is out of bounds. Possible with
//! symbolic sizes.
//!
//! ```python
//! np.concatenate([np.zeros((2, 3)), np.zeros((4, 3))])  # (6,3)
//! np.stack([np.zeros((2, 3)), np.zeros((2, 4))])         # W506 all input arrays must have the same shape
//! ```
use crate::models::normalize_axis;
use crate::{Dim, Outcome, Shape, Tri};

pub fn concatenate(shapes: &[Shape], axis: i64) -> Outcome {
    let Some(dims) = shapes.iter().map(Shape::dims).collect::<Option<Vec<_>>>() else {
        return Outcome::ok(Shape::AnyRank);
    };
    let Some(first) = dims.first() else {
        return Outcome::certain("W506", "need at least one array to concatenate".to_owned());
    };
    let ndim = first.len();
    if ndim == 0 {
        return Outcome::certain(
            "W506",
            "zero-dimensional arrays cannot be concatenated".to_owned(),
        );
    }
    let ax = match normalize_axis(axis, ndim) {
        Ok(a) => a,
        Err(m) => return Outcome::certain("W507", m),
    };
    for (j, d) in dims.iter().enumerate().skip(1) {
        if d.len() != ndim {
            return Outcome::certain(
                "W506",
                format!(
                    "all the input arrays must have same number of dimensions, but the array at index 0 has {ndim} dimension(s) and the array at index {j} has {} dimension(s)",
                    d.len()
                ),
            );
        }
    }
    let mut possible: Option<String> = None;
    let mut out: Vec<Dim> = first.to_vec();
    for (j, d) in dims.iter().enumerate().skip(1) {
        for k in 0..ndim {
            if k == ax {
                continue;
            }
            match first[k].same(&d[k]) {
                Tri::Yes => {}
                Tri::No => {
                    return Outcome::certain(
                        "W506",
                        format!(
                            "all the input array dimensions except for the concatenation axis must match exactly, but along dimension {k}, the array at index 0 has size {} and the array at index {j} has size {}",
                            first[k], d[k]
                        ),
                    );
                }
                Tri::Maybe => {
                    possible.get_or_insert_with(|| {
                        first[k]
                            .why_unknown()
                            .or_else(|| d[k].why_unknown())
                            .unwrap_or_default()
                    });
                    out[k] = out[k].join(&d[k]);
                }
            }
        }
    }
    out[ax] = dims
        .iter()
        .map(|d| d[ax].known())
        .try_fold(0u64, |acc, k| k.map(|k| acc + k))
        .map_or(Dim::Unknown, Dim::Known);
    if dims.len() == 1 {
        out[ax] = first[ax].clone();
    }
    let shape = Shape::Known(out);
    match possible {
        Some(r) => Outcome::possible(
            shape,
            "W506",
            "all the input array dimensions except for the concatenation axis must match exactly"
                .to_owned(),
            r,
        ),
        None => Outcome::ok(shape),
    }
}

pub fn stack(shapes: &[Shape], axis: i64) -> Outcome {
    let Some(dims) = shapes.iter().map(Shape::dims).collect::<Option<Vec<_>>>() else {
        return Outcome::ok(Shape::AnyRank);
    };
    let Some(first) = dims.first() else {
        return Outcome::certain("W506", "need at least one array to stack".to_owned());
    };
    let mut possible: Option<String> = None;
    for d in &dims[1..] {
        let same = d.len() == first.len()
            && first
                .iter()
                .zip(d.iter())
                .all(|(x, y)| x.same(y) != Tri::No);
        if !same {
            return Outcome::certain(
                "W506",
                "all input arrays must have the same shape".to_owned(),
            );
        }
        if let Some((x, y)) = first
            .iter()
            .zip(d.iter())
            .find(|(x, y)| x.same(y) == Tri::Maybe)
        {
            possible.get_or_insert_with(|| {
                x.why_unknown()
                    .or_else(|| y.why_unknown())
                    .unwrap_or_default()
            });
        }
    }
    let ax = match normalize_axis(axis, first.len() + 1) {
        Ok(a) => a,
        Err(m) => return Outcome::certain("W507", m),
    };
    let mut out = first.to_vec();
    out.insert(ax, Dim::Known(dims.len() as u64));
    let shape = Shape::Known(out);
    match possible {
        Some(r) => Outcome::possible(
            shape,
            "W506",
            "all input arrays must have the same shape".to_owned(),
            r,
        ),
        None => Outcome::ok(shape),
    }
}
