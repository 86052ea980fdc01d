//! Rule `process_group`: the process group, and the names the other rules' edits use.
//!
//! **Trigger:** every module whose edits refer to `dist`, `DDP`, `DistributedSampler`, `RANK`,
//! `LOCAL_RANK` or `WORLD_SIZE`, and always the main script.
//!
//! **Rewrite:** the missing imports at their sorted places in the module's leading import block
//! (`crate::imports`); after the block (and after the block holding the first import of each
//! name the header uses: `torch`, and the module's own `dist` or `os`, never a later import —
//! a tutorial that imports `torch.optim` mid-file keeps its header at the top, above the lines
//! that use `RANK`) the process's coordinates, read from the environment `torchrun` sets
//! (defaults make the module importable outside `torchrun`). In the main script, under
//! `if __name__ == "__main__":` so that a DataLoader worker that re-imports the script never
//! joins the group: `dist.init_process_group` (NCCL with CUDA, Gloo without) and
//! `torch.cuda.set_device(LOCAL_RANK)` — after which `"cuda"`, `.cuda()` and
//! `torch.device("cuda")` all mean this process's GPU. At the end of the main script, the
//! module-level DDP wrappers are deleted and garbage collected, then
//! `dist.destroy_process_group()` (a wrapper alive at interpreter teardown sometimes aborts the
//! process with torch 2.15 and gloo).
//!
//! **Why:** DDP needs an initialised default process group; reading
//! `RANK` from the environment instead of `dist.get_rank()` keeps rank tests valid in code that
//! runs before the group exists (module level, DataLoader workers).
//!
//! ```python
//! # before
//! import torch
//!
//! # after
//! import gc
//! import os
//!
//! import torch
//! import torch.distributed as dist
//!
//! RANK = int(os.environ.get("RANK", "0"))
//! LOCAL_RANK = int(os.environ.get("LOCAL_RANK", "0"))
//! if __name__ == "__main__":
//!     dist.init_process_group(backend="nccl" if torch.cuda.is_available() else "gloo")
//!     if torch.cuda.is_available():
//!         torch.cuda.set_device(LOCAL_RANK)
//!
//! ...
//! if __name__ == "__main__":
//!     del model
//!     gc.collect()
//!     dist.destroy_process_group()
//! ```
use ranklift_python::Edit;
use ruff_python_ast::Stmt;
use ruff_text_size::{Ranged, TextSize};

use crate::imports::{self, NewImport};
use crate::torch::{Tx, local_name};

