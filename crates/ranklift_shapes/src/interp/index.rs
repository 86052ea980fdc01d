//! Subscripts: array indexing (ints, slices, `None`, `...`) with NumPy's bounds checks (W510),
//! assignment into arrays (W502: the value must broadcast into the selection), and list / tuple
//! indexing (E017) and non-subscriptable values (E015).

use ruff_text_size::TextRange;

use super::state::{Obj, State};
use super::value::{Int, Seq, Value};
use super::{Exc, Interp};
use crate::{Certainty, Dim, Outcome, Shape};

/// One entry of an array index.
enum Item {
    Int(Int),
    Slice([Option<Int>; 3]),
    NewAxis,
    Ellipsis,
    /// A 1-d array (integers or a boolean mask; the dtype is not tracked): it selects along
    /// one axis a number of entries that depends on its values (`evecs[:, order]`), unknown;
    /// known for integers (`a[[0, 2]]`, `a[range(3)]`): one entry each.
    Vec(Dim),
    /// Advanced indexing or something unknown: the result's shape is not tracked.
    Other,
}

fn items(idx: &Value) -> Vec<Item> {
    let one = |v: &Value| match v {
        Value::Int(i) => Item::Int(i.clone()),
        Value::Slice(s) => Item::Slice((**s).clone()),
        Value::None => Item::NewAxis,
        Value::Ellipsis => Item::Ellipsis,
        Value::Array(s) if s.rank() == Some(1) => Item::Vec(Dim::Unknown),
        Value::Range(r) => match (r.0.constant(), r.1.constant(), r.2.constant()) {
            (Some(a), Some(b), Some(c)) if c != 0 => {
                Item::Vec(Dim::Known(super::stmt::range_len(a, b, c).max(0) as u64))
            }
            _ => Item::Vec(Dim::Unknown),
        },
        _ => Item::Other,
    };
    match idx {
        Value::Tuple(Seq::Exact(v)) => v.iter().map(one).collect(),
        Value::Tuple(_) => vec![Item::Other],
        v => vec![one(v)],
    }
}

/// `len(range(n)[slice])`, with Python's clamping rules; `None` when not all is known.
fn slice_len(s: &[Option<Int>; 3], n: i64) -> Option<i64> {
    let c = |x: &Option<Int>| -> Option<Option<i64>> {
        match x {
            None => Some(None),
            Some(i) => i.constant().map(Some),
        }
    };
    let (lo, hi, step) = (c(&s[0])?, c(&s[1])?, c(&s[2])?);
    let step = step.unwrap_or(1);
    if step == 0 {
        return None;
    }
    if step > 0 {
        let clamp = |x: i64| if x < 0 { (x + n).max(0) } else { x.min(n) };
        let start = lo.map_or(0, clamp);
        let stop = hi.map_or(n, clamp);
        Some(if stop > start {
            (stop - start - 1) / step + 1
        } else {
            0
        })
    } else {
        let clamp = |x: i64| if x < 0 { (x + n).max(-1) } else { x.min(n - 1) };
        let start = lo.map_or(n - 1, clamp);
        let stop = hi.map_or(-1, clamp);
        Some(if start > stop {
            (start - stop - 1) / (-step) + 1
        } else {
            0
        })
    }
}

