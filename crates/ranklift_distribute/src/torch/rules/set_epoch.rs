//! Rule `set_epoch`: the distributed sampler reshuffles every epoch.
//!
//! **Trigger:** each training loop over a loader that rule `distributed_sampler` gave a sampler.
//!
//! **Rewrite:** right before the loop, `loader.sampler.set_epoch(epoch)` when the loop sits in a
//! `for epoch in ...` loop of the same function; else right before the statement of the caller
//! that runs the loop's function inside an epoch loop (`train_one_epoch(model, loader, ...)`,
//! the loader named as the caller names it); else (no epoch loop in sight, or the loop of a
//! generator that restarts the loader: `while True: for data in dl: yield data`) a guarded increment:
//! `if isinstance(loader.sampler, DistributedSampler): loader.sampler.set_epoch(loader.sampler.epoch + 1)`.
//!
//! **Why:** a `DistributedSampler` shuffles with a seed derived from its epoch; without
//! `set_epoch` every epoch replays the same order (pytorch#31771).
//!
//! ```python
//! # before
//! for epoch in range(10):
//!     for x, y in loader:
//!         ...
//! # after
//! for epoch in range(10):
//!     loader.sampler.set_epoch(epoch)
//!     for x, y in loader:
//!         ...
//! ```
use ruff_python_ast::{Expr, Stmt};

use crate::index::{Scope, StmtId};
use crate::torch::Tx;
use crate::torch::plan::{arg_params, call_sites, is_param, loop_source, resolve_loader};
use crate::torch::rules::enclosing_for;

const RULE: &str = "set_epoch";

fn epoch_var(s: &Stmt) -> Option<String> {
    match s {
        Stmt::For(f) => match &*f.target {
            Expr::Name(n) => Some(n.id.to_string()),
            _ => None,
        },
        _ => None,
    }
}

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    let mut done: Vec<StmtId> = Vec::new();
    for l in tx.plan.loaders.clone() {
        if l.replacement_sampler.is_some() || l.subset_sampler.is_some() {
            continue; // no DistributedSampler: nothing to tell the epoch
        }
        // `it = iter(loader)` feeding `next(it)`: every new iterator is a new epoch.
        for &st in &l.iters {
            let Stmt::Assign(a) = idx.stmts[st].stmt else {
                continue;
            };
            let Expr::Call(ic) = &*a.value else { continue };
            // Only `iter(loader)` starts a pass here; `itertools.cycle` replays its first pass,
            // and a project generator's own loop is a pass (below).
            if !matches!(&*ic.func, Expr::Name(n) if n.id.as_str() == "iter") {
                continue;
            }
            let Some(src) = ic.arguments.args.first() else {
                continue;
            };
            let m = idx.stmts[st].scope.module;
            let loader = tx.ed.text(m, loop_source(src)).to_owned();
            counter(tx, st, &loader, &mut done);
        }
        // A project generator's `for data in dl:` (restarted by `while True`): every pass is an
        // epoch of the sampler.
        for &s in &l.passes {
            let Stmt::For(f) = idx.stmts[s].stmt else {
                continue;
            };
            let m = idx.stmts[s].scope.module;
            let loader = tx.ed.text(m, loop_source(&f.iter)).to_owned();
            counter(tx, s, &loader, &mut done);
        }
        for &s in &l.loops {
            let Stmt::For(f) = idx.stmts[s].stmt else {
                continue;
            };
            let m = idx.stmts[s].scope.module;
            let src = through_wrapper(idx, idx.stmts[s].scope, loop_source(&f.iter));
            let loader = tx.ed.text(m, src).to_owned();
            // 1. An epoch loop around it in the same function.
            if let Some(e) = enclosing_for(idx, s).and_then(|o| epoch_var(idx.stmts[o].stmt)) {
                insert(
                    tx,
                    s,
                    &format!("{loader}.sampler.set_epoch({e})"),
                    &mut done,
                );
                continue;
            }
            // 2. A caller that runs this function inside an epoch loop.
            let scope = idx.stmts[s].scope;
            if let Some(fid) = scope.func
                && let Some((site, line)) = caller_epoch(tx, scope, fid, src)
            {
                insert(tx, site, &line, &mut done);
                continue;
            }
            // 3. Count epochs on the sampler itself.
            counter(tx, s, &loader, &mut done);
        }
    }
}

