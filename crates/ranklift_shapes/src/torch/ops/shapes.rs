//! Shape rules shared by many operations: losses, broadcasting, `matmul`, `cat`/`stack`,
//! `flatten`/`unflatten`, `reshape`/`view`, `expand`.

use super::*;

impl<'a> Interp<'a> {
    pub(crate) fn torch_loss(
        &mut self,
        r: Rule,
        input: &Value,
        target: &Value,
        reduced: Option<bool>,
        range: TextRange,
    ) -> Value {
        let (Some(a), Some(b)) = (dims(input), dims(target)) else {
            return Value::Top;
        };
        let (a, b) = (a.to_vec(), b.to_vec());
        let known = |d: &[Dim]| d.iter().all(|x| x.known().is_some());
        let scalar = || match reduced {
            Some(true) => tensor(Vec::new()),
            _ => Value::Top,
        };
        match r {
            PointwiseLoss => {
                let out = self.torch_broadcast(&Shape::Known(a), &Shape::Known(b), range);
                match reduced {
                    Some(false) => out,
                    _ if out == Value::Top => Value::Top,
                    _ => scalar(),
                }
            }
            Bce | BceLogits => {
                if known(&a) && known(&b) && a != b {
                    let (ta, tb) = (torch_size(&b), torch_size(&a));
                    let msg = if r == Bce {
                        format!(
                            "Using a target size ({ta}) that is different to the input size ({tb}) is deprecated. Please ensure they have the same size."
                        )
                    } else {
                        format!("Target size ({ta}) must be the same as input size ({tb})")
                    };
                    return self.torch_error(range, "W527", Exc::Value, msg);
                }
                match reduced {
                    Some(false) => tensor(a),
                    _ => scalar(),
                }
            }
            _ => {
                // Class indices: (N, C) against (N,), (N, C, d1, ...) against (N, d1, ...).
                let differs = |x: &[Dim], y: &[Dim]| {
                    x.len() != y.len() || x.iter().zip(y).any(|(p, q)| p.same(q) == Tri::No)
                };
                let mut want = a.clone();
                if want.len() >= 2 {
                    want.remove(1);
                }
                let msg = match a.len() {
                    // The batch sizes are compared first.
                    n if n >= 2 && b.len() == n - 1 && a[0].same(&b[0]) == Tri::No => {
                        return self.torch_error(
                            range,
                            "W527",
                            Exc::Value,
                            format!(
                                "Expected input batch_size ({}) to match target batch_size ({}).",
                                a[0], b[0]
                            ),
                        );
                    }
                    1 | 2 if b.len() > 1 => Some(
                        "0D or 1D target tensor expected, multi-target not supported".to_owned(),
                    ),
                    4 if b.len() != 3 => Some(format!(
                        "only batches of spatial targets supported (3D tensors) but got targets of dimension: {}",
                        b.len()
                    )),
                    4 if known(&b) && differs(&want, &b) => Some(format!(
                        "size mismatch (got input: {} , target: {}",
                        list(&a),
                        list(&b)
                    )),
                    n if n >= 3 && known(&b) && differs(&want, &b) => Some(format!(
                        "Expected target size {}, got {}",
                        list(&want),
                        list(&b)
                    )),
                    _ => None,
                };
                if let Some(msg) = msg {
                    return self.torch_error(range, "W527", Exc::Runtime, msg);
                }
                if a.len() == 2 && b.len() == 1 && a[0].same(&b[0]) == Tri::No {
                    let (n, m) = (&a[0], &b[0]);
                    return self.torch_error(
                        range,
                        "W527",
                        Exc::Value,
                        format!(
                            "Expected input batch_size ({n}) to match target batch_size ({m})."
                        ),
                    );
                }
                match reduced {
                    Some(false) if a.len() >= 2 => {
                        let mut out = a.clone();
                        out.remove(1);
                        tensor(out)
                    }
                    _ => scalar(),
                }
            }
        }
    }

