//! `--verify`: judge a distributed program by running it, next to the original.
//!
//! The CLI runs three things in a scratch copy of the project (see `ranklift::verify_cmd`): the
//! original program in one process, and the rewrite under torchrun with one and with two
//! processes, each with the recorder `python/ranklift/verify_probe.py` loaded. This module reads
//! what they recorded ([`Record`], one per process) and what the runs did ([`Run`]) and decides
//! each check ([`judge`]). Nothing here starts a process or touches a file, so every check is
//! tested on records written by hand next to it.
//!
//! Invariant: a check that could not be decided says so ([`Status::NotRun`] with the reason);
//! it never passes silently.

mod checks;
mod records;

pub use records::{Pass, Record, Save, Schedule, Step, Write};

use serde::Serialize;

/// How a process group ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Exit {
    /// Every process exited with status 0.
    Ok,
    /// A process failed: its rank (0 for the original), its status and the end of its
    /// standard error.
    Failed {
        rank: u32,
        code: i32,
        stderr: String,
    },
    /// Still running at the deadline: the ranks that had not finished and the last step each
    /// had taken.
    Timeout {
        seconds: u64,
        stalled: Vec<(u32, usize)>,
    },
}

/// One run: the original (one process), or the rewrite on N processes.
#[derive(Debug, Clone)]
pub struct Run {
    pub processes: u32,
    pub exit: Exit,
    /// By rank; `None` where a process wrote no record.
    pub records: Vec<Option<Record>>,
    /// Each rank's standard output.
    pub stdout: Vec<String>,
    pub seconds: f64,
}

impl Run {
    pub fn record(&self, rank: usize) -> Option<&Record> {
        self.records.get(rank).and_then(Option::as_ref)
    }
}

/// What the three runs gave.
#[derive(Debug, Clone)]
pub struct Evidence {
    pub original: Run,
    pub one: Run,
    pub two: Run,
    /// What the rewrite multiplies learning rates by on N processes (`--scale-lr linear`: N).
    pub lr_scaled: bool,
    /// Whether the runs had the synthetic datasets (`--synthetic-data`).
    pub synthetic: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Pass,
    Fail,
    /// Not decided: what it needs did not happen within the budget, or does not apply.
    NotRun,
    /// Shown, not judged (time per step).
    Info,
}

/// One line of the verdict.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub status: Status,
    pub evidence: String,
}

impl Check {
    fn new(name: &'static str, status: Status, evidence: impl Into<String>) -> Check {
        Check {
            name,
            status,
            evidence: evidence.into(),
        }
    }
}

/// Every check, in the order they are shown. A check that needs a run which failed is not run.
pub fn judge(e: &Evidence) -> Vec<Check> {
    let mut out = vec![checks::runs::check(e)];
    let ran = |r: &Run| r.exit == Exit::Ok;
    if ran(&e.two) {
        out.push(checks::replicas::check(&e.two));
        out.push(checks::split::check(&e.original, &e.two));
        out.push(checks::reshuffle::check(&e.original, &e.two));
        out.push(checks::rank0_only::check(&e.original, &e.two));
        out.push(checks::checkpoints::check(&e.original, &e.two));
        out.extend(checks::teardown::check(&e.two));
    }
    if ran(&e.one) && ran(&e.original) {
        out.push(checks::one_process::check(&e.original, &e.one));
    }
    if ran(&e.two) && ran(&e.original) {
        out.push(checks::loss_on_two::check(&e.original, &e.two));
        out.push(checks::learning_rate::check(
            &e.original,
            &e.two,
            e.lr_scaled,
        ));
    }
    out.push(checks::outside_writes::check(e));
    out.extend(checks::synthetic::check(e));
    if ran(&e.two) && ran(&e.original) {
        out.push(checks::timing::check(&e.original, &e.two));
    }
    out
}

/// The process exit status the verdict calls for: 0 every check passed (or was not run),
/// 1 a check failed.
pub fn failed(checks: &[Check]) -> bool {
    checks.iter().any(|c| c.status == Status::Fail)
}