/// Before statement `s`: advance the sampler's epoch by one (when it is a DistributedSampler).
fn counter(tx: &mut Tx, s: StmtId, loader: &str, done: &mut Vec<StmtId>) {
    if done.contains(&s) || !tx.ed.lines_around_ok(s) {
        return;
    }
    done.push(s);
    let idx = tx.idx;
    let m = idx.stmts[s].scope.module;
    let sampler = tx.sampler(m);
    let unit = tx.ed.indent_unit(m).to_owned();
    let lines = [
        format!("if isinstance({loader}.sampler, {sampler}):"),
        format!("{unit}{loader}.sampler.set_epoch({loader}.sampler.epoch + 1)"),
    ];
    tx.ed.insert_lines_before(m, RULE, idx.stmts[s].stmt, &lines,
        "no epoch loop in sight: the sampler's epoch advances before every new pass over the loader");
}

/// `bar` after `bar = tqdm(loader, ...)` (or `tqdm(loader) if show else loader`, or
/// `tqdm(loader) or loader`) in the same scope: `loader` — the sampler belongs to the loader, not
/// to the progress bar around it.
fn through_wrapper<'a>(idx: &crate::index::Index<'a>, scope: Scope, e: &'a Expr) -> &'a Expr {
    let Expr::Name(n) = e else { return e };
    let (s, vals) = idx.assignments(scope, n.id.as_str());
    match vals.as_slice() {
        [v] if s == scope => match unwrapped(v) {
            Some(inner) if !std::ptr::eq(inner, *v) => inner,
            _ => e,
        },
        _ => e,
    }
}

/// The one name every branch of `e` iterates, seen through wrappers (`tqdm`, `enumerate`, ...).
fn unwrapped(e: &Expr) -> Option<&Expr> {
    let branches: Vec<&Expr> = match e {
        Expr::If(i) => vec![&i.body, &i.orelse],
        Expr::BoolOp(b) => b.values.iter().collect(),
        _ => return Some(loop_source(e)),
    };
    let inner: Vec<&Expr> = branches.into_iter().map(unwrapped).collect::<Option<_>>()?;
    let first = inner.first()?;
    let Expr::Name(n) = first else { return None };
    inner
        .iter()
        .all(|x| matches!(x, Expr::Name(m) if m.id == n.id))
        .then_some(*first)
}

fn insert(tx: &mut Tx, before: StmtId, line: &str, done: &mut Vec<StmtId>) {
    if done.contains(&before) {
        return;
    }
    done.push(before);
    let idx = tx.idx;
    let m = idx.stmts[before].scope.module;
    tx.ed.insert_lines_before(
        m,
        RULE,
        idx.stmts[before].stmt,
        &[line.to_owned()],
        format!("`{line}`: the sampler reshuffles every epoch"),
    );
}

/// A call of `fid` inside a `for epoch` loop: (the call's statement, the `set_epoch` line in the
/// caller's terms).
fn caller_epoch(tx: &Tx, scope: Scope, fid: usize, src: &Expr) -> Option<(StmtId, String)> {
    let idx = tx.idx;
    for c in call_sites(idx, tx.plan, fid) {
        let ci = &idx.calls[c];
        let Some(e) = enclosing_for(idx, ci.stmt).and_then(|o| epoch_var(idx.stmts[o].stmt)) else {
            continue;
        };
        let cm = ci.scope.module;
        let loader = match src {
            Expr::Name(n) if is_param(idx, fid, n.id.as_str()) => {
                let Some((arg, _)) = arg_params(idx, fid, ci.call)
                    .into_iter()
                    .find(|(_, p)| p == n.id.as_str())
                else {
                    continue;
                };
                // Only a call that passes a training loader (not `run(model, val_loader)`).
                let mut found = Vec::new();
                resolve_loader(idx, tx.plan, ci.scope, arg, 0, &mut found);
                if !found
                    .iter()
                    .any(|c| tx.plan.loaders.iter().any(|l| l.call == *c))
                {
                    continue;
                }
                tx.ed.text(cm, arg).to_owned()
            }
            // `self.loader` in a method called as `self.train_epoch()` from the same class.
            Expr::Attribute(a) if matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "self") => {
                let caller_class = ci.scope.func.and_then(|f| idx.funcs[f].class);
                if caller_class.is_none()
                    || caller_class != scope.func.and_then(|f| idx.funcs[f].class)
                {
                    return None;
                }
                tx.ed.text(scope.module, src).to_owned()
            }
            // A module-level name, visible from a caller in the same module.
            Expr::Name(_) if cm == scope.module => tx.ed.text(scope.module, src).to_owned(),
            _ => return None,
        };
        if !tx.ed.lines_around_ok(ci.stmt) {
            return None;
        }
        return Some((ci.stmt, format!("{loader}.sampler.set_epoch({e})")));
    }
    None
}
