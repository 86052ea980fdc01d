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
    if loaders.is_empty() && !o.examples.is_empty() {
        return super::examples_split::check(o, a, b);
    }
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
        // A sampler with replacement has no share to split: each rank draws its own stream (the
        // loop ends at a step count), and the draws are compared below.
        let drawn = pa.replacement == Some(true);
        if drawn {
            shown.push(format!(
                "loader #{k}: each rank draws its own samples with replacement"
            ));
        } else if let (Some(lo), Some(la), Some(lb)) = (po.len, pa.len, pb.len) {
            let want = lo.div_ceil(2);
            // A library's own batch sampler may keep the number of batches and halve each one
            // (Opacus' Poisson sampling): then each rank's rows per batch are about half.
            let per_batch = |p: &crate::verify::Pass| {
                (p.batches > 0 && p.rows > 0).then(|| p.rows as f64 / p.batches as f64)
            };
            if let (Some(ro), Some(ra), Some(rb)) = (per_batch(&po), per_batch(&pa), per_batch(&pb))
                && la.max(lb) > want + 1
                && [ra, rb]
                    .iter()
                    .all(|r| (r - ro / 2.0).abs() <= 0.3 * ro / 2.0)
            {
                shown.push(format!(
                    "loader #{k}: the same {lo} batches per pass, each rank's about half as large ({ro:.1} -> {ra:.1} + {rb:.1} rows)"
                ));
                continue;
            }
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
    fn samplers_with_replacement_are_judged_by_their_draws() {
        let draws: Vec<i64> = (0..64).map(|i| (i * 37) % 101).collect();
        let other: Vec<i64> = (0..64).map(|i| (i * 53 + 7) % 101).collect();
        let drawing = |idx: &[i64]| {
            let mut p = pass(0, 1000, idx);
            p.replacement = Some(true);
            rec(p)
        };
        let orig = run(vec![drawing(&draws)]);
        // The same length as the original's (a stream, not a share) with streams apart: passes.
        let apart = run(vec![drawing(&draws), drawing(&other)]);
        assert_eq!(check(&orig, &apart).status, Status::Pass);
        let alike = run(vec![drawing(&draws), drawing(&draws)]);
        let c = check(&orig, &alike);
        assert_eq!(c.status, Status::Fail);
        assert!(
            c.evidence.contains("drew the same samples"),
            "{}",
            c.evidence
        );
    }

    #[test]
    fn a_library_that_halves_each_batch_splits_the_data() {
        let sized = |len: u64, rows: u64| {
            let mut p = pass(0, len, &[]);
            p.batches = 8;
            p.rows = rows;
            rec(p)
        };
        let orig = run(vec![sized(24, 560)]);
        let halved = run(vec![sized(24, 272), sized(24, 290)]);
        assert_eq!(check(&orig, &halved).status, Status::Pass);
        // The same batches, as large as the original's: not split.
        let whole = run(vec![sized(24, 560), sized(24, 560)]);
        assert_eq!(check(&orig, &whole).status, Status::Fail);
    }

    #[test]
    fn no_loader_is_said_not_passed() {
        let empty = run(vec![Record::default()]);
        let two = run(vec![Record::default(), Record::default()]);
        assert_eq!(check(&empty, &two).status, Status::NotRun);
    }
}
