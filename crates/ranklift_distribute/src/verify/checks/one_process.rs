//! **1 process** — the rewrite on one process trains like the original.
//!
//! Compares: optimizer steps, learning rates at each step and the mean loss of the original
//! and of the rewrite under `torchrun --nproc-per-node 1`.
//! Why: with one process nothing is split, so every difference is the rewrite's own: divided
//! epochs, a changed learning rate or schedule, a loop that no longer runs.
//! Tolerance: with shuffling, `DistributedSampler` draws another permutation than the original's
//! `RandomSampler`, so the same steps see other batches; the mean losses must agree within 30%,
//! or 0.05 when both are small, or three standard errors of their difference (a few steps of a
//! noisy loss: minibatch noise is not a fault). Without shuffling they agree to rounding.

use crate::verify::checks::mean;
use crate::verify::{Check, Run, Status};

pub const LOSS_REL: f64 = 0.30;
pub const LOSS_ABS: f64 = 0.05;

pub fn check(original: &Run, one: &Run) -> Check {
    let (Some(o), Some(r)) = (original.record(0), one.record(0)) else {
        return Check::new("1 process", Status::NotRun, "a process wrote no record");
    };
    if o.steps.len() != r.steps.len() {
        return Check::new(
            "1 process",
            Status::Fail,
            format!(
                "the original took {} optimizer steps, the rewrite on 1 process {}",
                o.steps.len(),
                r.steps.len()
            ),
        );
    }
    for (i, (x, y)) in o.steps.iter().zip(&r.steps).enumerate() {
        if x.lr.len() != y.lr.len()
            || x.lr
                .iter()
                .zip(&y.lr)
                .any(|(a, b)| (a - b).abs() > 1e-12 * a.abs().max(1.0))
        {
            return Check::new(
                "1 process",
                Status::Fail,
                format!(
                    "step {}: learning rates {:?} in the original, {:?} in the rewrite on 1 process",
                    i + 1,
                    x.lr,
                    y.lr
                ),
            );
        }
    }
    let (lo, l1) = (mean(&o.losses), mean(&r.losses));
    if o.losses.is_empty() || r.losses.is_empty() {
        return Check::new(
            "1 process",
            Status::Pass,
            format!(
                "{} steps each, the same learning rates (no scalar loss recorded)",
                o.steps.len()
            ),
        );
    }
    let noise = 3.0 * (std_err(&o.losses).powi(2) + std_err(&r.losses).powi(2)).sqrt();
    if !l1.is_finite() || (l1 - lo).abs() > (LOSS_REL * lo.abs()).max(LOSS_ABS).max(noise) {
        return Check::new(
            "1 process",
            Status::Fail,
            format!(
                "mean loss {lo:.4} in the original, {l1:.4} in the rewrite on 1 process (more than {:.0}%, {LOSS_ABS} or three standard errors ({noise:.4}) apart)",
                LOSS_REL * 100.0
            ),
        );
    }
    Check::new(
        "1 process",
        Status::Pass,
        format!(
            "{} steps each, the same learning rates, mean loss {lo:.4} vs {l1:.4}",
            o.steps.len()
        ),
    )
}

/// The standard error of the mean of `xs`.
pub(crate) fn std_err(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64;
    (var / xs.len() as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Record;
    use crate::verify::checks::test_support::{run, steps};

    #[test]
    fn fewer_steps_or_another_loss_fail() {
        let r = Record {
            steps: steps(&[&["a"], &["b"]]),
            losses: vec![1.0, 0.8],
            ..Record::default()
        };
        assert_eq!(
            check(&run(vec![r.clone()]), &run(vec![r.clone()])).status,
            Status::Pass
        );
        let mut half = r.clone();
        half.steps.pop();
        assert_eq!(
            check(&run(vec![r.clone()]), &run(vec![half])).status,
            Status::Fail
        );
        let mut worse = r.clone();
        worse.losses = vec![3.0, 2.9];
        assert_eq!(
            check(&run(vec![r.clone()]), &run(vec![worse.clone()])).status,
            Status::Fail
        );
        // Noisy losses: apart by less than three standard errors of their difference.
        let mut noisy = r.clone();
        noisy.losses = vec![0.5, 3.0];
        let mut other = r.clone();
        other.losses = vec![0.4, 4.0];
        assert_eq!(
            check(&run(vec![noisy]), &run(vec![other])).status,
            Status::Pass
        );
        assert_eq!(
            check(&run(vec![r.clone()]), &run(vec![worse])).status,
            Status::Fail
        );
        let mut lr = r.clone();
        lr.steps[1].lr = vec![0.05];
        assert_eq!(check(&run(vec![r]), &run(vec![lr])).status, Status::Fail);
    }
}
