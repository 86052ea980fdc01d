//! Check `already_distributed` (DST202): the program already runs distributed.
//!
//! **Trigger:** a call, in the modules the main script reaches, of `dist.init_process_group`,
//! `DistributedDataParallel`, HuggingFace `Accelerator`/`Trainer`, or Lightning's
//! `Trainer`/`Fabric` (`names::already_distributed`).
//!
//! **Effect:** nothing is rewritten; a note says how to launch the program. A program on
//! `torch.distributed` is then checked for the known mistakes of DDP programs: the other
//! checks of this directory with codes DST410–DST415.
//!
//! ```python
//! dist.init_process_group("nccl")        # DST202: launch it with torchrun --nproc-per-node N train.py
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_text_size::Ranged;

use crate::index::{Index, diag};
use crate::torch::names;
use crate::torch::plan::Plan;

pub fn run(idx: &Index, plan: &Plan) -> Option<Vec<Diagnostic>> {
    let (c, what, launch, q) = idx
        .calls
        .iter()
        .filter(|c| plan.in_reach(c.scope.module))
        .find_map(|c| {
            // `model.share_memory()` has no qualified name: the method decides.
            let q = idx
                .qualify(c.scope.module, &c.call.func)
                .or_else(|| match &*c.call.func {
                    ruff_python_ast::Expr::Attribute(a) if a.attr.as_str() == "share_memory" => {
                        Some("<model>.share_memory".to_owned())
                    }
                    _ => None,
                })?;
            let (what, launch) = names::already_distributed(&q)?;
            Some((c, what, launch, q))
        })?;
    let m = c.scope.module;
    let main = &idx.project.modules[plan.main].rel_path;
    // A program that starts its own workers (`mp.spawn(main_worker, nprocs=...)`, as
    // pytorch/examples' imagenet does) is launched with python and its own flags: under torchrun
    // every worker would spawn again, or (its flags left at their defaults) train alone.
    let spawn = idx.calls.iter().find(|c| {
        plan.in_reach(c.scope.module)
            && idx.qualify(c.scope.module, &c.call.func).is_some_and(|q| {
                matches!(
                    q.as_str(),
                    "torch.multiprocessing.spawn" | "torch.multiprocessing.start_processes"
                )
            })
    });
    let (what, hint) = match spawn {
        Some(_) if q.starts_with("torch.") => {
            let flags = own_flags(idx, plan);
            (
                "torch.distributed, starting its own worker processes (torch.multiprocessing.spawn)",
                if flags.is_empty() {
                    format!(
                        "launch it with `python {main}` (it starts its own processes), not torchrun"
                    )
                } else {
                    format!(
                        "launch it with `python {main}` and its own distribution flags ({}), not torchrun: under torchrun each process would start its own workers",
                        flags.join(", ")
                    )
                },
            )
        }
        _ => (
            what,
            format!("launch it with {}", launch.replace("SCRIPT", main)),
        ),
    };
    let mut out = vec![diag(
        idx,
        m,
        c.call.range(),
        crate::codes::ALREADY_DISTRIBUTED,
        Severity::Note,
        format!("this program already runs distributed with {what}; it is left untouched"),
        &hint,
    )];
    if q.starts_with("torch.") {
        super::missing_set_epoch::run(idx, plan, &mut out);
        super::every_rank_writes::run(idx, plan, &mut out);
        super::collective_under_rank::run(idx, plan, &mut out);
        super::prefixed_state_dict::run(idx, plan, &mut out);
        super::shuffle_with_sampler::run(idx, plan, &mut out);
        super::unsharded_training_loader::run(idx, plan, &mut out);
    }
    ranklift_python::diagnostics::sort(&mut out);
    Some(out)
}

/// The command-line flags of the main script that configure its distribution
/// (`parser.add_argument("--world-size", ...)`), as it spells them.
fn own_flags(idx: &Index, plan: &Plan) -> Vec<String> {
    const WORDS: &[&str] = &[
        "world",
        "dist",
        "rank",
        "node",
        "multiprocessing",
        "gpu",
        "backend",
    ];
    let mut out: Vec<String> = Vec::new();
    for c in &idx.calls {
        if c.scope.module != plan.main
            || !matches!(&*c.call.func, ruff_python_ast::Expr::Attribute(a) if a.attr.as_str() == "add_argument")
        {
            continue;
        }
        for a in &c.call.arguments.args {
            if let ruff_python_ast::Expr::StringLiteral(l) = a {
                let flag = l.value.to_str();
                if flag.starts_with("--")
                    && WORDS.iter().any(|w| flag.contains(w))
                    && !out.iter().any(|f| f == flag)
                {
                    out.push(flag.to_owned());
                }
            }
        }
    }
    out
}