/// The shape of `a[idx]`.
fn index_shape(shape: &Shape, idx: &Value) -> Outcome {
    let items = items(idx);
    if items.iter().any(|i| matches!(i, Item::Other)) {
        return Outcome::ok(Shape::AnyRank);
    }
    // One array index among slices: its axis keeps its place. With integers or other arrays
    // (advanced indices broadcast together and may move to the front), not tracked.
    let vecs = items.iter().filter(|i| matches!(i, Item::Vec(_))).count();
    if vecs > 1 || (vecs == 1 && items.iter().any(|i| matches!(i, Item::Int(_)))) {
        return Outcome::ok(
            shape
                .dims()
                .and_then(|d| advanced_shape(d, &items))
                .unwrap_or(Shape::AnyRank),
        );
    }
    let Some(dims) = shape.dims() else {
        return Outcome::ok(Shape::AnyRank);
    };
    let consumed = items
        .iter()
        .filter(|i| matches!(i, Item::Int(_) | Item::Slice(_) | Item::Vec(_)))
        .count();
    let ellipses = items.iter().filter(|i| matches!(i, Item::Ellipsis)).count();
    if ellipses > 1 {
        return Outcome::certain(
            "W510",
            "an index can only have a single ellipsis ('...')".to_owned(),
        );
    }
    if consumed > dims.len() {
        return Outcome::certain(
            "W510",
            format!(
                "too many indices for array: array is {}-dimensional, but {consumed} were indexed",
                dims.len()
            ),
        );
    }
    let mut out = Vec::with_capacity(dims.len() + 2);
    let mut axis = 0usize;
    let mut possible: Option<(String, String)> = None;
    for item in &items {
        match item {
            Item::Int(i) => {
                let d = &dims[axis];
                match (i.constant(), d) {
                    (Some(i), Dim::Known(n)) => {
                        let n = *n as i64;
                        if i >= n || i < -n {
                            return Outcome::certain(
                                "W510",
                                format!("index {i} is out of bounds for axis {axis} with size {n}"),
                            );
                        }
                    }
                    (None, Dim::Known(n)) if !within(i, *n as i64) => {
                        possible = Some((
                            format!(
                                "index {} is out of bounds for axis {axis} with size {n}",
                                i.as_dim()
                            ),
                            match i {
                                Int::Sym(_) => format!("index `{}` unknown", i.as_dim()),
                                _ => "the index is unknown".to_owned(),
                            },
                        ));
                    }
                    _ => {}
                }
                axis += 1;
            }
            Item::Slice(s) => {
                let d = &dims[axis];
                let full = s.iter().all(Option::is_none);
                out.push(match d {
                    _ if full => d.clone(),
                    Dim::Known(n) => {
                        slice_len(s, *n as i64).map_or(Dim::Unknown, |k| Dim::Known(k as u64))
                    }
                    _ => Dim::Unknown,
                });
                axis += 1;
            }
            Item::Vec(n) => {
                out.push(n.clone());
                axis += 1;
            }
            Item::NewAxis => out.push(Dim::Known(1)),
            Item::Ellipsis => {
                let take = dims.len() - consumed;
                out.extend(dims[axis..axis + take].iter().cloned());
                axis += take;
            }
            Item::Other => unreachable!("returned above"),
        }
    }
    out.extend(dims[axis..].iter().cloned());
    match possible {
        Some((message, reason)) => Outcome::possible(Shape::Known(out), "W510", message, reason),
        None => Outcome::ok(Shape::Known(out)),
    }
}

