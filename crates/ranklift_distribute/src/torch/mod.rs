//! The PyTorch target: a single-process training program becomes a `DistributedDataParallel`
//! program launched by `torchrun`.
//!
//! Data flow: the shared [`Index`] → [`plan::build`] (optimizers, steps, what trains, models,
//! training loaders) → [`checks`] (refusals; on programs already on `torch.distributed`, the known
//! mistakes) → [`rules`] (one file per rewrite) → [`rules::process_group`] (the per-module header
//! and the process group) → [`Editor::finish`] (re-parse guard). Everything PyTorch-specific lives
//! under this module; [`names`] holds the names it knows.

pub mod adopters;
pub mod checks;
pub mod dead_branches;
pub mod devices;
pub mod names;
pub mod plan;
pub mod rules;

use ranklift_python::{Diagnostic, Severity};
use ruff_text_size::Ranged;

use crate::editor::Editor;
use crate::index::{Index, Scope};
use crate::{AnyPattern, Outcome, Site, Status, codes};
use plan::Plan;

/// What the rewrite of a PyTorch program adds to one module.
#[derive(Default, Clone)]
pub struct Needs {
    /// `import torch.distributed as dist`.
    pub dist: bool,
    pub ddp: bool,
    pub sampler: bool,
    pub rank: bool,
    pub local_rank: bool,
    pub world_size: bool,
    pub contextlib: bool,
}

/// The names the generated code uses in one module (fresh when the user's code took the usual
/// ones for something else).
#[derive(Clone)]
pub struct Names {
    pub dist: String,
    pub ddp: String,
    pub sampler: String,
    pub rank: String,
    pub local_rank: String,
    pub world_size: String,
    pub torch: String,
    pub os: String,
}

/// The rewrite context of the PyTorch rules.
pub struct Tx<'a, 'i> {
    pub ed: Editor<'a, 'i>,
    pub idx: &'i Index<'a>,
    pub plan: &'i Plan,
    pub opts: &'i crate::Options,
    pub needs: Vec<Needs>,
    pub names: Vec<Names>,
    /// Statements that a `dist.barrier()` follows (rule `checkpoint_load`): a rank-0 guard
    /// must end with them.
    pub barrier_after: Vec<usize>,
}

impl<'a, 'i> Tx<'a, 'i> {
    fn new(idx: &'i Index<'a>, plan: &'i Plan, opts: &'i crate::Options) -> Self {
        let names = (0..idx.project.modules.len())
            .map(|m| module_names(idx, m))
            .collect();
        Tx {
            ed: Editor::new(idx),
            idx,
            plan,
            opts,
            needs: vec![Needs::default(); idx.project.modules.len()],
            names,
            barrier_after: Vec::new(),
        }
    }

    /// `RANK == 0` in module `m`.
    pub fn rank0(&mut self, m: usize) -> String {
        self.needs[m].rank = true;
        format!("{} == 0", self.names[m].rank)
    }
    pub fn local_rank(&mut self, m: usize) -> String {
        self.needs[m].local_rank = true;
        self.names[m].local_rank.clone()
    }
    pub fn world_size(&mut self, m: usize) -> String {
        self.needs[m].world_size = true;
        self.names[m].world_size.clone()
    }
    pub fn dist(&mut self, m: usize) -> String {
        self.needs[m].dist = true;
        self.names[m].dist.clone()
    }
    pub fn ddp(&mut self, m: usize) -> String {
        self.needs[m].ddp = true;
        self.names[m].ddp.clone()
    }
    pub fn sampler(&mut self, m: usize) -> String {
        self.needs[m].sampler = true;
        self.names[m].sampler.clone()
    }
}

/// The local name bound to qualified name `q` in module `m`, if any.
pub fn local_name(idx: &Index, m: usize, q: &str) -> Option<String> {
    let mut best: Option<&String> = None;
    for (local, qq) in &idx.modules[m].aliases {
        if qq == q && best.is_none_or(|b| local < b) {
            best = Some(local);
        }
    }
    best.cloned()
}

