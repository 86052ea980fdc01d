//! Rule `rank0_only`: output and checkpoints come from rank 0 only.
//!
//! **Trigger:** statements that print or save, in every module the main script reaches:
//! `print(...)`, `tf.print(...)`, `checkpoint.save/write(...)`, `CheckpointManager.save()`,
//! files written through other libraries (`np.save`, `plt.savefig`, `fig.savefig`, PIL's
//! `Image.fromarray(a).save(...)` — also through a name, `img = keras.utils.array_to_img(x)`
//! then `img.save(path)` —, `cv2.imwrite`, `save_img`, ...: `crate::writers`),
//! `model.save(...)`, `model.save_weights(...)`, `model.summary()`, `tf.saved_model.save(...)`,
//! `tf.keras.models.save_model(...)` — as expression statements or as the value of an assignment
//! (`path = manager.save()`). TF1: `saver.save(sess, path)` and every call on a
//! `tf.summary.FileWriter`. Also `tf.summary.create_file_writer(...)` and `tf.summary.FileWriter(...)`.
//!
//! A `with` statement that opens a file for writing (`with imageio.get_writer("anim.gif") as w:`,
//! `with open(path, "w") as f:`) is guarded whole. Code after a guarded statement that reads a
//! name bound only inside it (the last `filename` of a loop that wrote frames into a GIF) is
//! guarded with it, transitively: on the other ranks that name would be unbound (`NameError`).
//!
//! A statement that reads back a file only rank 0 wrote — its path has the same string
//! literal (`'image_at_epoch_{:04d}.png'`) or the same variable (`anim_file`) as a guarded write,
//! directly or through a project function that opens it (`display_image(EPOCHS)`) — is guarded
//! too: on the other ranks the file is not there (FileNotFoundError in TensorFlow's DCGAN and
//! CVAE tutorials).
//!
//! A statement that *loads* such a file on every rank (`model.load_weights(path)` after a guarded
//! `model.save_weights(path)`, `tf.keras.models.load_model('my_model.keras')`) stays on every
//! rank, after a broadcast from rank 0 (`hvd_tf.broadcast_object(None, root_rank=0)`, TF 2): the
//! other ranks wait until rank 0 has written
//! it (FileNotFoundError on rank 1 in TensorFlow's save-and-load tutorial).
//!
//! **Not triggered** by a file written through another library whose path names the rank
//! (`np.save(f"out/rank{rank}.npy", a)` with `rank = os.environ["HOROVOD_RANK"]`): such files are
//! per process already, and guarding them would lose the other ranks' files.
//!
//! **Rewrite:** the whole statement goes under `if hvd.rank() == 0:`; a name it assigns that
//! code on every rank reads later (`path = ckpt.save(...)`, then `ckpt.restore(path)`) is
//! broadcast from rank 0 right after the guarded block (`hvd.broadcast_object`, TF2); consecutive guarded
//! statements share one `if`. Continuation lines are indented too, except inside triple-quoted
//! strings. A statement that shares its line (`for x in xs: print(x)`) becomes
//! `hvd.rank() == 0 and print(x)`. A file writer becomes `... if hvd.rank() == 0 else
//! tf.summary.create_noop_writer()`, so summaries written through it are no-ops elsewhere. Why:
//! N processes would print every line N times and race on the same checkpoint files (Horovod's guide,
//! step 6).
//!
//! ```python
//! # before
//! print(f"epoch {epoch}: loss {loss:.4f}")
//! manager.save()
//! # after
//! if hvd.rank() == 0:
//!     print(f"epoch {epoch}: loss {loss:.4f}")
//!     manager.save()
//! ```
use ranklift_python::Edit;
use ruff_python_ast::{Expr, ExprCall, Stmt};
use ruff_text_size::Ranged;

use crate::index::{Index, Kind, Scope, StmtId};
use crate::rank0_files::{collect_literals, opens_a_file, path_tokens, rank0_paths};
use crate::tf::context::Cx;
use crate::tf::names as tf;

