//! **learning rate** — on two processes, rank 0's learning rates follow the original's schedule
//! (times the number of processes when the rewrite scales them).
//!
//! Compares: the learning rate of every parameter group at each step, rank 0 against the
//! original. How they align depends on what the original's schedule counts:
//! - rates that change only between passes over the data (constant rates, schedules stepped
//!   per epoch): step for step — the recorder cuts every pass to the same number of batches, so
//!   both runs cross epochs at the same steps;
//! - rates that change within a pass (a schedule counted in optimizer steps): rank 0's step i
//!   against the original's step 2i, within 5% (the schedule's own step offsets) — the rewrite
//!   must shorten it to each rank's half of the steps (`OneCycleLR(..., total_steps=N //
//!   WORLD_SIZE)`), or it never reaches its end.
//!
//! A scaled rate reached through a warm-up (Horovod's convention) passes while it rises from the
//! original's rate towards the scaled one; still at the original's after every step of the
//! budget, it is not decided (a warm-up over epochs of hundreds of steps has not moved yet).
//!
//! First, rank 0 and rank 1 must train at the same rate at every step: rates that differ between
//! the ranks fail whatever the original did.
//!
//! Why: a schedule that is not shortened with the epochs never reaches its end; one shortened
//! twice, or a warm-up or scaling applied twice, trains at other rates — silently.
//! Evidence on failure: the first step and group whose rate fits neither alignment.

use crate::verify::{Check, Run, Status};

pub fn check(original: &Run, two: &Run, scaled: bool) -> Check {
    let (Some(o), Some(a)) = (original.record(0), two.record(0)) else {
        return Check::new("learning rate", Status::NotRun, "a process wrote no record");
    };
    if let Some(shown) = two.record(1).and_then(|b| ranks_apart(a, b)) {
        return Check::new("learning rate", Status::Fail, shown);
    }
    let factor = if scaled { two.processes as f64 } else { 1.0 };
    let n = o.steps.len().min(a.steps.len());
    if n == 0 {
        return Check::new(
            "learning rate",
            Status::NotRun,
            "no optimizer step was taken",
        );
    }
    // Exact for the same step; within 5% for step 2i (the schedule's own step offsets).
    let same = |u: f64, v: f64, tol: f64| {
        (u * factor - v).abs() <= tol * (u * factor).abs().max(v.abs()).max(1e-12)
    };
    // Does the original's rate change between two steps of one pass?
    let per_step = o.steps.windows(2).any(|w| {
        w[0].in_pass.is_some()
            && w[0].in_pass == w[1].in_pass
            && w[0].lr.iter().zip(&w[1].lr).any(|(u, v)| u != v)
    });
    // The first (step, group) of rank 0 whose rate differs from the original's at `stride * i`.
    let mismatch = |stride: usize| {
        let tol = if stride == 1 { 1e-9 } else { 0.05 };
        (0..a.steps.len())
            .take_while(|i| stride * i < o.steps.len())
            .find_map(|i| {
                let (x, y) = (&o.steps[stride * i].lr, &a.steps[i].lr);
                x.iter()
                    .zip(y)
                    .position(|(u, v)| !same(*u, *v, tol))
                    .map(|g| (i, g, x[g], y[g]))
            })
    };
    let step_for_step = mismatch(1);
    if step_for_step.is_none() && !per_step {
        return Check::new(
            "learning rate",
            Status::Pass,
            if scaled {
                format!("the original's rates times {factor} at each of {n} steps")
            } else {
                format!("the original's rates at each of {n} steps")
            },
        );
    }
    if let Some(shown) = warm_up(o, a, factor).filter(|_| scaled) {
        return Check::new("learning rate", Status::Pass, shown);
    }
    if scaled && !per_step && still_at_the_original(o, a) {
        return Check::new(
            "learning rate",
            Status::NotRun,
            format!(
                "rank 0 trains at the original's rates, not yet {factor} times them, over its {} steps: a warm-up towards the scaled rate (Horovod's LearningRateWarmupCallback, over its first epochs) starts there, and a missing scale looks the same this early (a larger --verify-steps reaches further into the warm-up)",
                a.steps.len()
            ),
        );
    }
    let compared = a.steps.len().min(o.steps.len().div_ceil(2));
    if compared >= 2 && mismatch(2).is_none() {
        return Check::new(
            "learning rate",
            Status::Pass,
            format!(
                "a schedule counted in steps, run over each rank's half of them: rank 0's step i has the original's rate at step 2i ({compared} steps compared)"
            ),
        );
    }
    if per_step {
        let Some((i, g, u, v)) = mismatch(2) else {
            return Check::new(
                "learning rate",
                Status::NotRun,
                "a schedule counted in steps, and too few steps to compare (raise --verify-steps)",
            );
        };
        return Check::new(
            "learning rate",
            Status::Fail,
            format!(
                "the original's schedule moves every step; on 2 processes each rank takes half the steps, so rank 0's step {} should have the original's rate at step {} ({}), but has {v} (parameter group {g}): the schedule was not shortened to the rank's steps",
                i + 1,
                2 * i + 1,
                u * factor
            ),
        );
    }
    let (i, g, u, v) = step_for_step.unwrap_or_default();
    Check::new(
        "learning rate",
        Status::Fail,
        format!(
            "step {}, parameter group {g}: the original's rate is {u}, rank 0's {v} (expected {})",
            i + 1,
            u * factor,
        ),
    )
}

