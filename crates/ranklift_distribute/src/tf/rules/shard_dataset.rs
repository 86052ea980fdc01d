//! Rule `shard_dataset`: each of N processes trains on 1/N of the data.
//!
//! **Trigger:** training that consumes its whole input every epoch, so that N processes would
//! each do all the work (the one thing a user distributes to avoid):
//! - a training loop (`for x, y in ds:`, `enumerate(ds)`, ...) over a `tf.data` dataset with no
//!   `take(n)` and no `range(n)` (those are divided by `shard_training_steps`);
//! - `model.fit(ds)` on a dataset, or `model.fit(x, y)` on arrays;
//! - a dataset whose step count is divided (`ds.take(n)` in a training loop, `fit(ds,
//!   steps_per_epoch=n)`): dividing the count alone leaves every process drawing *the same*
//!   batches from a seeded or unshuffled pipeline (`shuffle(buf, seed=12).repeat()`), and
//!   overlapping ones from an unseeded one — the right number of steps, no speed-up. Its source
//!   is sharded too (`shard_training_steps` and `keras_steps` divide the count).
//!
//! **Rewrite:**
//! - a source that comes batched and finite (`timeseries_dataset_from_array`,
//!   `image_dataset_from_directory`) and is bound alone to a name is cut to a multiple of
//!   `hvd.size()` batches before its shard, so that every process takes as many steps (one more
//!   batch on one process would leave it waiting forever in its last all-reduce);
//! - a dataset gets `.shard(hvd.size(), hvd.rank())` right after the call its pipeline starts
//!   from (`from_tensor_slices(...)`, `TFRecordDataset(...)`, ...), *before* its shuffle and
//!   batch, so that the processes read disjoint elements (Horovod's and tf.data's advice) — when
//!   that source is found through variables, method chains and project functions, and none of the
//!   variables on the way is used elsewhere (a one-batch preview, `next(iter(ds))`, is not a
//!   use: it shows a batch of the shard as well) — a parameter followed to the one argument its
//!   callers pass (sharding a source shared with evaluation would shard
//!   the evaluation too). Otherwise it is sharded where training reads it (`for x in
//!   ds.shard(...)`): still 1/N of the batches per process, disjoint when the shuffle is seeded.
//!   There it comes batched: a dataset read whole every epoch is cut first to a multiple of
//!   `hvd.size()` batches (`ds.take(ds.cardinality() // hvd.size() * hvd.size()).shard(...)`);
//! - a pipeline that keeps a count of elements before it shuffles (`ds.take(20000).shuffle(...)`)
//!   is sharded right after that `take`: sharded at the source, each process would still take
//!   20000 elements, and its pass would hold as many batches as the original's;
//! - arrays given to `fit` are sliced by `shard = slice(hvd.rank(), len(x) // hvd.size() *
//!   hvd.size(), hvd.size())` (also `y` and `sample_weight`): every rank the same number of
//!   samples, or one rank would run one more batch and wait forever in its all-reduce (an `x`
//!   that calls something, or a `fit` that shares its line, gets `x[hvd.rank()::hvd.size()]`);
//! - any other `fit` input (a generator, a `Sequence`, a dict of arrays) without
//!   `steps_per_epoch` keeps its data and `epochs=E` becomes `(E + hvd.size() - 1) // hvd.size()`, as Horovod's Keras example
//!   divides epochs; without `epochs` there is nothing to divide and DST306 says so.
//!
//! A source that shuffles inside before it batches (`make_csv_dataset`,
//! `image_dataset_from_directory`) can only be sharded after its shuffle: unseeded, each rank
//! would shuffle differently and the shards would overlap. It gets a seed (`shuffle_seed=0`,
//! `seed=0`) when it has none, so that every rank shuffles alike and takes its own batches of
//! the one order (the order still changes every epoch).
//!
//! `--explain` states which choice was made and why.
//!
//! ```python
//! # before
//! ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1024).batch(64)
//! for epoch in range(EPOCHS):
//!     for bx, by in ds:
//!         train_step(bx, by)
//! # after
//! ds = tf.data.Dataset.from_tensor_slices((x, y)).shard(hvd.size(), hvd.rank()).shuffle(1024).batch(64)
//! ...
//! ```
use ranklift_python::Severity;
use ruff_python_ast::{Expr, Stmt, StmtFor};
use ruff_text_size::{Ranged, TextRange};