const RULE: &str = "rank0_only";
const GUARD: &str = "if hvd.rank() == 0:";

/// Does this call print or write state to disk?
pub fn is_rank0_call(idx: &Index, scope: Scope, call: &ExprCall) -> Option<&'static str> {
    let m = scope.module;
    if let Expr::Name(n) = &*call.func
        && n.id.as_str() == "print"
        && !idx.modules[m].aliases.contains_key("print")
    {
        return Some("print");
    }
    if let Some(q) = idx.canonical(m, &call.func)
        && crate::writers::is_file_writer(&q)
    {
        return Some("file write");
    }
    if let Some(q) = idx.qualify(m, &call.func)
        && crate::writers::is_console_output(&q)
    {
        return Some("console output");
    }
    if let Expr::Attribute(a) = &*call.func {
        if crate::writers::is_file_writing_method(a.attr.as_str()) {
            return Some("file write");
        }
        // `Image.fromarray(a).save(p)`, also through image methods (`.resize(...).save(p)`).
        if a.attr.as_str() == "save" {
            let mut recv = &*a.value;
            for _ in 0..16 {
                let Expr::Call(inner) = recv else { break };
                if idx
                    .canonical(m, &inner.func)
                    .is_some_and(|q| crate::writers::makes_pil_image(&q))
                {
                    return Some("image save");
                }
                let Expr::Attribute(next) = &*inner.func else {
                    break;
                };
                recv = &next.value;
            }
        }
    }
    if let Some(q) = idx.canonical(m, &call.func) {
        if &*q == tf::TF_PRINT {
            return Some("tf.print");
        }
        if tf::is_save_function(&q) {
            return Some("save");
        }
    }
    if let Expr::Attribute(a) = &*call.func {
        let k = idx.kind_of(scope, &a.value);
        match (a.attr.as_str(), k) {
            ("save" | "write", Kind::Checkpoint) => return Some("checkpoint"),
            ("save", Kind::CheckpointManager) => return Some("checkpoint"),
            ("save" | "save_weights", Kind::Model) => return Some("model save"),
            ("summary", Kind::Model) => return Some("model summary"),
            ("save", Kind::Saver) => return Some("saver"),
            ("save", Kind::Image) => return Some("image save"),
            (_, Kind::FileWriterV1) => return Some("summary writer"),
            _ => {}
        }
    }
    None
}

use crate::editor::stmt_call;

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    let mut guarded: Vec<StmtId> = Vec::new();
    for (s, info) in cx.reached_stmts() {
        let m = info.scope.module;
        let Some(call) = stmt_call(info.stmt) else {
            continue;
        };
        if let (Stmt::Assign(_), Some(tf::FILE_WRITER)) =
            (info.stmt, idx.canonical(m, &call.func).as_deref())
        {
            let tfn = cx.tf_or_import(m);
            cx.edit(
                m,
                RULE,
                call.start(),
                Edit::insert(
                    call.end(),
                    format!(" if hvd.rank() == 0 else {tfn}.summary.create_noop_writer()"),
                ),
                "summary writer only on rank 0 (a no-op writer elsewhere)",
            );
            cx.use_hvd(info.scope);
            continue;
        }
        if let (Stmt::Assign(_), Some(tf::FILE_WRITER_V1)) =
            (info.stmt, idx.canonical(m, &call.func).as_deref())
        {
            cx.edit(
                m,
                RULE,
                call.start(),
                Edit::insert(call.end(), " if hvd.rank() == 0 else None"),
                "TF1 summary FileWriter only on rank 0 (its uses are guarded too)",
            );
            cx.use_hvd(info.scope);
            continue;
        }
        match is_rank0_call(idx, info.scope, call) {
            // A file whose path names the rank is per rank: no race, every rank keeps writing it.
            Some("file write" | "image save")
                if crate::editor::per_rank_path(idx, info.scope, call) => {}
            Some(_) => guarded.push(s),
            None => {}
        }
    }
    for (s, info) in cx.reached_stmts() {
        if let Stmt::With(w) = info.stmt
            && w.items
                .iter()
                .any(|item| opens_for_writing(idx, info.scope.module, &item.context_expr))
        {
            guarded.push(s);
        }
    }
    let loads = if cx.pattern.is_tf1() {
        Vec::new()
    } else {
        loads_of_rank0_files(cx, &guarded)
    };
    guarded.extend(readers_of_rank0_files(cx, &guarded));
    // A statement inside a guarded `with` is guarded by it.
    let outer = guarded.clone();
    guarded.retain(|&s| {
        !outer
            .iter()
            .any(|&o| o != s && crate::editor::within(idx, s, o))
    });
    extend_to_dependents(idx, &mut guarded, cx.pattern.is_tf1());
    // And after extending to dependents (a loop whose body is all guarded is guarded whole):
    // a guard inside a guard would re-indent the same lines twice.
    let outer = guarded.clone();
    guarded.retain(|&s| {
        !outer
            .iter()
            .any(|&o| o != s && crate::editor::within(idx, s, o))
    });
    barrier_before_loads(cx, &loads);
    guarded.sort_unstable();
    guarded.dedup();
    for (group, last) in cx
        .ed
        .guard_statements(RULE, &guarded, GUARD, "hvd.rank() == 0")
    {
        cx.use_hvd(idx.stmts[group[0]].scope);
        if let Some(last) = last {
            share_results(cx, &guarded, &group, idx.stmts[last].stmt);
        }
    }
}

