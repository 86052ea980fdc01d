//! **replicas** — after every optimizer step, every rank holds bit-identical parameters.
//!
//! Compares: the digests of every parameter after each step, rank 0 against rank 1.
//! Why: DistributedDataParallel broadcasts rank 0's weights at the wrap and averages the same
//! gradients on every rank, and gloo's all-reduce gives every rank the same bits, so replicas
//! never drift; a model trained outside the wrapper, a rank-local learning-rate decision
//! (a plateau scheduler fed each rank's own loss) or unbroadcast initial weights make them
//! differ — silently, since each rank trains on.
//! The learning-rate schedulers' state is compared too, after each of their steps: a decision
//! taken apart (a plateau scheduler fed each rank's own loss: its `best` and bad-epoch count
//! differ at once) shows there before it moves the rates, which may be many epochs later.
//! Evidence on failure: the first step and the first parameter (or scheduler field) that differ.

use crate::verify::{Check, Run, Status};

pub fn check(two: &Run) -> Check {
    let (Some(a), Some(b)) = (two.record(0), two.record(1)) else {
        return Check::new("replicas", Status::NotRun, "a rank wrote no record");
    };
    if a.steps.is_empty() {
        return Check::new("replicas", Status::NotRun, "no optimizer step was taken");
    }
    if a.steps.len() != b.steps.len() {
        return Check::new(
            "replicas",
            Status::Fail,
            format!(
                "rank 0 took {} optimizer steps, rank 1 {}",
                a.steps.len(),
                b.steps.len()
            ),
        );
    }
    for (i, (x, y)) in a.steps.iter().zip(&b.steps).enumerate() {
        if x.params.len() != y.params.len() {
            return Check::new(
                "replicas",
                Status::Fail,
                format!(
                    "step {}: rank 0's optimizers hold {} parameters, rank 1's {}",
                    i + 1,
                    x.params.len(),
                    y.params.len()
                ),
            );
        }
        if let Some(p) = x.params.iter().zip(&y.params).position(|(u, v)| u != v) {
            return Check::new(
                "replicas",
                Status::Fail,
                format!(
                    "after step {} the ranks hold different values of {} (first of {} parameters that differ); data-parallel training keeps replicas bit-identical, so the ranks train apart",
                    i + 1,
                    a.param_name(p),
                    x.params
                        .iter()
                        .zip(&y.params)
                        .filter(|(u, v)| u != v)
                        .count()
                ),
            );
        }
    }
    if let Some(fault) = schedules_differ(a, b) {
        return Check::new("replicas", Status::Fail, fault);
    }
    Check::new(
        "replicas",
        Status::Pass,
        format!(
            "bit-identical after each of {} steps ({} parameters)",
            a.steps.len(),
            a.steps[0].params.len()
        ),
    )
}

/// The first scheduler step after which the ranks' scheduler states differ.
fn schedules_differ(a: &crate::verify::Record, b: &crate::verify::Record) -> Option<String> {
    for (i, (x, y)) in a.schedules.iter().zip(&b.schedules).enumerate() {
        if x.scheduler != y.scheduler {
            return Some(format!(
                "scheduler step {}: rank 0 stepped {}, rank 1 {}",
                i + 1,
                x.scheduler,
                y.scheduler
            ));
        }
        if let Some((key, v)) = x.state.iter().find(|(k, v)| y.state.get(*k) != Some(*v)) {
            let other = y
                .state
                .get(key)
                .map_or("nothing".to_owned(), |w| w.to_string());
            return Some(format!(
                "after scheduler step {} the ranks' {} differ: {key} = {v} on rank 0, {other} on rank 1 — each rank decides its schedule from its own values (reduce the metric over the ranks first)",
                i + 1,
                x.scheduler
            ));
        }
    }
    (a.schedules.len() != b.schedules.len()).then(|| {
        format!(
            "rank 0 stepped its schedulers {} times, rank 1 {}",
            a.schedules.len(),
            b.schedules.len()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Record;
    use crate::verify::checks::test_support::{run, steps};

    #[test]
    fn names_the_first_step_and_parameter_that_differ() {
        let a = Record {
            steps: steps(&[&["a", "b"], &["c", "d"]]),
            ..Record::default()
        };
        let mut b = a.clone();
        assert_eq!(check(&run(vec![a.clone(), b.clone()])).status, Status::Pass);
        b.steps[1].params[1] = "x".into();
        let mut a = a;
        a.names.insert("1".into(), "0.bias".into());
        let c = check(&run(vec![a.clone(), b]));
        assert_eq!(c.status, Status::Fail);
        assert!(c.evidence.contains("after step 2"), "{}", c.evidence);
        assert!(c.evidence.contains("0.bias"), "{}", c.evidence);
        // Identical parameters, schedulers decided apart.
        let plateau = |best: f64| crate::verify::Schedule {
            scheduler: "ReduceLROnPlateau #0".into(),
            state: [("best".to_owned(), serde_json::json!(best))].into(),
        };
        let mut x = a.clone();
        x.schedules.push(plateau(0.5));
        let mut y = a.clone();
        y.schedules.push(plateau(0.5));
        assert_eq!(check(&run(vec![x.clone(), y.clone()])).status, Status::Pass);
        y.schedules[0] = plateau(0.7);
        let c = check(&run(vec![x, y]));
        assert_eq!(c.status, Status::Fail);
        assert!(
            c.evidence.contains("best = 0.5 on rank 0, 0.7 on rank 1"),
            "{}",
            c.evidence
        );
    }
}
