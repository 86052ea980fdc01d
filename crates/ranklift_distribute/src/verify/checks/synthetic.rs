//! **synthetic data** — which datasets the runs read as seeded stand-ins (`--synthetic-data`).
//!
//! Trigger: the runs had the synthetic datasets (`python/ranklift/synthetic_data.py`). Effect: a
//! line that names every stand-in a process loaded — or says that the program loaded none, so the
//! data it trained on was its own. Shown, not judged.
//!
//! Why: a verdict reached on stand-in data proves the distribution (split, replicas, writes), not
//! the data pipeline the user will run; the table must say which was which. And a flag that
//! changed nothing must not look like one that did.
//!
//! Example: `datasets.MNIST("data", download=True)` under `--synthetic-data` →
//! `NOTE  synthetic data  seeded stand-ins, nothing downloaded: torchvision.datasets.MNIST`.

use crate::verify::{Check, Evidence, Status};

pub fn check(e: &Evidence) -> Option<Check> {
    if !e.synthetic {
        return None;
    }
    let mut used: Vec<&str> = Vec::new();
    for run in [&e.original, &e.one, &e.two] {
        for r in run.records.iter().flatten() {
            for name in &r.synthetic {
                if !used.contains(&name.as_str()) {
                    used.push(name);
                }
            }
        }
    }
    let evidence = if used.is_empty() {
        "asked for, but the program loaded none of the datasets it stands in for (torchvision's, \
         keras.datasets, downloads): it trained on its own data"
            .to_owned()
    } else {
        format!("seeded stand-ins, nothing downloaded: {}", used.join(", "))
    };
    Some(Check::new("synthetic data", Status::Info, evidence))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Record;
    use crate::verify::checks::test_support::run;

    fn evidence(names: &[&str], synthetic: bool) -> Evidence {
        let rec = Record {
            synthetic: names.iter().map(|s| s.to_string()).collect(),
            ..Record::default()
        };
        let r = run(vec![rec.clone(), rec]);
        Evidence {
            original: r.clone(),
            one: r.clone(),
            two: r,
            lr_scaled: false,
            synthetic,
        }
    }

    #[test]
    fn names_each_stand_in_once() {
        let c = check(&evidence(
            &["torchvision.datasets.MNIST", "urllib.request.urlretrieve"],
            true,
        ))
        .expect("a line when asked for");
        assert_eq!(c.status, Status::Info);
        assert_eq!(
            c.evidence,
            "seeded stand-ins, nothing downloaded: torchvision.datasets.MNIST, urllib.request.urlretrieve"
        );
    }

    #[test]
    fn says_when_the_flag_changed_nothing() {
        let c = check(&evidence(&[], true)).expect("a line when asked for");
        assert!(c.evidence.contains("loaded none"), "{}", c.evidence);
    }

    #[test]
    fn silent_when_not_asked_for() {
        assert!(check(&evidence(&["torchvision.datasets.MNIST"], false)).is_none());
    }
}