/// Every rank loads what rank 0 alone saved (`model.save_weights(p)` guarded, then
/// `model.load_weights(p)` on every rank): the other ranks wait at a barrier until rank 0 has
/// written it (TF 2; `hvd_tf.broadcast_object(None, root_rank=0)` returns once rank 0 is there).
fn barrier_before_loads(cx: &mut Cx, loads: &[StmtId]) {
    let idx = cx.idx;
    for &s in loads {
        let m = idx.stmts[s].scope.module;
        if !cx.ed.lines_around_ok(s) {
            continue;
        }
        // A broadcast from rank 0 returns on every rank once rank 0 has reached it, after its
        // save (`hvd.join()` is no barrier the second time it is called: measured).
        let bcast = cx.hvd_tf(m, "broadcast_object");
        cx.insert_lines_before(
            m,
            RULE,
            idx.stmts[s].stmt,
            &[format!("{bcast}(None, root_rank=0)  # wait until rank 0 has written the file loaded next")],
            "every rank loads what only rank 0 saved: the others first wait for rank 0 (a broadcast from it), or they would not find the file",
        );
        cx.use_hvd(idx.stmts[s].scope);
    }
}

/// Statements that read (`load_weights`, `load_model`, `restore`, `tf.saved_model.load`,
/// `open`, `imread`) a path only rank 0 writes: the same string literal, or the same
/// module-level name, as a guarded write; a function's local name stands for the literals it is
/// assigned there (a checkpoint path set, written by `ModelCheckpoint` and loaded back, all in
/// the function that fits).
fn loads_of_rank0_files(cx: &Cx, guarded: &[StmtId]) -> Vec<StmtId> {
    let idx = cx.idx;
    let (mut lits, mut names) = rank0_paths(idx, guarded);
    // `ModelCheckpoint(path)` runs on rank 0 only (rule `keras_fit_callbacks`): its path is
    // written by rank 0 alone too, so `load_model(path)` after `fit` waits for it.
    for (c, canon) in cx.reached_calls() {
        if canon.as_deref() != Some("tensorflow.keras.callbacks.ModelCheckpoint") {
            continue;
        }
        let path = c.call.arguments.args.first().or_else(|| {
            c.call
                .arguments
                .keywords
                .iter()
                .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "filepath"))
                .map(|k| &k.value)
        });
        match path {
            Some(Expr::Name(n)) if c.scope.func.is_none() => {
                names.push((c.scope.module, n.id.to_string()));
            }
            // A local name (`checkpoint_filepath = "/tmp/ckpt.weights.h5"` in the function that
            // fits): the paths it is assigned.
            Some(Expr::Name(n)) => {
                for v in idx.assignments(c.scope, n.id.as_str()).1 {
                    collect_literals(v, &mut lits);
                }
            }
            Some(e) => collect_literals(e, &mut lits),
            None => {}
        }
    }
    for &g in guarded {
        // `manager.save()`: the directory is in the manager's construction
        // (`manager = tf.train.CheckpointManager(ckpt, "./tf-example", ...)`).
        if let Some(c) = stmt_call(idx.stmts[g].stmt)
            && let Expr::Attribute(a) = &*c.func
            && let Expr::Name(recv) = &*a.value
        {
            for v in idx.assignments(idx.stmts[g].scope, recv.id.as_str()).1 {
                collect_literals(v, &mut lits);
            }
        }
    }
    let mut out = Vec::new();
    for (s, info) in cx.reached_stmts() {
        if !matches!(info.stmt, Stmt::Expr(_) | Stmt::Assign(_)) {
            continue;
        }
        // A statement that runs on rank 0 only (guarded itself, or inside a guarded block)
        // reads after rank 0's own write: no wait, which would also be a collective rank 0
        // alone enters.
        let mut up = Some(s);
        let mut on_rank0 = false;
        while let Some(u) = up {
            if guarded.contains(&u) {
                on_rank0 = true;
                break;
            }
            up = idx.stmts[u].parent;
        }
        if on_rank0 {
            continue;
        }
        // A reader of the path: Keras' and TensorFlow's loads (`tf.saved_model.load`), and the
        // generic ones (`open`, `imread`) — the path must still be one rank 0 writes, below.
        let loads = ruff_python_ast::helpers::any_over_body(std::slice::from_ref(info.stmt), |e| {
            let Expr::Call(c) = e else { return false };
            match &*c.func {
                Expr::Attribute(a) => matches!(
                    a.attr.as_str(),
                    "load_weights"
                        | "load_model"
                        | "restore"
                        | "latest_checkpoint"
                        | "load"
                        | "open"
                        | "imread"
                ),
                Expr::Name(n) => matches!(n.id.as_str(), "open" | "imread" | "load_model"),
                _ => false,
            }
        });
        if !loads {
            continue;
        }
        let (mut l, n) = path_tokens(info.stmt);
        // A local name read in a function: the paths it is assigned there.
        if info.scope.func.is_some() {
            for name in &n {
                for v in idx.assignments(info.scope, name).1 {
                    collect_literals(v, &mut l);
                }
            }
        }
        if l.iter().any(|x| lits.contains(x))
            || (info.scope.func.is_none()
                && n.iter()
                    .any(|x| names.contains(&(info.scope.module, x.clone()))))
        {
            out.push(s);
        }
    }
    out
}

