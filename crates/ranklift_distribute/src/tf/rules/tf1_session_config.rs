//! Rule `tf1_session_config`: each TF1 process uses the GPU of its local rank.
//!
//! **Trigger:** `X = tf.ConfigProto(...)` assignments, and the sessions and estimators that run
//! without a config: `tf.Session(...)`, `tf.train.MonitoredTrainingSession(...)`,
//! `tf.estimator.Estimator(...)` (also an Estimator `RunConfig` without `session_config`).
//!
//! **Rewrite:** after the user's own ConfigProto, `X.gpu_options.visible_device_list =
//! str(hvd.local_rank())` (or, where the program sets that list itself, its value becomes the
//! local rank's: `= "0"` would put every process on GPU 0) — under the user's variable name (the earlier tool hard-coded `config`
//! and produced a NameError). Where no config is passed, `hvd_config` is created before the
//! statement and passed as `config=hvd_config`, or for an Estimator as
//! `config=tf.estimator.RunConfig(session_config=hvd_config)` (a ConfigProto is not a valid
//! Estimator `config`, another bug of the earlier tool). Horovod's TF1 guide, step 2.
//!
//! ```python
//! # before
//! with tf.Session() as sess:
//! # after
//! hvd_config = tf.ConfigProto()
//! hvd_config.gpu_options.visible_device_list = str(hvd.local_rank())
//! with tf.Session(config=hvd_config) as sess:
//! ```
use ranklift_python::{Edit, Severity};
use ruff_python_ast::{Expr, ExprCall, Stmt};
use ruff_text_size::Ranged;

use crate::index::{Kind, Scope, StmtId};
use crate::tf::context::{Cx, add_keyword_edit};
use crate::tf::names as tf;

const RULE: &str = "tf1_session_config";
const PIN: &str = ".gpu_options.visible_device_list = str(hvd.local_rank())";

pub fn run(cx: &mut Cx) {
    pin_config_protos(cx);
    sessions_without_config(cx);
}

/// After each `X = tf.ConfigProto(...)`, pin the local rank's GPU on `X`; where the program sets
/// `X.gpu_options.visible_device_list` itself in the same scope, that assignment gets the
/// local rank's GPU instead (a line inserted above it would be overwritten by it, and every
/// process would share the program's GPU). Also used for TF1-style Keras programs
/// (`K.set_session(tf.Session(config=X))`), whose sessions read that config.
pub fn pin_config_protos(cx: &mut Cx) {
    let idx = cx.idx;
    let reached: Vec<StmtId> = cx.reached_stmts().map(|(s, _)| s).collect();
    for &s in &reached {
        let info = &idx.stmts[s];
        let Stmt::Assign(a) = info.stmt else { continue };
        let ([Expr::Name(target)], Expr::Call(call)) = (a.targets.as_slice(), &*a.value) else {
            continue;
        };
        if idx.canonical(info.scope.module, &call.func).as_deref() != Some(tf::CONFIG_PROTO) {
            continue;
        }
        let m = info.scope.module;
        let own = reached.iter().find_map(|&t| {
            let other = &idx.stmts[t];
            (other.scope == info.scope && other.stmt.start() > a.start())
                .then(|| sets_device_list(other.stmt, target.id.as_str()))
                .flatten()
        });
        match own {
            Some(value) => {
                let was = cx.text(m, value).to_string();
                cx.edit(
                    m,
                    RULE,
                    value.start(),
                    Edit::replace(value.range(), "str(hvd.local_rank())"),
                    format!(
                        "`{}.gpu_options.visible_device_list` is the local rank's GPU (was `{was}`)",
                        target.id
                    ),
                );
            }
            None => cx.insert_lines_after(
                m,
                RULE,
                a,
                &[format!("{}{PIN}", target.id)],
                format!("`{}` pins the GPU of the local rank", target.id),
            ),
        }
        cx.use_hvd(info.scope);
    }
}

/// The value of `stmt` when it is `<config>.gpu_options.visible_device_list = value`.
fn sets_device_list<'a>(stmt: &'a Stmt, config: &str) -> Option<&'a Expr> {
    let Stmt::Assign(a) = stmt else { return None };
    let [Expr::Attribute(list)] = a.targets.as_slice() else {
        return None;
    };
    let Expr::Attribute(options) = &*list.value else {
        return None;
    };
    let Expr::Name(base) = &*options.value else {
        return None;
    };
    (list.attr.as_str() == "visible_device_list"
        && options.attr.as_str() == "gpu_options"
        && base.id.as_str() == config)
        .then_some(&*a.value)
}

/// Sessions and estimators that run without a config get one that pins the GPU.
fn sessions_without_config(cx: &mut Cx) {
    let idx = cx.idx;
    for (ci, c) in idx.calls.iter().enumerate() {
        if !cx.reach.modules.contains(&c.scope.module) {
            continue;
        }
        let q = idx.canonical(c.scope.module, &c.call.func);
        match q.as_deref() {
            Some(tf::SESSION | tf::MONITORED_SESSION) => session_without_config(cx, ci),
            Some(tf::ESTIMATOR) => estimator_config(cx, ci),
            _ => {}
        }
    }
}

