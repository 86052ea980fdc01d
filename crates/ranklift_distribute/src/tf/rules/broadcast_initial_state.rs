//! Rule `broadcast_initial_state`: start every process from rank 0's model and optimizer state.
//!
//! **Trigger:** each `optimizer.apply_gradients(grads_and_vars)` in reached code, as an expression
//! statement or the direct right-hand side of an assignment.
//!
//! **Rewrite:** right after the first execution of that call, broadcast from rank 0 the variables
//! it optimised and the optimizer's own variables (slots exist only after the first step, hence
//! "after", as in Horovod's TF2 example). Three traps of the obvious rewrite:
//!
//! 1. *The exhausted zip.* Storing `zip(...)` in a variable and reading it again after
//!    `apply_gradients` consumed it broadcasts nothing and ranks diverge. Here the variables
//!    come from the zip's second argument when that is side-effect free (`model.trainable_variables`
//!    widens to `model.variables`, so non-trainable state is synchronised too), otherwise the
//!    argument is materialised with `list(...)` before the call.
//! 2. *One flag per call site*, defined at module level and declared with a single `global`
//!    statement at the top of the function, so a GAN with two optimizers in one function broadcasts
//!    both and stays valid Python (one `global` per call would be a SyntaxError).
//! 3. *`@tf.function` steps.* A Python flag read inside a traced function is frozen at trace time,
//!    so the broadcast ops would be baked into the graph and run on every step. Following Horovod's
//!    own example, the traced function gets a `first_batch=False` parameter and broadcasts under
//!    `if first_batch:` (a Python bool, so TensorFlow traces one graph with and one without the
//!    broadcast); each eager call site passes `first_batch=not <flag>` and sets the flag after the
//!    call. This keeps the broadcast where the variables are in scope, and costs one extra trace.
//!    A plain function that a `@tf.function` calls (a `train` that loops over the dataset and
//!    calls `train_one_step`) runs traced too, with no eager call per batch to pass a
//!    `first_batch`: its flag is a `tf.Variable(False, trainable=False)` — AutoGraph makes
//!    `if not flag:` a `tf.cond`, and the broadcast sets it with `.assign(True)`.
//!
//! ```python
//! # before
//! def train_step(x, y):
//!     ...
//!     optimizer.apply_gradients(zip(grads, model.trainable_variables))
//! # after
//! def train_step(x, y):
//!     global hvd_broadcast_done
//!     ...
//!     optimizer.apply_gradients(zip(grads, model.trainable_variables))
//!     if not hvd_broadcast_done:
//!         hvd.broadcast_variables(model.variables, root_rank=0)
//!         hvd.broadcast_variables(optimizer.variables, root_rank=0)
//!         hvd_broadcast_done = True
//! ```
use ranklift_python::{Edit, Severity};
use ruff_python_ast::{Expr, ExprCall, Stmt};
use ruff_text_size::{Ranged, TextSize};

use crate::index::{Callee, FuncId, Kind, Scope};
use crate::tf::context::{Cx, add_keyword_edit, traced};

const RULE: &str = "broadcast_initial_state";