/// Statements that read back what only rank 0 writes: calls whose arguments hold a path
/// literal or a name of a guarded write, or calls of project functions that do.
fn readers_of_rank0_files(cx: &Cx, guarded: &[StmtId]) -> Vec<StmtId> {
    let idx = cx.idx;
    let (lits, names) = rank0_paths(idx, guarded);
    if lits.is_empty() && names.is_empty() {
        return Vec::new();
    }
    let reads = |s: StmtId| {
        let info = &idx.stmts[s];
        if !opens_a_file(info.stmt) {
            return false;
        }
        let (l, n) = path_tokens(info.stmt);
        l.iter().any(|x| lits.contains(x))
            || (info.scope.func.is_none()
                && n.iter()
                    .any(|x| names.contains(&(info.scope.module, x.clone()))))
    };
    // Project functions whose own statements read such a path (`def display_image(n): return
    // PIL.Image.open('image_at_epoch_{:04d}.png'.format(n))`), unless they also write it.
    let mut readers: Vec<crate::index::FuncId> = Vec::new();
    for (s, info) in cx.reached_stmts() {
        if let Some(f) = info.scope.func
            && !guarded.contains(&s)
            && reads(s)
            && !readers.contains(&f)
            && !guarded.iter().any(|&g| idx.stmts[g].scope.func == Some(f))
        {
            readers.push(f);
        }
    }
    let mut out = Vec::new();
    for (s, info) in cx.reached_stmts() {
        if guarded.contains(&s)
            || info.scope.func.is_some_and(|f| readers.contains(&f))
            || !matches!(info.stmt, Stmt::Expr(_) | Stmt::Assign(_))
        {
            continue;
        }
        let calls_reader = idx.calls.iter().any(|c| {
            c.stmt == s
                && matches!(idx.resolve_call(c.scope, c.call), Some(crate::index::Callee::Func(f)) if readers.contains(&f))
        });
        // The writes themselves live in guarded statements; a read elsewhere at module level.
        if calls_reader || (info.scope.func.is_none() && reads(s) && !writes_here(idx, info)) {
            out.push(s);
        }
    }
    out
}