    /// Broadcasting, as `infer_size` does it: the rightmost mismatch is the one reported.
    pub(crate) fn torch_broadcast(&mut self, a: &Shape, b: &Shape, range: TextRange) -> Value {
        let (Some(x), Some(y)) = (a.dims(), b.dims()) else {
            return Value::Tensor(Shape::AnyRank);
        };
        let n = x.len().max(y.len());
        let mut out = vec![Dim::Unknown; n];
        for i in (0..n).rev() {
            let dx = (i + x.len()).checked_sub(n).map(|j| &x[j]);
            let dy = (i + y.len()).checked_sub(n).map(|j| &y[j]);
            out[i] = match (dx, dy) {
                (Some(p), None) | (None, Some(p)) => p.clone(),
                (Some(p), Some(q)) => match (p.same(q), p.is_one(), q.is_one()) {
                    (Tri::Yes, _, _) => p.clone(),
                    (_, Tri::Yes, _) => q.clone(),
                    (_, _, Tri::Yes) => p.clone(),
                    (Tri::No, Tri::No, Tri::No) => {
                        return self.torch_error(
                            range,
                            "W522",
                            Exc::Runtime,
                            format!(
                                "The size of tensor a ({p}) must match the size of tensor b ({q}) at non-singleton dimension {i}"
                            ),
                        );
                    }
                    _ => match (p.known(), q.known()) {
                        (Some(k), _) if k != 1 => Dim::Known(k),
                        (_, Some(k)) if k != 1 => Dim::Known(k),
                        _ => Dim::Unknown,
                    },
                },
                (None, None) => Dim::Unknown,
            };
        }
        tensor(out)
    }

    /// `a @ b`, `torch.matmul`, `mm`, `bmm`: 2-d operands (and a batch folded into rows) fail
    /// in `mm`'s words, batches of matrices in `bmm`'s.
    pub(crate) fn torch_matmul(&mut self, a: &Shape, b: &Shape, range: TextRange) -> Value {
        let (Some(x), Some(y)) = (a.dims(), b.dims()) else {
            return Value::Tensor(Shape::AnyRank);
        };
        if x.is_empty() || y.is_empty() {
            return Value::Top;
        }
        if x.len() == 1 || y.len() == 1 {
            // Vector products: the result drops the vector's dim.
            let k_a = &x[x.len() - 1];
            let k_b = if y.len() == 1 { &y[0] } else { &y[y.len() - 2] };
            if k_a.same(k_b) == Tri::No {
                return Value::Top;
            }
            let mut out: Vec<Dim> = x[..x.len() - 1].to_vec();
            if y.len() >= 2 {
                out.extend(y[..y.len() - 2].iter().cloned());
                out.push(y[y.len() - 1].clone());
            }
            return if x.len() == 1 && y.len() >= 2 {
                let mut o = y[..y.len() - 2].to_vec();
                o.push(y[y.len() - 1].clone());
                tensor(o)
            } else {
                tensor(out)
            };
        }
        let (n, k) = (&x[x.len() - 2], &x[x.len() - 1]);
        let (k2, m) = (&y[y.len() - 2], &y[y.len() - 1]);
        if k.same(k2) == Tri::No {
            if y.len() == 2 {
                // The batch of `a` is folded into the rows of one `mm`.
                let rows = x[..x.len() - 1]
                    .iter()
                    .try_fold(1u64, |acc, d| d.known().map(|d| acc * d));
                let rows = rows.map_or("?".to_owned(), |r| r.to_string());
                return self.torch_error(
                    range,
                    "W520",
                    Exc::Runtime,
                    format!(
                        "mm: mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and {k2}x{m})"
                    ),
                );
            }
            if x.len() == 3 && y.len() == 3 && x[0].same(&y[0]) == Tri::Yes {
                return self.torch_error(
                    range,
                    "W520",
                    Exc::Runtime,
                    format!(
                        "Expected size for first two dimensions of batch2 tensor to be: [{}, {k}] but got: [{}, {k2}].",
                        x[0], y[0]
                    ),
                );
            }
            return Value::Top;
        }
        // Batch dims broadcast.
        let ba = Shape::Known(x[..x.len() - 2].to_vec());
        let bb = Shape::Known(y[..y.len() - 2].to_vec());
        let batch = match self.torch_broadcast(&ba, &bb, range) {
            Value::Tensor(Shape::Known(d)) => d,
            _ => return Value::Top,
        };
        let mut out = batch;
        out.extend([n.clone(), m.clone()]);
        tensor(out)
    }