const RULE: &str = "process_group";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    let main = tx.plan.main;
    // The main script always initialises the group and pins the device.
    tx.dist(main);
    tx.local_rank(main);
    for m in tx.plan.modules.clone() {
        let needs = tx.needs[m].clone();
        let is_main = m == main;
        if !(is_main
            || needs.dist
            || needs.ddp
            || needs.sampler
            || needs.rank
            || needs.local_rank
            || needs.world_size
            || needs.contextlib)
        {
            continue;
        }
        let n = tx.names[m].clone();
        let q = tx.ed.quote(m);
        let nl = tx.ed.nl(m);
        let unit = tx.ed.indent_unit(m).to_owned();
        // After the imports that bind what the header uses (`torch`; the module's own names
        // for `torch.distributed` and `os`, when it has them): the first top-level import that
        // binds each, not a later one — a tutorial that imports `torch.optim` mid-file keeps
        // the header at the top, above the dataset lines a barrier guards.
        let binds = |s: &Stmt, local: &str| match s {
            Stmt::Import(i) => i.names.iter().any(|a| match &a.asname {
                Some(x) => x.as_str() == local,
                None => a.name.as_str().split('.').next() == Some(local),
            }),
            Stmt::ImportFrom(i) => i
                .names
                .iter()
                .any(|a| a.asname.as_ref().unwrap_or(&a.name).as_str() == local),
            _ => false,
        };
        let mut used: Vec<String> = vec![n.torch.clone()];
        used.extend(local_name(idx, m, "torch.distributed"));
        used.extend(local_name(idx, m, "os"));
        let last_torch = used
            .iter()
            .filter_map(|u| {
                idx.modules[m]
                    .stmts
                    .clone()
                    .filter(|&s| idx.stmts[s].parent.is_none())
                    .find(|&s| binds(idx.stmts[s].stmt, u))
            })
            .max_by_key(|&s| idx.stmts[s].stmt.start())
            .map(|s| idx.stmts[s].stmt);
        let (at, need_nl) = tx.ed.import_block_point(m, last_torch);
        // The imports this module lacks, and the setup code after them.
        let mut imports: Vec<NewImport> = Vec::new();
        let mut lines: Vec<String> = Vec::new();
        let coords = needs.rank || needs.local_rank || needs.world_size;
        // `os` bound by an import that comes before the header.
        let os_before = idx.modules[m].stmts.clone().any(|st| {
            idx.stmts[st].parent.is_none()
                && idx.stmts[st].stmt.start() < at
                && matches!(idx.stmts[st].stmt, Stmt::Import(i) if i.names.iter().any(|a| a.name.as_str() == "os" && a.asname.is_none()))
        });
        // The main script's teardown collects garbage: `gc` by its own import (unless the name
        // means something else in the module, then through `__import__`).
        let gc_name = if !is_main {
            None
        } else if let Some(local) = local_name(idx, m, "gc") {
            Some(local)
        } else if tx.ed.has_identifier(m, "gc") {
            None
        } else {
            imports.push(NewImport::module("gc", None));
            Some("gc".to_owned())
        };
        if coords && !os_before {
            imports.push(NewImport::module("os", None));
        }
        // The process group's setup and a wrap's `device_ids` name `torch`.
        if (is_main || needs.ddp) && local_name(idx, m, "torch").is_none() {
            imports.push(NewImport::module("torch", None));
        }
        if needs.contextlib && local_name(idx, m, "contextlib").is_none() {
            imports.push(NewImport::module("contextlib", None));
        }
        let import = |q: &str, module: &str, name: &str, local: &str| -> Option<NewImport> {
            if local_name(idx, m, q).is_some() {
                return None;
            }
            Some(NewImport::from(module, name, Some(local)))
        };
        if needs.dist && local_name(idx, m, "torch.distributed").is_none() {
            imports.push(NewImport::module("torch.distributed", Some(&n.dist)));
        }
        if needs.ddp {
            imports.extend(import(
                "torch.nn.parallel.DistributedDataParallel",
                "torch.nn.parallel",
                "DistributedDataParallel",
                &n.ddp,
            ));
        }
        if needs.sampler {
            imports.extend(import(
                "torch.utils.data.distributed.DistributedSampler",
                "torch.utils.data.distributed",
                "DistributedSampler",
                &n.sampler,
            ));
        }
        let env = |var: &str, default: &str| {
            format!("int({}.environ.get({q}{var}{q}, {q}{default}{q}))", n.os)
        };
        if needs.rank {
            lines.push(format!("{} = {}", n.rank, env("RANK", "0")));
        }
        if needs.local_rank {
            lines.push(format!("{} = {}", n.local_rank, env("LOCAL_RANK", "0")));
        }
        if needs.world_size {
            lines.push(format!("{} = {}", n.world_size, env("WORLD_SIZE", "1")));
        }
        let mut init: Vec<String> = Vec::new();
        if is_main {
            let torch = &n.torch;
            init.push(format!("if __name__ == {q}__main__{q}:"));
            init.push(format!(
                "{unit}{}.init_process_group(backend={q}nccl{q} if {torch}.cuda.is_available() else {q}gloo{q})",
                n.dist
            ));
            init.push(format!("{unit}if {torch}.cuda.is_available():"));
            init.push(format!(
                "{unit}{unit}{torch}.cuda.set_device({})",
                n.local_rank
            ));
        }
        // The process group needs `torch`: after its last import when that comes later (a setup
        // statement between the imports that another rule edits ends the header's section).
        match last_torch.filter(|t| t.end() > at) {
            Some(t) if !init.is_empty() => {
                let t = imports::end_of_block(&tx.ed, m, t);
                let (at, before, after) = imports::after_block(&tx.ed, m, t);
                let text = format!("{before}{}{nl}{after}", init.join(nl));
                tx.ed.edit(m, RULE, at, Edit::insert(at, text).first(), "");
            }
            _ => lines.append(&mut init),
        }
        let what = if is_main {
            "process group (NCCL with CUDA, Gloo without), device pinned to LOCAL_RANK".to_owned()
        } else {
            "imports and process coordinates the rewrites use".to_owned()
        };
        let block = tx
            .ed
            .import_anchor(m, last_torch)
            .and_then(|a| imports::block_ending_at(&tx.ed, m, a));
        match block {
            // The imports at their sorted places in the block, the setup after it.
            Some(block) => {
                let msg = if lines.is_empty() { what.as_str() } else { "" };
                imports::place(&mut tx.ed, m, RULE, &block, &imports, msg);
                if let Some(last) = block.last().filter(|_| !lines.is_empty()) {
                    let (at, before, after) = imports::after_block(&tx.ed, m, last);
                    let text = format!("{before}{}{nl}{after}", lines.join(nl));
                    tx.ed
                        .edit(m, RULE, at, Edit::insert(at, text).first(), what);
                }
            }
            // No import block to sort into (none, or one ending in `try:`): the imports as a
            // block of their own, then the setup.
            None => {
                let mut text = imports::render(&tx.ed, m, &imports);
                if !lines.is_empty() {
                    if !text.is_empty() {
                        text.push_str(nl);
                    }
                    text.push_str(&lines.join(nl));
                    text.push_str(nl);
                }
                let (at, before, after) = match tx.ed.import_anchor(m, last_torch) {
                    Some(a) => imports::after_block(&tx.ed, m, a),
                    None => {
                        // Blank lines before what follows: two before a class or a function.
                        let rest = tx.ed.src(m)[usize::from(at)..].trim_start();
                        let defs = ["class ", "def ", "async def ", "@"];
                        let gap = if defs.iter().any(|d| rest.starts_with(d)) {
                            format!("{nl}{nl}")
                        } else {
                            nl.to_owned()
                        };
                        let before = if need_nl {
                            nl.to_owned()
                        } else {
                            String::new()
                        };
                        (at, before, gap)
                    }
                };
                let text = format!("{before}{text}{after}");
                tx.ed
                    .edit(m, RULE, at, Edit::insert(at, text).first(), what);
            }
        }
        if is_main {
            let src = tx.ed.src(m);
            let end = TextSize::try_from(src.len()).unwrap_or_default();
            let mut t = String::new();
            if !src.ends_with('\n') {
                t.push_str(nl);
            }
            // The DDP wrappers go before the process group: a wrapper still alive (a module-level
            // name, or a cycle the collector has not broken yet) when the interpreter tears down
            // after `destroy_process_group` aborts the process now and then ("terminate called
            // without an active exception": 2 of 12 two-rank runs of gan.py; 0 of 16 with this).
            let wrapped: Vec<String> = tx
                .plan
                .models
                .iter()
                .filter_map(|mdl| match &mdl.holder {
                    crate::torch::plan::Holder::Name { scope, name }
                        if scope.module == m && scope.func.is_none() =>
                    {
                        Some(name.clone())
                    }
                    _ => None,
                })
                .collect();
            // The script already ends in `if __name__ == "__main__":` (`main()` under it): the
            // teardown goes at the end of that block, not into a second one.
            let (at, unit, open) = match trailing_main_block(tx, m) {
                Some((block_end, body_indent)) => {
                    t.clear();
                    t.push_str(nl);
                    (block_end, body_indent, false)
                }
                None => (end, unit.clone(), true),
            };
            if open {
                t.push_str(&format!("if __name__ == {q}__main__{q}:{nl}"));
            }
            let mut body: Vec<String> = Vec::new();
            if !wrapped.is_empty() {
                body.push(format!("{unit}del {}", wrapped.join(", ")));
            }
            match &gc_name {
                Some(g) => body.push(format!("{unit}{g}.collect()")),
                None => body.push(format!("{unit}__import__({q}gc{q}).collect()")),
            }
            body.push(format!("{unit}{}.destroy_process_group()", n.dist));
            t.push_str(&body.join(nl));
            if open {
                t.push_str(nl);
            }
            tx.ed.edit(
                m,
                RULE,
                at,
                Edit::insert(at, t),
                "the process group is destroyed when the script ends",
            );
        }
    }
}

/// The end offset and body indentation of the script's last statement when it is a plain
/// `if __name__ == "__main__":` block (no `elif`/`else`) ending the file.
fn trailing_main_block(tx: &Tx, m: usize) -> Option<(TextSize, String)> {
    let body = tx.idx.project.modules[m].parsed.suite();
    let Some(Stmt::If(i)) = body.last() else {
        return None;
    };
    if !i.elif_else_clauses.is_empty() {
        return None;
    }
    let test = tx.ed.text(m, &*i.test).replace('\'', "\"");
    if test != "__name__ == \"__main__\"" {
        return None;
    }
    let src = tx.ed.src(m);
    // Nothing but blank lines and comments after it.
    if src[usize::from(i.end())..]
        .lines()
        .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
    {
        return None;
    }
    let first = i.body.first()?;
    let line_start = src[..usize::from(first.start())]
        .rfind('\n')
        .map_or(0, |k| k + 1);
    let indent = &src[line_start..usize::from(first.start())];
    if !indent.chars().all(|c| c == ' ' || c == '\t') {
        return None; // `if __name__ == "__main__": main()` on one line
    }
    Some((i.end(), indent.to_owned()))
}