/// Rank 0 warms up from the original's rate towards `n` times it — Horovod's convention for
/// scaled rates (`LearningRateWarmupCallback`): every rate between the original's at the same
/// step and `n` times it (5% either way) — a rate that falls below the original's is a schedule
/// gone wrong — rising from step to step except where a new optimizer starts over (a second
/// `fit` after `compile`), and some rate above the original's. What to show, if so.
fn warm_up(o: &crate::verify::Record, a: &crate::verify::Record, n: f64) -> Option<String> {
    let groups = o.steps.first()?.lr.len();
    if groups == 0 || a.steps.len() < 2 || a.steps.len() > o.steps.len() {
        return None;
    }
    let mut restarts = 0;
    for g in 0..groups {
        // The original's rate at the same step (a program whose phases train at different
        // rates — fit, then a tape loop — is compared phase by phase).
        let base: Vec<f64> = o
            .steps
            .iter()
            .filter_map(|s| s.lr.get(g).copied())
            .collect();
        let lrs: Vec<f64> = a
            .steps
            .iter()
            .filter_map(|s| s.lr.get(g).copied())
            .collect();
        if lrs.len() != a.steps.len() || base.len() != o.steps.len() {
            return None;
        }
        let within = |i: usize| lrs[i] >= base[i] * 0.95 && lrs[i] <= base[i] * n * 1.05;
        if !(0..lrs.len()).all(within) || !(0..lrs.len()).any(|i| lrs[i] > base[i] * 1.05) {
            return None;
        }
        // A fall (within the band checked above) is a new optimizer starting over: Horovod's
        // callback starts a warm-up a step or two in, not exactly at the original's rate.
        restarts += (1..lrs.len()).filter(|&i| lrs[i] < lrs[i - 1]).count();
    }
    let lr = |i: usize| a.steps[i].lr[0];
    Some(format!(
        "a warm-up from the original's rate towards {n} times it: {} -> {} over {} steps{}",
        short(lr(0)),
        short(lr(a.steps.len() - 1)),
        a.steps.len(),
        match restarts {
            0 => String::new(),
            k => format!(" (started over {k} time(s): a new optimizer, or a part without warm-up)"),
        }
    ))
}