/// `a[rows, cols]` with several index arrays (or arrays and integers): NumPy broadcasts the
/// advanced indices together into one dimension (`P[range(m), y]` is `(m,)`), which takes their
/// place when they are adjacent and goes first otherwise; slices and new axes keep theirs.
/// `None` (not tracked) with an ellipsis, more indices than dims, or sizes that cannot
/// broadcast (left to run time).
fn advanced_shape(dims: &[Dim], items: &[Item]) -> Option<Shape> {
    if items
        .iter()
        .any(|i| matches!(i, Item::Ellipsis | Item::Other))
    {
        return None;
    }
    let consumed = items.iter().filter(|i| !matches!(i, Item::NewAxis)).count();
    if consumed > dims.len() {
        return None;
    }
    // The broadcast size of the index arrays (integers are 0-d: they broadcast to anything).
    // An unknown size with a known one is the known one unless that is 1: where the indexing
    // does not raise, the result has that size.
    let mut size: Option<Dim> = None;
    for it in items {
        let Item::Vec(d) = it else { continue };
        size = Some(match size {
            None => d.clone(),
            Some(s) => match (s.known(), d.known()) {
                (Some(a), Some(b)) if a == b || b == 1 => s,
                (Some(1), Some(_)) => d.clone(),
                (Some(_), Some(_)) => return None,
                (Some(a), None) if a != 1 => s,
                (None, Some(b)) if b != 1 => d.clone(),
                _ if s.same(d) == crate::Tri::Yes => s,
                _ => Dim::Unknown,
            },
        });
    }
    let size = size?;
    let adv: Vec<usize> = items
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i, Item::Vec(_) | Item::Int(_)))
        .map(|(k, _)| k)
        .collect();
    let (first, last) = (*adv.first()?, *adv.last()?);
    let adjacent = adv.len() == last - first + 1;
    let mut out = Vec::with_capacity(dims.len() + 1);
    let mut axis = 0usize;
    for (k, item) in items.iter().enumerate() {
        match item {
            Item::Int(_) | Item::Vec(_) => {
                if adjacent && k == first {
                    out.push(size.clone());
                }
                axis += 1;
            }
            Item::Slice(sl) => {
                let d = &dims[axis];
                out.push(match d {
                    _ if sl.iter().all(Option::is_none) => d.clone(),
                    Dim::Known(n) => {
                        slice_len(sl, *n as i64).map_or(Dim::Unknown, |k| Dim::Known(k as u64))
                    }
                    _ => Dim::Unknown,
                });
                axis += 1;
            }
            Item::NewAxis => out.push(Dim::Known(1)),
            Item::Ellipsis | Item::Other => return None,
        }
    }
    out.extend(dims[axis..].iter().cloned());
    if !adjacent {
        out.insert(0, size);
    }
    Some(Shape::Known(out))
}

/// Is every value of `i` a valid index for a dimension of size `n`?
fn within(i: &Int, n: i64) -> bool {
    match i {
        Int::Const(c) => *c < n && *c >= -n,
        Int::Range(Some(lo), Some(hi)) => *hi < n && *lo >= -n,
        _ => false,
    }
}

impl<'a> Interp<'a> {
    /// An index list of known integers into an array (`a[[0, 2]]`) as the range-like index
    /// array it acts as; `None` when nothing changes.
    fn int_list_index(obj: &Value, idx: &Value, st: &State) -> Option<Value> {
        let as_range = |v: &Value| match v {
            Value::List(a) => match st.list(*a) {
                Some(Seq::Exact(items))
                    if !items.is_empty() && items.iter().all(|x| matches!(x, Value::Int(_))) =>
                {
                    let n = items.len() as i64;
                    Some(Value::Range(Box::new((
                        Int::Const(0),
                        Int::Const(n),
                        Int::Const(1),
                    ))))
                }
                _ => None,
            },
            _ => None,
        };
        if !matches!(obj, Value::Array(_)) {
            return None;
        }
        // Most subscripts hold no list: nothing is copied for them.
        match idx {
            Value::Tuple(Seq::Exact(items)) if items.iter().any(|x| as_range(x).is_some()) => {
                Some(Value::Tuple(Seq::Exact(
                    items
                        .iter()
                        .map(|x| as_range(x).unwrap_or_else(|| x.clone()))
                        .collect(),
                )))
            }
            v => as_range(v),
        }
    }