use crate::index::{Callee, Index, Kind, Scope};
use crate::tf::context::Cx;
use crate::tf::names as tf;

const RULE: &str = "shard_dataset";
const SHARD: &str = ".shard(hvd.size(), hvd.rank())";
const SLICE: &str = "[hvd.rank()::hvd.size()]";

/// `enumerate(ds)`, `iter(ds)`, `tqdm(ds)` → `ds`.
fn unwrap_iter(e: &Expr) -> &Expr {
    match e {
        Expr::Call(c)
            if matches!(&*c.func, Expr::Name(n) if matches!(n.id.as_str(), "enumerate" | "iter" | "tqdm"))
                && !c.arguments.args.is_empty() =>
        {
            unwrap_iter(&c.arguments.args[0])
        }
        e => e,
    }
}

/// Where a dataset value comes from: the constructor call its pipeline starts from, if found
/// along a path on which every variable is used once (by the next step of the path).
struct Source<'a> {
    scope: Scope,
    call: &'a Expr,
}

fn source_of<'a>(
    idx: &Index<'a>,
    scope: Scope,
    e: &'a Expr,
    depth: u32,
    reads: &[(usize, TextRange)],
) -> Result<Source<'a>, &'static str> {
    if depth > 8 {
        return Err("its pipeline is too deep to follow");
    }
    match e {
        Expr::Call(c) => {
            if let Some(q) = idx.canonical(scope.module, &c.func)
                && tf::is_dataset_constructor(&q)
            {
                if combines_shuffled(idx, scope, c) {
                    return Err("it combines datasets shuffled on their own");
                }
                return Ok(Source { scope, call: e });
            }
            if let Expr::Attribute(a) = &*c.func
                && tf::dataset_method_returns_dataset(a.attr.as_str())
                && idx.kind_of(scope, &a.value) == Kind::Dataset
            {
                let inner = source_of(idx, scope, &a.value, depth + 1, reads);
                // `ds.take(20000).shuffle(...)`: the pipeline keeps a count of elements, and a
                // shard before it would leave each process that many — the pass undivided. The
                // shard goes after the count nearest the source (a count training reads itself,
                // `for x in ds.take(n)`, is divided by `shard_training_steps`).
                if a.attr.as_str() == "take"
                    && depth > 0
                    && let Ok(src) = &inner
                    && !is_take(src.call)
                {
                    return Ok(Source { scope, call: e });
                }
                return inner;
            }
            if let Some(Callee::Func(f)) = idx.resolve_call(scope, c) {
                let fs = Scope {
                    module: idx.funcs[f].module,
                    func: Some(f),
                };
                let returns: Vec<&Expr> = idx.modules[fs.module]
                    .stmts
                    .clone()
                    .filter_map(|st| {
                        let info = &idx.stmts[st];
                        match info.stmt {
                            Stmt::Return(r) if info.scope == fs => r.value.as_deref(),
                            _ => None,
                        }
                    })
                    .collect();
                return match returns.as_slice() {
                    [one] => source_of(idx, fs, one, depth + 1, reads),
                    _ => Err("the function that builds it has several returns"),
                };
            }
            Err("its source is not a tf.data constructor ranklift knows")
        }
        Expr::Name(n) => {
            let (s, assigned) = idx.assignments(scope, n.id.as_str());
            // `train_ds, test_ds = make_datasets()`, then maybe `train_ds = train_ds.batch(..)`:
            // the pipeline starts at the element the unpacking gives the name.
            let (us, unpacked) = idx.unpacked(scope, n.id.as_str());
            let start = match unpacked.as_slice() {
                [u] if (us == s || assigned.is_empty())
                    && assigned.iter().all(|a| a.start() > u.value.end()) =>
                {
                    Some(
                        idx.unpacked_element(us, u)
                            .ok_or("it is unpacked from a value ranklift cannot follow")?,
                    )
                }
                [] => None,
                _ => {
                    return Err("its variable is unpacked more than once, or after it is assigned");
                }
            };
            if assigned.is_empty() && start.is_none() {
                // A parameter: the one dataset every caller passes (`train(model, opt,
                // make_dataset(15))`).
                if let Some(f) = scope.func
                    && let Some(args) = idx.arguments_for(f, n.id.as_str())
                    && let [(caller, arg)] = args.as_slice()
                {
                    return source_of(idx, *caller, arg, depth + 1, reads);
                }
                return Err("its variable is not assigned in this function or module");
            }
            // Reads by training itself (`fit(ds)` then a fine-tuning loop over `ds`) all want
            // the shard: only other reads (evaluation) keep the source whole. A preview of one
            // batch (`sample = next(iter(ds))`) shows a batch of the shard just as well.
            let previews = previews(idx, s.module);
            let loads = idx
                .refs
                .iter()
                .filter(|r| r.scope.module == s.module && r.name.id == n.id)
                .filter(|r| !previews.contains(&r.name.range()))
                .filter(|r| {
                    !reads
                        .iter()
                        .any(|&(m, range)| m == s.module && range.contains_range(r.name.range()))
                })
                .count()
                + usize::from(
                    reads
                        .iter()
                        .any(|&(m, range)| m == scope.module && range.contains_range(n.range())),
                );
            // `ds = ds.shuffle(...)` steps re-read the name once each.
            let chain_steps = assigned.len() - usize::from(start.is_none());
            if loads > 1 + chain_steps {
                return Err(
                    "a variable of its pipeline is also used elsewhere (e.g. for evaluation)",
                );
            }
            // The first binding starts the pipeline; later ones extend it.
            let (src, steps) = match start {
                Some((es, e)) => (source_of(idx, es, e, depth + 1, reads)?, &assigned[..]),
                None => (
                    source_of(idx, s, assigned[0], depth + 1, reads)?,
                    &assigned[1..],
                ),
            };
            // A later step that keeps a count of elements (`ds = ds.take(20000).shuffle(...)`)
            // before any shuffle: the shard goes after that count (see the method case above).
            let mut shuffled = false;
            for step in steps {
                if let Some(take) = take_nearest_source(step)
                    && !shuffled
                    && !idx.text(s.module, take).contains(".shuffle(")
                {
                    return Ok(Source {
                        scope: s,
                        call: take,
                    });
                }
                shuffled |= idx.text(s.module, *step).contains(".shuffle(");
            }
            Ok(src)
        }
        _ => Err("it is not built from a call ranklift can follow"),
    }
}