/// Does the statement itself write (it would be guarded already)? Loads (`load_weights`,
/// `restore`) are reads every rank must do, so they are never taken for one.
fn writes_here(idx: &Index, info: &crate::index::StmtInfo) -> bool {
    stmt_call(info.stmt).is_some_and(|c| is_rank0_call(idx, info.scope, c).is_some())
        || stmt_call(info.stmt).is_some_and(|c| {
            matches!(&*c.func, Expr::Attribute(a) if matches!(a.attr.as_str(), "load_weights" | "restore" | "load_model" | "expect_partial" | "assert_consumed"))
                || idx.canonical(info.scope.module, &c.func).is_some_and(|q| q.contains("load"))
        })
}

/// `open(path, "w")`, `imageio.get_writer(path)`, ...: a call that opens a file for writing.
fn opens_for_writing(idx: &Index, m: usize, e: &Expr) -> bool {
    let Expr::Call(c) = e else { return false };
    let q = match &*c.func {
        Expr::Name(n)
            if n.id.as_str() == "open" && !idx.modules[m].aliases.contains_key("open") =>
        {
            "open".to_owned()
        }
        f => match idx.qualify(m, f) {
            Some(q) => q.to_string(),
            None => return false,
        },
    };
    let q = tf::canonical(&q);
    if crate::writers::is_writer_opener(&q) {
        return true;
    }
    let Some(at) = crate::writers::mode_opener(&q) else {
        return false;
    };
    let mode = c
        .arguments
        .find_keyword("mode")
        .map(|k| &k.value)
        .or_else(|| c.arguments.args.get(at));
    matches!(mode, Some(Expr::StringLiteral(s)) if crate::writers::is_write_mode(s.value.to_str()))
}

/// Names a statement binds anywhere inside it (assignment and loop targets, `with ... as x`).
fn bound_names(stmt: &Stmt) -> Vec<String> {
    use ruff_python_ast::visitor::{self, Visitor};
    struct Names(Vec<String>);
    impl<'a> Visitor<'a> for Names {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            if matches!(s, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
                return;
            }
            visitor::walk_stmt(self, s);
        }
        fn visit_expr(&mut self, e: &'a Expr) {
            // A comprehension's and a lambda's names are their own scope's (Python 3).
            if matches!(
                e,
                Expr::ListComp(_)
                    | Expr::SetComp(_)
                    | Expr::DictComp(_)
                    | Expr::Generator(_)
                    | Expr::Lambda(_)
            ) {
                return;
            }
            if let Expr::Name(n) = e
                && n.ctx.is_store()
            {
                self.0.push(n.id.to_string());
            }
            visitor::walk_expr(self, e);
        }
    }
    let mut v = Names(Vec::new());
    v.visit_stmt(stmt);
    v.0
}