fn module_names(idx: &Index, m: usize) -> Names {
    let taken = |w: &str| crate::editor::has_identifier(idx, m, w);
    let pick = |q: &str, want: &str, alt: &str| -> String {
        if let Some(l) = local_name(idx, m, q) {
            return l;
        }
        if taken(want) { alt } else { want }.to_owned()
    };
    let fresh =
        |want: &str, alt: &str| -> String { if taken(want) { alt } else { want }.to_owned() };
    Names {
        dist: pick("torch.distributed", "dist", "torch_dist"),
        ddp: pick(
            "torch.nn.parallel.DistributedDataParallel",
            "DDP",
            "TorchDDP",
        ),
        sampler: pick(
            "torch.utils.data.distributed.DistributedSampler",
            "DistributedSampler",
            "TorchDistributedSampler",
        ),
        rank: fresh("RANK", "DDP_RANK"),
        local_rank: fresh("LOCAL_RANK", "DDP_LOCAL_RANK"),
        world_size: fresh("WORLD_SIZE", "DDP_WORLD_SIZE"),
        torch: local_name(idx, m, "torch").unwrap_or_else(|| "torch".into()),
        os: local_name(idx, m, "os").unwrap_or_else(|| "os".into()),
    }
}

/// The training pattern of a PyTorch program, for reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum TorchPattern {
    /// A loop that calls `optimizer.step()`.
    #[serde(rename = "torch-loop")]
    Loop,
}

impl TorchPattern {
    pub fn describe(self) -> &'static str {
        "PyTorch training loop (optimizer.step)"
    }
}

/// Should this project go to the PyTorch target? The main script (or, for a directory, some
/// module) imports `torch`, and nothing imports TensorFlow or Keras.
pub fn is_torch_project(idx: &Index) -> bool {
    let tf = (0..idx.modules.len()).any(|m| crate::tf::pattern::imports_tensorflow(idx, m));
    if tf {
        return false;
    }
    match idx.project.entry {
        Some(e) => plan::imports_torch(idx, e),
        None => (0..idx.modules.len()).any(|m| plan::imports_torch(idx, m)),
    }
}

/// The main script of a PyTorch project: the given one, the single file, or the one script
/// that reaches an optimizer step (`crate::pick_main`).
fn pick_main(idx: &Index, main: Option<&str>) -> Result<(usize, Option<Plan>), Vec<Diagnostic>> {
    crate::pick_main(
        idx,
        main,
        |m| {
            if !plan::imports_torch(idx, m) {
                return None;
            }
            let p = plan::build(idx, m);
            (!p.steps.is_empty()).then_some(p)
        },
        |p, m| p.in_reach(m),
        "no PyTorch training loop found: no script of the project reaches an `optimizer.step()`",
        "point ranklift at the training script",
    )
}