/// In a chain of dataset methods (`ds.map(f).take(n).shuffle(b)`), the `take` call nearest its
/// receiver, if any.
fn take_nearest_source(e: &Expr) -> Option<&Expr> {
    let mut found = None;
    let mut cur = e;
    while let Expr::Call(c) = cur
        && let Expr::Attribute(a) = &*c.func
    {
        if a.attr.as_str() == "take" {
            found = Some(cur);
        }
        cur = &a.value;
    }
    found
}

/// `x.take(...)`.
fn is_take(e: &Expr) -> bool {
    matches!(e, Expr::Call(c) if matches!(&*c.func, Expr::Attribute(a) if a.attr.as_str() == "take"))
}

/// `Dataset.zip((a, b))` (or another combination) of pipelines that shuffle before they meet:
/// sharded there, each process would take its elements of its own shuffled order, and the
/// processes' elements would overlap unless every one shuffles alike.
fn combines_shuffled(idx: &Index, scope: Scope, c: &ruff_python_ast::ExprCall) -> bool {
    let shuffles = |e: &Expr| {
        let text = |e: &Expr| idx.text(scope.module, e);
        text(e).contains(".shuffle(")
            || matches!(e, Expr::Name(n)
                if idx.assignments(scope, n.id.as_str()).1.iter().any(|v| text(v).contains(".shuffle(")))
    };
    c.arguments.args.iter().any(|a| match a {
        Expr::Tuple(t) => t.elts.iter().any(shuffles),
        Expr::List(l) => l.elts.iter().any(shuffles),
        a => shuffles(a),
    })
}

