//! **teardown** — every rank tears its process group down before it exits.
//!
//! Trigger: the ranks recorded whether torch.distributed's process group was still up at exit
//! (PyTorch; TensorFlow's engines record nothing and the line is not shown). Judged only on a run
//! that went to its end: a run the step budget stopped never reached the program's last line.
//! Why: a process group left up at exit is torn down by the interpreter in an arbitrary order;
//! PyTorch warns about it, and with NCCL it can hang the exit or leak the communicator. The
//! rewrite ends the main script with `dist.destroy_process_group()`; an early `sys.exit` or a
//! `return` out of `main()` skips it.
//! Evidence on failure: the ranks that exited with the group still up.
//!
//! Example: `if args.dry_run: sys.exit(0)` before the end of a rewritten script → FAIL
//! "rank 0, rank 1 exited with the process group still up".

use crate::verify::{Check, Run, Status};

pub fn check(two: &Run) -> Option<Check> {
    let left: Vec<Option<bool>> = two
        .records
        .iter()
        .map(|r| r.as_ref().and_then(|r| r.process_group_left))
        .collect();
    if left.iter().all(Option::is_none) {
        return None;
    }
    if two.records.iter().flatten().any(|r| r.stopped.is_some()) {
        return Some(Check::new(
            "teardown",
            Status::NotRun,
            "the step budget stopped the run before the program's end (--verify-steps 0 runs it whole)",
        ));
    }
    let up: Vec<String> = left
        .iter()
        .enumerate()
        .filter(|(_, l)| **l == Some(true))
        .map(|(r, _)| format!("rank {r}"))
        .collect();
    Some(if up.is_empty() {
        Check::new(
            "teardown",
            Status::Pass,
            "every rank destroyed its process group before exiting",
        )
    } else {
        Check::new(
            "teardown",
            Status::Fail,
            format!(
                "{} exited with the process group still up: the program's end (`dist.destroy_process_group()`) was not reached",
                up.join(", ")
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Record;
    use crate::verify::checks::test_support::run;

    fn rec(left: Option<bool>, stopped: bool) -> Record {
        Record {
            process_group_left: left,
            stopped: stopped.then(|| "the step budget".to_owned()),
            ..Record::default()
        }
    }

    #[test]
    fn a_group_left_up_fails_unless_the_budget_stopped_the_run() {
        let ok = run(vec![rec(Some(false), false), rec(Some(false), false)]);
        assert_eq!(check(&ok).map(|c| c.status), Some(Status::Pass));
        let up = run(vec![rec(Some(true), false), rec(Some(false), false)]);
        let c = check(&up).expect("judged");
        assert_eq!(c.status, Status::Fail);
        assert!(c.evidence.starts_with("rank 0 exited"), "{}", c.evidence);
        let stopped = run(vec![rec(Some(true), true), rec(Some(true), true)]);
        assert_eq!(check(&stopped).map(|c| c.status), Some(Status::NotRun));
        assert!(check(&run(vec![rec(None, false), rec(None, false)])).is_none());
    }
}
