//! **data split** for programs whose batches do not come from a DataLoader (TensorFlow: Keras
//! `fit`, loops over `tf.data`; PyTorch: hand-built batches, the rows of the first tensor the
//! model is called with) — the ranks train on different examples.
//!
//! Trigger: the original trained without a DataLoader, and the recorder hashed the examples of
//! every step's batch (`examples`: one hash per example over all of its tensors). Compares the
//! examples rank 0 trained on with rank 1's.
//!
//! Why: a rewrite that divides the epochs (or the steps) by the number of ranks but leaves the
//! dataset whole has every rank train on the same batches: nothing fails, the run is just half
//! as long as it looks, and the loss curve hides it. A dataset sharded per rank
//! (`dataset.shard(hvd.size(), hvd.rank())`, `x[hvd.rank()::hvd.size()]`) gives disjoint sets.
//!
//! Compared pass by pass (a `fit` epoch, an iterator over the data): a pipeline sharded after
//! its shuffle gives each rank its own part of each epoch's order, and the next epoch's order
//! differs, so across epochs the ranks' examples meet — within one, never.
//!
//! Example: `model.fit(x, y, epochs=epochs // hvd.size())` with `x` whole on both ranks → FAIL
//! "rank 0 and rank 1 trained on 512 of the same 512 examples in their pass 1"; with `x[shard]` →
//! PASS "rank 0 trained on 256 examples, rank 1 on 256, none shared within a pass".
//! A finite `tf.data` pass is also compared by its size: an unseeded shuffle of the whole data
//! set on every rank meets few examples in a short run, but each rank's pass holds as many
//! batches as the original's ("the training pass over the data holds 8 batches in the
//! original, 8 on rank 0 and 8 on rank 1").
//! Evidence on failure: how many examples the ranks shared, and how many each trained on, or
//! the batches each pass holds.

use std::collections::HashSet;

use crate::verify::{Check, Record, Status};

pub fn check(o: &Record, a: &Record, b: &Record) -> Check {
    let set = |r: &Record| -> HashSet<u64> { r.examples.iter().flatten().copied().collect() };
    let (so, sa, sb) = (set(o), set(a), set(b));
    if sa.is_empty() || sb.is_empty() {
        return Check::new(
            "data split",
            Status::NotRun,
            "no batch was seen on a rank (its steps took no batch the recorder could hash)",
        );
    }
    // The size of the pass: an unseeded shuffle of a whole data set on every rank meets
    // examples only by chance within a short run, but its pass holds the original's batches.
    if let (Some(lo), Some(la), Some(lb)) = (pass_size(o), pass_size(a), pass_size(b)) {
        let want = (lo + 1) / 2;
        if lo >= 2 && la.max(lb) > want + 1 {
            return Check::new(
                "data split",
                Status::Fail,
                format!(
                    "the training pass over the data holds {lo} batches in the original, {la} on rank 0 and {lb} on rank 1 — every rank reads the whole data set; expected about {want} each (each needs its own shard: `dataset.shard(hvd.size(), hvd.rank())`)"
                ),
            );
        }
    }
    // Pass by pass (an epoch reshuffles: rank 0's second epoch may hold rank 1's first).
    let (pa, pb) = (by_pass(a), by_pass(b));
    for (k, (xa, xb)) in pa.iter().zip(&pb).enumerate() {
        let common = xa.intersection(xb).count();
        let smaller = xa.len().min(xb.len());
        // A few shared examples are padding (an uneven last shard repeated); more is no split.
        if common > 2 + smaller / 16 {
            return Check::new(
                "data split",
                Status::Fail,
                format!(
                    "rank 0 and rank 1 trained on {common} of the same {smaller} examples in their pass {} over the data: the data is not split between the ranks (each needs its own shard: `dataset.shard(hvd.size(), hvd.rank())`, `x[hvd.rank()::hvd.size()]`, or its own block of the rows a loop walks by hand)",
                    k + 1
                ),
            );
        }
    }
    Check::new(
        "data split",
        Status::Pass,
        format!(
            "rank 0 trained on {} examples, rank 1 on {}, none shared within a pass ({} passes compared; the original on {} in as many steps)",
            sa.len(),
            sb.len(),
            pa.len().min(pb.len()),
            so.len()
        ),
    )
}

