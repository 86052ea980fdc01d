//! **loss on 2** — rank 0's loss on two processes follows the original's.
//!
//! Trigger: both the original and rank 0 of the 2-process run recorded scalar losses. Compares
//! the mean of the second half of each (after the first steps' transient).
//! Why: on two processes each rank trains on its half of the data with averaged gradients (and,
//! where the rewrite scales it, a larger learning rate), so its loss is not the original's step
//! for step — but it must stay in the same range. A loss that becomes NaN or infinite, or ends
//! far above the original's, is a run that diverged: a rate scaled twice, gradients summed
//! instead of averaged, a warm-up that never ran.
//! Tolerance: rank 0's mean may exceed the original's by 50% plus 0.1, or three standard errors
//! of their difference (a few noisy steps are no divergence); lower is never a fault. Not judged
//! where several optimizers step different parameters (a GAN's losses pull against each other).
//!
//! Example: a learning rate multiplied by the number of processes twice on a small model →
//! FAIL "rank 0's loss on 2 processes ends at nan (the original's: 0.41)".

use crate::verify::checks::mean;
use crate::verify::checks::one_process::std_err;
use crate::verify::{Check, Run, Status};

pub fn check(original: &Run, two: &Run) -> Check {
    let (Some(o), Some(a)) = (original.record(0), two.record(0)) else {
        return Check::new("loss on 2", Status::NotRun, "a process wrote no record");
    };
    if o.losses.len() < 2 || a.losses.len() < 2 {
        return Check::new("loss on 2", Status::NotRun, "fewer than 2 losses recorded");
    }
    // Optimizers stepping parameter sets of different sizes (a generator and a discriminator):
    // their losses pull against each other and need not settle where the original's did.
    let mut sizes: Vec<usize> = o.steps.iter().map(|s| s.params.len()).collect();
    sizes.sort_unstable();
    sizes.dedup();
    if sizes.len() > 1 {
        return Check::new(
            "loss on 2",
            Status::NotRun,
            "several optimizers step different parameters (an adversarial pair?): their losses are not judged",
        );
    }
    let tail = |xs: &[f64]| xs[xs.len() / 2..].to_vec();
    let (to, ta) = (tail(&o.losses), tail(&a.losses));
    let (lo, la) = (mean(&to), mean(&ta));
    if !lo.is_finite() {
        return Check::new(
            "loss on 2",
            Status::NotRun,
            format!("the original's own loss is {lo}"),
        );
    }
    let noise = 3.0 * (std_err(&to).powi(2) + std_err(&ta).powi(2)).sqrt();
    if !la.is_finite() || la - lo > (0.5 * lo.abs() + 0.1).max(noise) {
        return Check::new(
            "loss on 2",
            Status::Fail,
            format!(
                "rank 0's loss on 2 processes ends at {la:.4} (mean of its last {} losses), the original's at {lo:.4}: the run diverged (a learning rate scaled twice, gradients summed rather than averaged?)",
                ta.len()
            ),
        );
    }
    Check::new(
        "loss on 2",
        Status::Pass,
        format!("rank 0 ends at a mean loss of {la:.4}, the original at {lo:.4}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Record;
    use crate::verify::checks::test_support::run;

    fn losses(xs: &[f64]) -> Run {
        run(vec![Record {
            losses: xs.to_vec(),
            ..Record::default()
        }])
    }

    #[test]
    fn a_loss_in_range_passes_and_a_diverged_one_fails() {
        let o = losses(&[1.0, 0.8, 0.6, 0.5, 0.45, 0.4]);
        assert_eq!(
            check(&o, &losses(&[1.0, 0.9, 0.7, 0.55, 0.5, 0.48])).status,
            Status::Pass
        );
        let c = check(&o, &losses(&[1.0, 3.0, 9.0, f64::NAN, f64::NAN, f64::NAN]));
        assert_eq!(c.status, Status::Fail);
        assert!(c.evidence.contains("diverged"), "{}", c.evidence);
        assert_eq!(
            check(&o, &losses(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])).status,
            Status::Fail
        );
    }

    #[test]
    fn too_few_losses_is_not_decided() {
        assert_eq!(
            check(&losses(&[1.0]), &losses(&[1.0])).status,
            Status::NotRun
        );
    }
}