    pub(crate) fn get_item(
        &mut self,
        obj: &Value,
        idx: &Value,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        if let Some(l) = obj.held_modules() {
            return self.get_item(&l, idx, range, st);
        }
        if let Some(t) = self.named_tuple_items(obj, st) {
            return self.get_item(&t, idx, range, st);
        }
        // `obj[i]` of a program's class: its `__getitem__` (a dataset's sample, a container's
        // item), run like any method.
        if let Value::Instance(addr) = obj {
            let class = match st.heap.get(addr).map(|o| &**o) {
                Some(super::state::Obj::Instance { class, .. }) => Some(*class),
                _ => None,
            };
            if let Some(Value::Func(id)) = class.and_then(|c| self.class_attr(c, "__getitem__", 0))
            {
                let args = super::call::Args {
                    pos: vec![idx.clone()],
                    ..Default::default()
                };
                return self.call_function(id, Some(obj.clone()), args, range, st);
            }
        }
        // `dataset[i]`: one sample (`torch/data.rs`).
        if let Value::Layer(l) = obj {
            return match &**l {
                crate::torch::layers::Layer::Dataset { item, .. }
                    if matches!(idx, Value::Int(_)) =>
                {
                    item.clone()
                }
                // `features[0]`: a child of a Sequential (negative indices from the end).
                crate::torch::layers::Layer::Sequential(children, names) => match idx {
                    Value::Int(super::value::Int::Const(i)) => {
                        let n = children.len() as i64;
                        let i = if *i < 0 { i + n } else { *i };
                        usize::try_from(i)
                            .ok()
                            .and_then(|i| children.get(i))
                            .cloned()
                            .unwrap_or(Value::Top)
                    }
                    // `features[:4]`: a Sequential of those children, under their names (as
                    // torch's `Sequential.__getitem__` with a slice).
                    Value::Slice(s) => match slice_bounds(s, children.len() as i64) {
                        Some(picked) if names.len() == children.len() => Value::Layer(
                            std::sync::Arc::new(crate::torch::layers::Layer::Sequential(
                                picked.iter().map(|&i| children[i].clone()).collect(),
                                picked.iter().map(|&i| names[i].clone()).collect(),
                            )),
                        ),
                        _ => Value::Top,
                    },
                    _ => Value::Top,
                },
                _ => Value::Top,
            };
        }
        // `cfg["depths"]`: the value under a constant key; anything else is unknown (a missing
        // key is left to run time: the key may equal one the analysis tells apart, `1 == 1.0`).
        if let Value::Dict(a) = obj {
            let Some((items, _)) = st.dict(*a) else {
                return Value::Top;
            };
            if idx.is_const_key() {
                return items
                    .iter()
                    .find(|(k, _)| k == idx)
                    .map_or(Value::Top, |(_, v)| v.clone());
            }
            // Any of its values may be the one read, and changed through it
            // (`vertices[label.hemi].append(v)`).
            for (_, v) in &items {
                if matches!(v, Value::List(_) | Value::Dict(_) | Value::Instance(_)) {
                    self.escape_value(v, st);
                }
            }
            return Value::Top;
        }
        let resolved = Self::int_list_index(obj, idx, st);
        let idx = resolved.as_ref().unwrap_or(idx);
        match obj {
            // Basic indexing (ints, slices, None, ...) as NumPy's; an index out of range is
            // left to run time (PyTorch words it differently).
            Value::Tensor(s) => {
                let as_array = |v: &Value| match v {
                    Value::Tensor(t) => Value::Array(t.clone()),
                    v => v.clone(),
                };
                let idx = match idx {
                    Value::Tuple(Seq::Exact(items)) => {
                        Value::Tuple(Seq::Exact(items.iter().map(as_array).collect()))
                    }
                    v => as_array(v),
                };
                if matches!(idx, Value::Top | Value::Instance(_)) {
                    return Value::Tensor(crate::Shape::AnyRank);
                }
                // `loss.data[0]` (code of torch < 0.5, where a loss had one element): a 0-d
                // tensor has no element to index.
                if s.rank() == Some(0) && matches!(idx, Value::Int(_)) {
                    return self.torch_error(
                        range,
                        "W528",
                        Exc::Index,
                        "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number".to_owned(),
                    );
                }
                let o = index_shape(s, &idx);
                // A certain out-of-range index leaves the value unknown (torch raises, in its own
                // words); one that may be out of range (`emb[:, t]` in a loop over an unknown
                // count) still has the shape it has when it is in range.
                match o.error {
                    Some(e) if e.certainty == crate::Certainty::Certain => Value::Top,
                    _ => Value::Tensor(o.shape),
                }
            }
            Value::Array(s) => {
                // An index of unknown kind may be an integer: on a 1-d array (or one of unknown
                // rank) that selects an element, whose type is the (untracked) dtype's.
                if matches!(idx, Value::Top | Value::Instance(_)) && s.rank().is_none_or(|r| r <= 1)
                {
                    return Value::Top;
                }
                // Integers on an array of unknown rank may select one element.
                let ints_only = match idx {
                    Value::Int(_) => true,
                    Value::Tuple(Seq::Exact(items)) => {
                        items.iter().all(|x| matches!(x, Value::Int(_)))
                    }
                    _ => false,
                };
                if s.rank().is_none() && ints_only {
                    return Value::Top;
                }
                let o = index_shape(s, idx);
                let o = match o.shape.rank() {
                    // A full integer index gives a scalar of the array's dtype, which is not
                    // tracked: an int, a float, a record of a structured dtype, an object. Of a
                    // 2-d (or higher) array it is taken for a NumPy scalar, which behaves as a
                    // 0-d array in arithmetic (`m[1, 0] / m[0, 0] * m[1]` has `m[1]`'s shape);
                    // object arrays of known rank are rare, and what only an object could do
                    // with it (iterate, call, take its length) is not reported for certain.
                    Some(0) if o.error.is_none() && s.rank().is_some_and(|r| r >= 2) => {
                        return Value::Array(crate::Shape::Known(Vec::new()));
                    }
                    Some(0) if o.error.is_none() => return Value::Elem,
                    _ => o,
                };
                self.outcome(range, o)
            }
            Value::Kwargs(items) => match idx {
                Value::Str(Some(k)) => Value::kwarg(items, k).unwrap_or(Value::Top),
                _ => Value::Top,
            },
            Value::NpFunc(name @ ("numpy.r_" | "numpy.c_")) => {
                let items: Vec<Value> = match idx {
                    Value::Tuple(Seq::Exact(items)) => items.to_vec(),
                    Value::Tuple(_) => return Value::Top,
                    v => vec![v.clone()],
                };
                let heap = |a| st.list(a);
                let shapes: Option<Vec<crate::Shape>> = items
                    .iter()
                    .map(|v| match v {
                        // `a:b` (and `a:b:c`) is `arange`; a complex step (`0:1:5j`) or a
                        // string directive leaves the result unknown.
                        Value::Slice(parts) => {
                            slice_points(parts).map(|n| crate::Shape::Known(vec![n]))
                        }
                        Value::Str(_) => None,
                        v => v.array_shape(&heap).filter(|s| *s != crate::Shape::AnyRank),
                    })
                    .collect();
                let Some(shapes) = shapes else {
                    return Value::Top;
                };
                let o = if *name == "numpy.r_" {
                    crate::models::index_tricks::r_(&shapes)
                } else {
                    crate::models::index_tricks::c_(&shapes)
                };
                self.outcome(range, o)
            }
            Value::NpFunc(name @ ("numpy.mgrid" | "numpy.ogrid")) => {
                let (items, tuple): (Vec<Value>, bool) = match idx {
                    Value::Tuple(Seq::Exact(items)) => (items.to_vec(), true),
                    Value::Tuple(_) => return Value::Top,
                    v => (vec![v.clone()], false),
                };
                // The points of each slice (`a:b:c`, as `arange`); a complex step (`0:1:5j`,
                // that many points) is not tracked: unknown.
                let lens: Option<Vec<crate::Dim>> = items
                    .iter()
                    .map(|v| match v {
                        Value::Slice(parts) => slice_points(parts),
                        _ => None,
                    })
                    .collect();
                let Some(lens) = lens else {
                    return Value::Top;
                };
                if *name == "numpy.mgrid" {
                    Value::Array(crate::models::index_tricks::mgrid(&lens, tuple))
                } else {
                    let arrays: Vec<Value> = crate::models::index_tricks::ogrid(&lens, tuple)
                        .into_iter()
                        .map(Value::Array)
                        .collect();
                    if tuple {
                        self.alloc_list(Seq::Exact(arrays.into()), range.start(), st)
                    } else {
                        arrays.into_iter().next().unwrap_or(Value::Top)
                    }
                }
            }
            Value::Tuple(seq) => self.seq_item(seq, idx, "tuple", range, st, false),
            Value::List(a) => match st.list(*a) {
                Some(seq) => self.seq_item(&seq, idx, "list", range, st, true),
                None => Value::Top,
            },
            Value::Str(Some(s)) => super::strings::str_item(s, idx),
            Value::Str(None) => Value::Str(None),
            Value::Range(_) => match idx {
                Value::Int(_) | Value::Bool(_) => Value::Int(Int::ANY),
                // A slice gives a range; an index of unknown kind may be either.
                _ => Value::Top,
            },
            Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::None | Value::Func(_) => {
                let ty = obj.type_name().unwrap_or("object");
                self.report(
                    range,
                    "E015",
                    Exc::Type,
                    format!("'{ty}' object is not subscriptable"),
                    Certainty::Certain,
                );
                Value::Top
            }
            _ => Value::Top,
        }
    }