fn session_without_config(cx: &mut Cx, ci: usize) {
    let idx = cx.idx;
    let c = &idx.calls[ci];
    let is_session = idx.canonical(c.scope.module, &c.call.func).as_deref() == Some(tf::SESSION);
    let given = c
        .call
        .arguments
        .find_keyword("config")
        .map(|k| &k.value)
        .or_else(|| {
            if is_session {
                c.call.arguments.args.get(2)
            } else {
                None
            }
        });
    match given {
        None => {
            let Some(name) = create_config(cx, c.scope, c.stmt) else {
                return;
            };
            let m = c.scope.module;
            cx.edit(
                m,
                RULE,
                c.call.start(),
                add_keyword_edit(cx.src(m), c.call, &format!("config={name}")),
                format!("`{}` gets `config={name}`", cx.text(m, &*c.call.func)),
            );
        }
        Some(e) => check_given(cx, c.scope, e),
    }
}

fn estimator_config(cx: &mut Cx, ci: usize) {
    let idx = cx.idx;
    let c = &idx.calls[ci];
    let m = c.scope.module;
    let given = c
        .call
        .arguments
        .find_keyword("config")
        .map(|k| &k.value)
        .or_else(|| c.call.arguments.args.get(2));
    let run_config_path = |cx: &Cx| {
        let f = cx.text(m, &*c.call.func);
        match f.rsplit_once('.') {
            Some((prefix, _)) => format!("{prefix}.RunConfig"),
            None => "tf.estimator.RunConfig".to_owned(),
        }
    };
    match given {
        None => {
            let Some(name) = create_config(cx, c.scope, c.stmt) else {
                return;
            };
            let rc = run_config_path(cx);
            cx.edit(
                m,
                RULE,
                c.call.start(),
                add_keyword_edit(
                    cx.src(m),
                    c.call,
                    &format!("config={rc}(session_config={name})"),
                ),
                format!("the Estimator gets `config={rc}(session_config={name})`"),
            );
        }
        Some(Expr::Call(rc)) if idx.canonical(m, &rc.func).as_deref() == Some(tf::RUN_CONFIG) => {
            run_config_without_session(cx, c.scope, c.stmt, rc);
        }
        Some(Expr::Name(n)) => {
            // `config=run_config` where `run_config = tf.estimator.RunConfig(...)`.
            let def = idx.modules[m]
                .stmts
                .clone()
                .find_map(|s| match idx.stmts[s].stmt {
                    Stmt::Assign(a)
                        if idx.stmts[s].scope == c.scope || idx.stmts[s].scope.func.is_none() =>
                    {
                        match (a.targets.as_slice(), &*a.value) {
                            ([Expr::Name(t)], Expr::Call(rc))
                                if t.id == n.id
                                    && idx.canonical(m, &rc.func).as_deref()
                                        == Some(tf::RUN_CONFIG) =>
                            {
                                Some((s, rc))
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                });
            match def {
                Some((s, rc)) => run_config_without_session(cx, idx.stmts[s].scope, s, rc),
                None => unverifiable(
                    cx,
                    c.scope,
                    &c.call
                        .arguments
                        .find_keyword("config")
                        .map(|k| k.value.clone())
                        .unwrap_or_else(|| Expr::Name(n.clone())),
                ),
            }
        }
        Some(e) => unverifiable(cx, c.scope, e),
    }
}

fn run_config_without_session(cx: &mut Cx, scope: Scope, stmt: StmtId, rc: &ExprCall) {
    let m = scope.module;
    match rc.arguments.find_keyword("session_config") {
        None => {
            let Some(name) = create_config(cx, scope, stmt) else {
                return;
            };
            cx.edit(
                m,
                RULE,
                rc.start(),
                add_keyword_edit(cx.src(m), rc, &format!("session_config={name}")),
                format!("RunConfig gets `session_config={name}`"),
            );
        }
        Some(k) => check_given(cx, scope, &k.value),
    }
}

/// A config the user passed: fine if it is one of their ConfigProto variables (pinned after
/// its assignment), otherwise reported.
fn check_given(cx: &mut Cx, scope: Scope, e: &Expr) {
    if cx.idx.kind_of(scope, e) == Kind::ConfigProto && matches!(e, Expr::Name(_)) {
        return;
    }
    unverifiable(cx, scope, e);
}

fn unverifiable(cx: &mut Cx, scope: Scope, e: &Expr) {
    let m = scope.module;
    cx.diag(m, e.range(), crate::codes::UNCHECKED_CONFIG, Severity::Warning,
        format!("ranklift cannot tell whether `{}` pins one GPU per process", cx.text(m, e)),
        "build the config in a variable (`config = tf.ConfigProto(...)`) so ranklift can set `gpu_options.visible_device_list`");
}

/// Insert `hvd_config = <v1>.ConfigProto()` and its pinning before `stmt`; returns the name.
fn create_config(cx: &mut Cx, scope: Scope, stmt: StmtId) -> Option<String> {
    let m = scope.module;
    let s = cx.idx.stmts[stmt].stmt;
    if !cx.lines_around_ok(stmt) {
        cx.diag(m, s.range(), crate::codes::SHARED_LINE, Severity::Error,
            "this statement shares its line with other code; ranklift cannot add the GPU config before it",
            "put the statement on a line of its own");
        return None;
    }
    let name = "hvd_config".to_owned();
    let v1 = cx.v1_path(m);
    cx.insert_lines_before(
        m,
        RULE,
        s,
        &[
            format!("{name} = {v1}.ConfigProto()"),
            format!("{name}{PIN}"),
        ],
        "`hvd_config` pins the GPU of the local rank",
    );
    cx.use_hvd(scope);
    Some(name)
}
