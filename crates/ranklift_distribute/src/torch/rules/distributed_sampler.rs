//! Rule `distributed_sampler`: each rank reads its own share of the training data.
//!
//! **Trigger:** a `DataLoader(...)` that a training loop iterates (`plan::Loader`). Loaders that
//! no training loop iterates (validation, test) are left whole, and `--explain` says so.
//!
//! **Rewrite:** `sampler=DistributedSampler(dataset, shuffle=<the loader's shuffle>)`; the
//! loader's own `shuffle=` is replaced by it (the two are exclusive: `ValueError`). A dataset
//! given as an expression is built once, on a line of its own before the statement
//! (`train_dataset = TensorDataset(x, y)`), or named with `:=` where it stands when it cannot move
//! (inside a comprehension or lambda, a `while` test, a line shared with other code). Keyword arguments
//! spread from a mapping (`**train_kwargs`, which may hold `shuffle` on some machines) give
//! the sampler `train_kwargs.get("shuffle", False)` and the loader the mapping without it.
//!
//! **Why:** without a sampler every rank trains on the whole dataset: N times the work for the
//! same result. The per-rank batch size stays the user's; the global batch
//! grows N times. Validation left whole means every rank evaluates all of it, so the metric rank 0
//! prints is the whole set's (N× redundant work, and no collective under a rank condition).
//!
//! ```python
//! # before
//! loader = DataLoader(train_set, batch_size=64, shuffle=True)
//! # after
//! loader = DataLoader(train_set, batch_size=64, sampler=DistributedSampler(train_set, shuffle=True))
//! ```
use ranklift_python::Edit;
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::editor::add_keyword_edit;
use crate::torch::{Tx, names};

const RULE: &str = "distributed_sampler";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for l in tx.plan.loaders.clone() {
        if l.replacement_sampler.is_some() {
            continue; // each rank draws its own stream: rule `replacement_sampler`
        }
        if l.subset_sampler.is_some() {
            continue; // each rank samples its share of the indices: rule `subset_sampler`
        }
        let c = &idx.calls[l.call];
        let m = c.scope.module;
        let args = &c.call.arguments;
        let dataset = args.args.first().or_else(|| {
            args.keywords
                .iter()
                .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "dataset"))
                .map(|k| &k.value)
        });
        let Some(dataset) = dataset else { continue };
        let shuffle = args
            .keywords
            .iter()
            .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "shuffle"));
        let sampler = tx.sampler(m);
        let ds_text = match dataset {
            Expr::Name(_) | Expr::Attribute(_) => tx.ed.text(m, dataset).to_owned(),
            _ => {
                let mut name = "train_dataset".to_owned();
                let mut n = 2;
                while tx.ed.has_identifier(m, &name) {
                    name = format!("train_dataset_{n}");
                    n += 1;
                }
                let ds_src = tx.ed.text(m, dataset).to_owned();
                match hoistable(idx, c.stmt, c.call) {
                    // `train_dataset = TensorDataset(x, y)` on the line before the statement.
                    Some(stmt) => {
                        tx.ed.insert_lines_before(
                            m,
                            RULE,
                            stmt,
                            &[format!("{name} = {}", ds_src.trim())],
                            "",
                        );
                        tx.ed.edit(
                            m,
                            RULE,
                            dataset.start(),
                            Edit::replace(dataset.range(), name.clone()),
                            "",
                        );
                    }
                    // Inside a comprehension or lambda, or a line shared with other code: named
                    // where it stands, once.
                    None => {
                        tx.ed.edit(
                            m,
                            RULE,
                            dataset.start(),
                            Edit::insert(dataset.start(), format!("({name} := ")),
                            "",
                        );
                        tx.ed.edit(
                            m,
                            RULE,
                            dataset.start(),
                            Edit::insert(dataset.end(), ")"),
                            "",
                        );
                    }
                }
                name
            }
        };
        // `DataLoader(ds, **kwargs)`: a `shuffle` may hide in the mapping. It goes to the sampler,
        // and the mapping is passed on without it.
        let spread = args.keywords.iter().rfind(|k| k.arg.is_none());
        let mut shuffle_text =
            shuffle.map_or("False".to_owned(), |k| tx.ed.text(m, &k.value).to_owned());
        if shuffle.is_none()
            && let Some(k) = spread
        {
            let q = tx.ed.quote(m);
            match &k.value {
                Expr::Name(_) | Expr::Attribute(_) => {
                    let kw = tx.ed.text(m, &k.value).to_owned();
                    shuffle_text = format!("{kw}.get({q}shuffle{q}, False)");
                    tx.ed.edit(
                        m,
                        RULE,
                        k.value.start(),
                        Edit::replace(
                            k.value.range(),
                            format!("{{k: v for k, v in {kw}.items() if k != {q}shuffle{q}}}"),
                        ),
                        format!(
                            "a `shuffle` in `**{kw}` goes to the sampler (DataLoader refuses both)"
                        ),
                    );
                }
                _ => {
                    tx.ed.diag(m, k.range(), crate::codes::CUSTOM_SAMPLER, ranklift_python::Severity::Error,
                        "this training loader's keyword arguments come from an expression that may hold `shuffle`, which cannot go next to a sampler",
                        "bind the keyword arguments to a name first (`kwargs = ...; DataLoader(ds, **kwargs)`)");
                    continue;
                }
            }
        }
        let kw = format!("sampler={sampler}({ds_text}, shuffle={shuffle_text})");
        let msg = format!(
            "training loader: a DistributedSampler gives each rank 1/N of the data{}",
            if shuffle.is_some() {
                " (the loader's shuffle moved into it)"
            } else {
                ""
            }
        );
        match shuffle {
            Some(k) => tx
                .ed
                .edit(m, RULE, c.call.start(), Edit::replace(k.range(), kw), msg),
            None => {
                let e = add_keyword_edit(tx.ed.src(m), c.call, &kw);
                tx.ed.edit(m, RULE, c.call.start(), e, msg)
            }
        }
    }
    // Say what was left whole.
    for (id, c) in idx.calls.iter().enumerate() {
        if !tx.plan.in_reach(c.scope.module) || tx.plan.loaders.iter().any(|l| l.call == id) {
            continue;
        }
        if tx.plan.adopted.iter().any(|&(l, _)| l == id) {
            tx.ed.note(
                c.scope.module,
                RULE,
                c.call.start(),
                "handed to Opacus' make_private with the DDP-wrapped model: Opacus replaces this loader with its own, sharded across ranks (no DistributedSampler; the sample rate and the privacy accounting stay the original's)",
            );
            continue;
        }
        if tx.plan.qual(id).is_some_and(names::is_data_loader) {
            tx.ed.note(
                c.scope.module,
                RULE,
                c.call.start(),
                "no training loop iterates this loader: left whole, every rank evaluates all of it (the metric rank 0 prints is the whole set's)",
            );
        }
    }
}

