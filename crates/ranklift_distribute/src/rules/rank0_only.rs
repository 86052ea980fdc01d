//! Rule `rank0_only`: output and checkpoints come from rank 0 only.
//!
//! **Trigger:** statements that print or save, in every module the main script reaches:
//! `print(...)`, `tf.print(...)`, `checkpoint.save/write(...)`, `CheckpointManager.save()`,
//! files written through other libraries (`np.save`, `plt.savefig`, `fig.savefig`, PIL's
//! `Image.fromarray(a).save(...)`, `cv2.imwrite`, `save_img`, ...: `crate::writers`),
//! `model.save(...)`, `model.save_weights(...)`, `model.summary()`, `tf.saved_model.save(...)`,
//! `tf.keras.models.save_model(...)` — as expression statements or as the value of an assignment
//! (`path = manager.save()`). TF1: `saver.save(sess, path)` and every call on a
//! `tf.summary.FileWriter`. Also `tf.summary.create_file_writer(...)` and `tf.summary.FileWriter(...)`.
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
//! N processes would print every line N times and race on the same checkpoint files (seed 001
//! §2.2 print and checkpoint rules; Horovod's guide, step 6).
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
use ruff_text_size::{Ranged, TextRange};

use crate::context::Cx;
use crate::index::{Index, Kind, Scope, StmtId};
use crate::tf;

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
    if let Expr::Attribute(a) = &*call.func {
        if crate::writers::is_file_writing_method(a.attr.as_str()) {
            return Some("file write");
        }
        if a.attr.as_str() == "save"
            && let Expr::Call(inner) = &*a.value
            && idx
                .qualify(m, &inner.func)
                .is_some_and(|q| crate::writers::makes_pil_image(&q))
        {
            return Some("image save");
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
            (_, Kind::FileWriterV1) => return Some("summary writer"),
            _ => {}
        }
    }
    None
}

fn stmt_call(stmt: &Stmt) -> Option<&ExprCall> {
    let v = match stmt {
        Stmt::Expr(e) => &*e.value,
        Stmt::Assign(a) => &*a.value,
        Stmt::AnnAssign(a) => a.value.as_deref()?,
        _ => return None,
    };
    match v {
        Expr::Call(c) => Some(c),
        _ => None,
    }
}

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
            Some("file write" | "image save") if per_rank_path(cx, info.scope, call) => {}
            Some(_) => guarded.push(s),
            None => {}
        }
    }
    // Group consecutive siblings.
    let mut i = 0;
    while i < guarded.len() {
        let first = guarded[i];
        let m = idx.stmts[first].scope.module;
        if !cx.stmt_alone(m, idx.stmts[first].stmt) {
            inline_guard(cx, first);
            i += 1;
            continue;
        }
        let mut j = i;
        while j + 1 < guarded.len() {
            let (a, b) = (&idx.stmts[guarded[j]], &idx.stmts[guarded[j + 1]]);
            if b.body == a.body
                && b.index_in_body == a.index_in_body + 1
                && cx.stmt_alone(m, b.stmt)
            {
                j += 1;
            } else {
                break;
            }
        }
        let last = guarded[j];
        let (s0, s1) = (idx.stmts[first].stmt, idx.stmts[last].stmt);
        let indent = cx.indent_of(m, s0).to_owned();
        let unit = cx.indent_unit(m).to_owned();
        let nl = cx.nl(m);
        let what: Vec<String> = guarded[i..=j]
            .iter()
            .filter_map(|&s| stmt_call(idx.stmts[s].stmt))
            .map(|c| format!("`{}`", cx.text(m, &*c.func)))
            .collect();
        cx.edit(
            m,
            RULE,
            s0.start(),
            Edit::insert(s0.start(), format!("{GUARD}{nl}{indent}{unit}")),
            format!("only rank 0 runs {}", what.join(", ")),
        );
        cx.indent_continuation_lines(m, TextRange::new(s0.start(), s1.end()));
        cx.use_hvd(idx.stmts[first].scope);
        share_results(cx, &guarded, &guarded[i..=j], s1);
        i = j + 1;
    }
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

/// Does the call's text use a name bound, in its scope, to the process's rank
/// (`rank = os.environ.get("HOROVOD_RANK", "0")`, `r = hvd.rank()`)?
fn per_rank_path(cx: &Cx, scope: Scope, call: &ExprCall) -> bool {
    let idx = cx.idx;
    let m = scope.module;
    let args = cx.text(m, &call.arguments);
    idx.modules[m].stmts.clone().any(|st| {
        let info = &idx.stmts[st];
        let Stmt::Assign(a) = info.stmt else {
            return false;
        };
        if info.scope != scope {
            return false;
        }
        let value = cx.text(m, &*a.value);
        let is_rank =
            value.contains("RANK") || value.contains(".rank()") || value.contains("local_rank()");
        is_rank
            && a.targets.iter().any(|t| {
                matches!(t, Expr::Name(n) if crate::context::contains_word(args, n.id.as_str()))
            })
    })
}

fn inline_guard(cx: &mut Cx, s: StmtId) {
    let idx = cx.idx;
    let info = &idx.stmts[s];
    let m = info.scope.module;
    match info.stmt {
        Stmt::Expr(e) => {
            cx.edit(
                m,
                RULE,
                e.start(),
                Edit::insert(e.value.start(), "hvd.rank() == 0 and "),
                format!(
                    "only rank 0 runs `{}`",
                    cx.text(m, &*e.value).lines().next().unwrap_or("")
                ),
            );
        }
        Stmt::Assign(a) => {
            cx.edit(
                m,
                RULE,
                a.start(),
                Edit::insert(a.value.end(), " if hvd.rank() == 0 else None"),
                "only rank 0 saves",
            );
        }
        Stmt::AnnAssign(a) => {
            if let Some(v) = &a.value {
                cx.edit(
                    m,
                    RULE,
                    a.start(),
                    Edit::insert(v.end(), " if hvd.rank() == 0 else None"),
                    "only rank 0 saves",
                );
            }
        }
        _ => return,
    }
    cx.use_hvd(info.scope);
}
