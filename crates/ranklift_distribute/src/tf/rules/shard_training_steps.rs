//! Rule `shard_training_steps`: each of N processes runs 1/N of the training steps.
//!
//! **Trigger:** the innermost loop that drives training — a `for` loop whose body (not a nested
//! loop's) calls `apply_gradients` or a function that does, or (TF1) runs a training op with
//! `session.run(train_op, ...)`. Its iterable is looked at:
//! `range(n)`; `dataset.take(n)` anywhere in the iterable (`enumerate(ds.take(n))`), on datasets
//! recognised through method chains (`from_tensor_slices(...).shuffle(...).batch(...)`), variables
//! and function returns; a variable or a project function whose value is such a `take`.
//!
//! **Rewrite:** `range(n // hvd.size())`, `take(n // hvd.size())` (parenthesised when needed), as in
//! Horovod's TF2 example. `take` calls outside
//! training loops (`test_ds.take(1)` for a preview) are left alone: dividing them changes output.
//! `range(a, b)` is reported and left alone (no single obvious division).
//!
//! A benchmark is not divided: when the count of a `range(n)` loop also computes a rate or a time
//! per step with elapsed time (`n * batch / (time.perf_counter() - start)`), every process runs
//! all `n` timed steps, as Horovod's own benchmarks do. Dividing would make each process time
//! n/N steps while the program still divides by n (its per-step time off by N).
//!
//! ```python
//! # before
//! for step, (x, y) in enumerate(dataset.take(1000)):
//!     train_step(x, y)
//! # after
//! for step, (x, y) in enumerate(dataset.take(1000 // hvd.size())):
//!     train_step(x, y)
//! ```
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use ranklift_python::Severity;
use ruff_python_ast::helpers::any_over_expr;
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, ExprCall, Stmt};
use ruff_text_size::Ranged;

use crate::index::{Callee, FuncId, Index, Kind, Scope, StmtId};
use crate::tf::context::Cx;

const RULE: &str = "shard_training_steps";
const DIV: &str = "// hvd.size()";