/// The first step at which rank 0 and rank 1 train at different rates, said: the ranks run one
/// schedule in lockstep, so rates that differ are a schedule counted in each rank's own steps —
/// uneven shares of the data (a warm-up's epoch fraction over a different number of batches per
/// epoch), or a per-rank plateau.
fn ranks_apart(a: &crate::verify::Record, b: &crate::verify::Record) -> Option<String> {
    a.steps.iter().zip(&b.steps).enumerate().find_map(|(i, (x, y))| {
        let g = x.lr.iter().zip(&y.lr).position(|(u, v)| u != v)?;
        Some(format!(
            "from step {}, rank 0 and rank 1 train at different rates ({} and {}, parameter group {g}): each counts the schedule in its own steps — uneven shares of the data (one rank has more batches per epoch: a warm-up's epoch fraction then differs), or a schedule driven by a rank's own metric",
            i + 1,
            x.lr[g],
            y.lr[g]
        ))
    })
}

/// Every rate rank 0 trained at is the original's at the same step (5% either way): the first
/// steps of a warm-up that has not moved yet (it rises by a fraction of the rate per epoch, an
/// epoch being hundreds of steps on a real data set) — started over, possibly, by a second
/// `fit`'s new optimizer, back at the original's rate.
fn still_at_the_original(o: &crate::verify::Record, a: &crate::verify::Record) -> bool {
    a.steps.len() <= o.steps.len()
        && a.steps.iter().zip(&o.steps).all(|(x, y)| {
            x.lr.len() == y.lr.len()
                && x.lr
                    .iter()
                    .zip(&y.lr)
                    .all(|(v, u)| (v - u).abs() <= 0.05 * u.abs())
        })
}