    pub(super) fn torch_cat(&mut self, shapes: &[Vec<Dim>], dim: i64, range: TextRange) -> Value {
        // Legacy: 1-d empty tensors are skipped by `cat`.
        let shapes: Vec<&Vec<Dim>> = shapes
            .iter()
            .filter(|s| !(s.len() == 1 && s[0] == Dim::Known(0)))
            .collect();
        let Some(first) = shapes.first() else {
            return Value::Tensor(Shape::AnyRank);
        };
        let r = first.len();
        let d = match wrap_dim(dim, r) {
            Ok(d) => d,
            Err(m) => return self.torch_error(range, "W525", Exc::Index, m),
        };
        for s in &shapes[1..] {
            if s.len() != r {
                return self.torch_error(
                    range,
                    "W524",
                    Exc::Runtime,
                    format!(
                        "Tensors must have same number of dimensions: got {r} and {}",
                        s.len()
                    ),
                );
            }
        }
        let mut out = (*first).clone();
        for (t, s) in shapes.iter().enumerate().skip(1) {
            for i in 0..r {
                if i == d {
                    continue;
                }
                if first[i].same(&s[i]) == Tri::No {
                    return self.torch_error(
                        range,
                        "W524",
                        Exc::Runtime,
                        format!(
                            "Sizes of tensors must match except in dimension {d}. Expected size {} but got size {} for tensor number {t} in the list.",
                            first[i], s[i]
                        ),
                    );
                }
                if first[i].same(&s[i]) == Tri::Maybe {
                    out[i] = Dim::Unknown;
                }
            }
        }
        if d < r {
            out[d] = shapes
                .iter()
                .try_fold(0u64, |acc, s| s[d].known().map(|k| acc + k))
                .map_or(Dim::Unknown, Dim::Known);
        }
        tensor(out)
    }

    pub(super) fn torch_stack(&mut self, shapes: &[Vec<Dim>], dim: i64, range: TextRange) -> Value {
        let first = &shapes[0];
        for (t, s) in shapes.iter().enumerate().skip(1) {
            let differs =
                s.len() != first.len() || s.iter().zip(first).any(|(a, b)| a.same(b) == Tri::No);
            if differs {
                return self.torch_error(
                    range,
                    "W524",
                    Exc::Runtime,
                    format!(
                        "stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {t}",
                        list(first),
                        list(s)
                    ),
                );
            }
        }
        match wrap_dim(dim, first.len() + 1) {
            Ok(d) => {
                let mut out = first.clone();
                out.insert(d.min(out.len()), Dim::Known(shapes.len() as u64));
                tensor(out)
            }
            Err(m) => self.torch_error(range, "W525", Exc::Index, m),
        }
    }