/// The batches of the first pass that trained, when it is a finite `tf.data` pass.
fn pass_size(r: &Record) -> Option<i64> {
    let first = r.example_passes.first()?;
    r.pass_batches.get(&first.to_string()).copied()
}

/// The examples of each pass over the data, in the order the passes first trained.
fn by_pass(r: &Record) -> Vec<HashSet<u64>> {
    let mut order: Vec<u32> = Vec::new();
    let mut sets: Vec<HashSet<u64>> = Vec::new();
    for (i, batch) in r.examples.iter().enumerate() {
        let pass = r.example_passes.get(i).copied().unwrap_or(0);
        let k = match order.iter().position(|&p| p == pass) {
            Some(k) => k,
            None => {
                order.push(pass);
                sets.push(HashSet::new());
                sets.len() - 1
            }
        };
        sets[k].extend(batch.iter().copied());
    }
    sets
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn rec(batches: &[&[u64]]) -> Record {
        Record {
            examples: batches.iter().map(|b| b.to_vec()).collect(),
            ..Record::default()
        }
    }

    #[test]
    fn the_same_examples_on_both_ranks_fail() {
        let all: Vec<u64> = (0..64).collect();
        let o = rec(&[&all[..32], &all[32..]]);
        let c = check(&o, &rec(&[&all[..32]]), &rec(&[&all[..32]]));
        assert_eq!(c.status, Status::Fail);
        assert!(
            c.evidence
                .contains("32 of the same 32 examples in their pass 1"),
            "{}",
            c.evidence
        );
    }

    #[test]
    fn disjoint_shards_pass() {
        let all: Vec<u64> = (0..64).collect();
        let o = rec(&[&all[..32], &all[32..]]);
        let c = check(&o, &rec(&[&all[..32]]), &rec(&[&all[32..]]));
        assert_eq!(c.status, Status::Pass, "{}", c.evidence);
        assert!(c.evidence.contains("none shared"));
    }

    #[test]
    fn examples_met_again_in_another_epoch_pass() {
        // Rank 0's second epoch holds rank 1's first (a reshuffle between epochs).
        let (x, y): (Vec<u64>, Vec<u64>) = ((0..8).collect(), (8..16).collect());
        let all: Vec<u64> = (0..16).collect();
        let mut a = rec(&[&x, &y]);
        a.example_passes = vec![1, 2];
        let mut b = rec(&[&y, &x]);
        b.example_passes = vec![7, 9];
        let c = check(&rec(&[&all]), &a, &b);
        assert_eq!(c.status, Status::Pass, "{}", c.evidence);
        // The same batches in the same pass fail.
        let c = check(&rec(&[&all]), &a, &a);
        assert_eq!(c.status, Status::Fail, "{}", c.evidence);
    }

    #[test]
    fn a_whole_pass_on_every_rank_fails_though_its_batches_differ() {
        // Unseeded shuffles of the whole data set: different batches, as many as the original.
        let all: Vec<u64> = (0..64).collect();
        let sized = |batches: &[&[u64]], n: i64| {
            let mut r = rec(batches);
            r.example_passes = vec![1; batches.len()];
            r.pass_batches = HashMap::from([("1".to_owned(), n)]);
            r
        };
        let o = sized(&[&all[..8], &all[8..16]], 8);
        let c = check(&o, &sized(&[&all[16..24]], 8), &sized(&[&all[24..32]], 8));
        assert_eq!(c.status, Status::Fail, "{}", c.evidence);
        assert!(
            c.evidence
                .contains("holds 8 batches in the original, 8 on rank 0"),
            "{}",
            c.evidence
        );
        // Sharded: half the batches each.
        let c = check(&o, &sized(&[&all[16..24]], 4), &sized(&[&all[24..32]], 4));
        assert_eq!(c.status, Status::Pass, "{}", c.evidence);
    }

    #[test]
    fn no_batches_is_not_decided() {
        let c = check(&rec(&[&[1]]), &rec(&[]), &rec(&[&[2]]));
        assert_eq!(c.status, Status::NotRun);
    }
}
