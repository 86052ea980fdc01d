//! The compiler never panics: every example with one line deleted, one line duplicated, or one
//! identifier renamed either compiles or gives diagnostics (each with a hint), and a successful
//! projection always parses (the assembler's re-parse guard would report an internal error).

use std::path::Path;
use std::sync::Arc;

fn sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for dir in [
        root.join("examples/choreo"),
        root.join("crates/ranklift_choreo/tests/fixtures/shared"),
        root.join("crates/ranklift_choreo/tests/fixtures/fail"),
        root.join("crates/ranklift_choreo/tests/fixtures/pass"),
    ] {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "py"))
            .collect();
        entries.sort();
        for p in entries {
            out.push((
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
    out
}

fn compile(path: &str, text: &str) {
    let t: Arc<str> = text.into();
    match ranklift_choreo::compile(path, &t) {
        Ok(p) => {
            assert!(
                ruff_python_parser::parse_module(&p.module).is_ok(),
                "{path}"
            );
        }
        Err(diags) => {
            assert!(!diags.is_empty());
            for d in diags {
                assert!(d.code != "E-INTERNAL", "{path}: {}", d.message);
                assert!(d.hint.is_some(), "{path}: {} has no hint", d.code);
            }
        }
    }
}

#[test]
fn line_mutations_never_panic() {
    let mut n = 0;
    for (path, text) in sources() {
        let lines: Vec<&str> = text.lines().collect();
        for i in 0..lines.len() {
            let mut del = lines.clone();
            del.remove(i);
            compile(&path, &(del.join("\n") + "\n"));
            let mut dup = lines.clone();
            dup.insert(i, lines[i]);
            compile(&path, &(dup.join("\n") + "\n"));
            n += 2;
        }
    }
    assert!(n > 1000, "{n} mutants");
}

#[test]
fn identifier_swaps_never_panic() {
    // Swap role names, channel names and labels with each other, one occurrence at a time.
    let words = [
        "A", "B", "C", "ch", "self", "com", "select", "At", "Channel", "None", "Ch2", "Ch3",
    ];
    let mut n = 0;
    for (path, text) in sources() {
        for w in words {
            for (k, (at, _)) in text.match_indices(w).enumerate() {
                if k > 40 {
                    break;
                }
                for other in words {
                    if other == w {
                        continue;
                    }
                    let mut t = text.clone();
                    t.replace_range(at..at + w.len(), other);
                    compile(&path, &t);
                    n += 1;
                }
            }
        }
    }
    assert!(n > 1000, "{n} mutants");
}
