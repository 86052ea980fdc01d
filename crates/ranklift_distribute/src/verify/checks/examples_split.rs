//! **data split** for programs whose batches do not come from a DataLoader (TensorFlow: Keras
//! `fit`, loops over `tf.data`) — the ranks train on different examples.
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
//! Example: `model.fit(x, y, epochs=epochs // hvd.size())` with `x` whole on both ranks → FAIL
//! "rank 0 and rank 1 trained on 512 of the same 512 examples"; with `x[shard]` → PASS
//! "rank 0 trained on 256 examples, rank 1 on 256, none shared".
//! Evidence on failure: how many examples the ranks shared, and how many each trained on.

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
    let common = sa.intersection(&sb).count();
    let smaller = sa.len().min(sb.len());
    // A few shared examples are padding (an uneven last shard repeated); half is no split.
    if common > 2 + smaller / 16 {
        return Check::new(
            "data split",
            Status::Fail,
            format!(
                "rank 0 and rank 1 trained on {common} of the same {smaller} examples: the data is not split between the ranks (each needs its own shard: `dataset.shard(hvd.size(), hvd.rank())`, or `x[hvd.rank()::hvd.size()]`)"
            ),
        );
    }
    let shared = if common == 0 {
        "none shared".to_owned()
    } else {
        format!("{common} shared")
    };
    Check::new(
        "data split",
        Status::Pass,
        format!(
            "rank 0 trained on {} examples, rank 1 on {}, {shared} (the original on {} in as many steps)",
            sa.len(),
            sb.len(),
            so.len()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(c.evidence.contains("32 of the same 32"), "{}", c.evidence);
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
    fn no_batches_is_not_decided() {
        let c = check(&rec(&[&[1]]), &rec(&[]), &rec(&[&[2]]));
        assert_eq!(c.status, Status::NotRun);
    }
}