/// The innermost loops that drive training.
///
/// A loop whose every step is a call to a function that itself loops over training steps
/// (`for epoch in range(5): train(model, ds)` with the pass over `ds` inside `train`) is an
/// epoch loop, not a training loop: the pass inside is divided or sharded, and dividing the
/// epochs as well would leave each process 1/N² of the work.
pub fn training_loops(cx: &Cx) -> BTreeSet<StmtId> {
    let idx = cx.idx;
    let reach = cx.reach;
    // loop -> the function each of its steps goes through (None: a step in the loop's body).
    let mut found: BTreeMap<StmtId, Vec<Option<FuncId>>> = BTreeMap::new();
    // function -> the functions its own steps go through.
    let mut steps_via: HashMap<FuncId, Vec<FuncId>> = HashMap::new();
    for (ci, c) in idx.calls.iter().enumerate() {
        if !reach.scope_reached(c.scope) {
            continue;
        }
        let via = match idx.resolve_call(c.scope, c.call) {
            Some(Callee::Func(f)) if reach.trains.contains(&f) => Some(f),
            _ => None,
        };
        let is_step = reach.session_steps.contains(&ci)
            || reach.applies.contains(&ci)
            || matches!(&*c.call.func, Expr::Attribute(a) if a.attr.as_str() == "apply_gradients")
            || via.is_some();
        if !is_step {
            continue;
        }
        if let (Some(g), Some(f)) = (c.scope.func, via) {
            steps_via.entry(g).or_default().push(f);
        }
        let mut cur = Some(c.stmt);
        // A call in a loop header is not in that loop's body.
        if matches!(idx.stmts[c.stmt].stmt, Stmt::For(_) | Stmt::While(_)) {
            cur = idx.stmts[c.stmt].parent;
        }
        while let Some(s) = cur {
            match idx.stmts[s].stmt {
                Stmt::For(_) | Stmt::While(_) => {
                    found.entry(s).or_default().push(via);
                    break;
                }
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => break,
                _ => cur = idx.stmts[s].parent,
            }
        }
    }
    // The functions whose steps are taken in a loop: their own, or one a step of theirs calls.
    let mut looping: HashSet<FuncId> = found
        .keys()
        .filter_map(|&l| idx.stmts[l].scope.func)
        .collect();
    loop {
        let more: Vec<FuncId> = steps_via
            .iter()
            .filter(|(g, via)| !looping.contains(g) && via.iter().any(|f| looping.contains(f)))
            .map(|(g, _)| *g)
            .collect();
        if more.is_empty() {
            break;
        }
        looping.extend(more);
    }
    found
        .into_iter()
        .filter(|(l, via)| {
            !via.iter().all(|v| {
                v.is_some_and(|f| looping.contains(&f) && idx.stmts[*l].scope.func != Some(f))
            })
        })
        .map(|(l, _)| l)
        .collect()
}

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    let loops = training_loops(cx);
    // A scope that times its training loop is a benchmark: its warm-up loops are kept too.
    let mut benchmarks: Vec<(Scope, usize)> = Vec::new();
    for &l in &loops {
        let info = &idx.stmts[l];
        if let Stmt::For(f) = info.stmt
            && let Some(n) = single_range_count(idx, info.scope.module, &f.iter)
            && let Some(line) = timed_rate(cx, info.scope, n)
            && !benchmarks.iter().any(|b| b.0 == info.scope)
        {
            benchmarks.push((info.scope, line));
        }
    }
    for l in loops {
        let info = &idx.stmts[l];
        let Stmt::For(f) = info.stmt else { continue };
        let scope = info.scope;
        let m = scope.module;
        // The steps are taken in a comprehension over a dataset inside the loop: shard that
        // dataset, keep the loop's count.
        if let Some(iter) = comprehension_over_dataset(cx, l) {
            super::shard_dataset::shard_comprehension(cx, scope, iter);
            continue;
        }
        // TF1 full-batch steps (`sess.run(train_op, {x: x_np, y: y_np})`): every step reads
        // all the data, so the data of each step is split and the count kept.
        if let Some(feeds) = whole_array_feeds(cx, l) {
            for (m, v) in &feeds {
                cx.trailer(*m, RULE, v, "[hvd.rank()::hvd.size()]");
            }
            cx.note(
                m,
                RULE,
                f.start(),
                format!(
                    "every step feeds whole arrays (`{}`): each process feeds every hvd.size()-th row of them, the step count is kept",
                    feeds
                        .iter()
                        .map(|(fm, v)| cx.text(*fm, *v).to_owned())
                        .collect::<Vec<_>>()
                        .join("`, `")
                ),
            );
            cx.use_hvd(scope);
            continue;
        }
        // range(n)
        if let Expr::Call(c) = &*f.iter
            && matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "range")
            && !idx.modules[m].aliases.contains_key("range")
        {
            if c.arguments.args.len() == 1 && c.arguments.keywords.is_empty() {
                let n = &c.arguments.args[0];
                if let Some(&(_, line)) = benchmarks.iter().find(|b| b.0 == scope) {
                    cx.note(
                        m,
                        RULE,
                        f.start(),
                        format!(
                            "benchmark loop `range({})` kept: a rate is computed from a training loop's count and elapsed time (line {line}); each process runs every step, as Horovod's benchmarks do, and reports its own rate (all processes together: hvd.size() times it)",
                            cx.text(m, n)
                        ),
                    );
                    continue;
                }
                cx.suffix(m, RULE, n, DIV);
                cx.note(
                    m,
                    RULE,
                    f.start(),
                    format!(
                        "training loop `range({})` divided by hvd.size()",
                        cx.text(m, n)
                    ),
                );
                cx.use_hvd(scope);
                // The steps draw with `next(it)` from `it = iter(ds)`: `ds` is sharded too.
                for (ds_scope, ds) in next_over_dataset(cx, l) {
                    super::shard_dataset::shard_drawn(cx, ds_scope, ds);
                }
            } else {
                cx.diag(m, c.range(), crate::codes::UNDIVIDED_RANGE, Severity::Warning,
                        "this training loop's `range(...)` has several arguments; ranklift does not divide it by `hvd.size()`",
                        "each process will run every step; divide the step count by `hvd.size()` if that is not intended");
            }
            continue;
        }
        let mut takes = Vec::new();
        find_takes(idx, scope, &f.iter, &mut takes);
        if takes.is_empty() {
            takes_via_definition(idx, scope, &f.iter, &mut takes);
        }
        if takes.is_empty() {
            // The loop reads a whole dataset every epoch: shard the data instead.
            super::shard_dataset::shard_loop(cx, scope, f);
        }
        for (ts, call) in takes {
            shard_take(cx, ts, call);
            super::shard_dataset::shard_counted(cx, ts, call);
        }
    }
}

