//! **learning rate** — on two processes, each step's learning rate is the original's (times
//! the number of processes when the rewrite scales it).
//!
//! Compares: the learning rate of every parameter group at each step, rank 0 against the
//! original.
//! Why: a schedule stepped per epoch or per sample count changes when each rank's epoch is half
//! as long; a warm-up or scaling applied twice shows here before a long run is spent on it.
//! Evidence on failure: the first step and group whose rate differs, and both rates.

use crate::verify::{Check, Run, Status};

pub fn check(original: &Run, two: &Run, scaled: bool) -> Check {
    let (Some(o), Some(a)) = (original.record(0), two.record(0)) else {
        return Check::new("learning rate", Status::NotRun, "a process wrote no record");
    };
    let factor = if scaled { two.processes as f64 } else { 1.0 };
    let n = o.steps.len().min(a.steps.len());
    if n == 0 {
        return Check::new(
            "learning rate",
            Status::NotRun,
            "no optimizer step was taken",
        );
    }
    for i in 0..n {
        let (x, y) = (&o.steps[i].lr, &a.steps[i].lr);
        for (g, (u, v)) in x.iter().zip(y).enumerate() {
            if (u * factor - v).abs() > 1e-9 * (u * factor).abs().max(1e-12) {
                return Check::new(
                    "learning rate",
                    Status::Fail,
                    format!(
                        "step {}, parameter group {g}: the original's rate is {u}, rank 0's {v} (expected {})",
                        i + 1,
                        u * factor
                    ),
                );
            }
        }
    }
    Check::new(
        "learning rate",
        Status::Pass,
        if scaled {
            format!("the original's rates times {factor} at each of {n} steps")
        } else {
            format!("the original's rates at each of {n} steps")
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Record;
    use crate::verify::checks::test_support::{run, steps};

    #[test]
    fn scaled_rates_are_expected_only_when_asked() {
        let o = Record {
            steps: steps(&[&["a"]]),
            ..Record::default()
        };
        let mut doubled = o.clone();
        doubled.steps[0].lr = vec![0.2];
        let two = run(vec![doubled.clone(), doubled]);
        assert_eq!(
            check(&run(vec![o.clone()]), &two, true).status,
            Status::Pass
        );
        assert_eq!(check(&run(vec![o]), &two, false).status, Status::Fail);
    }
}