    fn seq_item(
        &mut self,
        seq: &Seq,
        idx: &Value,
        ty: &str,
        range: TextRange,
        st: &mut State,
        list: bool,
    ) -> Value {
        match idx {
            Value::Int(_) | Value::Bool(_) => {
                let i = match idx {
                    Value::Int(i) => i.clone(),
                    _ => idx.as_int().unwrap_or(Int::ANY),
                };
                match (seq, i.constant()) {
                    (Seq::Exact(v), Some(c)) => {
                        let n = v.len() as i64;
                        if c >= n || c < -n {
                            self.report(
                                range,
                                "E017",
                                Exc::Index,
                                format!("{ty} index out of range"),
                                Certainty::Certain,
                            );
                            Value::Top
                        } else {
                            v[(if c < 0 { c + n } else { c }) as usize].clone()
                        }
                    }
                    _ => self.some_element(seq, st),
                }
            }
            Value::Slice(s) => {
                let sliced = match seq {
                    Seq::Exact(v) => match slice_bounds(s, v.len() as i64) {
                        Some(idx) => Seq::Exact(idx.into_iter().map(|i| v[i].clone()).collect()),
                        // Any slice of an empty sequence is empty, whatever its bounds: a
                        // decorator's `args[:k], args[k:]` of a call without positional arguments
                        // (torchvision's keyword-only builders) leaves nothing to move.
                        None if v.is_empty() => Seq::Exact(Vec::new().into()),
                        // Other bounds: at most as many items as there are.
                        None => Seq::Summary(
                            Box::new(seq.element()),
                            Int::Range(Some(0), Some(v.len() as i64)),
                        ),
                    },
                    Seq::Summary(e, _) => Seq::Summary(e.clone(), Int::Range(Some(0), None)),
                };
                if list {
                    self.alloc_list(sliced, range.start(), st)
                } else {
                    Value::Tuple(sliced)
                }
            }
            Value::Float(_) | Value::Str(_) | Value::None | Value::Tuple(_) | Value::List(_) => {
                let t = idx.type_name().unwrap_or("object");
                self.report(
                    range,
                    "E017",
                    Exc::Type,
                    format!("{ty} indices must be integers or slices, not {t}"),
                    Certainty::Certain,
                );
                Value::Top
            }
            _ => self.some_element(seq, st),
        }
    }

