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
use ruff_text_size::Ranged;

use crate::index::{Index, Kind, Scope, StmtId};
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
