//! Rule `step_counts`: hard-coded step counts shrink with the number of processes.
//!
//! **Trigger:** a training loop `for step in range(N)` whose body steps the optimizer and draws
//! its batches itself (it iterates no loader: `next(it)`, synthetic data), with `N` not derived
//! from `len(...)`; and a scheduler argument that counts optimizer steps
//! (`OneCycleLR(total_steps=...)`, `LinearLR(total_iters=...)`, `CosineAnnealingLR(T_max=...)`,
//! ...: `names::SCHEDULER_STEP_KWARGS`) when that scheduler steps inside a data loop and the
//! count is not derived from `len(...)`.
//!
//! Also a `while` step loop (no data loop inside) that ends with `if step >= N: break` (through
//! `and`: `if args.max_steps >= 0 and step >= args.max_steps:`), its counter (a name or an
//! attribute: `self.iter_num`) incremented in the loop — makemore's and minGPT's shape.
//!
//! **Rewrite:** `N` → `N // WORLD_SIZE`.
//!
//! **Why:** each of N processes takes a batch per step, so the same step count reads N times the
//! samples; a loop driven by `len(loader)` adapts by itself (the sampler shrinks the loader), a
//! literal does not. A scheduler told the original count would stop half way
//! through its schedule (OneCycleLR) or, counting per rank, see fewer steps than it was told.
//!
//! ```python
//! # before
//! for step in range(2000):
//!     x, y = next(batches)
//! scheduler = OneCycleLR(optimizer, max_lr=0.1, total_steps=2000)
//! # after
//! for step in range(2000 // WORLD_SIZE):
//!     x, y = next(batches)
//! scheduler = OneCycleLR(optimizer, max_lr=0.1, total_steps=2000 // WORLD_SIZE)
//! ```
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::torch::{Tx, names};

const RULE: &str = "step_counts";

/// `n` → `n // WORLD_SIZE`, said with `what` (its `{}` is `n`'s text).
fn divide(tx: &mut Tx, m: usize, n: &Expr, what: &str) {
    let ws = tx.world_size(m);
    let text = tx.ed.text(m, n).to_owned();
    tx.ed.suffix(m, RULE, n, &format!("// {ws}"));
    tx.ed.note(m, RULE, n.start(), what.replace("{}", &text));
}

fn derived_from_len(src: &str) -> bool {
    src.contains("len(")
}