    /// An element at a position the analysis does not know. When the candidates are different
    /// mutable objects (`parts = [[], []]; parts[hemi].extend(...)`), a change made through the
    /// result could reach any of them: they become unknown (see `escape_value`).
    fn some_element(&mut self, seq: &Seq, st: &mut State) -> Value {
        if let Seq::Exact(items) = seq {
            let mutable: Vec<&Value> = items
                .iter()
                .filter(|v| matches!(v, Value::List(_) | Value::Instance(_)))
                .collect();
            if mutable.len() > 1 && mutable.windows(2).any(|w| w[0] != w[1]) {
                for v in mutable {
                    self.escape_value(v, st);
                }
            }
        }
        seq.element()
    }

    pub(crate) fn set_item(
        &mut self,
        obj: &Value,
        idx: &Value,
        v: Value,
        range: TextRange,
        st: &mut State,
    ) {
        if let Value::Dict(a) = obj {
            let new = match st.dict(*a) {
                Some((mut items, exact)) if idx.is_const_key() => {
                    match items.iter_mut().find(|(k, _)| k == idx) {
                        Some(slot) => slot.1 = v,
                        None => items.push((idx.clone(), v)),
                    }
                    Obj::Dict { items, exact }
                }
                // Any key may be the one written.
                _ => Obj::unknown_dict(),
            };
            st.insert_obj(*a, new);
            return;
        }
        if let Value::Instance(a) = obj
            && self.attr_dict_written(*a, None, st)
        {
            return;
        }
        let resolved = Self::int_list_index(obj, idx, st);
        let idx = resolved.as_ref().unwrap_or(idx);
        match obj {
            Value::Array(s) => {
                let target = index_shape(s, idx);
                if target
                    .error
                    .as_ref()
                    .is_some_and(|e| e.certainty == Certainty::Certain)
                {
                    self.outcome(range, target);
                    return;
                }
                // An index that may be out of bounds (`out[i] = row` with `i` unknown) still
                // selects the shape it names when it is in bounds: a value that cannot be
                // stored there fails either way, so that error is certain and the possible
                // index error is not said as well.
                let heap = |a| st.list(a);
                let mut certain = false;
                if let Some(value) = v.array_shape(&heap) {
                    // A Python sequence of sequences stored into an array whose dtype may be
                    // `object` (not tracked) puts one sequence in each element: its extra rank
                    // is no error then.
                    let seq = matches!(v, Value::List(_) | Value::Tuple(_));
                    let advanced = items(idx).iter().any(|i| matches!(i, Item::Vec(_)));
                    certain = self.check_setitem(&value, &target.shape, seq, advanced, range);
                }
                if !certain && target.error.is_some() {
                    self.outcome(range, target);
                }
            }
            // Basic indexing only: an index array's selection is not tracked for tensors.
            Value::Tensor(s)
                if !matches!(idx, Value::Top | Value::Instance(_))
                    && !items(idx)
                        .iter()
                        .any(|i| matches!(i, Item::Vec(_) | Item::Other)) =>
            {
                let target = index_shape(s, idx);
                // As for arrays, an index that may be out of bounds still names the shape.
                let in_bounds = target
                    .error
                    .as_ref()
                    .is_none_or(|e| e.certainty != Certainty::Certain);
                if let (true, Some(t), Value::Tensor(vs)) = (in_bounds, target.shape.dims(), &v)
                    && let Some(vd) = vs.dims()
                    && let Some(m) = crate::torch::setitem::error(vd, t)
                {
                    self.report(range, "W522", Exc::Runtime, m, Certainty::Certain);
                }
            }
            Value::List(a) => {
                let Some(seq) = st.list(*a) else { return };
                let new = match (&seq, idx.as_int().and_then(|i| i.constant())) {
                    (Seq::Exact(items), Some(c)) => {
                        let n = items.len() as i64;
                        if c >= n || c < -n {
                            self.report(
                                range,
                                "E017",
                                Exc::Index,
                                "list assignment index out of range".to_owned(),
                                Certainty::Certain,
                            );
                            return;
                        }
                        let mut items = items.to_vec();
                        items[(if c < 0 { c + n } else { c }) as usize] = v;
                        Seq::Exact(items.into())
                    }
                    _ => Seq::Summary(Box::new(seq.element().join(&v)), Int::Range(Some(0), None)),
                };
                if let Some(Obj::List(s)) = st.obj_mut(*a) {
                    *s = new;
                }
            }
            Value::Tuple(_) | Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::None => {
                let ty = obj.type_name().unwrap_or("object");
                self.report(
                    range,
                    "E017",
                    Exc::Type,
                    format!("'{ty}' object does not support item assignment"),
                    Certainty::Certain,
                );
            }
            _ => {}
        }
    }