/// The values of the feed dicts of loop `l`'s TF1 training steps, when every one is a whole
/// array (a name, not `x[idx]` or `next_batch()`): full-batch training.
fn whole_array_feeds<'a>(cx: &Cx<'a, '_>, l: StmtId) -> Option<Vec<(usize, &'a Expr)>> {
    let idx = cx.idx;
    let mut out = Vec::new();
    for &s in &cx.reach.session_steps {
        let c = &idx.calls[s];
        if c.stmt == l || !crate::editor::within(idx, c.stmt, l) {
            continue;
        }
        let args = &c.call.arguments;
        let feed = args
            .find_keyword("feed_dict")
            .map(|k| &k.value)
            .or_else(|| args.args.get(1))?;
        let Expr::Dict(d) = feed else { return None };
        for item in &d.items {
            let Expr::Name(n) = &item.value else {
                // `x[idx]`, `next_batch()`: the step reads a batch; a literal is a setting.
                if item.key.is_none() || !is_literal(&item.value) {
                    return None;
                }
                continue;
            };
            // An array: bound by calls, subscripts or lists, never by a literal (a learning
            // rate or keep probability fed beside the data is left alone).
            let (_, values) = idx.assignments(c.scope, n.id.as_str());
            if values.is_empty() || values.iter().any(|v| is_literal(v)) {
                continue;
            }
            out.push((c.scope.module, &item.value));
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Datasets a loop's body draws from with `next(it)`, `it` bound to `iter(ds)`.
fn next_over_dataset<'a>(cx: &Cx<'a, '_>, l: StmtId) -> Vec<(Scope, &'a Expr)> {
    let idx = cx.idx;
    let mut out: Vec<(Scope, &'a Expr)> = Vec::new();
    for c in &idx.calls {
        if c.stmt == l || !crate::editor::within(idx, c.stmt, l) {
            continue;
        }
        let is_next = matches!(&*c.call.func, Expr::Name(n) if n.id.as_str() == "next")
            && !idx.modules[c.scope.module].aliases.contains_key("next");
        let Some(Expr::Name(it)) = c.call.arguments.args.first().filter(|_| is_next) else {
            continue;
        };
        let (s, values) = idx.assignments(c.scope, it.id.as_str());
        for v in values {
            if let Expr::Call(call) = v
                && matches!(&*call.func, Expr::Name(n) if n.id.as_str() == "iter")
                && let Some(ds) = call.arguments.args.first()
                && idx.kind_of(s, ds) == Kind::Dataset
                && !out.iter().any(|(_, e)| e.range() == ds.range())
            {
                out.push((s, ds));
            }
        }
    }
    out
}

fn is_literal(e: &Expr) -> bool {
    matches!(
        e,
        Expr::NumberLiteral(_)
            | Expr::BooleanLiteral(_)
            | Expr::StringLiteral(_)
            | Expr::NoneLiteral(_)
            | Expr::UnaryOp(_)
    )
}

/// The dataset a comprehension in loop `l`'s body iterates, when a training step is taken in
/// that comprehension's element.
pub fn comprehension_over_dataset<'a>(cx: &Cx<'a, '_>, l: StmtId) -> Option<&'a Expr> {
    let idx = cx.idx;
    let reach = cx.reach;
    for (ci, c) in idx.calls.iter().enumerate() {
        if c.stmt == l || !crate::editor::within(idx, c.stmt, l) {
            continue;
        }
        let is_step = reach.applies.contains(&ci)
            || matches!(&*c.call.func, Expr::Attribute(a) if a.attr.as_str() == "apply_gradients")
            || matches!(idx.resolve_call(c.scope, c.call), Some(Callee::Func(f)) if reach.trains.contains(&f));
        if !is_step {
            continue;
        }
        struct Find<'a, 'i> {
            idx: &'i Index<'a>,
            scope: Scope,
            at: ruff_text_size::TextRange,
            found: Option<&'a Expr>,
        }
        impl<'a> Visitor<'a> for Find<'a, '_> {
            fn visit_expr(&mut self, e: &'a Expr) {
                let (elt_range, generators) = match e {
                    Expr::Generator(g) => (g.elt.range(), &g.generators),
                    Expr::ListComp(g) => (g.elt.range(), &g.generators),
                    Expr::SetComp(g) => (g.elt.range(), &g.generators),
                    _ => {
                        visitor::walk_expr(self, e);
                        return;
                    }
                };
                if elt_range.contains_range(self.at)
                    && let Some(g) = generators
                        .iter()
                        .find(|g| self.idx.kind_of(self.scope, &g.iter) == Kind::Dataset)
                {
                    self.found.get_or_insert(&g.iter);
                }
                visitor::walk_expr(self, e);
            }
        }
        let mut v = Find {
            idx,
            scope: c.scope,
            at: c.call.range(),
            found: None,
        };
        v.visit_stmt(idx.stmts[c.stmt].stmt);
        if v.found.is_some() {
            return v.found;
        }
    }
    None
}

fn shard_take(cx: &mut Cx, scope: Scope, call: &ExprCall) {
    let m = scope.module;
    let n = call
        .arguments
        .find_keyword("count")
        .map(|k| &k.value)
        .or_else(|| call.arguments.args.first());
    let Some(n) = n else { return };
    cx.suffix(m, RULE, n, DIV);
    cx.note(
        m,
        RULE,
        call.start(),
        format!("dataset `take({})` divided by hvd.size()", cx.text(m, n)),
    );
    cx.use_hvd(scope);
}

/// `X.take(n)` calls on datasets inside `e`.
fn find_takes<'a>(
    idx: &Index<'a>,
    scope: Scope,
    e: &'a Expr,
    out: &mut Vec<(Scope, &'a ExprCall)>,
) {
    struct V<'a, 'i, 'o> {
        idx: &'i Index<'a>,
        scope: Scope,
        out: &'o mut Vec<(Scope, &'a ExprCall)>,
    }
    impl<'a> Visitor<'a> for V<'a, '_, '_> {
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::Call(c) = e
                && let Expr::Attribute(a) = &*c.func
                && a.attr.as_str() == "take"
                && self.idx.kind_of(self.scope, &a.value) == Kind::Dataset
            {
                self.out.push((self.scope, c));
            }
            visitor::walk_expr(self, e);
        }
    }
    V { idx, scope, out }.visit_expr(e);
}