/// Side-effect-free expressions that can be evaluated again after the call.
fn pure(e: &Expr) -> bool {
    match e {
        Expr::Name(_) => true,
        Expr::Attribute(a) => pure(&a.value),
        Expr::List(l) => l.elts.iter().all(pure),
        Expr::Tuple(t) => t.elts.iter().all(pure),
        Expr::BinOp(b) => pure(&b.left) && pure(&b.right),
        _ => false,
    }
}

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    let reach = cx.reach;
    let mut traced_done: Vec<FuncId> = Vec::new();
    // A model's own `train_step` (run by `fit`) is broadcast by Keras's callback instead.
    let applies = reach.custom_loop_applies();
    for &a in &applies {
        let c = &idx.calls[a];
        let scope = c.scope;
        let m = scope.module;
        // A step that a later `def` of the same name replaces before anything calls it (a
        // guide's intermediate version) never runs: it needs no broadcast.
        if let Some(f) = scope.func
            && superseded_uncalled(idx, f)
        {
            cx.note(
                m,
                RULE,
                c.call.start(),
                format!(
                    "`{}` is redefined below before anything calls it: this version never runs, no broadcast",
                    idx.funcs[f].def.name
                ),
            );
            continue;
        }
        let stmt_info = &idx.stmts[c.stmt];
        let stmt = stmt_info.stmt;
        let direct = match stmt {
            Stmt::Expr(e) => e.value.range() == c.call.range(),
            Stmt::Assign(s) => s.value.range() == c.call.range(),
            Stmt::AnnAssign(s) => s
                .value
                .as_ref()
                .is_some_and(|v| v.range() == c.call.range()),
            _ => false,
        };
        if !direct {
            cx.diag(m, c.call.range(), crate::codes::APPLY_NOT_A_STATEMENT, Severity::Error,
                "`apply_gradients` must be an expression statement or the direct right-hand side of an assignment",
                "call it on a line of its own, e.g. `optimizer.apply_gradients(zip(grads, vars))`, so the initial-state broadcast can follow it");
            continue;
        }
        if !cx.lines_around_ok(c.stmt) {
            cx.diag(m, stmt.range(), crate::codes::SHARED_LINE, Severity::Error,
                "`apply_gradients` shares its line with other code; the broadcast cannot be placed after it",
                "put the call on a line of its own");
            continue;
        }
        let Expr::Attribute(attr) = &*c.call.func else {
            continue;
        };
        let opt = cx.text(m, &*attr.value).to_owned();
        let legacy = matches!(
            idx.kind_of(scope, &attr.value),
            Kind::Optimizer { legacy: true } | Kind::Tf1Optimizer
        );
        let Some((vars, pre)) = broadcast_vars(cx, m, c.call) else {
            cx.diag(
                m,
                c.call.range(),
                crate::codes::APPLY_NOT_A_STATEMENT,
                Severity::Error,
                "`apply_gradients` is called without its `grads_and_vars` argument (or `apply` without its variables as a name or attribute)",
                "pass `zip(grads, variables)` (`apply(grads, model.trainable_variables)`)",
            );
            continue;
        };
        if let Some((pre_line, replace)) = pre {
            cx.insert_lines_before(m, RULE, stmt, &[pre_line], "");
            if let Some((range, text)) = replace {
                cx.edit(m, RULE, range.start(), Edit::replace(range, text), "");
            }
        }
        let unit = cx.indent_unit(m).to_owned();
        let opt_vars = cx.optimizer_variables(&opt, legacy);
        let bcast = cx.hvd_tf(m, "broadcast_variables");
        match traced(idx, scope.func) {
            None => {
                let several = applies
                    .iter()
                    .filter(|&&o| {
                        idx.calls[o].scope.module == m
                            && traced(idx, idx.calls[o].scope.func).is_none()
                    })
                    .count()
                    > 1;
                // Called from a @tf.function, the step runs in graph mode, where a Python flag
                // is read once, when traced: the flag is a variable there. TensorFlow's own
                // collectives cannot run under the `tf.cond` that flag makes.
                let in_graph = scope.func.and_then(|f| traced_caller(idx, f));
                if let Some(t) = in_graph
                    && cx.engine == crate::tf::context::Engine::Collectives
                {
                    cx.diag(m, c.call.range(), crate::codes::FIRST_BATCH, Severity::Error,
                        format!("`apply_gradients` runs inside the @tf.function `{}` (through the calls it makes); on TensorFlow's collectives ranklift can only place the first-step broadcast where the step is called eagerly", idx.funcs[t].def.name),
                        format!("loop over the batches outside `{}` and call a @tf.function-decorated step from that loop", idx.funcs[t].def.name));
                    continue;
                }
                let flag = cx.new_flag(m, "hvd_broadcast_done", &opt, several);
                let (set, why) = match in_graph {
                    Some(t) => {
                        cx.mods[m].variable_flags.push(flag.clone());
                        cx.tf_or_import(m);
                        (
                            format!("{flag}.assign(True)"),
                            format!(
                                "flag `{flag}`, a tf.Variable: this step runs inside the @tf.function `{}`, where a Python flag would be read once, when traced",
                                idx.funcs[t].def.name
                            ),
                        )
                    }
                    None => {
                        cx.require_global(scope, &flag);
                        (format!("{flag} = True"), format!("flag `{flag}`"))
                    }
                };
                let lines = vec![
                    format!("if not {flag}:"),
                    format!("{unit}{bcast}({vars}, root_rank=0)"),
                    format!("{unit}{bcast}({opt_vars}, root_rank=0)"),
                    format!("{unit}{set}"),
                ];
                cx.insert_lines_after(m, RULE, stmt, &lines,
                    format!("after the first `{opt}.apply_gradients`: broadcast `{vars}` and the optimizer's variables from rank 0 ({why})"));
                cx.use_hvd(scope);
                if scope.func.is_none() {
                    cx.mods[m].hvd_at_import = true;
                }
            }
            Some(f) if Some(f) == scope.func => {
                let param = first_batch_param(cx, f, &mut traced_done);
                let lines = vec![
                    format!("if {param}:"),
                    format!("{unit}{bcast}({vars}, root_rank=0)"),
                    format!("{unit}{bcast}({opt_vars}, root_rank=0)"),
                ];
                cx.insert_lines_after(m, RULE, stmt, &lines,
                    format!("after `{opt}.apply_gradients` in @tf.function `{}`: broadcast under `if {param}:` (Horovod's first_batch style)", idx.funcs[f].def.name));
                cx.use_hvd(scope);
            }
            Some(f) => {
                cx.diag(m, c.call.range(), crate::codes::FIRST_BATCH, Severity::Error,
                    format!("`apply_gradients` runs in a helper of the @tf.function `{}`; ranklift can only place the first-step broadcast in the traced function itself", idx.funcs[f].def.name),
                    "call `apply_gradients` directly in the @tf.function-decorated step");
            }
        }
    }
}