    /// `a[idx] = value`: the value must broadcast to the selection's shape.
    pub(crate) fn check_setitem(
        &mut self,
        value: &Shape,
        target: &Shape,
        seq: bool,
        advanced: bool,
        range: TextRange,
    ) -> bool {
        let (Some(v), Some(t)) = (value.dims(), target.dims()) else {
            return false;
        };
        // Leading ones of the value are dropped first.
        let mut v = v;
        while v.len() > t.len() && v[0] == Dim::Known(1) {
            v = &v[1..];
        }
        // Into a single element (a full integer index), NumPy has a message of its own.
        let scalar_target = t.is_empty();
        let message = || {
            if scalar_target {
                return "setting an array element with a sequence.".to_owned();
            }
            // Through an index array (advanced indexing), NumPy words it differently.
            if advanced {
                return format!(
                    "shape mismatch: value array of shape {value} could not be broadcast to indexing result of shape {target}"
                );
            }
            format!(
                "could not broadcast input array from shape {} into shape {}",
                value, target
            )
        };
        if v.len() > t.len() {
            if v.iter().all(|d| d.known().is_some()) {
                let c = if seq {
                    Certainty::Possible(
                        "the array may have dtype=object (one sequence per element)".into(),
                    )
                } else {
                    Certainty::Certain
                };
                let certain = c == Certainty::Certain;
                self.report(range, "W502", Exc::Value, message(), c);
                return certain;
            }
            return false;
        }
        for (dv, dt) in v.iter().rev().zip(t.iter().rev()) {
            match (dv.is_one(), dv.same(dt)) {
                (crate::Tri::Yes, _) | (_, crate::Tri::Yes) => {}
                (crate::Tri::No, crate::Tri::No) => {
                    self.report(range, "W502", Exc::Value, message(), Certainty::Certain);
                    return true;
                }
                _ => {
                    let reason = dv
                        .why_unknown()
                        .or_else(|| dt.why_unknown())
                        .unwrap_or_default();
                    self.report(
                        range,
                        "W502",
                        Exc::Value,
                        message(),
                        Certainty::Possible(reason),
                    );
                    return false;
                }
            }
        }
        false
    }
}