/// The statement before which a loader's dataset expression can be computed: the loader call's
/// own simple statement (or a `for`/`with` header), alone on its line, with the call not inside a
/// comprehension or lambda whose names the expression may use.
fn hoistable<'a>(
    idx: &crate::index::Index<'a>,
    stmt: crate::index::StmtId,
    call: &ruff_python_ast::ExprCall,
) -> Option<&'a ruff_python_ast::Stmt> {
    use ruff_python_ast::Stmt;
    use ruff_python_ast::visitor::{self, Visitor};
    let s = idx.stmts[stmt].stmt;
    let header_ok = match s {
        Stmt::Assign(_) | Stmt::AnnAssign(_) | Stmt::Expr(_) | Stmt::Return(_) => true,
        Stmt::For(f) => f.iter.range().contains_range(call.range()),
        Stmt::With(w) => w
            .items
            .iter()
            .any(|i| i.context_expr.range().contains_range(call.range())),
        _ => false,
    };
    if !header_ok {
        return None;
    }
    let src = &idx.project.modules[idx.stmts[stmt].scope.module]
        .parsed
        .text;
    let line_start = src[..usize::from(s.start())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    if !src[line_start..usize::from(s.start())].trim().is_empty() {
        return None;
    }
    struct Scoped {
        at: ruff_text_size::TextRange,
        inside: bool,
    }
    impl<'b> Visitor<'b> for Scoped {
        fn visit_expr(&mut self, e: &'b Expr) {
            if matches!(
                e,
                Expr::Lambda(_)
                    | Expr::ListComp(_)
                    | Expr::SetComp(_)
                    | Expr::DictComp(_)
                    | Expr::Generator(_)
            ) && e.range().contains_range(self.at)
            {
                self.inside = true;
            }
            visitor::walk_expr(self, e);
        }
    }
    let mut v = Scoped {
        at: call.range(),
        inside: false,
    };
    v.visit_stmt(s);
    (!v.inside).then_some(s)
}
