//! Rule `scale_learning_rate`: multiply every learning rate by the number of processes.
//!
//! **Trigger:** a call of a Keras optimizer class (`tf.optimizers.*`, `tf.keras.optimizers.*`,
//! `...optimizers.legacy.*`, through any alias) or learning-rate schedule
//! (`...optimizers.schedules.*`) anywhere in the code the main script reaches.
//!
//! **Rewrite:** the learning-rate argument (`learning_rate=`, `lr=` or the first positional;
//! `initial_learning_rate` for schedules, every value of `PiecewiseConstantDecay`) becomes
//! `(expr) * hvd.size()`, parenthesised when needed — a textual `expr * hvd.size()` would turn
//! `base + 0.1` into `base + 0.1 * hvd.size()`. With no learning rate, the class default is written
//! out and scaled. A learning rate that is itself a (scaled) schedule is left alone. A rate
//! given as `lr=` to an optimizer that ignores it (TensorFlow 2.11 and newer, not `legacy`) is
//! no rate: the default the program trains at is written out and scaled, with a warning.
//! Why: with N processes the effective batch is N times larger (Horovod's guide, step 3).
//!
//! ```python
//! # before
//! opt = tf.keras.optimizers.SGD(base_lr + 0.01, momentum=0.9)
//! adam = tf.optimizers.Adam()
//! # after
//! opt = tf.keras.optimizers.SGD((base_lr + 0.01) * hvd.size(), momentum=0.9)
//! adam = tf.optimizers.Adam(learning_rate=0.001 * hvd.size())
//! ```
use ranklift_python::{Edit, Severity};
use ruff_python_ast::{Expr, ExprCall};
use ruff_text_size::{Ranged, TextSize};

use crate::index::{Kind, Scope};
use crate::tf::context::Cx;
use crate::tf::names::{self as tf, ScheduleLr};

const RULE: &str = "scale_learning_rate";
const SCALE: &str = "* hvd.size()";

fn arg<'e>(call: &'e ExprCall, names: &[&str], pos: usize) -> Option<&'e Expr> {
    for n in names {
        if let Some(k) = call.arguments.find_keyword(n) {
            return Some(&k.value);
        }
    }
    call.arguments
        .args
        .get(pos)
        .filter(|a| !matches!(a, Expr::Starred(_)))
}

pub fn run(cx: &mut Cx) {
    for (c, q) in cx.reached_calls() {
        let Some(q) = q else {
            continue;
        };
        if let Some(name) = tf::tf1_optimizer(&q) {
            scale_tf1(cx, c.scope, c.call, name);
        } else if tf::tf1_lr_decay(&q) {
            scale_tf1(cx, c.scope, c.call, "learning-rate decay");
        } else if let Some(opt) = tf::optimizer_class(&q) {
            scale_optimizer(cx, c.scope, c.call, opt);
        } else if let Some(lr) = tf::schedule_class(&q) {
            scale_schedule(cx, c.scope, c.call, lr);
        }
    }
}

fn scale_optimizer(cx: &mut Cx, scope: Scope, call: &ExprCall, opt: tf::OptimizerClass) {
    let m = scope.module;
    let idx = cx.idx;
    let ignored = ignored_lr(cx, call, opt);
    if let Some(kw) = ignored {
        cx.diag(
            m,
            kw.range(),
            crate::codes::IGNORED_LR,
            Severity::Warning,
            format!(
                "`{}` ignores `lr=` from TensorFlow 2.11 on: the program trains at its default rate, {}, which the rewrite scales",
                opt.name, opt.default_lr
            ),
            "write `learning_rate=` for the rate you mean (in the original too)",
        );
    }
    match arg(call, &["learning_rate", "lr"], 0).filter(|_| ignored.is_none()) {
        Some(lr) => {
            let is_schedule = idx.kind_of(scope, lr) == Kind::Schedule
                || matches!(lr, Expr::Call(c) if idx.canonical(m, &c.func).is_some_and(|q| tf::schedule_class(&q).is_some()));
            if is_schedule {
                return;
            }
            if matches!(lr, Expr::Lambda(_)) {
                cx.diag(
                    m,
                    lr.range(),
                    crate::codes::UNSCALED_LR,
                    Severity::Warning,
                    "the learning rate is a callable; ranklift cannot scale it by `hvd.size()`",
                    "scale the value it returns by `hvd.size()` yourself",
                );
                return;
            }
            cx.suffix(m, RULE, lr, SCALE);
            let msg = format!(
                "learning rate of `{}` scaled: ({}) * hvd.size()",
                opt.name,
                cx.text(m, lr)
            );
            cx.note(m, RULE, lr.start(), msg);
        }
        None => {
            if call.arguments.keywords.iter().any(|k| k.arg.is_none()) {
                cx.diag(m, call.range(), crate::codes::UNSCALED_LR, Severity::Warning,
                    format!("the learning rate of `{}` may come from `**kwargs`; ranklift cannot scale it", opt.name),
                    "pass `learning_rate=` explicitly");
                return;
            }
            let text = format!("learning_rate={} {SCALE}", opt.default_lr);
            let text = if call.arguments.keywords.is_empty() {
                text
            } else {
                format!("{text}, ")
            };
            let at = call.arguments.start() + TextSize::from(1);
            cx.edit(
                m,
                RULE,
                call.start(),
                Edit::insert(at, text),
                if ignored.is_some() {
                    format!(
                        "`{}` trains at its default rate {} (`lr=` is ignored): scaled by hvd.size()",
                        opt.name, opt.default_lr
                    )
                } else {
                    format!(
                        "`{}` had no learning rate: its default {} scaled by hvd.size()",
                        opt.name, opt.default_lr
                    )
                },
            );
        }
    }
    cx.use_hvd(scope);
}

