//! What `python/ranklift/verify_probe.py` records in one process (its JSON file, field for
//! field; unknown fields are ignored so an older binary reads a newer probe's records).

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Deserializer};

/// Numbers as the recorder writes them: JSON numbers, or "nan", "inf", "-inf" for the floats
/// JSON cannot hold.
fn floats<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
    let v: Vec<serde_json::Value> = Vec::deserialize(d)?;
    Ok(v.iter()
        .map(|x| match x {
            serde_json::Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
            serde_json::Value::String(s) => s.parse().unwrap_or(f64::NAN),
            _ => f64::NAN,
        })
        .collect())
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Record {
    pub rank: u32,
    pub steps: Vec<Step>,
    #[serde(deserialize_with = "floats")]
    pub losses: Vec<f64>,
    pub passes: Vec<Pass>,
    pub saves: Vec<Save>,
    pub writes: Vec<Write>,
    /// Real paths outside the run's copy of the project that the program wrote (redirected).
    pub redirected: Vec<String>,
    /// Where the first `print` calls came from (`file:line`, `None` outside the program).
    pub prints: Vec<Option<String>>,
    /// Every learning-rate scheduler's plain state after each of its steps.
    pub schedules: Vec<Schedule>,
    /// Why the recorder ended the process early (the step budget), if it did.
    pub stopped: Option<String>,
    /// Why the passes over the training data ran empty from some point on (the step budget),
    /// the process going on to its end, if they did.
    pub drained: Option<String>,
    /// The name of the parameter at each position of a step's digests.
    pub names: HashMap<String, String>,
    /// The seeded stand-ins the process loaded instead of a download (`--synthetic-data`),
    /// e.g. `torchvision.datasets.MNIST`.
    pub synthetic: Vec<String>,
    /// TensorFlow: for each optimizer step, one hash per example of the batch it trained on.
    pub examples: Vec<Vec<u64>>,
    /// The pass over the data (a `fit` epoch, an iterator) each entry of `examples` came from,
    /// numbered in the process's own order.
    pub example_passes: Vec<u32>,
    /// TensorFlow: the batches each finite `tf.data` pass holds (its cardinality), by the pass's
    /// number in `example_passes`.
    pub pass_batches: HashMap<String, i64>,
    /// PyTorch: whether the process group was still initialized when the process exited.
    pub process_group_left: Option<bool>,
}

/// One optimizer step.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Step {
    /// Seconds, from a monotonic clock.
    pub t: f64,
    /// The learning rate of every parameter group of every optimizer.
    #[serde(deserialize_with = "floats")]
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
pub struct Schedule {
    /// Its class and order of first step (`ReduceLROnPlateau #0`).
    pub scheduler: String,
    /// Its state dict's numbers, strings and flags.
    pub state: BTreeMap<String, serde_json::Value>,
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
    /// The call that saved it (`Model.save_weights`); `None`: `torch.save`.
    pub via: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Write {
    pub path: String,
    pub at: Option<String>,
}

impl Record {
    /// A record as the recorder wrote it (strict JSON).
    pub fn from_json(bytes: &[u8]) -> Result<Record, String> {
        serde_json::from_slice(bytes).map_err(|e| e.to_string())
    }

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

#[cfg(test)]
mod tests {
    #[test]
    fn non_finite_numbers_are_read_from_their_text() {
        let r = super::Record::from_json(
            br#"{"losses": [1.5, "nan", "inf"], "steps": [{"lr": ["-inf"]}], "schedules": [{"scheduler": "ReduceLROnPlateau #0", "state": {"best": "inf"}}]}"#,
        )
        .unwrap();
        assert_eq!(r.losses[0], 1.5);
        assert!(r.losses[1].is_nan() && r.losses[2] == f64::INFINITY);
        assert_eq!(r.steps[0].lr[0], f64::NEG_INFINITY);
        assert_eq!(r.schedules[0].state["best"], "inf");
    }
}
