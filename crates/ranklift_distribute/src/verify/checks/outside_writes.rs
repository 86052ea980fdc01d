//! **outside writes** — what the program wrote outside its project (shown, not judged).
//!
//! The verification runs in a scratch copy of the project; a write the program makes outside
//! it (an absolute path, a linked data directory) is redirected into the scratch directory so
//! the user's files are never touched, and listed here: on the cluster those writes are real,
//! and every rank makes the ones rank 0's guard does not cover.

use crate::verify::{Check, Evidence, Status};

pub fn check(e: &Evidence) -> Check {
    let mut paths: Vec<&str> = [&e.original, &e.one, &e.two]
        .iter()
        .flat_map(|r| r.records.iter().flatten())
        .flat_map(|r| r.redirected.iter().map(String::as_str))
        .collect();
    paths.sort_unstable();
    paths.dedup();
    if paths.is_empty() {
        return Check::new(
            "outside writes",
            Status::Pass,
            "every write stayed inside the project",
        );
    }
    let shown: Vec<&str> = paths.iter().take(5).copied().collect();
    Check::new(
        "outside writes",
        Status::Info,
        format!(
            "{} path(s) outside the project were written (redirected during verification, not performed): {}{}",
            paths.len(),
            shown.join(", "),
            if paths.len() > 5 { ", …" } else { "" }
        ),
    )
}
