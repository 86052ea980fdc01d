//! **time per step** — the median time between optimizer steps, original and rank 0 on two
//! processes (shown, not judged: on CPU two processes share the cores, and gloo is slower than
//! NCCL, so this says what the communication costs here, not what a GPU cluster will do).

use crate::verify::{Check, Record, Run, Status};

pub fn check(original: &Run, two: &Run) -> Check {
    let (Some(o), Some(a)) = (original.record(0), two.record(0)) else {
        return Check::new("time per step", Status::NotRun, "a process wrote no record");
    };
    match (median_step(o), median_step(a)) {
        (Some(x), Some(y)) => Check::new(
            "time per step",
            Status::Info,
            format!(
                "{:.1} ms on 1 process, {:.1} ms on each of 2",
                x * 1e3,
                y * 1e3
            ),
        ),
        _ => Check::new("time per step", Status::NotRun, "fewer than 3 steps"),
    }
}

fn median_step(r: &Record) -> Option<f64> {
    let mut d: Vec<f64> = r
        .steps
        .windows(2)
        .skip(1)
        .map(|w| w[1].t - w[0].t)
        .collect();
    if d.is_empty() {
        return None;
    }
    d.sort_by(f64::total_cmp);
    Some(d[d.len() / 2])
}
