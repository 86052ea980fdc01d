//! Check `model_parallel` (DST402): the program places work on several fixed GPUs.
//!
//! **Trigger:** two or more different `"cuda:N"` / `torch.device("cuda", N)` / `.cuda(N)` devices
//! in the modules the main script reaches.
//!
//! **Why:** a model split across GPUs (pipeline or tensor parallelism by hand) is not the
//! one-process-per-GPU program DDP replicates; pinning each process to its `LOCAL_RANK` would put
//! every part on one GPU.
//!
//! ```python
//! self.part1 = nn.Linear(8, 8).to("cuda:0")
//! self.part2 = nn.Linear(8, 1).to("cuda:1")   # DST402
//! ```
use ranklift_python::Severity;
use ruff_text_size::Ranged;

use crate::torch::Tx;
use crate::torch::rules::device_pinning::device_sites;

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    let mut seen: Vec<(usize, ruff_text_size::TextRange, u32)> = Vec::new();
    for &m in &tx.plan.modules {
        let sites = device_sites(idx.project.modules[m].parsed.suite());
        for (e, n) in sites.literals.iter().chain(&sites.indices) {
            seen.push((m, e.range(), *n));
        }
    }
    let mut devices: Vec<u32> = seen.iter().map(|s| s.2).collect();
    devices.sort_unstable();
    devices.dedup();
    if devices.len() < 2 {
        return;
    }
    let Some(&(m, r, _)) = seen.iter().find(|s| s.2 != devices[0]) else {
        return;
    };
    tx.ed.diag(m, r, crate::codes::MODEL_PARALLEL, Severity::Error,
        format!("the program uses several fixed GPUs ({}): model parallelism, which DDP with one process per GPU does not replicate",
            devices.iter().map(|d| format!("cuda:{d}")).collect::<Vec<_>>().join(", ")),
        "wrap the multi-device model by hand with DistributedDataParallel(model) (no device_ids) and give each process its own set of GPUs");
}
