//! Library model: calls that take the model and its training loader and return replacements
//! that distribute themselves once the model they get is already wrapped in DDP — Opacus'
//! `PrivacyEngine.make_private` (and `make_private_with_epsilon`).
//!
//! **Trigger:** `engine.make_private(module=model, optimizer=..., data_loader=loader, ...)` (or
//! the same arguments by position) where `engine` is bound to `opacus.PrivacyEngine(...)` in the
//! call's scope or at module level, or is that call itself.
//!
//! **Effect on the plan:** the model's DDP wrap goes before the statement that makes it private
//! (not before the training loop, which comes after); the loader handed to the call is *adopted*:
//! it gets no `DistributedSampler` and no `set_epoch` — Opacus replaces it with its own Poisson
//! loader, which it shards across ranks itself (`DistributedUniformWithReplacementSampler`) when
//! the module is a `DistributedDataParallel`.
//!
//! **Why:** `make_private` decides whether to run distributed from the type of the module it gets
//! (`isinstance(module, (DPDDP, DDP, FSDPModule))`, opacus 1.6 `privacy_engine.py`). Wrapped
//! after it, DDP averages gradients that Opacus then overwrites with each rank's own clipped,
//! noised per-sample sum: the ranks drift apart. A `DistributedSampler` on the loader is dropped
//! by Opacus (it keeps only the dataset) but halves `len(loader)`, which doubles the sample rate
//! it derives and so changes the privacy accounting; with the loader as the user wrote it the
//! expected global batch and ε are the original program's.
//!
//! ```python
//! # before
//! model = Net().to(device)
//! optimizer = optim.SGD(model.parameters(), lr=0.1)
//! privacy_engine = PrivacyEngine()
//! model, optimizer, train_loader = privacy_engine.make_private(
//!     module=model, optimizer=optimizer, data_loader=train_loader,
//!     noise_multiplier=1.0, max_grad_norm=1.0,
//! )
//! # after
//! model = Net().to(device)
//! optimizer = optim.SGD(model.parameters(), lr=0.1)
//! privacy_engine = PrivacyEngine()
//! model = DDP(model, device_ids=[LOCAL_RANK] if torch.cuda.is_available() else None)
//! model, optimizer, train_loader = privacy_engine.make_private(
//!     module=model, optimizer=optimizer, data_loader=train_loader,
//!     noise_multiplier=1.0, max_grad_norm=1.0,
//! )
//! ```
use ruff_python_ast::{Expr, ExprCall};

use crate::index::{CallId, Index, Scope, StmtId};
use crate::torch::plan::{Plan, resolve_loader};

/// (class, methods): the classes whose methods adopt a model and its loader.
const ADOPTERS: &[(&str, &[&str])] = &[
    (
        "opacus.PrivacyEngine",
        &["make_private", "make_private_with_epsilon"],
    ),
    (
        "opacus.privacy_engine.PrivacyEngine",
        &["make_private", "make_private_with_epsilon"],
    ),
];

/// One adopting call of the reached code.
#[derive(Debug, Clone)]
pub struct Adopter {
    pub call: CallId,
    /// The statement that holds it.
    pub stmt: StmtId,
    /// The source text of the model argument (`model`, `self.model`).
    pub model: Option<String>,
    /// The `DataLoader(...)` calls its loader argument may be.
    pub loaders: Vec<CallId>,
}

fn adopter_class(idx: &Index, scope: Scope, e: &Expr) -> bool {
    let is_class = |c: &ExprCall, s: Scope| {
        idx.canonical(s.module, &c.func)
            .is_some_and(|q| ADOPTERS.iter().any(|(cl, _)| *cl == &*q))
    };
    match e {
        Expr::Call(c) => is_class(c, scope),
        Expr::Name(n) => {
            let (s, vals) = idx.assignments(scope, n.id.as_str());
            vals.iter()
                .any(|v| matches!(v, Expr::Call(c) if is_class(c, s)))
        }
        _ => false,
    }
}

/// The argument named `kw`, or else the positional one at `pos`.
fn argument<'a>(c: &'a ExprCall, kw: &str, pos: usize) -> Option<&'a Expr> {
    c.arguments
        .keywords
        .iter()
        .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == kw))
        .map(|k| &k.value)
        .or_else(|| c.arguments.args.get(pos))
}

/// Every adopting call of the modules the program reaches.
pub fn find(idx: &Index, plan: &Plan) -> Vec<Adopter> {
    let mut out = Vec::new();
    for (id, c) in idx.calls.iter().enumerate() {
        if !plan.in_reach(c.scope.module) {
            continue;
        }
        let Expr::Attribute(a) = &*c.call.func else {
            continue;
        };
        let method = a.attr.as_str();
        if !ADOPTERS.iter().any(|(_, ms)| ms.contains(&method))
            || !adopter_class(idx, c.scope, &a.value)
        {
            continue;
        }
        let m = c.scope.module;
        let model = argument(c.call, "module", 0).map(|e| idx.text(m, e).to_owned());
        let mut loaders = Vec::new();
        if let Some(l) = argument(c.call, "data_loader", 2) {
            resolve_loader(idx, plan, c.scope, l, 0, &mut loaders);
        }
        out.push(Adopter {
            call: id,
            stmt: c.stmt,
            model,
            loaders,
        });
    }
    out
}