/// The names read only to preview one batch: `X` in `next(iter(X))`.
fn previews(idx: &Index, module: usize) -> Vec<TextRange> {
    idx.calls
        .iter()
        .filter(|c| c.scope.module == module)
        .filter_map(|c| {
            let call = c.call;
            if !matches!(&*call.func, Expr::Name(f) if f.id.as_str() == "next")
                || call.arguments.len() != 1
            {
                return None;
            }
            let Some(Expr::Call(inner)) = call.arguments.args.first() else {
                return None;
            };
            match (&*inner.func, inner.arguments.args.as_ref()) {
                (Expr::Name(f), [Expr::Name(x)])
                    if f.id.as_str() == "iter" && inner.arguments.keywords.is_empty() =>
                {
                    Some(x.range())
                }
                _ => None,
            }
        })
        .collect()
}

/// Shard the dataset `used` (read by training in `scope`): at its source when possible, else
/// where it is used. `whole`: training reads all of `used` every epoch (no count of its own),
/// so that where it is sharded after batching, every process must get as many batches.
fn shard(cx: &mut Cx, scope: Scope, used: &Expr, what: &str, whole: bool) {
    let idx = cx.idx;
    let m = scope.module;
    let reads = training_reads(cx);
    match source_of(idx, scope, used, 0, &reads) {
        Ok(src) => {
            let sm = src.scope.module;
            if !cx.sharded.insert((sm, src.call.start())) {
                return;
            }
            if !even_batches(cx, src.scope, src.call) {
                cx.trailer(sm, RULE, src.call, SHARD);
            }
            seed_internal_shuffle(cx, src.scope, src.call);
            let line = cx.line_of(sm, src.call.start());
            cx.note(
                m,
                RULE,
                used.start(),
                format!(
                    "{what}: sharded at its source `{}` ({}:{line}), before shuffle and batch: each process trains on 1/hvd.size() of the elements, disjoint",
                    short(cx.text(sm, src.call)),
                    cx.path(sm)
                ),
            );
            cx.use_hvd(src.scope);
        }
        Err(why) => {
            if !cx.sharded.insert((m, used.start())) {
                return;
            }
            let even = whole && even_batches_where_read(cx, scope, used);
            if !even {
                cx.trailer(m, RULE, used, SHARD);
            }
            cx.note(
                m,
                RULE,
                used.start(),
                format!(
                    "{what}: sharded where training reads it ({why}): each process trains on 1/hvd.size() of the batches{}",
                    if even { ", cut first to a multiple of hvd.size() batches" } else { "" }
                ),
            );
            cx.use_hvd(scope);
        }
    }
}

/// A source that comes batched and finite (`timeseries_dataset_from_array`,
/// `image_dataset_from_directory`), bound alone to a name: sharded after the statement, cut
/// first to a multiple of `hvd.size()` batches — sharded as they come, 31 batches give one
/// worker 16 and the other 15, and the worker with the extra batch waits forever for the
/// other's gradients. False (nothing done) for any other source.
fn even_batches(cx: &mut Cx, scope: Scope, call: &Expr) -> bool {
    let idx = cx.idx;
    let m = scope.module;
    let Expr::Call(c) = call else { return false };
    if !idx
        .canonical(m, &c.func)
        .is_some_and(|q| tf::is_batched_finite_source(&q))
    {
        return false;
    }
    let Some(st) = idx.modules[m].stmts.clone().find(|&st| {
        idx.stmts[st].scope == scope
            && matches!(idx.stmts[st].stmt, Stmt::Assign(a)
                if a.value.range() == call.range()
                    && matches!(a.targets.as_slice(), [Expr::Name(_)]))
    }) else {
        return false;
    };
    let stmt = idx.stmts[st].stmt;
    let Stmt::Assign(a) = stmt else { return false };
    let Expr::Name(n) = &a.targets[0] else {
        return false;
    };
    if !cx.ed.stmt_alone(m, stmt) || !cx.ed.lines_around_ok(st) {
        return false;
    }
    let name = n.id.as_str();
    let lines = [
        "# Every worker the same number of batches (a worker with one more would wait forever"
            .to_owned(),
        "# for the others' gradients), then its own share of them.".to_owned(),
        format!("{name} = {name}.take({name}.cardinality() // hvd.size() * hvd.size()){SHARD}"),
    ];
    cx.insert_lines_after(
        m,
        RULE,
        stmt,
        &lines,
        format!("`{name}` comes batched: cut to a multiple of hvd.size() batches, then sharded"),
    );
    true
}

