//! **data split** — each rank reads its own part of the training data.
//!
//! Compares: for every DataLoader that trained in the original, its length (batches per pass)
//! on each rank against the original's, and the sample indices rank 0 and rank 1 drew in the
//! same pass.
//! Why: DDP averages gradients, it does not split data; without a `DistributedSampler` (or a
//! share of the indices for a stock sampler) every rank trains on every batch: nothing fails,
//! the run is just no faster, or — with the epochs divided — shorter than the original.
//! Evidence on failure: the loader, its length on the original and on each rank, or how many
//! samples both ranks drew.

use crate::verify::checks::training_loaders;
use crate::verify::{Check, Run, Status};

pub fn check(original: &Run, two: &Run) -> Check {
    let (Some(o), Some(a), Some(b)) = (original.record(0), two.record(0), two.record(1)) else {
        return Check::new("data split", Status::NotRun, "a process wrote no record");
    };
    let loaders = training_loaders(o);
    if loaders.is_empty() {
        return Check::new(
            "data split",
            Status::NotRun,
            "the original's training data does not come from a DataLoader (hand-built batches?): the split is not checked",
        );
    }
    let mut shown = Vec::new();
    for k in loaders {
        let first = |r: &crate::verify::Record| r.passes.iter().find(|p| p.loader == k).cloned();
        let (Some(po), Some(pa), Some(pb)) = (first(o), first(a), first(b)) else {
            return Check::new(
                "data split",
                Status::Fail,
                format!("loader #{k}: the original trained on it, a rank never iterated it"),
            );
        };
        if let (Some(lo), Some(la), Some(lb)) = (po.len, pa.len, pb.len) {
            let want = lo.div_ceil(2);
            if lo >= 2 && (la.max(lb) > want + 1) {
                return Check::new(
                    "data split",
                    Status::Fail,
                    format!(
                        "loader #{k} ({}): {lo} batches per pass in the original, {la} on rank 0 and {lb} on rank 1 — every rank reads the whole data set; expected about {want} each",
                        pa.sampler.as_deref().unwrap_or("no sampler")
                    ),
                );
            }
            shown.push(format!("loader #{k}: {lo} -> {la} + {lb} batches per pass"));
        }
        let (x, y) = (&pa.indices, &pb.indices);
        let n = x.len().min(y.len());
        if n >= 8 {
            if pa.replacement == Some(true) {
                let same = x[..n].iter().zip(&y[..n]).filter(|(u, v)| u == v).count();
                if same > n / 2 {
                    return Check::new(
                        "data split",
                        Status::Fail,
                        format!(
                            "loader #{k}: the ranks drew the same samples ({same} of {n} aligned draws equal): the sampler with replacement is seeded alike on every rank"
                        ),
                    );
                }
            } else {
                let xs: std::collections::HashSet<_> = x[..n].iter().collect();
                let common = y[..n].iter().filter(|i| xs.contains(i)).count();
                // DistributedSampler pads the last ranks with the first samples: a few repeats.
                if common > 2 + n / 64 {
                    return Check::new(
                        "data split",
                        Status::Fail,
                        format!(
                            "loader #{k}: rank 0 and rank 1 drew {common} of the same {n} samples in their first pass: the data is not split between the ranks"
                        ),
                    );
                }
            }
        }
    }
    if shown.is_empty() {
        shown.push("the ranks drew disjoint samples".into());
    }
    Check::new("data split", Status::Pass, shown.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Record;
    use crate::verify::checks::test_support::{pass, run};

    fn rec(p: crate::verify::Pass) -> Record {
        Record {
            passes: vec![p],
            ..Record::default()
        }
    }

    #[test]
    fn whole_data_on_every_rank_fails() {
        let all: Vec<i64> = (0..64).collect();
        let orig = run(vec![rec(pass(0, 32, &all))]);
        let halves = run(vec![
            rec(pass(
                0,
                16,
                &all.iter().step_by(2).copied().collect::<Vec<_>>(),
            )),
            rec(pass(
                0,
                16,
                &all.iter().skip(1).step_by(2).copied().collect::<Vec<_>>(),
            )),
        ]);
        assert_eq!(check(&orig, &halves).status, Status::Pass);
        let unsplit = run(vec![rec(pass(0, 32, &all)), rec(pass(0, 32, &all))]);
        let c = check(&orig, &unsplit);
        assert_eq!(c.status, Status::Fail);
        assert!(c.evidence.contains("32 batches per pass"), "{}", c.evidence);
        // Same lengths (a sampler split by hand) but the same samples on both ranks.
        let same = run(vec![
            rec(pass(0, 16, &all[..32])),
            rec(pass(0, 16, &all[..32])),
        ]);
        assert_eq!(check(&orig, &same).status, Status::Fail);
    }

    #[test]
    fn no_loader_is_said_not_passed() {
        let empty = run(vec![Record::default()]);
        let two = run(vec![Record::default(), Record::default()]);
        assert_eq!(check(&empty, &two).status, Status::NotRun);
    }
}
