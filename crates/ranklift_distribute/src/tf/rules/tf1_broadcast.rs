//! Rule `tf1_broadcast`: every TF1 process starts from rank 0's variables.
//!
//! **Trigger and rewrite** (Horovod's TF1 guide, step 5):
//! - Session programs: after the statement that runs the global-variable initializer —
//!   `sess.run(init)` where `init` holds `tf.global_variables_initializer()`,
//!   `sess.run(tf.global_variables_initializer())`, `init.run()` /
//!   `tf.global_variables_initializer().run()` — or restores a checkpoint
//!   (`saver.restore(sess, path)`), insert `sess.run(hvd.broadcast_global_variables(0))` (or
//!   `hvd.broadcast_global_variables(0).run()` for the `.run()` forms). The session may be created
//!   by `with` or by assignment; the earlier tool matched only the literal `with` + `run(init())`.
//! - `MonitoredTrainingSession(hooks=...)` and `estimator.train(hooks=...)`: the hooks become the
//!   user's hooks plus `hvd.BroadcastGlobalVariablesHook(0)` — a list literal gets it as its first
//!   element, any other expression `E` becomes `E + [hook]`; never `E.append(...)`, which returns
//!   None and dropped every hook in the earlier tool's output. No hooks: `hooks=[hook]`.
//!
//! ```python
//! # before
//! with tf.train.MonitoredTrainingSession(hooks=hooks) as sess:
//! # after
//! with tf.train.MonitoredTrainingSession(hooks=hooks + [hvd.BroadcastGlobalVariablesHook(0)]) as sess:
//! ```
use ranklift_python::{Edit, Severity};
use ruff_python_ast::{Expr, ExprCall, Stmt};
use ruff_text_size::{Ranged, TextSize};

use crate::index::{Kind, Scope};
use crate::tf::context::{Cx, add_keyword_edit};
use crate::tf::pattern::Pattern;

const RULE: &str = "tf1_broadcast";
const HOOK: &str = "hvd.BroadcastGlobalVariablesHook(0)";

pub fn run(cx: &mut Cx) {
    match cx.pattern {
        Pattern::Session => after_initializers(cx),
        Pattern::MonitoredSession => {
            for &c in &cx.reach.monitored_sessions.clone() {
                let call = cx.idx.calls[c].call;
                add_hook(cx, cx.idx.calls[c].scope, call);
            }
        }
        Pattern::Estimator => {
            for &c in &cx.reach.estimator_trains.clone() {
                let call = cx.idx.calls[c].call;
                add_hook(cx, cx.idx.calls[c].scope, call);
            }
        }
        _ => {}
    }
}

fn add_hook(cx: &mut Cx, scope: Scope, call: &ExprCall) {
    let m = scope.module;
    let is_train = matches!(&*call.func, Expr::Attribute(a) if a.attr.as_str() == "train");
    let hooks = call
        .arguments
        .find_keyword("hooks")
        .map(|k| &k.value)
        .or_else(|| {
            if is_train {
                call.arguments.args.get(1)
            } else {
                None
            }
        });
    let what = format!(
        "`{}` gets hvd.BroadcastGlobalVariablesHook(0)",
        cx.text(m, &*call.func)
    );
    match hooks {
        None | Some(Expr::NoneLiteral(_)) => {
            let e = match hooks {
                Some(h) => Edit::replace(h.range(), format!("[{HOOK}]")),
                None => add_keyword_edit(cx.src(m), call, &format!("hooks=[{HOOK}]")),
            };
            cx.edit(m, RULE, call.start(), e, what);
        }
        Some(Expr::List(l)) => {
            let sep = if l.elts.is_empty() { "" } else { ", " };
            cx.edit(
                m,
                RULE,
                l.start(),
                Edit::insert(l.start() + TextSize::from(1), format!("{HOOK}{sep}")),
                what,
            );
        }
        Some(e) => {
            cx.suffix(m, RULE, e, &format!("+ [{HOOK}]"));
            cx.note(m, RULE, call.start(), what);
        }
    }
    cx.use_hvd(scope);
}

fn after_initializers(cx: &mut Cx) {
    let idx = cx.idx;
    let mut found = 0;
    let stmts: Vec<_> = cx
        .reached_stmts()
        .map(|(s, i)| (s, i.scope, i.stmt))
        .collect();
    for (sid, scope, stmt) in stmts {
        let Stmt::Expr(e) = stmt else { continue };
        let Expr::Call(call) = &*e.value else {
            continue;
        };
        let Expr::Attribute(a) = &*call.func else {
            continue;
        };
        let m = scope.module;
        let recv_kind = idx.kind_of(scope, &a.value);
        let line = match (a.attr.as_str(), recv_kind) {
            // sess.run(init) / sess.run(tf.global_variables_initializer())
            ("run", Kind::Session)
                if call
                    .arguments
                    .args
                    .first()
                    .is_some_and(|x| idx.kind_of(scope, x) == Kind::Initializer) =>
            {
                format!(
                    "{}.run(hvd.broadcast_global_variables(0))",
                    cx.text(m, &*a.value)
                )
            }
            // init.run() / tf.global_variables_initializer().run(session=sess)
            ("run", Kind::Initializer) => match call.arguments.find_keyword("session") {
                Some(k) => format!(
                    "hvd.broadcast_global_variables(0).run(session={})",
                    cx.text(m, &k.value)
                ),
                None => "hvd.broadcast_global_variables(0).run()".to_owned(),
            },
            // saver.restore(sess, path)
            ("restore", Kind::Saver) => match call.arguments.args.first() {
                Some(sess) => format!(
                    "{}.run(hvd.broadcast_global_variables(0))",
                    cx.text(m, sess)
                ),
                None => continue,
            },
            _ => continue,
        };
        if !cx.lines_around_ok(sid) {
            cx.diag(m, stmt.range(), crate::codes::SHARED_LINE, Severity::Error,
                "the variable initialisation shares its line with other code; the broadcast cannot be placed after it",
                "put it on a line of its own");
            continue;
        }
        found += 1;
        cx.insert_lines_after(
            m,
            RULE,
            stmt,
            std::slice::from_ref(&line),
            format!("after initialising variables: `{line}`"),
        );
        cx.use_hvd(scope);
    }
    if found == 0 {
        let c = cx.reach.sessions[0];
        let (m, r) = (idx.calls[c].scope.module, idx.calls[c].call.range());
        cx.diag(m, r, crate::codes::TF1_NO_INIT, Severity::Error,
            "ranklift cannot find where this session initialises its variables (`sess.run(tf.global_variables_initializer())` or `saver.restore(sess, ...)`), so it cannot broadcast them from rank 0",
            "run the initializer in a statement of its own, e.g. `sess.run(tf.global_variables_initializer())`");
    }
}