/// A dataset named `used`, sharded where training reads all of it every epoch (its pipeline
/// could not be followed to its source): it comes batched there, and N shards of B batches
/// give `B % N` processes one batch more — each of them then waits forever in its last
/// gradient all-reduce for processes that have finished the epoch. Cut to a multiple of
/// `hvd.size()` batches first (`take` of a negative count, what `cardinality()` gives an
/// infinite or unknown dataset, takes everything: no change there). False (nothing done) when
/// `used` is not a plain name, whose text could be repeated without running anything twice.
fn even_batches_where_read(cx: &mut Cx, scope: Scope, used: &Expr) -> bool {
    let Expr::Name(n) = used else { return false };
    let m = scope.module;
    let name = n.id.as_str();
    cx.edit(
        m,
        RULE,
        used.start(),
        ranklift_python::Edit::replace(
            used.range(),
            format!("{name}.take({name}.cardinality() // hvd.size() * hvd.size()){SHARD}"),
        ),
        "",
    );
    // The comment goes before the innermost statement that reads it, when that has its lines.
    let idx = cx.idx;
    let stmt = idx.modules[m]
        .stmts
        .clone()
        .filter(|&st| {
            idx.stmts[st].scope == scope && idx.stmts[st].stmt.range().contains_range(used.range())
        })
        .min_by_key(|&st| idx.stmts[st].stmt.range().len());
    if let Some(st) = stmt
        && cx.ed.stmt_alone(m, idx.stmts[st].stmt)
        && cx.ed.lines_around_ok(st)
    {
        let lines = [
            "# Every worker the same number of batches (a worker with one more would wait forever"
                .to_owned(),
            "# for the others' gradients), then its own share of them.".to_owned(),
        ];
        cx.insert_lines_before(m, RULE, idx.stmts[st].stmt, &lines, "");
    }
    true
}

/// `make_csv_dataset(...)` without `shuffle_seed` (and not `shuffle=False`): seeded, so that every
/// rank's shuffle is the same and the shard after it splits one order.
fn seed_internal_shuffle(cx: &mut Cx, scope: Scope, call: &Expr) {
    let Expr::Call(c) = call else { return };
    let m = scope.module;
    let Some((seed_kw, shuffle_kw)) = cx
        .idx
        .canonical(m, &c.func)
        .and_then(|q| tf::internal_shuffle_seed(&q))
    else {
        return;
    };
    let has = |kw: &str| c.arguments.find_keyword(kw);
    if has(seed_kw).is_some()
        || has(shuffle_kw)
            .is_some_and(|k| matches!(k.value, Expr::BooleanLiteral(ref b) if !b.value))
        || c.arguments.keywords.iter().any(|k| k.arg.is_none())
    {
        return;
    }
    let e = crate::editor::add_keyword_edit(cx.src(m), c, &format!("{seed_kw}=0"));
    cx.edit(
        m,
        RULE,
        c.start(),
        e,
        format!("`{seed_kw}=0`: the source shuffles before its shard, and every rank must shuffle alike for the shards to be disjoint"),
    );
}

