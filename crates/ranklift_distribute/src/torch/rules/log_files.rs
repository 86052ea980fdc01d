//! Rule `log_files`: a log file is written by rank 0 alone.
//!
//! **Trigger:** `logging.FileHandler(path, ...)` (and `handlers.RotatingFileHandler`,
//! `TimedRotatingFileHandler`, `WatchedFileHandler`), and `logging.basicConfig(filename=path,
//! ...)`, in the code the main script runs.
//!
//! **Rewrite:** the handler becomes `logging.FileHandler(path) if RANK == 0 else
//! logging.NullHandler()`; the `basicConfig` file becomes `path if RANK == 0 else os.devnull`.
//!
//! **Why:** a file handler opens (creates) its file when it is built, so every rank would write
//! the same log, interleaving lines. Guarding the statement instead would leave the handler's
//! name unbound on the other ranks, where the program goes on to call `setFormatter` and
//! `addHandler` on it; a `NullHandler` answers both. The calls that log (`logging.info`) are
//! guarded by rule `rank0_only`.
//!
//! ```python
//! # before
//! file_handler = logging.FileHandler(log_path)
//! # after
//! file_handler = logging.FileHandler(log_path) if RANK == 0 else logging.NullHandler()
//! ```
use ranklift_python::Edit;
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::torch::Tx;

const RULE: &str = "log_files";

fn is_file_handler(q: &str) -> bool {
    matches!(
        q,
        "logging.FileHandler"
            | "logging.handlers.RotatingFileHandler"
            | "logging.handlers.TimedRotatingFileHandler"
            | "logging.handlers.WatchedFileHandler"
    )
}

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for (cid, c) in idx.calls.iter().enumerate() {
        let m = c.scope.module;
        if !tx.plan.in_reach(m) || tx.plan.dormant[c.stmt] {
            continue;
        }
        if c.scope.func.is_some_and(|f| tx.plan.never_run.contains(&f)) {
            continue;
        }
        let Some(q) = tx.plan.qual(cid).map(str::to_owned) else {
            continue;
        };
        let rank = tx.names[m].rank.clone();
        if is_file_handler(&q) {
            tx.needs[m].rank = true;
            let text = tx.ed.text(m, c.call);
            let logging = match &*c.call.func {
                Expr::Attribute(a) if q == "logging.FileHandler" => {
                    tx.ed.text(m, &*a.value).to_owned()
                }
                _ => "logging".to_owned(),
            };
            if logging == "logging" && !tx.ed.has_identifier(m, "logging") {
                continue;
            }
            tx.ed.edit(
                m,
                RULE,
                c.call.start(),
                Edit::replace(
                    c.call.range(),
                    format!("{text} if {rank} == 0 else {logging}.NullHandler()"),
                ),
                "the log file is written by rank 0 alone (the other ranks get a NullHandler)",
            );
        } else if q == "logging.basicConfig"
            && let Some(k) = c.call.arguments.find_keyword("filename")
        {
            tx.needs[m].rank = true;
            let text = tx.ed.text(m, &k.value);
            tx.ed.edit(
                m,
                RULE,
                k.value.start(),
                Edit::replace(
                    k.value.range(),
                    format!("{text} if {rank} == 0 else os.devnull"),
                ),
                "the log file is written by rank 0 alone (the other ranks log to os.devnull)",
            );
        }
    }
}
