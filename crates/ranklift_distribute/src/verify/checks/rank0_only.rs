//! **rank 0 only** — only rank 0 prints the program's output and writes files.
//!
//! Compares: rank 1's standard output and the files it opened for writing (a `torch.save`
//! included) against nothing; rank 0's output against the original's.
//! Why: N ranks printing the same log line N times is noise; N ranks writing the same
//! checkpoint, image or log file race each other and can leave it torn. The rewrite guards
//! output with `if RANK == 0:`; a write it missed (a helper module, a logging client, a
//! callback) shows here.
//! Evidence on failure: what rank 1 printed or wrote, with the line of the program that did it.

use crate::verify::{Check, Run, Status};

pub fn check(original: &Run, two: &Run) -> Check {
    let (Some(a), Some(b)) = (two.record(0), two.record(1)) else {
        return Check::new("rank 0 only", Status::NotRun, "a rank wrote no record");
    };
    let mut faults = Vec::new();
    if let Some(first) = two
        .stdout
        .get(1)
        .and_then(|s| s.lines().find(|l| !l.trim().is_empty()))
    {
        let at = b
            .prints
            .iter()
            .flatten()
            .next()
            .map(|l| format!(" (print at {l})"))
            .unwrap_or_default();
        faults.push(format!("rank 1 printed {first:?}{at}"));
    }
    // torch.save and Keras' savers write through their own file layers, not `open`: their calls
    // count as writes.
    for s in b.saves.iter().take(5) {
        let at =
            s.at.as_deref()
                .map(|l| format!(" at {l}"))
                .unwrap_or_default();
        let path = s.path.as_deref().unwrap_or("a file object");
        let via = s.via.as_deref().unwrap_or("torch.save");
        faults.push(format!("rank 1 saved {path} with {via}{at}"));
    }
    for w in b.writes.iter().take(5) {
        let at =
            w.at.as_deref()
                .map(|l| format!(" at {l}"))
                .unwrap_or_default();
        faults.push(format!("rank 1 wrote {}{at}", w.path));
    }
    if b.writes.len() > 5 {
        faults.push(format!("… {} more writes on rank 1", b.writes.len() - 5));
    }
    let printed = |s: Option<&String>| s.is_some_and(|s| !s.trim().is_empty());
    if printed(original.stdout.first()) && !printed(two.stdout.first()) {
        faults.push("rank 0 printed nothing where the original printed".into());
    }
    // The same write in every epoch is one fault.
    let mut seen = std::collections::HashSet::new();
    faults.retain(|f| seen.insert(f.clone()));
    if faults.is_empty() {
        Check::new(
            "rank 0 only",
            Status::Pass,
            format!(
                "rank 1 printed nothing and wrote nothing; rank 0 wrote {} file(s)",
                a.writes.len() + a.saves.len()
            ),
        )
    } else {
        Check::new("rank 0 only", Status::Fail, faults.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::checks::test_support::run;
    use crate::verify::{Record, Write};

    #[test]
    fn a_rank_one_write_is_named_with_its_line() {
        let orig = run(vec![Record::default()]);
        let quiet = run(vec![Record::default(), Record::default()]);
        assert_eq!(check(&orig, &quiet).status, Status::Pass);
        let mut b = Record::default();
        b.writes.push(Write {
            path: "ckpt.pt".into(),
            at: Some("train.py:40".into()),
        });
        let c = check(&orig, &run(vec![Record::default(), b]));
        assert_eq!(c.status, Status::Fail);
        assert!(
            c.evidence.contains("ckpt.pt at train.py:40"),
            "{}",
            c.evidence
        );
        let mut saver = Record::default();
        saver.saves.push(crate::verify::Save {
            path: Some("<tmp>/m.pt".into()),
            ..Default::default()
        });
        let c = check(&orig, &run(vec![Record::default(), saver]));
        assert!(
            c.evidence.contains("rank 1 saved <tmp>/m.pt"),
            "{}",
            c.evidence
        );
        let mut loud = quiet;
        loud.stdout[1] = "epoch 0\n".into();
        assert!(check(&orig, &loud).evidence.contains("epoch 0"));
    }
}