/// Where training reads its data: the input of every `fit` and the iterable of every training
/// loop (module, range).
fn training_reads(cx: &Cx) -> Vec<(usize, TextRange)> {
    let idx = cx.idx;
    let mut out = Vec::new();
    for &fc in &cx.reach.fits {
        let c = &idx.calls[fc];
        let args = &c.call.arguments;
        if let Some(x) = args
            .find_keyword("x")
            .map(|k| &k.value)
            .or(args.args.first())
        {
            out.push((c.scope.module, x.range()));
        }
    }
    for l in super::shard_training_steps::training_loops(cx) {
        let info = &idx.stmts[l];
        if let Stmt::For(f) = info.stmt {
            out.push((info.scope.module, f.iter.range()));
        }
        if let Some(iter) = super::shard_training_steps::comprehension_over_dataset(cx, l) {
            out.push((info.scope.module, iter.range()));
        }
    }
    out
}

fn short(s: &str) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > 60 {
        format!("{}...", one.chars().take(57).collect::<String>())
    } else {
        one
    }
}

/// `ds.take(n)` in a training loop, whose `n` `shard_training_steps` divides: `ds` is sharded
/// too, so that each process's n/N steps read its own elements.
pub fn shard_counted(cx: &mut Cx, scope: Scope, take: &ruff_python_ast::ExprCall) {
    let Expr::Attribute(a) = &*take.func else {
        return;
    };
    let what = format!(
        "dataset `{}` read by `take` (its count divided)",
        short(cx.text(scope.module, &*a.value))
    );
    shard(cx, scope, &a.value, &what, false);
}

/// A comprehension inside a training loop that steps over a dataset (`sum(train_step(x, y) for
/// x, y in ds)`): that is where the data is read, so it is sharded there — not the epochs of
/// the loop around it, which would have every rank step through the same batches.
pub fn shard_comprehension(cx: &mut Cx, scope: Scope, iter: &Expr) {
    let what = format!(
        "comprehension over `{}` that trains",
        short(cx.text(scope.module, iter))
    );
    shard(cx, scope, iter, &what, true);
}

/// `it = iter(ds)`, drawn from with `next(it)` by a training loop whose count is divided: `ds`
/// is sharded, or every rank would draw the same batches.
pub fn shard_drawn(cx: &mut Cx, scope: Scope, ds: &Expr) {
    let what = format!(
        "dataset `{}` drawn from with `next` by a divided training loop",
        short(cx.text(scope.module, ds))
    );
    shard(cx, scope, ds, &what, false);
}

/// A training loop over a dataset that `shard_training_steps` did not divide.
pub fn shard_loop(cx: &mut Cx, scope: Scope, f: &StmtFor) {
    let inner = unwrap_iter(&f.iter);
    // A parameter (`def train(model, dataset): for x, y in dataset:`) is a dataset when the one
    // argument its callers pass is.
    if cx.idx.kind_of(scope, inner) != Kind::Dataset
        && source_of(cx.idx, scope, inner, 0, &[]).is_err()
    {
        return;
    }
    let what = format!(
        "training loop over `{}`",
        short(cx.text(scope.module, inner))
    );
    shard(cx, scope, inner, &what, true);
}