/// The loop iterates a variable or a project function's result: look for the `take` where that
/// value is defined.
fn takes_via_definition<'a>(
    idx: &Index<'a>,
    scope: Scope,
    iter: &'a Expr,
    out: &mut Vec<(Scope, &'a ExprCall)>,
) {
    // Look through enumerate(...), tqdm(...), iter(...) wrappers.
    let inner = match iter {
        Expr::Call(c) if matches!(&*c.func, Expr::Name(n) if matches!(n.id.as_str(), "enumerate" | "iter" | "tqdm")) => {
            c.arguments.args.first().unwrap_or(iter)
        }
        e => e,
    };
    match inner {
        Expr::Name(n) => {
            let (s, values) = idx.assignments(scope, n.id.as_str());
            for v in values {
                find_takes(idx, s, v, out);
            }
        }
        Expr::Call(c) => {
            if let Some(Callee::Func(f)) = idx.resolve_call(scope, c) {
                let fs = Scope {
                    module: idx.funcs[f].module,
                    func: Some(f),
                };
                for st in idx.modules[fs.module].stmts.clone() {
                    let info = &idx.stmts[st];
                    if info.scope == fs
                        && let Stmt::Return(r) = info.stmt
                        && let Some(v) = &r.value
                    {
                        find_takes(idx, fs, v, out);
                    }
                }
            }
        }
        _ => {}
    }
}