/// The @tf.function whose body runs `f` through calls (`train` looping over a dataset and
/// calling `train_one_step`), if any.
fn traced_caller(idx: &crate::index::Index, f: FuncId) -> Option<FuncId> {
    let mut seen = vec![f];
    let mut work = vec![f];
    while let Some(g) = work.pop() {
        for c in &idx.calls {
            if idx.resolve_call(c.scope, c.call) != Some(Callee::Func(g)) {
                continue;
            }
            let Some(caller) = c.scope.func else { continue };
            if let Some(t) = traced(idx, Some(caller)) {
                return Some(t);
            }
            if !seen.contains(&caller) {
                seen.push(caller);
                work.push(caller);
            }
        }
    }
    None
}

/// Is module-level function `f` never called (nor named) and redefined by a later module-level
/// `def` of the same name?
fn superseded_uncalled(idx: &crate::index::Index, f: FuncId) -> bool {
    let info = &idx.funcs[f];
    if info.class.is_some() || info.parent.is_some() {
        return false;
    }
    let name = info.def.name.as_str();
    let later = idx.funcs.iter().any(|g| {
        g.module == info.module
            && g.class.is_none()
            && g.parent.is_none()
            && g.def.name.as_str() == name
            && g.def.start() > info.def.end()
    });
    later
        && !idx
            .calls
            .iter()
            .any(|c| idx.resolve_call(c.scope, c.call) == Some(Callee::Func(f)))
        && !idx.refs.iter().any(|r| idx.resolve_ref(r) == Some(f))
}

/// The text of `v` with every `X.trainable_variables` / `X.trainable_weights` widened to
/// `X.variables`, so non-trainable state (e.g. batch-norm statistics) is synchronised too.
fn widen_to_all_variables(cx: &Cx, m: usize, v: &Expr) -> String {
    use ruff_python_ast::visitor::{self, Visitor};
    struct V(Vec<ruff_text_size::TextRange>);
    impl<'e> Visitor<'e> for V {
        fn visit_expr(&mut self, e: &'e Expr) {
            if let Expr::Attribute(a) = e
                && matches!(a.attr.as_str(), "trainable_variables" | "trainable_weights")
            {
                self.0.push(a.attr.range());
            }
            visitor::walk_expr(self, e);
        }
    }
    let mut found = V(Vec::new());
    found.visit_expr(v);
    let edits: Vec<Edit> = found
        .0
        .into_iter()
        .map(|r| Edit::replace(r - v.start(), "variables"))
        .collect();
    let text = cx.text(m, v);
    ranklift_python::edit::apply(text, &edits).unwrap_or_else(|_| text.to_owned())
}

type Pre = Option<(String, Option<(ruff_text_size::TextRange, String)>)>;

/// The expression of the variables to broadcast, and a statement to insert before the call when
/// the argument must be materialised.
fn broadcast_vars(cx: &Cx, m: usize, call: &ExprCall) -> Option<(String, Pre)> {
    // Keras 3's `optimizer.apply(grads, trainable_variables)`: the variables are an argument.
    if matches!(&*call.func, Expr::Attribute(a) if a.attr.as_str() == "apply") {
        let v = call
            .arguments
            .find_keyword("trainable_variables")
            .map(|k| &k.value)
            .or_else(|| call.arguments.args.get(1))?;
        return pure(v).then(|| (widen_to_all_variables(cx, m, v), None));
    }
    let arg = call
        .arguments
        .find_keyword("grads_and_vars")
        .map(|k| &k.value)
        .or_else(|| call.arguments.args.first())?;
    if let Expr::Call(z) = arg
        && matches!(&*z.func, Expr::Name(n) if n.id.as_str() == "zip")
        && z.arguments.args.len() == 2
        && z.arguments.keywords.is_empty()
    {
        let v = &z.arguments.args[1];
        if pure(v) {
            return Some((widen_to_all_variables(cx, m, v), None));
        }
    }
    if let Expr::Name(n) = arg {
        // A zip (or any iterable) in a variable: materialise it first.
        let line = format!("{0} = list({0})", n.id);
        return Some((format!("[v for _, v in {}]", n.id), Some((line, None))));
    }
    let name = "hvd_grads_and_vars";
    let line = format!("{name} = list({})", cx.text(m, arg));
    Some((
        format!("[v for _, v in {name}]"),
        Some((line, Some((arg.range(), name.to_owned())))),
    ))
}

