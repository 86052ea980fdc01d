//! What `python/ranklift/verify_probe.py` records in one process (its JSON file, field for
//! field; unknown fields are ignored so an older binary reads a newer probe's records).

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Record {
    pub rank: u32,
    pub steps: Vec<Step>,
    pub losses: Vec<f64>,
    pub passes: Vec<Pass>,
    pub saves: Vec<Save>,
    pub writes: Vec<Write>,
    /// Real paths outside the run's copy of the project that the program wrote (redirected).
    pub redirected: Vec<String>,
    /// Where the first `print` calls came from (`file:line`, `None` outside the program).
    pub prints: Vec<Option<String>>,
    /// Why the recorder ended the process early (the step budget), if it did.
    pub stopped: Option<String>,
    /// The name of the parameter at each position of a step's digests.
    pub names: HashMap<String, String>,
}

/// One optimizer step.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Step {
    /// Seconds, from a monotonic clock.
    pub t: f64,
    /// The learning rate of every parameter group of every optimizer.
    pub lr: Vec<f64>,
    /// A digest of every parameter after the step.
    pub params: Vec<String>,
    /// The pass over a DataLoader the step was taken in (its position in `passes`).
    #[serde(rename = "pass")]
    pub in_pass: Option<usize>,
}

/// One pass over a DataLoader.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Pass {
    /// The loader, by order of construction in the process.
    pub loader: i64,
    /// `len(loader)`: batches in a full pass (`None` for an iterable dataset without length).
    pub len: Option<u64>,
    pub sampler: Option<String>,
    pub shuffle: Option<bool>,
    pub replacement: Option<bool>,
    /// The first sample indices drawn (at most 4096).
    pub indices: Vec<i64>,
    pub batches: u64,
    /// Rows handed out (the first dimension of each batch's first tensor).
    pub rows: u64,
    /// An optimizer stepped while this pass was open.
    pub trains: bool,
    /// The recorder ended the pass early (the pass budget).
    pub cut: bool,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Save {
    /// Relative to the run's copy of the project, or absolute outside it.
    pub path: Option<String>,
    /// Every tensor saved: its key path and shape.
    pub keys: BTreeMap<String, Vec<i64>>,
    /// A DistributedDataParallel wrapper was pickled into the file.
    pub wraps_ddp: bool,
    pub at: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Write {
    pub path: String,
    pub at: Option<String>,
}

impl Record {
    /// Passes over loaders that trained.
    pub fn training_passes(&self) -> impl Iterator<Item = &Pass> {
        self.passes.iter().filter(|p| p.trains)
    }

    /// The name of the parameter at position `i` of a step's digests.
    pub fn param_name(&self, i: usize) -> String {
        self.names
            .get(&i.to_string())
            .cloned()
            .unwrap_or_else(|| format!("parameter {i}"))
    }
}