/// The indices `range(n)[slice]` selects, when every bound is known.
fn slice_bounds(s: &[Option<Int>; 3], n: i64) -> Option<Vec<usize>> {
    let len = slice_len(s, n)?;
    let step = match &s[2] {
        None => 1,
        Some(i) => i.constant()?,
    };
    let first = match &s[0] {
        None => {
            if step > 0 {
                0
            } else {
                n - 1
            }
        }
        Some(i) => {
            let c = i.constant()?;
            if step > 0 {
                if c < 0 { (c + n).max(0) } else { c.min(n) }
            } else if c < 0 {
                c + n
            } else {
                c.min(n - 1)
            }
        }
    };
    Some((0..len).map(|k| (first + k * step) as usize).collect())
}

/// The points of `a:b:c` in `np.r_`, `np.mgrid`, ... (as `arange`): unknown where a bound or
/// the step is (a complex step, `0:1:5j`, is that many points: not tracked); `None` without
/// an upper bound.
fn slice_points(parts: &[Option<Int>; 3]) -> Option<crate::Dim> {
    let [lo, Some(hi), step] = parts else {
        return None;
    };
    let lo = lo.clone().unwrap_or(Int::Const(0)).constant();
    let step = step.clone().unwrap_or(Int::Const(1)).constant();
    Some(match (lo, hi.constant(), step) {
        (Some(a), Some(b), Some(c)) if c != 0 => {
            crate::Dim::Known(super::stmt::range_len(a, b, c) as u64)
        }
        _ => crate::Dim::Unknown,
    })
}
