//! Check `iterable_dataset` (DST400): a training loader reads an `IterableDataset`.
//!
//! **Trigger:** the dataset of a training loader is an instance of a project class deriving
//! from `torch.utils.data.IterableDataset` (or `IterDataPipe`).
//!
//! **Why:** a sampler draws indices, and an iterable dataset has none: `DataLoader` refuses a
//! sampler for it, so ranklift cannot split its data; the dataset has to shard itself by rank
//!.
//!
//! ```python
//! class Stream(IterableDataset): ...
//! loader = DataLoader(Stream(), batch_size=32)   # DST400
//! ```
use ranklift_python::Severity;
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::index::{Callee, ClassId, Index, Scope};
use crate::torch::{Tx, names};

pub fn is_iterable_class(idx: &Index, c: ClassId, depth: usize) -> bool {
    if depth > 8 {
        return false;
    }
    let m = idx.classes[c].module;
    idx.classes[c].bases.iter().any(|b| {
        idx.qualify(m, b).is_some_and(|q| names::is_iterable_dataset_base(&q))
            || matches!(b, Expr::Name(n) if idx.modules[m].classes.get(n.id.as_str()).is_some_and(|&bc| is_iterable_class(idx, bc, depth + 1)))
    })
}

fn dataset_class(idx: &Index, scope: Scope, e: &Expr) -> Option<ClassId> {
    match e {
        Expr::Call(c) => match idx.resolve_call(scope, c) {
            Some(Callee::Class(cl)) => Some(cl),
            _ => None,
        },
        Expr::Name(_) => idx.instance_class(scope, e),
        _ => None,
    }
}

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for l in &tx.plan.loaders {
        let c = &idx.calls[l.call];
        let Some(ds) = c.call.arguments.args.first() else {
            continue;
        };
        if let Some(cl) = dataset_class(idx, c.scope, ds)
            && is_iterable_class(idx, cl, 0)
        {
            let name = idx.classes[cl].def.name.to_string();
            tx.ed.diag(c.scope.module, ds.range(), crate::codes::ITERABLE_DATASET, Severity::Error,
                format!("the training loader reads `{name}`, an IterableDataset: a DistributedSampler cannot split it"),
                format!("make `{name}.__iter__` yield only this rank's share (e.g. every WORLD_SIZE-th item from RANK, and split across `torch.utils.data.get_worker_info()` workers), then launch with torchrun as is"));
        }
    }
}