/// Analyse a PyTorch project and compute its DDP rewrite.
pub fn distribute(idx: &Index, main: Option<&str>, opts: &crate::Options) -> Outcome {
    let project = idx.project;
    let (main_idx, plan) = match pick_main(idx, main) {
        Ok(m) => m,
        Err(d) => return Outcome::new(Status::CannotDistribute, d),
    };
    let plan = plan.unwrap_or_else(|| plan::build(idx, main_idx));
    let main_path = project.modules[main_idx].rel_path.clone();
    let mut outcome = Outcome::new(Status::CannotDistribute, Vec::new());
    outcome.main = Some(main_path.clone());
    outcome.pattern = Some(AnyPattern::Torch(TorchPattern::Loop));
    if opts.facts {
        outcome.facts = facts(idx, &plan);
    }
    // Already distributed: leave it, but report the known mistakes.
    if let Some(diags) = checks::already_distributed::run(idx, &plan) {
        outcome.status = if diags.iter().any(|d| d.severity == Severity::Error) {
            Status::CannotDistribute
        } else {
            Status::AlreadyDistributed
        };
        outcome.diagnostics = diags;
        return outcome;
    }
    if plan.steps.is_empty() {
        // Optimizers exist but the steps go through a loop variable over a list of them
        // (`for net, opt in zip(nets, opts): ... opt.step()`): say so where it happens.
        if let Some(d) = checks::optimizer_list::run(idx, &plan) {
            outcome.diagnostics = vec![d];
            return outcome;
        }
        outcome.diagnostics = vec![
            Diagnostic::file_level(
                &main_path,
                codes::NO_TRAINING_LOOP,
                Severity::Error,
                "no training loop found: the main script reaches no `optimizer.step()` of a `torch.optim` optimizer",
            )
            .with_hint("ranklift distributes PyTorch programs that train with a torch.optim optimizer"),
        ];
        return outcome;
    }
    let mut tx = Tx::new(idx, &plan, opts);
    checks::run(&mut tx);
    if tx.ed.diags.iter().any(|d| d.severity == Severity::Error) {
        let mut d = std::mem::take(&mut tx.ed.diags);
        ranklift_python::diagnostics::sort(&mut d);
        outcome.diagnostics = d;
        return outcome;
    }
    for (_, rule) in rules::ORDER {
        rule(&mut tx);
    }
    let (changes, applied, diags) = tx.ed.finish(&plan.modules);
    outcome.diagnostics = diags;
    if outcome.has_errors() {
        return outcome;
    }
    outcome.status = Status::Rewritten;
    outcome.changes = changes;
    outcome.applied = applied;
    // `--nproc-per-node gpu` needs CUDA; a program that falls back to the CPU gets `auto` (one
    // process per GPU, else per CPU), so the printed command runs on any machine it runs on.
    let main = &idx.project.modules[plan.main].parsed;
    // Over the modules the run reaches (a trainer module often holds the device choice).
    let cpu_fallback = devices::cpu_fallback(
        plan.modules
            .iter()
            .map(|&m| idx.project.modules[m].parsed.suite()),
    );
    let mut launch =
        crate::Launch::torchrun(cpu_fallback, crate::uses_relative_paths(main.suite()));
    launch.pythonpath = crate::root_on_path(idx.project, plan.main);
    outcome.launch = Some(launch);
    outcome
}

fn facts(idx: &Index, plan: &Plan) -> crate::Facts {
    let site = |m: usize, node: &dyn Ranged| {
        let pm = &idx.project.modules[m];
        let text = &pm.parsed.text[node.range()];
        Site {
            path: pm.rel_path.clone(),
            line: pm.parsed.index.line_index(node.start()).get(),
            code: text.lines().next().unwrap_or("").trim().to_owned(),
        }
    };
    let call_site = |c: usize| {
        let ci = &idx.calls[c];
        let s = idx.stmts[ci.stmt].stmt;
        site(ci.scope.module, &s.range())
    };
    let mut f = crate::Facts::default();
    for mdl in &plan.models {
        let c = &idx.calls[mdl.optimizer];
        let what = Site {
            code: format!(
                "{} (its parameters go to the optimizer here)",
                mdl.holder.text()
            ),
            ..call_site(mdl.optimizer)
        };
        let _ = c;
        f.models.push(what);
    }
    for &o in &plan.optimizers {
        f.optimizers.push(call_site(o));
    }
    for l in &plan.loaders {
        f.datasets.push(call_site(l.call));
    }
    for &s in &plan.steps {
        f.training_calls.push(call_site(s));
    }
    for (m, pm) in idx.project.modules.iter().enumerate() {
        if !plan.in_reach(m) {
            continue;
        }
        let _ = pm;
        for st in idx.modules[m].stmts.clone() {
            let info = &idx.stmts[st];
            let text = idx.text(m, info.stmt);
            if matches!(info.stmt, ruff_python_ast::Stmt::Assign(_))
                && (text.contains("torch.device(")
                    || text.contains("\"cuda")
                    || text.contains("'cuda"))
            {
                f.devices.push(site(m, info.stmt));
            }
            if let Some(c) = crate::editor::stmt_call(info.stmt)
                && idx
                    .qualify(m, &c.func)
                    .is_some_and(|q| &*q == "torch.save" || q == "torch.load")
            {
                f.checkpoints.push(site(m, info.stmt));
            }
        }
    }
    f
}

/// Scope of a statement.
pub fn scope_of(idx: &Index, s: usize) -> Scope {
    idx.stmts[s].scope
}
