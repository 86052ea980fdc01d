//! Library model: an `nn.Sequential` (or `nn.ModuleList`) grown after it is built.
//!
//! **Trigger:** `seq.add_module(name, module)` / `seq.append(module)` on an `nn.Sequential`
//! held by a name or an attribute (`self.features.add_module("denseblock1", block)`); any other
//! change to it (`insert`, `extend`, `register_module`, `del seq[i]`). And `+=`: `seq += other`
//! of two `nn.Sequential`s, `layers += [block, ...]` on an `nn.ModuleList` (MaxViT's blocks).
//!
//! **Result:** the name or attribute is rebound to the sequence with the module appended, as
//! torch's registration appends it to the children `forward` runs (`+=`: the other's children,
//! in order); a `ModuleList` extended by `+=` holds the list's modules after its own; after any
//! other change the sequence is unknown.
//!
//! **Why:** DenseNet-style models build `features = nn.Sequential(OrderedDict([...]))` and then
//! add their blocks in a loop: a sequence frozen at its first children gives the classifier the
//! wrong input size — a false alarm.
//!
//! ```python
//! self.features = nn.Sequential(OrderedDict([("conv0", nn.Conv2d(3, 16, 3))]))
//! self.features.add_module("conv1", nn.Conv2d(16, 32, 3))   # features: conv0, conv1
//! ```
use std::sync::Arc;

use super::layers::Layer;
use crate::interp::call::Args;
use crate::interp::value::Value;

/// The methods of `nn.Sequential` that change its children.
pub const GROWING: &[&str] = &[
    "add_module",
    "register_module",
    "append",
    "insert",
    "extend",
    "pop",
];

/// What the sequence held by the receiver's name becomes after `seq.method(args)`, or `None`
/// when the call changes nothing (or the receiver is no sequence).
pub fn grown(recv: &Value, method: &str, args: &Args) -> Option<Value> {
    let Value::Layer(l) = recv else { return None };
    let Layer::Sequential(children, names) = &**l else {
        return None;
    };
    let added = match (method, args.pos.as_slice()) {
        // A name the analysis does not know names no attribute (`""`).
        ("add_module" | "register_module", [name, m]) => Some((
            match name {
                Value::Str(Some(s)) => s.clone(),
                _ => "".into(),
            },
            m.clone(),
        )),
        ("append", [m]) => Some((children.len().to_string().into(), m.clone())),
        (m, _) if GROWING.contains(&m) => None,
        _ => return None,
    };
    Some(match added {
        Some((name, m)) if !args.unknown => {
            let mut all = children.to_vec();
            all.push(m);
            let mut named = names.to_vec();
            named.push(name);
            Value::Layer(Arc::new(Layer::Sequential(all.into(), named.into())))
        }
        _ => Value::Top,
    })
}

/// `seq += other` of two `nn.Sequential`s: the sequence with the other's children after its own
/// (named by position, as torch's `__iadd__` registers them); `None` for anything else.
pub fn concatenated(cur: &Value, rhs: &Value) -> Option<Value> {
    let (Value::Layer(a), Value::Layer(b)) = (cur, rhs) else {
        return None;
    };
    let (Layer::Sequential(x, xn), Layer::Sequential(y, _)) = (&**a, &**b) else {
        return None;
    };
    let mut all = x.to_vec();
    all.extend(y.iter().cloned());
    let mut names = xn.to_vec();
    names.extend((x.len()..x.len() + y.len()).map(|i| i.to_string().into()));
    Some(Value::Layer(Arc::new(Layer::Sequential(
        all.into(),
        names.into(),
    ))))
}
