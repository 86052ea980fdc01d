//! Quick fixes: every fix the checker offers, applied to the choreography, removes the finding
//! it was offered for (and adds none at that place); half of a fix does not.

use std::path::Path;
use std::sync::Arc;

use ranklift_choreo::compile;
use ranklift_python::Diagnostic;

fn apply(text: &str, edits: &[(ruff_text_size::TextRange, String)]) -> String {
    let mut out = text.to_owned();
    let mut edits = edits.to_vec();
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start()));
    for (r, t) in edits {
        out.replace_range(usize::from(r.start())..usize::from(r.end()), &t);
    }
    out
}

fn errors(path: &str, text: &str) -> Vec<Diagnostic> {
    compile(path, &Arc::from(text)).err().unwrap_or_default()
}

#[test]
fn koc_fixes_resolve_the_finding() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fail");
    let mut fixed = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "py") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.display().to_string();
        for d in errors(&name, &text) {
            let Some(fix) = &d.fix else { continue };
            let at = |ds: &[Diagnostic]| {
                ds.iter()
                    .any(|e| e.code == d.code && e.line == d.line && e.message == d.message)
            };
            let after = apply(&text, &fix.edits);
            let left = errors(&name, &after);
            assert!(
                !at(&left),
                "{name}: the fix did not resolve {}\n{after}",
                d.headline()
            );
            // The fix inserts inside the branches, below the `if`: the `if` keeps its line,
            // and no new error may sit there.
            assert!(
                !left.iter().any(|e| e.line == d.line),
                "{name}: a new error at the fixed line:\n{after}"
            );
            // Negative control: the first edit alone leaves the other branch uninformed.
            if fix.edits.len() == 2 {
                let half = apply(&text, &fix.edits[..1]);
                assert!(
                    !errors(&name, &half).is_empty(),
                    "{name}: half a fix resolved it"
                );
            }
            fixed.push(format!(
                "{}:{}",
                path.file_name().unwrap().to_string_lossy(),
                d.line
            ));
        }
    }
    fixed.sort();
    // g01 (forwarded through Seller), g02 (same label, different continuations), g15 (select
    // before knowing), g16 (different channels), g24 (the channel is a local of the `@entry`
    // method) are if/else with a channel in scope and an enum to take labels from.
    eprintln!("fixes offered: {fixed:?}");
    assert!(
        fixed
            .iter()
            .any(|f| f.starts_with("g24_koc_local_channel.py")),
        "{fixed:?}"
    );
    assert!(fixed.len() >= 5, "fixes offered: {fixed:?}");
}
