//! **runs** — every process of every run exited with status 0.
//!
//! Compares: the exit of the original, of the rewrite on one process and on two.
//! Why: a rewrite that crashes at start (a frozen module wrapped in DDP, a name used above its
//! definition, a file rank 0 writes read by every rank at once) is the first thing a user
//! meets on the cluster, after the queue wait.
//! Evidence on failure: the rank, its exit status and its traceback cut to the program's own
//! frames; for a hang, the ranks that did not finish and the last step each took.

use crate::verify::{Check, Evidence, Exit, Run, Status};

pub fn check(e: &Evidence) -> Check {
    let mut failures = Vec::new();
    for (label, run) in [
        ("the original", &e.original),
        ("the rewrite on 1 process", &e.one),
        ("the rewrite on 2 processes", &e.two),
    ] {
        if let Some(why) = describe(run) {
            failures.push(format!("{label}: {why}"));
        }
    }
    if failures.is_empty() {
        Check::new(
            "runs",
            Status::Pass,
            format!(
                "every process exited 0 (original {:.1} s, 1 process {:.1} s, 2 processes {:.1} s)",
                e.original.seconds, e.one.seconds, e.two.seconds
            ),
        )
    } else {
        Check::new("runs", Status::Fail, failures.join("\n"))
    }
}

fn describe(run: &Run) -> Option<String> {
    match &run.exit {
        Exit::Ok => None,
        Exit::Failed { rank, code, stderr } => {
            let who = if run.processes > 1 {
                format!("rank {rank} exited {code}")
            } else {
                format!("exited {code}")
            };
            Some(if stderr.trim().is_empty() {
                who
            } else {
                format!("{who}:\n{}", stderr.trim_end())
            })
        }
        Exit::Timeout { seconds, stalled } => {
            let ranks: Vec<String> = stalled
                .iter()
                .map(|(r, step)| format!("rank {r} (after step {step})"))
                .collect();
            Some(format!(
                "did not finish within {seconds} s; still running: {}",
                ranks.join(", ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::checks::test_support::run;

    #[test]
    fn a_failed_rank_is_named_with_its_traceback() {
        let ok = run(vec![Default::default()]);
        let mut two = run(vec![Default::default(), Default::default()]);
        two.exit = Exit::Failed {
            rank: 1,
            code: 1,
            stderr: "RuntimeError: boom".into(),
        };
        let e = Evidence {
            original: ok.clone(),
            one: ok.clone(),
            two,
            lr_scaled: false,
            synthetic: false,
        };
        let c = check(&e);
        assert_eq!(c.status, Status::Fail);
        assert!(c.evidence.contains("rank 1 exited 1"), "{}", c.evidence);
        assert!(c.evidence.contains("RuntimeError: boom"));
        let e = Evidence {
            two: ok.clone(),
            ..e
        };
        assert_eq!(check(&e).status, Status::Pass);
    }
}