/// `model.fit(...)`: its data split (with `steps_per_epoch`, which `keras_steps` divides, as
/// without).
pub fn run_fit(cx: &mut Cx) {
    let idx = cx.idx;
    for &fc in &cx.reach.fits.clone() {
        let c = &idx.calls[fc];
        let (scope, call) = (c.scope, c.call);
        let m = scope.module;
        let args = &call.arguments;
        let counted = args
            .find_keyword("steps_per_epoch")
            .is_some_and(|k| !matches!(k.value, Expr::NoneLiteral(_)));
        let Some(x) = args
            .find_keyword("x")
            .map(|k| &k.value)
            .or(args.args.first())
        else {
            continue;
        };
        let y = args
            .find_keyword("y")
            .map(|k| &k.value)
            .or(args.args.get(1));
        if idx.kind_of(scope, x) == Kind::Dataset || source_of(idx, scope, x, 0, &[]).is_ok() {
            let what = format!("`fit` input `{}`", short(cx.text(m, x)));
            shard(cx, scope, x, &what, !counted);
            continue;
        }
        if let Some(y) = y
            && !matches!(x, Expr::Dict(_))
            && !matches!(y, Expr::NoneLiteral(_))
        {
            let mut parts = vec![x, y];
            if let Some(w) = args.find_keyword("sample_weight") {
                parts.push(&w.value);
            }
            // Equal shares: `x[hvd.rank()::hvd.size()]` gives the first `len(x) % hvd.size()`
            // ranks one more sample, and when that makes one more batch, that rank's extra
            // gradient all-reduce waits for ranks that have finished the epoch: a hang. A
            // `slice` that stops at a multiple of hvd.size() gives every rank the same count.
            let stmt = c.stmt;
            let slice = if !has_call(x)
                && cx.ed.stmt_alone(m, idx.stmts[stmt].stmt)
                && cx.ed.lines_around_ok(stmt)
            {
                let name = ["shard", "rank_shard", "hvd_shard"]
                    .into_iter()
                    .find(|n| {
                        idx.assignments(scope, n).1.is_empty() && !cx.text(m, call).contains(n)
                    })
                    .unwrap_or("hvd_shard");
                let line = format!(
                    "{name} = slice(hvd.rank(), len({x}) // hvd.size() * hvd.size(), hvd.size()) if len({x}) >= hvd.size() else slice(None)",
                    x = cx.text(m, x)
                );
                let why = [
                    "# Every rank the same number of samples (one more batch on one rank would stall the",
                    "# others); with fewer samples than ranks, every rank trains on all of them.",
                ];
                cx.insert_lines_before(
                    m,
                    RULE,
                    idx.stmts[stmt].stmt,
                    &[why[0].to_owned(), why[1].to_owned(), line],
                    "",
                );
                format!("[{name}]")
            } else {
                SLICE.to_owned()
            };
            for p in &parts {
                cx.trailer(m, RULE, p, &slice);
            }
            cx.note(
                m,
                RULE,
                x.start(),
                format!(
                    "`fit` arrays `{}` sliced `{slice}`: each process trains on every hvd.size()-th sample{}",
                    parts.iter().map(|p| short(cx.text(m, *p))).collect::<Vec<_>>().join("`, `"),
                    if slice == SLICE { "" } else { ", every process the same number (an extra batch on one would stall the others)" }
                ),
            );
            cx.use_hvd(scope);
            continue;
        }
        if counted {
            // A generator or `Sequence` with divided steps: each process draws its own batches.
            continue;
        }
        match args.find_keyword("epochs") {
            Some(k) => {
                let e = &k.value;
                let text = cx.text(m, e);
                let new = if crate::tf::context::is_atomic(e) {
                    format!("({text} + hvd.size() - 1) // hvd.size()")
                } else {
                    format!("(({text}) + hvd.size() - 1) // hvd.size()")
                };
                cx.edit(
                    m,
                    RULE,
                    e.start(),
                    ranklift_python::Edit::replace(e.range(), new),
                    format!(
                        "`fit` input `{}` cannot be sharded (not a dataset or arrays): `epochs={text}` divided by hvd.size() (rounded up), as Horovod's Keras example does",
                        short(cx.text(m, x))
                    ),
                );
                cx.use_hvd(scope);
            }
            None => cx.diag(m, x.range(), crate::codes::UNSPLIT_FIT_INPUT, Severity::Warning,
                format!("`fit` input `{}` cannot be sharded and there is no `epochs` to divide: every process trains on all of it", short(cx.text(m, x))),
                "pass a tf.data.Dataset or arrays to `fit`, or `steps_per_epoch`, so that ranklift can split the work"),
        }
    }
}

/// Does `e` call anything (so that repeating its text would run the call again)?
fn has_call(e: &Expr) -> bool {
    use ruff_python_ast::visitor::{Visitor, walk_expr};
    struct V(bool);
    impl Visitor<'_> for V {
        fn visit_expr(&mut self, e: &Expr) {
            if matches!(e, Expr::Call(_)) {
                self.0 = true;
            }
            walk_expr(self, e);
        }
    }
    let mut v = V(false);
    v.visit_expr(e);
    v.0
}