/// The `lr=` keyword of a call whose optimizer drops it: a Keras 2.11+ optimizer (not
/// `legacy`) given no `learning_rate=` and no positional rate.
fn ignored_lr<'e>(
    cx: &Cx,
    call: &'e ExprCall,
    opt: tf::OptimizerClass,
) -> Option<&'e ruff_python_ast::Keyword> {
    let lr = call.arguments.find_keyword("lr")?;
    let dropped = !opt.legacy
        && cx.opts.tf.target_tf >= (2, 11)
        && call.arguments.find_keyword("learning_rate").is_none()
        && call.arguments.args.is_empty();
    dropped.then_some(lr)
}

fn scale_schedule(cx: &mut Cx, scope: Scope, call: &ExprCall, lr: ScheduleLr) {
    let m = scope.module;
    let name = cx.text(m, &*call.func).to_owned();
    match lr {
        ScheduleLr::Initial => {
            let mut targets: Vec<&Expr> = arg(call, &["initial_learning_rate"], 0)
                .into_iter()
                .collect();
            if let Some(w) = call.arguments.find_keyword("warmup_target") {
                targets.push(&w.value);
            }
            if targets.is_empty() {
                return;
            }
            for t in targets {
                cx.suffix(m, RULE, t, SCALE);
            }
        }
        ScheduleLr::Values => {
            let Some(values) = arg(call, &["values"], 1) else {
                return;
            };
            match values {
                Expr::List(l) => {
                    for e in &l.elts {
                        cx.suffix(m, RULE, e, SCALE);
                    }
                }
                Expr::Tuple(t) => {
                    for e in &t.elts {
                        cx.suffix(m, RULE, e, SCALE);
                    }
                }
                v => {
                    cx.edit(
                        m,
                        RULE,
                        v.start(),
                        Edit::insert(v.start(), "[hvd_v * hvd.size() for hvd_v in "),
                        "",
                    );
                    cx.edit(m, RULE, v.start(), Edit::insert(v.end(), "]"), "");
                }
            }
        }
    }
    cx.note(
        m,
        RULE,
        call.start(),
        format!("learning-rate schedule `{name}` scaled by hvd.size()"),
    );
    cx.use_hvd(scope);
}

/// TF1 optimizers and decay functions: `learning_rate` or the first positional argument. Only
/// `AdamOptimizer` and `AdadeltaOptimizer` have a default (0.001).
fn scale_tf1(cx: &mut Cx, scope: Scope, call: &ExprCall, name: &str) {
    let m = scope.module;
    let idx = cx.idx;
    match arg(call, &["learning_rate"], 0) {
        Some(lr) => {
            if idx.kind_of(scope, lr) == Kind::Schedule
                || matches!(lr, Expr::Call(c) if idx.canonical(m, &c.func).is_some_and(|q| tf::tf1_lr_decay(&q)))
            {
                return;
            }
            cx.suffix(m, RULE, lr, SCALE);
            cx.note(
                m,
                RULE,
                lr.start(),
                format!(
                    "learning rate of `{name}` scaled: ({}) * hvd.size()",
                    cx.text(m, lr)
                ),
            );
        }
        None => {
            let default = match name {
                "AdamOptimizer" | "AdadeltaOptimizer" => "0.001",
                _ => return,
            };
            let text = format!("learning_rate={default} {SCALE}");
            let text = if call.arguments.keywords.is_empty() {
                text
            } else {
                format!("{text}, ")
            };
            cx.edit(
                m,
                RULE,
                call.start(),
                Edit::insert(call.arguments.start() + TextSize::from(1), text),
                format!(
                    "`{name}` had no learning rate: its default {default} scaled by hvd.size()"
                ),
            );
        }
    }
    cx.use_hvd(scope);
}