/// `range(n)` or `trange(n)`, seen through a progress bar or `enumerate`:
/// `tqdm(range(n), ...)`, `enumerate(range(n))`.
fn counted_range(e: &Expr) -> Option<&ruff_python_ast::ExprCall> {
    let Expr::Call(c) = e else { return None };
    let name = match &*c.func {
        Expr::Name(n) => n.id.as_str(),
        Expr::Attribute(a) => a.attr.as_str(),
        _ => return None,
    };
    match name {
        "range" | "trange" if c.arguments.args.len() == 1 => Some(c),
        "tqdm" | "enumerate" => counted_range(c.arguments.args.first()?),
        _ => None,
    }
}

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    let plan = tx.plan;
    let data_loops: Vec<usize> = plan.loaders.iter().flat_map(|l| l.loops.clone()).collect();
    for &s in &plan.train_loops {
        let Stmt::For(f) = idx.stmts[s].stmt else {
            continue;
        };
        let Some(c) = counted_range(&f.iter) else {
            continue;
        };
        // A loop around data loops (epochs) or around training functions keeps its count.
        let m = idx.stmts[s].scope.module;
        let r = idx.stmts[s].stmt.range();
        let outer = data_loops.iter().any(|&d| {
            idx.stmts[d].scope.module == m && r.contains_range(idx.stmts[d].stmt.range())
        }) || plan.train_loops.iter().any(|&o| {
            o != s && idx.stmts[o].scope.module == m && r.contains_range(idx.stmts[o].stmt.range())
        });
        let steps_directly = idx.modules[m].stmts.clone().any(|st| {
            idx.stmts[st].parent == Some(s)
                && plan.steps.iter().any(|&c| {
                    let cs = idx.calls[c].stmt;
                    cs == st
                        || idx.stmts[st]
                            .stmt
                            .range()
                            .contains_range(idx.stmts[cs].stmt.range())
                })
        });
        if outer || !steps_directly {
            continue;
        }
        let n = &c.arguments.args[0];
        if derived_from_len(tx.ed.text(m, n)) {
            continue;
        }
        divide(
            tx,
            m,
            n,
            "hard-coded step count `{}` divided by the number of processes",
        );
    }
    // `while True:` step loops that stop at a counted step: `if step >= max_steps: break`.
    for (s, info) in idx.stmts.iter().enumerate() {
        let Stmt::While(w) = info.stmt else { continue };
        let m = info.scope.module;
        if !plan.in_reach(m) || !plan.training_stmts.contains(&s) {
            continue;
        }
        let r = w.range();
        if data_loops
            .iter()
            .any(|&d| idx.stmts[d].scope.module == m && r.contains_range(idx.stmts[d].stmt.range()))
        {
            continue;
        }
        for b in &w.body {
            let Stmt::If(i) = b else { continue };
            if !matches!(i.body.as_slice(), [Stmt::Break(_)]) {
                continue;
            }
            for (counter, limit) in step_limits(&i.test) {
                // The counter counts this loop's iterations (`step += 1`, `self.iter_num += 1`
                // in its body).
                let counter = tx.ed.text(m, counter).to_owned();
                let counts = w.body.iter().any(
                    |st| matches!(st, Stmt::AugAssign(a) if tx.ed.text(m, &*a.target) == counter),
                );
                if !counts || derived_from_len(tx.ed.text(m, limit)) {
                    continue;
                }
                divide(
                    tx,
                    m,
                    limit,
                    "the loop stops after `{}` steps: divided by the number of processes",
                );
            }
        }
    }
    // Schedulers stepped per batch.
    for (cid, c) in idx.calls.iter().enumerate() {
        let m = c.scope.module;
        if !plan.in_reach(m) || !plan.qual(cid).is_some_and(names::is_scheduler) {
            continue;
        }
        let Some(target) = crate::torch::plan::assigned_to(idx, c.stmt, c.call) else {
            continue;
        };
        let holder = tx.ed.text(m, target).to_owned();
        let per_batch = idx.calls.iter().any(|sc| {
            matches!(&*sc.call.func, Expr::Attribute(a) if a.attr.as_str() == "step" && idx.text(sc.scope.module, &*a.value) == holder)
                && data_loops.iter().any(|&d| {
                    idx.stmts[d].scope.module == sc.scope.module
                        && idx.stmts[d].stmt.range().contains_range(sc.call.range())
                })
        });
        if !per_batch {
            continue;
        }
        for k in &c.call.arguments.keywords {
            let Some(a) = &k.arg else { continue };
            if !names::SCHEDULER_STEP_KWARGS.contains(&a.as_str())
                || derived_from_len(tx.ed.text(m, &k.value))
            {
                continue;
            }
            let ws = tx.world_size(m);
            tx.ed.suffix(m, RULE, &k.value, &format!("// {ws}"));
            tx.ed.note(
                m,
                RULE,
                k.start(),
                format!("`{a}` counts optimizer steps: divided by the number of processes"),
            );
        }
    }
}

/// `step >= limit` / `step > limit` comparisons in a break condition (through `and`), with a
/// counter (a name, or an attribute: `self.iter_num`) on the left and a limit that is not a
/// number literal.
fn step_limits(test: &Expr) -> Vec<(&Expr, &Expr)> {
    use ruff_python_ast::CmpOp;
    match test {
        Expr::BoolOp(b) => b.values.iter().flat_map(step_limits).collect(),
        Expr::Compare(c)
            if c.ops.len() == 1
                && matches!(c.ops[0], CmpOp::GtE | CmpOp::Gt)
                && !matches!(c.comparators[0], Expr::NumberLiteral(_)) =>
        {
            match &*c.left {
                left @ (Expr::Name(_) | Expr::Attribute(_)) => vec![(left, &c.comparators[0])],
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}