/// Add `first_batch=False` to a traced function (once) and `first_batch=not <flag>` to its call
/// sites; returns the parameter name.
fn first_batch_param(cx: &mut Cx, f: FuncId, done: &mut Vec<FuncId>) -> String {
    let idx = cx.idx;
    let def = idx.funcs[f].def;
    let taken = def
        .parameters
        .iter()
        .any(|p| p.name().as_str() == "first_batch");
    let param = if taken {
        "hvd_first_batch"
    } else {
        "first_batch"
    }
    .to_owned();
    if done.contains(&f) {
        return param;
    }
    done.push(f);
    let m = idx.funcs[f].module;
    let params = &def.parameters;
    let decl = format!("{param}=False");
    let edit = if let Some(kw) = &params.kwarg {
        // `**kwargs` must stay last: insert before its `**` (whether or not the parameter's
        // range includes it).
        let src = cx.src(m);
        let k = usize::from(kw.start());
        let star = if src[k..].starts_with("**") {
            k
        } else {
            src[..k].rfind("**").unwrap_or(k)
        };
        Edit::insert(
            TextSize::try_from(star).unwrap_or(kw.start()),
            format!("{decl}, "),
        )
    } else if params.args.is_empty()
        && params.vararg.is_none()
        && params.kwonlyargs.is_empty()
        && let Some(last_posonly) = params.posonlyargs.last()
    {
        // `def f(a, /)`: the new parameter goes after the `/`, or it would be positional-only.
        let src = cx.src(m);
        let from = usize::from(last_posonly.end());
        let slash = src[from..usize::from(params.end())]
            .find('/')
            .map_or(from, |i| from + i + 1);
        Edit::insert(
            TextSize::try_from(slash).unwrap_or(last_posonly.end()),
            format!(", {decl}"),
        )
    } else if let Some(last) = params.iter().map(|p| p.end()).max() {
        let last = params
            .posonlyargs
            .iter()
            .chain(params.args.iter())
            .chain(params.kwonlyargs.iter())
            .map(|p| p.end())
            .chain(params.vararg.iter().map(|v| v.end()))
            .max()
            .unwrap_or(last);
        Edit::insert(last, format!(", {decl}"))
    } else {
        Edit::insert(params.start() + TextSize::from(1), decl.clone())
    };
    cx.edit(
        m,
        RULE,
        def.start(),
        edit,
        format!("@tf.function `{}` takes `{param}=False`", def.name),
    );
    // Call sites.
    let mut sites = 0;
    for c in &idx.calls {
        if idx.resolve_call(c.scope, c.call) != Some(Callee::Func(f)) {
            continue;
        }
        sites += 1;
        let cm = c.scope.module;
        let stmt = idx.stmts[c.stmt].stmt;
        if traced(idx, c.scope.func).is_some()
            || !cx.lines_around_ok(c.stmt)
            || !matches!(
                stmt,
                Stmt::Expr(_) | Stmt::Assign(_) | Stmt::AnnAssign(_) | Stmt::AugAssign(_)
            )
        {
            cx.diag(
                cm,
                c.call.range(),
                crate::codes::FIRST_BATCH,
                Severity::Error,
                format!(
                    "cannot pass `{param}` to the @tf.function `{}` here",
                    def.name
                ),
                "call the training step from eager code, as a statement on its own line",
            );
            continue;
        }
        let flag = cx.new_flag(cm, "hvd_broadcast_done", def.name.as_str(), false);
        cx.edit(
            cm,
            RULE,
            c.call.start(),
            add_keyword_edit(cx.src(cm), c.call, &format!("{param}=not {flag}")),
            format!("passes `{param}=not {flag}` to `{}`", def.name),
        );
        cx.insert_lines_after(cm, RULE, stmt, &[format!("{flag} = True")], "");
        cx.require_global(c.scope, &flag);
        cx.use_hvd(Scope {
            module: cm,
            func: c.scope.func,
        });
        if c.scope.func.is_none() {
            cx.mods[cm].hvd_at_import = true;
        }
    }
    if sites == 0 {
        cx.diag(m, def.name.range(), crate::codes::FIRST_BATCH, Severity::Error,
            format!("the @tf.function `{}` is never called directly, so ranklift cannot tell it when the first batch runs", def.name),
            "call the training step directly from the training loop");
    }
    param
}