/// A rate with six significant digits (`0.0010000000474974513` is `0.001`).
fn short(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let digits = (5 - x.abs().log10().floor() as i32).clamp(0, 17) as usize;
    let s = format!("{x:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Record;
    use crate::verify::checks::test_support::{run, steps};

    fn rates(lrs: &[f64]) -> Record {
        let mut r = Record {
            steps: steps(&vec![&["p"][..]; lrs.len()]),
            ..Record::default()
        };
        for (s, lr) in r.steps.iter_mut().zip(lrs) {
            s.lr = vec![*lr];
            s.in_pass = Some(0);
        }
        r
    }

    #[test]
    fn scaled_rates_are_expected_only_when_asked() {
        let o = rates(&[0.1]);
        let doubled = rates(&[0.2]);
        let two = run(vec![doubled.clone(), doubled]);
        assert_eq!(
            check(&run(vec![o.clone()]), &two, true).status,
            Status::Pass
        );
        assert_eq!(check(&run(vec![o]), &two, false).status, Status::Fail);
    }

    #[test]
    fn a_step_schedule_run_over_half_the_steps_passes_and_an_unchanged_one_fails() {
        let o = run(vec![rates(&[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])]);
        let halved = rates(&[0.1, 0.3, 0.5, 0.7, 0.9, 1.1, 1.3, 1.5]);
        let c = check(&o, &run(vec![halved.clone(), halved]), false);
        assert_eq!(c.status, Status::Pass, "{}", c.evidence);
        let other = rates(&[0.1, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]);
        assert_eq!(
            check(&o, &run(vec![other.clone(), other]), false).status,
            Status::Fail
        );
    }

    #[test]
    fn a_warm_up_towards_the_scaled_rate_passes_and_a_fall_fails() {
        let o = rates(&[0.1, 0.1, 0.1, 0.1]);
        let warm = rates(&[0.1, 0.12, 0.14, 0.16]);
        let c = check(&run(vec![o.clone()]), &run(vec![warm.clone(), warm]), true);
        assert_eq!(c.status, Status::Pass, "{}", c.evidence);
        assert!(c.evidence.contains("warm-up"), "{}", c.evidence);
        let falling = rates(&[0.1, 0.09, 0.08, 0.07]);
        let c = check(&run(vec![o]), &run(vec![falling.clone(), falling]), true);
        assert_eq!(c.status, Status::Fail, "{}", c.evidence);
    }

    /// Horovod's warm-up moves the rate by a fraction per epoch: 8 steps into a 422-step epoch
    /// it is still the original's (0.001 → 0.00100158), which a missing scale would also show.
    #[test]
    fn a_warm_up_that_has_not_moved_yet_is_not_decided() {
        let o = rates(&[0.001; 8]);
        let early: Vec<f64> = (0..8)
            .map(|i| 0.001 * (1.0 + i as f64 / 422.0 / 3.0))
            .collect();
        let early = rates(&early);
        let c = check(
            &run(vec![o.clone()]),
            &run(vec![early.clone(), early.clone()]),
            true,
        );
        assert_eq!(c.status, Status::NotRun, "{}", c.evidence);
        // Unscaled rates are what an unscaled rewrite must have: that passes, as before.
        let c = check(
            &run(vec![o.clone()]),
            &run(vec![early.clone(), early]),
            false,
        );
        assert_eq!(c.status, Status::Pass, "{}", c.evidence);
        // A rate that falls below the original's is still a failure.
        let low = rates(&[0.001, 0.001, 0.0009, 0.0009, 0.0009, 0.0009, 0.0009, 0.0009]);
        let c = check(&run(vec![o]), &run(vec![low.clone(), low]), true);
        assert_eq!(c.status, Status::Fail, "{}", c.evidence);
    }

    /// keras3 cutmix: two `fit`s, each with its own warm-up over 3 epochs of ~780 steps; the
    /// budget's steps reach the second `fit` before either warm-up has moved 5%.
    #[test]
    fn warm_ups_started_over_before_they_moved_are_not_decided() {
        let o = rates(&[0.001; 6]);
        let early = rates(&[0.001, 0.0010004, 0.0010009, 0.001, 0.0010004, 0.0010009]);
        let c = check(
            &run(vec![o.clone()]),
            &run(vec![early.clone(), early]),
            true,
        );
        assert_eq!(c.status, Status::NotRun, "{}", c.evidence);
        // Below the original's rate after the restart is still a failure.
        let low = rates(&[0.001, 0.0010004, 0.0010009, 0.0009, 0.0009, 0.0009]);
        let c = check(&run(vec![o]), &run(vec![low.clone(), low]), true);
        assert_eq!(c.status, Status::Fail, "{}", c.evidence);
    }

    #[test]
    fn a_warm_up_started_over_by_a_new_optimizer_passes() {
        let o = rates(&[0.1; 6]);
        let warm = rates(&[0.1, 0.12, 0.14, 0.1, 0.11, 0.2]);
        let c = check(&run(vec![o.clone()]), &run(vec![warm.clone(), warm]), true);
        assert_eq!(c.status, Status::Pass, "{}", c.evidence);
        assert!(c.evidence.contains("started over 1 time"), "{}", c.evidence);
        // Beyond twice the rate is no warm-up towards it.
        let over = rates(&[0.1, 0.2, 0.3, 0.3, 0.3, 0.3]);
        let c = check(&run(vec![o]), &run(vec![over.clone(), over]), true);
        assert_eq!(c.status, Status::Fail, "{}", c.evidence);
    }

    /// keras3 cutmix, sharded after batching (782 and 781 batches an epoch): Horovod's warm-up
    /// moves by the epoch's fraction, so the ranks' rates part from step 2.
    #[test]
    fn ranks_at_different_rates_fail() {
        let o = rates(&[0.001, 0.001, 0.001]);
        let r0 = rates(&[0.001, 0.0010004263604059815, 0.00100085255689919]);
        let r1 = rates(&[0.001, 0.0010004268260672688, 0.0010008536046370864]);
        let c = check(&run(vec![o.clone()]), &run(vec![r0.clone(), r1]), true);
        assert_eq!(c.status, Status::Fail, "{}", c.evidence);
        assert!(
            c.evidence.contains("from step 2, rank 0 and rank 1"),
            "{}",
            c.evidence
        );
        // The same rates on both ranks: the warm-up passes.
        let c = check(&run(vec![o]), &run(vec![r0.clone(), r0]), true);
        assert_ne!(c.status, Status::Fail, "{}", c.evidence);
    }

    #[test]
    fn rates_are_shown_short() {
        assert_eq!(short(0.0010000000474974513), "0.001");
        assert_eq!(short(0.0011060606921091676), "0.00110606");
        assert_eq!(short(0.1), "0.1");
    }
}
