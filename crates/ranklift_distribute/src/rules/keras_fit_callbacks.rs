//! Rule `keras_fit_callbacks`: Horovod's callbacks in every `fit`, file-writing ones on rank 0.
//!
//! **Trigger:** every `model.fit(...)` / `fit_generator(...)` on a Keras model — statement,
//! assignment (`history = model.fit(...)`) or nested in any expression, in any reached function.
//!
//! **Rewrite:** `hvd.callbacks.BroadcastGlobalVariablesCallback(0)` (first, so all ranks start from
//! rank 0's weights) and `hvd.callbacks.MetricAverageCallback()` (before metric-based callbacks,
//! so `EarlyStopping`/`ReduceLROnPlateau` see the same averaged metric on every rank) are added to
//! `callbacks`. `ModelCheckpoint`, `TensorBoard` and `CSVLogger` run on rank 0 only; every other
//! callback stays on every rank — sending them all to rank 0, as the earlier tool did, lets rank 0
//! stop early while the others wait in an allreduce. A callbacks list held in a variable is
//! filtered at run time by class.
//!
//! ```python
//! # before
//! model.fit(ds, epochs=3, callbacks=[early_stop, tf.keras.callbacks.ModelCheckpoint("ck")])
//! # after
//! model.fit(ds, epochs=3, callbacks=[hvd.callbacks.BroadcastGlobalVariablesCallback(0), hvd.callbacks.MetricAverageCallback(), early_stop] + ([tf.keras.callbacks.ModelCheckpoint("ck")] if hvd.rank() == 0 else []))
//! ```
use ranklift_python::Edit;
use ruff_python_ast::Expr;
use ruff_text_size::{Ranged, TextSize};

use crate::context::{Cx, add_keyword_edit};
use crate::index::Kind;
use crate::tf;

const RULE: &str = "keras_fit_callbacks";
const BCAST: &str = "hvd.callbacks.BroadcastGlobalVariablesCallback(0)";
const AVG: &str = "hvd.callbacks.MetricAverageCallback()";

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    for &f in &cx.reach.fits.clone() {
        let c = &idx.calls[f];
        let (scope, call) = (c.scope, c.call);
        let m = scope.module;
        let is_fit = matches!(&*call.func, Expr::Attribute(a) if a.attr.as_str() == "fit");
        let cbs = call
            .arguments
            .find_keyword("callbacks")
            .map(|k| &k.value)
            .or_else(|| {
                if is_fit {
                    call.arguments.args.get(5)
                } else {
                    None
                }
            });
        match cbs {
            None | Some(Expr::NoneLiteral(_)) => {
                let text = format!("[{BCAST}, {AVG}]");
                match cbs {
                    None => cx.edit(
                        m,
                        RULE,
                        call.start(),
                        add_keyword_edit(cx.src(m), call, &format!("callbacks={text}")),
                        "callbacks: BroadcastGlobalVariablesCallback(0), MetricAverageCallback()",
                    ),
                    Some(e) => cx.edit(
                        m,
                        RULE,
                        e.start(),
                        Edit::replace(e.range(), text),
                        "callbacks: BroadcastGlobalVariablesCallback(0), MetricAverageCallback()",
                    ),
                }
            }
            Some(Expr::List(list)) if !list.elts.iter().any(|e| matches!(e, Expr::Starred(_))) => {
                let mut rank0 = Vec::new();
                for e in &list.elts {
                    let is_rank0 = match e {
                        Expr::Call(k) => idx
                            .canonical(m, &k.func)
                            .is_some_and(|q| tf::is_rank0_callback(&q)),
                        e => idx.kind_of(scope, e) == (Kind::Callback { rank0: true }),
                    };
                    if is_rank0 {
                        rank0.push(cx.text(m, e));
                    }
                }
                let multiline = list
                    .elts
                    .first()
                    .is_some_and(|e| cx.line_of(m, e.start()) != cx.line_of(m, list.start()));
                let head = if multiline {
                    let indent = cx.indent_of(m, &list.elts[0]).to_owned();
                    let nl = cx.nl(m);
                    format!("{nl}{indent}{BCAST},{nl}{indent}{AVG},")
                } else if list.elts.is_empty() {
                    format!("{BCAST}, {AVG}")
                } else {
                    format!("{BCAST}, {AVG}, ")
                };
                let at = list.start() + TextSize::from(1);
                if rank0.is_empty() {
                    cx.edit(m, RULE, list.start(), Edit::insert(at, head),
                        "callbacks: BroadcastGlobalVariablesCallback(0) and MetricAverageCallback() added first");
                } else {
                    // Keep the list as written; move the rank-0 callbacks out of it.
                    cx.edit(m, RULE, list.start(), Edit::insert(at, head), "");
                    let elts: Vec<&Expr> = list.elts.iter().collect();
                    let is0: Vec<bool> = elts
                        .iter()
                        .map(|e| rank0.contains(&cx.text(m, *e)))
                        .collect();
                    for (i, e) in elts.iter().enumerate() {
                        if !is0[i] {
                            continue;
                        }
                        let r = if i + 1 < elts.len() {
                            ruff_text_size::TextRange::new(e.start(), elts[i + 1].start())
                        } else if i > 0 && !is0[i - 1] {
                            ruff_text_size::TextRange::new(elts[i - 1].end(), e.end())
                        } else {
                            e.range()
                        };
                        cx.edit(m, RULE, e.start(), Edit::delete(r), "");
                    }
                    cx.edit(
                        m,
                        RULE,
                        list.start(),
                        Edit::insert(
                            list.end(),
                            format!(" + ([{}] if hvd.rank() == 0 else [])", rank0.join(", ")),
                        ),
                        format!(
                            "callbacks: Horovod's first; {} on rank 0 only",
                            rank0.join(", ")
                        ),
                    );
                }
            }
            Some(e) => {
                let keras = cx.keras_path(m);
                let kc = format!("{keras}.callbacks");
                cx.edit(
                    m,
                    RULE,
                    e.start(),
                    Edit::insert(
                        e.start(),
                        format!("[{BCAST}, {AVG}] + [hvd_cb for hvd_cb in "),
                    ),
                    "",
                );
                cx.edit(m, RULE, e.start(), Edit::insert(e.end(), format!(
                    " if hvd.rank() == 0 or not isinstance(hvd_cb, ({kc}.ModelCheckpoint, {kc}.TensorBoard, {kc}.CSVLogger))]")),
                    format!("callbacks `{}`: Horovod's first; checkpoint/TensorBoard/CSV callbacks on rank 0 only", cx.text(m, e)));
            }
        }
        cx.use_hvd(scope);
    }
}
