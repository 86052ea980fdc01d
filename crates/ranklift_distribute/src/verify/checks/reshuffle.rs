//! **reshuffle** — every epoch reads the data in a new order, as the original's did.
//!
//! Compares: the first sample indices of consecutive passes of each training loader on rank 0,
//! when the original's passes were shuffled.
//! Why: `DistributedSampler` shuffles with the seed plus its epoch, which only
//! `sampler.set_epoch(epoch)` advances; without it every epoch repeats the first one's order,
//! which quietly costs accuracy.
//! Evidence on failure: the loader and the two passes that read the same order.

use crate::verify::checks::training_loaders;
use crate::verify::{Check, Run, Status};

pub fn check(original: &Run, two: &Run) -> Check {
    let (Some(o), Some(a)) = (original.record(0), two.record(0)) else {
        return Check::new("reshuffle", Status::NotRun, "a process wrote no record");
    };
    let mut judged = 0;
    let mut why_not = if o.examples.is_empty() {
        "the original's training data does not come from a DataLoader".to_owned()
    } else {
        // Keras and tf.data shuffle inside the dataset, hand-built batches in the program's own
        // code; the ranks' orders are not compared.
        "batches not drawn from a DataLoader (Keras, tf.data, or built by hand): the order of each epoch is the program's own, not checked"
            .to_owned()
    };
    for k in training_loaders(o) {
        let orig: Vec<&Vec<i64>> = o
            .passes
            .iter()
            .filter(|p| p.loader == k)
            .map(|p| &p.indices)
            .collect();
        let shuffles = orig.first().is_some_and(|x| !x.is_sorted())
            || orig.windows(2).any(|w| !prefix_equal(w[0], w[1]));
        if !shuffles {
            why_not = format!("loader #{k}: the original does not shuffle");
            continue;
        }
        let passes: Vec<&Vec<i64>> = a
            .passes
            .iter()
            .filter(|p| p.loader == k)
            .map(|p| &p.indices)
            .collect();
        if passes.len() < 2 {
            why_not = format!(
                "loader #{k}: rank 0 made one pass over the data within the step budget (a larger --verify-steps reaches the next epoch)"
            );
            continue;
        }
        for (i, w) in passes.windows(2).enumerate() {
            if w[0].len() >= 4 && prefix_equal(w[0], w[1]) {
                return Check::new(
                    "reshuffle",
                    Status::Fail,
                    format!(
                        "loader #{k}: passes {} and {} on rank 0 read the same order; the original reshuffles every epoch (call sampler.set_epoch(epoch) before each epoch)",
                        i + 1,
                        i + 2
                    ),
                );
            }
        }
        judged += passes.len();
    }
    if judged == 0 {
        return Check::new("reshuffle", Status::NotRun, why_not);
    }
    Check::new(
        "reshuffle",
        Status::Pass,
        format!("{judged} passes on rank 0, each in a new order"),
    )
}

/// The two orders agree on their common prefix (recorded passes may be cut at different points).
fn prefix_equal(a: &[i64], b: &[i64]) -> bool {
    let n = a.len().min(b.len());
    n > 0 && a[..n] == b[..n]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Record;
    use crate::verify::checks::test_support::{pass, run};

    #[test]
    fn the_same_order_twice_fails_and_one_pass_is_not_judged() {
        let orig = run(vec![Record {
            passes: vec![pass(0, 4, &[3, 1, 2, 0]), pass(0, 4, &[0, 2, 1, 3])],
            ..Record::default()
        }]);
        let same = Record {
            passes: vec![pass(0, 2, &[3, 1, 2, 0]), pass(0, 2, &[3, 1, 2, 0])],
            ..Record::default()
        };
        let two = run(vec![same.clone(), same.clone()]);
        let c = check(&orig, &two);
        assert_eq!(c.status, Status::Fail, "{}", c.evidence);
        let mut fresh = same.clone();
        fresh.passes[1].indices = vec![2, 0, 3, 1];
        assert_eq!(
            check(&orig, &run(vec![fresh.clone(), fresh])).status,
            Status::Pass
        );
        let mut one = same;
        one.passes.truncate(1);
        assert_eq!(
            check(&orig, &run(vec![one.clone(), one])).status,
            Status::NotRun
        );
    }
}