/// `n` of `range(n)` (the builtin, one argument).
fn single_range_count<'a>(idx: &Index, m: usize, iter: &'a Expr) -> Option<&'a Expr> {
    let Expr::Call(c) = iter else { return None };
    let is_range = matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "range")
        && !idx.modules[m].aliases.contains_key("range");
    (is_range && c.arguments.args.len() == 1 && c.arguments.keywords.is_empty())
        .then(|| &c.arguments.args[0])
}

/// Clocks whose readings make a value "elapsed time".
fn is_clock(q: &str) -> bool {
    matches!(
        q,
        "time.time"
            | "time.perf_counter"
            | "time.monotonic"
            | "time.process_time"
            | "time.time_ns"
            | "time.perf_counter_ns"
            | "time.monotonic_ns"
            | "timeit.timeit"
            | "timeit.default_timer"
    )
}

/// If the count `n` of a training loop in `scope` is also divided by (or divides) an elapsed
/// time in that scope (`n * batch / elapsed`, `elapsed / n`), the line of that computation: the
/// loop is a benchmark. Counts that are literals never are (nothing else can name them).
fn timed_rate(cx: &Cx, scope: Scope, n: &Expr) -> Option<usize> {
    if !matches!(n, Expr::Name(_) | Expr::Attribute(_)) {
        return None;
    }
    let idx = cx.idx;
    let m = scope.module;
    let src = cx.src(m);
    let count = &src[n.range()];
    let stmts: Vec<&Stmt> = idx
        .stmts
        .iter()
        .filter(|s| {
            s.scope == scope
                && !matches!(
                    s.stmt,
                    Stmt::For(_)
                        | Stmt::While(_)
                        | Stmt::If(_)
                        | Stmt::With(_)
                        | Stmt::Try(_)
                        | Stmt::FunctionDef(_)
                        | Stmt::ClassDef(_)
                )
        })
        .map(|s| s.stmt)
        .collect();
    // Names holding elapsed time: assigned from a clock reading, or from such names.
    let mut timed: Vec<&str> = Vec::new();
    loop {
        let before = timed.len();
        for s in &stmts {
            if let Stmt::Assign(a) = s
                && mentions_time(idx, m, &a.value, &timed)
            {
                for t in &a.targets {
                    if let Expr::Name(t) = t
                        && !timed.contains(&t.id.as_str())
                    {
                        timed.push(t.id.as_str());
                    }
                }
            }
        }
        if timed.len() == before {
            break;
        }
    }
    struct Rates<'s, 'a, 'b> {
        idx: &'b Index<'a>,
        m: usize,
        src: &'s str,
        count: &'s str,
        timed: &'b [&'b str],
        found: Option<ruff_text_size::TextSize>,
    }
    impl<'a> Visitor<'a> for Rates<'_, '_, '_> {
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::BinOp(b) = e
                && matches!(
                    b.op,
                    ruff_python_ast::Operator::Div | ruff_python_ast::Operator::FloorDiv
                )
            {
                let has_count = |x: &Expr| mentions_text(x, self.src, self.count);
                let has_time = |x: &Expr| mentions_time(self.idx, self.m, x, self.timed);
                if (has_count(&b.left) && has_time(&b.right))
                    || (has_time(&b.left) && has_count(&b.right))
                {
                    self.found.get_or_insert(e.start());
                }
            }
            visitor::walk_expr(self, e);
        }
    }
    let mut v = Rates {
        idx,
        m,
        src,
        count,
        timed: &timed,
        found: None,
    };
    for s in &stmts {
        v.visit_stmt(s);
    }
    v.found.map(|at| cx.line_of(m, at))
}

/// `e` contains a name or attribute whose source text is `text`.
fn mentions_text(e: &Expr, src: &str, text: &str) -> bool {
    any_over_expr(e, |x| {
        matches!(x, Expr::Name(_) | Expr::Attribute(_)) && &src[x.range()] == text
    })
}

/// `e` reads a clock or a name in `timed`.
fn mentions_time(idx: &Index, m: usize, e: &Expr, timed: &[&str]) -> bool {
    any_over_expr(e, |x| match x {
        Expr::Call(c) => idx.canonical(m, &c.func).is_some_and(|q| is_clock(&q)),
        Expr::Name(n) => timed.contains(&n.id.as_str()),
        _ => false,
    })
}
