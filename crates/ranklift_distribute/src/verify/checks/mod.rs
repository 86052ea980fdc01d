//! One file per check of `--verify`, each with what it compares, why, and the fault it catches.

pub mod checkpoints;
pub mod examples_split;
pub mod learning_rate;
pub mod loss_on_two;
pub mod one_process;
pub mod outside_writes;
pub mod rank0_only;
pub mod replicas;
pub mod reshuffle;
pub mod runs;
pub mod split;
pub mod synthetic;
pub mod teardown;
pub mod timing;

use super::Record;

/// The mean of `xs` (0 for none).
pub(crate) fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Loaders that trained in `r`, by id, in order.
pub(crate) fn training_loaders(r: &Record) -> Vec<i64> {
    let mut ids: Vec<i64> = r.training_passes().map(|p| p.loader).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

#[cfg(test)]
pub(crate) mod test_support {
    use crate::verify::{Exit, Pass, Record, Run, Step};

    pub fn run(records: Vec<Record>) -> Run {
        Run {
            processes: records.len() as u32,
            exit: Exit::Ok,
            stdout: vec![String::new(); records.len()],
            records: records.into_iter().map(Some).collect(),
            seconds: 1.0,
        }
    }

    pub fn steps(digests: &[&[&str]]) -> Vec<Step> {
        digests
            .iter()
            .enumerate()
            .map(|(i, d)| Step {
                t: i as f64,
                lr: vec![0.1],
                params: d.iter().map(|s| s.to_string()).collect(),
                in_pass: None,
            })
            .collect()
    }

    pub fn pass(loader: i64, len: u64, indices: &[i64]) -> Pass {
        Pass {
            loader,
            len: Some(len),
            sampler: Some("DistributedSampler".into()),
            shuffle: Some(true),
            indices: indices.to_vec(),
            batches: len,
            trains: true,
            ..Pass::default()
        }
    }
}