    pub(crate) fn flatten_shape(
        &mut self,
        s: &Shape,
        start: i64,
        end: i64,
        range: TextRange,
    ) -> Value {
        let Some(d) = s.dims() else {
            return Value::Tensor(Shape::AnyRank);
        };
        if d.is_empty() {
            return tensor(vec![Dim::Known(1)]);
        }
        let (a, b) = match (wrap_dim(start, d.len()), wrap_dim(end, d.len())) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(m), _) | (_, Err(m)) => return self.torch_error(range, "W525", Exc::Index, m),
        };
        if a > b {
            return self.torch_error(
                range,
                "W525",
                Exc::Runtime,
                "flatten() has invalid args: start_dim cannot come after end_dim".to_owned(),
            );
        }
        let merged = d[a..=b]
            .iter()
            .try_fold(1u64, |acc, x| x.known().map(|k| acc * k))
            .map_or(Dim::Unknown, Dim::Known);
        let merged = if a == b { d[a].clone() } else { merged };
        let mut out = d[..a].to_vec();
        out.push(merged);
        out.extend(d[b + 1..].iter().cloned());
        tensor(out)
    }

    pub(super) fn torch_reshape(&mut self, s: &Shape, want: &[NewDim], range: TextRange) -> Value {
        let o = crate::models::reshape::reshape(s, want);
        match o.error {
            Some(e) if e.certainty == Certainty::Certain => {
                let msg = if want.iter().filter(|d| **d == NewDim::Infer).count() > 1 {
                    "only one dimension can be inferred".to_owned()
                } else {
                    let parts: Vec<String> = want
                        .iter()
                        .map(|d| match d {
                            NewDim::Infer => "-1".to_owned(),
                            NewDim::Size(d) => d.to_string(),
                        })
                        .collect();
                    let size = s.size().map_or("?".to_owned(), |n| n.to_string());
                    format!(
                        "shape '[{}]' is invalid for input of size {size}",
                        parts.join(", ")
                    )
                };
                self.torch_error(range, "W523", Exc::Runtime, msg)
            }
            _ => Value::Tensor(o.shape),
        }
    }

    pub(super) fn torch_expand(
        &mut self,
        s: &Shape,
        target: Option<Vec<Dim>>,
        range: TextRange,
    ) -> Value {
        let (Some(d), Some(t)) = (s.dims(), target) else {
            return Value::Tensor(Shape::AnyRank);
        };
        if t.len() < d.len() {
            return Value::Top;
        }
        let pad = t.len() - d.len();
        let mut out = Vec::with_capacity(t.len());
        for (i, want) in t.iter().enumerate() {
            let keep = matches!(want, Dim::Sym(s) if &**s == "-1");
            if i < pad {
                out.push(if keep { Dim::Unknown } else { want.clone() });
                continue;
            }
            let have = &d[i - pad];
            if keep {
                out.push(have.clone());
                continue;
            }
            match (have.same(want), have.is_one()) {
                (Tri::No, Tri::No) => {
                    let shown: Vec<String> = t
                        .iter()
                        .map(|x| match x {
                            Dim::Sym(s) if &**s == "-1" => "-1".to_owned(),
                            x => x.to_string(),
                        })
                        .collect();
                    return self.torch_error(
                        range,
                        "W522",
                        Exc::Runtime,
                        format!(
                            "The expanded size of the tensor ({want}) must match the existing size ({have}) at non-singleton dimension {i}.  Target sizes: [{}].  Tensor sizes: {}",
                            shown.join(", "),
                            list(d)
                        ),
                    );
                }
                _ => out.push(want.clone()),
            }
        }
        tensor(out)
    }
}

impl Interp<'_> {
    /// `unflatten(dim, sizes)`: the sizes (at most one -1) must multiply up to the dim.
    pub(crate) fn torch_unflatten(
        &mut self,
        d: &[Dim],
        dim: i64,
        sizes: &[Int],
        range: TextRange,
    ) -> Value {
        let axis = match wrap_dim(dim, d.len()) {
            Ok(a) if !d.is_empty() => a,
            Ok(_) => return Value::Top,
            Err(m) => return self.torch_error(range, "W525", Exc::Index, m),
        };
        let consts: Option<Vec<i64>> = sizes.iter().map(Int::constant).collect();
        let mut new: Vec<Dim> = sizes.iter().map(|i| i.as_dim()).collect();
        if let (Some(c), Some(n)) = (&consts, d[axis].known()) {
            let known: i64 = c.iter().filter(|k| **k != -1).product();
            let holes = c.iter().filter(|k| **k == -1).count();
            let fits = match holes {
                0 => known == n as i64,
                1 => known > 0 && (n as i64) % known == 0,
                _ => true,
            };
            if !fits {
                let shown: Vec<String> = c.iter().map(i64::to_string).collect();
                return self.torch_error(
                    range,
                    "W523",
                    Exc::Runtime,
                    format!(
                        "unflatten: Provided sizes [{}] don't multiply up to the size of dim {axis} ({n}) in the input tensor",
                        shown.join(", ")
                    ),
                );
            }
            if holes == 1 {
                for (slot, k) in new.iter_mut().zip(c) {
                    if *k == -1 {
                        *slot = Dim::Known(n / known as u64);
                    }
                }
            }
        } else {
            for (slot, i) in new.iter_mut().zip(sizes) {
                if i.constant() == Some(-1) {
                    *slot = Dim::Unknown;
                }
            }
        }
        let mut out = d[..axis].to_vec();
        out.extend(new);
        out.extend(d[axis + 1..].iter().cloned());
        tensor(out)
    }
}