/// Guard, with the statements already guarded, the later statements of the same block that read
/// a name only a guarded statement binds: on the other ranks that name is unbound. A plain
/// `path = ckpt.save(...)` is left to `share_results` (broadcast) in TF2 programs.
fn extend_to_dependents(idx: &Index, guarded: &mut Vec<StmtId>, tf1: bool) {
    let mut i = 0;
    while i < guarded.len() && guarded.len() < 10_000 {
        let g = guarded[i];
        i += 1;
        let info = &idx.stmts[g];
        if matches!(info.stmt, Stmt::Assign(_) | Stmt::AnnAssign(_)) && !tf1 {
            continue;
        }
        let names = bound_names(info.stmt);
        if names.is_empty() {
            continue;
        }
        let later: Vec<StmtId> = idx.modules[info.scope.module]
            .stmts
            .clone()
            .filter(|&s| {
                let o = &idx.stmts[s];
                o.parent == info.parent
                    && o.body == info.body
                    && o.index_in_body > info.index_in_body
            })
            .collect();
        for s in later {
            if guarded.contains(&s) {
                continue;
            }
            // A name `s` binds itself (`for i in ...` inside it) is its own, not the guarded
            // statement's: a training block that reuses a loop variable a guarded print loop
            // bound is no dependent.
            let own = bound_names(idx.stmts[s].stmt);
            let binds_itself = |n: &str| own.iter().any(|b| b == n);
            let reads = idx.refs.iter().any(|r| {
                r.scope == info.scope
                    && names.iter().any(|n| n == r.name.id.as_str())
                    && crate::editor::within(idx, r.stmt, s)
                    && !binds_itself(r.name.id.as_str())
            });
            if reads && bound_elsewhere(idx, info, &names, s) {
                guarded.push(s);
            }
        }
    }
}

/// Is one of `names` bound *only* by guarded code before `reader`? (A name also bound by an
/// unguarded statement before the reader is defined on every rank.)
fn bound_elsewhere(
    idx: &Index,
    guarded: &crate::index::StmtInfo,
    names: &[String],
    reader: StmtId,
) -> bool {
    let r = &idx.stmts[reader];
    let rebinding = idx.modules[guarded.scope.module].stmts.clone().any(|s| {
        let o = &idx.stmts[s];
        o.parent == guarded.parent
            && o.body == guarded.body
            && o.index_in_body < guarded.index_in_body
            && bound_names(o.stmt).iter().any(|b| names.contains(b))
    });
    !rebinding && r.index_in_body > guarded.index_in_body
}

/// A guarded `path = ckpt.save(...)` leaves `path` unbound on the other ranks: if code that runs
/// on every rank reads it later, broadcast rank 0's value right after the guarded block
/// (`hvd.broadcast_object`; TF2 only — a TF1 graph has no default session to do it with).
fn share_results(cx: &mut Cx, all_guarded: &[StmtId], group: &[StmtId], last: &Stmt) {
    let idx = cx.idx;
    if cx.pattern.is_tf1() {
        return;
    }
    let mut names: Vec<String> = Vec::new();
    for &s in group {
        let info = &idx.stmts[s];
        let Stmt::Assign(a) = info.stmt else { continue };
        for t in &a.targets {
            let Expr::Name(n) = t else { continue };
            let read_elsewhere = idx.refs.iter().any(|r| {
                r.scope == info.scope && r.name.id == n.id && !all_guarded.contains(&r.stmt)
            });
            if read_elsewhere && !names.iter().any(|x| x == n.id.as_str()) {
                names.push(n.id.to_string());
            }
        }
    }
    if names.is_empty() {
        return;
    }
    let m = idx.stmts[group[0]].scope.module;
    let bcast = cx.hvd_tf(m, "broadcast_object");
    let lines: Vec<String> = names
        .iter()
        .map(|n| format!("{n} = {bcast}({n} if hvd.rank() == 0 else None, root_rank=0)"))
        .collect();
    cx.insert_lines_after(
        m,
        RULE,
        last,
        &lines,
        format!(
            "{} is computed on rank 0 only and read on every rank: broadcast from rank 0",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
}
