//! Library model: `model.eval()` / `model.train(mode)` and the `training` flag they set.
//!
//! **Trigger:** `m.eval()`, `m.train()`, `m.train(False)` on an object of a program's
//! `nn.Module` subclass (its class does not define the method itself).
//!
//! **Result:** the call returns `m` (as torch's does) and sets `training` on `m` and on every
//! module it holds — its module attributes, the children of its `nn.Sequential`s,
//! `nn.ModuleList`s and `nn.ModuleDict`s, recursively — to `False` (`eval()`), `True`
//! (`train()`), or the bool passed (`train(mode)`; unknown when the mode is). Reading
//! `self.training` then gives that bool; a module never switched reads an unknown bool, as
//! before (the analysis does not assume the mode a module was built in).
//!
//! **Why:** detection models return their losses in training mode and their detections in
//! evaluation mode (`return losses if self.training else detections`), and transform their
//! inputs differently in each; with the flag unknown the two were joined and the model's
//! output was unknown after `model.eval()` — the line every inference script starts with.
//!
//! ```python
//! net = Detector().eval()
//! out = net(images)   # the evaluation branch only: a list of dicts, not a dict of losses
//! ```
use crate::interp::Interp;
use crate::interp::state::{Binding, FxSet, Obj, State};
use crate::interp::value::{Addr, Seq, Value};
use crate::torch::layers::Layer;

/// How deep nested modules are followed (a model of blocks of layers is a few levels deep).
const MAX_DEPTH: usize = 32;

impl Interp<'_> {
    /// `obj.eval()` / `obj.train(mode)` on a program module: set `training` on it and on the
    /// modules it holds.
    pub(crate) fn set_training(&self, obj: &Value, mode: Option<bool>, st: &mut State) {
        let mut seen = FxSet::default();
        self.set_training_in(obj, mode, st, &mut seen, 0);
    }

    fn set_training_in(
        &self,
        v: &Value,
        mode: Option<bool>,
        st: &mut State,
        seen: &mut FxSet<Addr>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let held: Vec<Value> = match v {
            Value::Instance(a) => {
                if !seen.insert(*a) {
                    return;
                }
                let Some(Obj::Instance { class, attrs }) = st.heap.get(a).map(|o| &**o) else {
                    return;
                };
                if !self.is_torch_module(*class, 0) {
                    return;
                }
                let held = attrs
                    .values()
                    .map(|b| b.value.clone())
                    .filter(|x| matches!(x, Value::Instance(_) | Value::Layer(_)))
                    .collect();
                if let Some(Obj::Instance { attrs, .. }) = st.obj_mut(*a) {
                    attrs.insert(
                        "training".into(),
                        Binding {
                            value: Value::Bool(mode),
                            maybe_unbound: false,
                        },
                    );
                }
                held
            }
            Value::Layer(l) => match &**l {
                Layer::Sequential(children, _) | Layer::Either(children) => children.to_vec(),
                Layer::ModuleList(a) => match st.list(*a) {
                    Some(Seq::Exact(items)) => items.to_vec(),
                    Some(Seq::Summary(each, _)) => vec![*each],
                    None => Vec::new(),
                },
                Layer::ModuleDict(a) => st
                    .dict(*a)
                    .map(|(items, _)| items.into_iter().map(|(_, m)| m).collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        for m in &held {
            self.set_training_in(m, mode, st, seen, depth + 1);
        }
    }
}
