//! **checkpoints** — every checkpoint the original saves, rank 0 saves too, and it loads into
//! the original, unwrapped model.
//!
//! Compares: the files the original passed to `torch.save` (or Keras' `Model.save`,
//! `save_weights`, ModelCheckpoint's too) with rank 0's: the same files, the same tensor keys and
//! shapes (a Keras model's weights by path), and no DistributedDataParallel object pickled into
//! them.
//! Why: `model.state_dict()` of a DDP wrapper prefixes every key with `module.`, so the file no
//! longer loads into the plain model; a pickled wrapper needs a process group to load at all.
//! Evidence on failure: the file, and the keys that differ or the wrapper found.

use crate::verify::{Check, Run, Save, Status};

pub fn check(original: &Run, two: &Run) -> Check {
    let (Some(o), Some(a)) = (original.record(0), two.record(0)) else {
        return Check::new("checkpoints", Status::NotRun, "a process wrote no record");
    };
    if let Some(s) = a.saves.iter().find(|s| s.wraps_ddp) {
        return Check::new(
            "checkpoints",
            Status::Fail,
            format!(
                "{}{}: the saved object contains the DistributedDataParallel wrapper; loading it needs a process group — save model.module (or its state_dict) instead",
                name(s),
                s.at.as_deref()
                    .map(|l| format!(" (saved at {l})"))
                    .unwrap_or_default()
            ),
        );
    }
    if o.saves.is_empty() {
        return Check::new(
            "checkpoints",
            Status::NotRun,
            "the original saved no checkpoint (torch.save, Keras' Model.save or save_weights) within the budget",
        );
    }
    for s in &o.saves {
        let Some(r) = a.saves.iter().find(|r| r.path == s.path) else {
            return Check::new(
                "checkpoints",
                Status::Fail,
                format!("rank 0 did not save {} (the original did)", name(s)),
            );
        };
        if r.keys != s.keys {
            let mut diff: Vec<&String> = r
                .keys
                .keys()
                .filter(|k| !s.keys.contains_key(*k))
                .chain(s.keys.keys().filter(|k| !r.keys.contains_key(*k)))
                .take(3)
                .collect();
            diff.sort();
            return Check::new(
                "checkpoints",
                Status::Fail,
                format!(
                    "{}: its tensors differ from the original's checkpoint, so it does not load into the original model (e.g. {})",
                    name(s),
                    diff.iter()
                        .map(|k| k.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
    }
    Check::new(
        "checkpoints",
        Status::Pass,
        format!(
            "{} file(s) saved by rank 0 with the original's keys and shapes",
            o.saves.len()
        ),
    )
}

fn name(s: &Save) -> &str {
    s.path.as_deref().unwrap_or("a file object")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Record;
    use crate::verify::checks::test_support::run;

    fn saving(key: &str) -> Record {
        Record {
            saves: vec![Save {
                path: Some("model.pt".into()),
                keys: [(key.to_owned(), vec![4, 2])].into(),
                ..Save::default()
            }],
            ..Record::default()
        }
    }

    #[test]
    fn module_prefix_and_pickled_wrapper_fail() {
        let orig = run(vec![saving("0.weight")]);
        let ok = run(vec![saving("0.weight"), Record::default()]);
        assert_eq!(check(&orig, &ok).status, Status::Pass);
        let c = check(
            &orig,
            &run(vec![saving("module.0.weight"), Record::default()]),
        );
        assert_eq!(c.status, Status::Fail);
        assert!(c.evidence.contains("module.0.weight"), "{}", c.evidence);
        let mut wrapped = saving("0.weight");
        wrapped.saves[0].wraps_ddp = true;
        let c = check(&orig, &run(vec![wrapped, Record::default()]));
        assert!(c.evidence.contains("DistributedDataParallel"));
    }
}
