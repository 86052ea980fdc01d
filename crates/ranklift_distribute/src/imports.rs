//! Imports a rewrite adds, placed where isort puts them (Ruff's `I` rules with their defaults),
//! and the setup code that follows them placed after the import block.
//!
//! **Trigger:** a rule needs a name the module does not import (`import os`,
//! `import torch.distributed as dist`, `from torch.nn.parallel import DistributedDataParallel as
//! DDP`) and the module's import block ends in a plain `import` statement.
//!
//! **Effect:** each import goes into the block at its sorted place: sections in isort's order
//! (`__future__`, standard library, third party, first party — the project's own modules —,
//! relative), a blank line between sections, and within a section every `import x` before every
//! `from x import y`, each ordered by module name (case-insensitive, digits compared as numbers),
//! then by the first imported name. A section the block lacks is opened with its blank lines.
//! Setup statements (`RANK = ...`) go after the block and its blank line, followed by one.
//!
//! **Why:** appended at the end of the block, the added lines turned a clean file into one a
//! reviewer's `ruff check --select I` rejects, and the first statements after the imports read as
//! part of them. A block that was already unsorted gets the same placement (best effort: its own
//! order is not changed).
//!
//! ```python
//! # before
//! import torch
//! from tqdm import tqdm
//!
//! STEPS = 10
//! # after
//! import os
//!
//! import torch
//! import torch.distributed as dist
//! from tqdm import tqdm
//!
//! RANK = int(os.environ.get("RANK", "0"))
//!
//! STEPS = 10
//! ```
use std::cmp::Ordering;

use ranklift_python::Edit;
use ruff_python_ast::Stmt;
use ruff_text_size::{Ranged, TextSize};

use crate::editor::Editor;

/// An import statement to add: `import module [as alias]` or
/// `from module import name [as alias]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewImport {
    pub module: String,
    pub name: Option<String>,
    pub alias: Option<String>,
}

impl NewImport {
    pub fn module(module: &str, alias: Option<&str>) -> Self {
        NewImport {
            module: module.to_owned(),
            name: None,
            alias: alias.filter(|a| *a != module).map(str::to_owned),
        }
    }
    pub fn from(module: &str, name: &str, alias: Option<&str>) -> Self {
        NewImport {
            module: module.to_owned(),
            name: Some(name.to_owned()),
            alias: alias.filter(|a| *a != name).map(str::to_owned),
        }
    }
    pub fn text(&self) -> String {
        let alias = self
            .alias
            .as_ref()
            .map(|a| format!(" as {a}"))
            .unwrap_or_default();
        match &self.name {
            None => format!("import {}{alias}", self.module),
            Some(n) => format!("from {} import {n}{alias}", self.module),
        }
    }
}

/// isort's sections, in their order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Section {
    Future,
    Stdlib,
    ThirdParty,
    FirstParty,
    Local,
}

/// Where an import sorts: section, `from` after plain, module, first name.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    section: Section,
    is_from: bool,
    module: String,
    member: String,
}

impl Key {
    fn cmp(&self, o: &Key) -> Ordering {
        self.section
            .cmp(&o.section)
            .then(self.is_from.cmp(&o.is_from))
            .then_with(|| natural(&self.module, &o.module))
            .then_with(|| natural(&self.member, &o.member))
    }
}

/// Case-insensitive natural order (`a2` before `a10`), as isort compares module names.
fn natural(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(&b),
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let n = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let k = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let (p, q) = (&x[..n], &y[..k]);
                let p = std::str::from_utf8(p).unwrap_or("").trim_start_matches('0');
                let q = std::str::from_utf8(q).unwrap_or("").trim_start_matches('0');
                let ord = p.len().cmp(&q.len()).then_with(|| p.cmp(q));
                if ord != Ordering::Equal {
                    return ord;
                }
                (x, y) = (&x[n..], &y[k..]);
            }
            (Some(c), Some(d)) if c != d => return c.cmp(d),
            _ => (x, y) = (&x[1..], &y[1..]),
        }
    }
}

fn section(ed: &Editor, module: &str, level: u32) -> Section {
    let top = module.split('.').next().unwrap_or(module);
    if level > 0 {
        Section::Local
    } else if top == "__future__" {
        Section::Future
    } else if ruff_python_stdlib::sys::is_known_standard_library(11, top) {
        Section::Stdlib
    } else if ed
        .idx
        .project
        .modules
        .iter()
        .any(|m| m.name.split('.').next() == Some(top))
    {
        Section::FirstParty
    } else {
        Section::ThirdParty
    }
}

fn existing_key(ed: &Editor, s: &Stmt) -> Option<Key> {
    match s {
        Stmt::Import(i) => {
            let first = i.names.first()?;
            let module = first.name.to_string();
            Some(Key {
                section: section(ed, &module, 0),
                is_from: false,
                module,
                member: String::new(),
            })
        }
        Stmt::ImportFrom(i) => {
            let module = i.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
            Some(Key {
                section: section(ed, &module, i.level),
                is_from: true,
                member: i
                    .names
                    .first()
                    .map(|a| a.name.to_string())
                    .unwrap_or_default(),
                module,
            })
        }
        _ => None,
    }
}

fn new_key(ed: &Editor, n: &NewImport) -> Key {
    Key {
        section: section(ed, &n.module, 0),
        is_from: n.name.is_some(),
        module: n.module.clone(),
        member: n.name.clone().unwrap_or_default(),
    }
}

/// The run of consecutive top-level import statements of module `m` that ends with `last`
/// (isort sorts each such block on its own), or None when `last` is not a top-level import.
pub fn block_ending_at<'a>(ed: &Editor<'a, '_>, m: usize, last: &Stmt) -> Option<Vec<&'a Stmt>> {
    let suite = ed.idx.project.modules[m].parsed.suite();
    let i = suite.iter().position(|s| s.range() == last.range())?;
    if !matches!(last, Stmt::Import(_) | Stmt::ImportFrom(_)) {
        return None;
    }
    let mut j = i;
    while j > 0 && matches!(suite[j - 1], Stmt::Import(_) | Stmt::ImportFrom(_)) {
        j -= 1;
    }
    Some(suite[j..=i].iter().collect())
}

/// The last statement of the run of consecutive top-level imports that holds `s` (`s` itself
/// when it is not a top-level import).
pub fn end_of_block<'a>(ed: &Editor<'a, '_>, m: usize, s: &'a Stmt) -> &'a Stmt {
    let suite = ed.idx.project.modules[m].parsed.suite();
    let Some(mut i) = suite.iter().position(|x| x.range() == s.range()) else {
        return s;
    };
    while i + 1 < suite.len() && matches!(suite[i + 1], Stmt::Import(_) | Stmt::ImportFrom(_)) {
        i += 1;
    }
    &suite[i]
}

/// Insert `new` into `block` (from [`block_ending_at`]) at their sorted places.
pub fn place(
    ed: &mut Editor,
    m: usize,
    rule: &'static str,
    block: &[&Stmt],
    new: &[NewImport],
    message: &str,
) {
    if new.is_empty() || block.is_empty() {
        return;
    }
    let nl = ed.nl(m);
    let keys: Vec<Option<Key>> = block.iter().map(|s| existing_key(ed, s)).collect();
    let mut news: Vec<(Key, String)> = new.iter().map(|n| (new_key(ed, n), n.text())).collect();
    news.sort_by(|a, b| a.0.cmp(&b.0));
    // The gap each new import falls into: before the first existing statement that sorts after
    // it (block.len(): after the last).
    let mut gaps: std::collections::BTreeMap<usize, Vec<(Key, String)>> = Default::default();
    for (k, text) in news {
        let g = keys
            .iter()
            .position(|e| e.as_ref().is_some_and(|e| e.cmp(&k) == Ordering::Greater))
            .unwrap_or(block.len());
        gaps.entry(g).or_default().push((k, text));
    }
    let mut message = message;
    for (g, group) in gaps {
        let prev = g
            .checked_sub(1)
            .and_then(|p| keys[p].as_ref().map(|k| (p, k.section)));
        let next = keys.get(g).and_then(|k| k.as_ref().map(|k| k.section));
        // After the previous statement: the new imports of its section (and, at the block's
        // end, every later section, each opened by a blank line).
        let mut after_prev = String::new();
        // Before the next statement (after the blank line that separates sections): new
        // sections between the two, each closed by a blank line, then those of its section.
        let mut before_next = String::new();
        let mut last_section = prev.map(|(_, s)| s);
        for (t, (k, text)) in group.iter().enumerate() {
            if prev.is_some_and(|(_, s)| s == k.section) || next.is_none() {
                if last_section.is_some_and(|s| s != k.section) {
                    after_prev.push_str(nl);
                }
                after_prev.push_str(text);
                after_prev.push_str(nl);
            } else {
                before_next.push_str(text);
                before_next.push_str(nl);
                // A section the block lacks: a blank line closes it.
                let closes = group
                    .get(t + 1)
                    .is_none_or(|(kk, _)| kk.section != k.section);
                if next != Some(k.section) && closes {
                    before_next.push_str(nl);
                }
            }
            last_section = Some(k.section);
        }
        if !after_prev.is_empty() {
            let p = prev.map_or(block.len() - 1, |(p, _)| p);
            let (at, need_nl) = ed.after_line(m, block[p].end());
            if need_nl {
                after_prev.insert_str(0, nl);
            }
            ed.edit(
                m,
                rule,
                block[p].start(),
                Edit::insert(at, after_prev),
                message,
            );
            message = "";
        }
        if !before_next.is_empty() {
            let s = block[g.min(block.len() - 1)];
            let at = ed.line_start(m, s.start());
            ed.edit(
                m,
                rule,
                s.start(),
                Edit::insert(at, before_next).first(),
                message,
            );
            message = "";
        }
    }
}

/// `new` as a block of its own: sorted, a blank line between sections, each line ended.
pub fn render(ed: &Editor, m: usize, new: &[NewImport]) -> String {
    let nl = ed.nl(m);
    let mut news: Vec<(Key, String)> = new.iter().map(|n| (new_key(ed, n), n.text())).collect();
    news.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::new();
    for (i, (k, text)) in news.iter().enumerate() {
        if i > 0 && news[i - 1].0.section != k.section {
            out.push_str(nl);
        }
        out.push_str(text);
        out.push_str(nl);
    }
    out
}

/// Where setup code that follows an import block ending with `last` goes, and the text to put
/// around it: after the block and the blank line after it (the setup then ends with a blank line
/// of its own), or right after the block with a blank line on each side when none follows.
pub fn after_block(ed: &Editor, m: usize, last: &Stmt) -> (TextSize, String, String) {
    let nl = ed.nl(m);
    let (at, need_nl) = ed.after_line(m, last.end());
    if need_nl {
        return (at, format!("{nl}{nl}"), String::new());
    }
    let src = ed.src(m);
    let rest = &src[usize::from(at)..];
    let line = &rest[..rest.find('\n').map_or(rest.len(), |i| i + 1)];
    if rest.is_empty() {
        (at, nl.to_owned(), String::new())
    } else if line.trim().is_empty() {
        let at = at + TextSize::try_from(line.len()).unwrap_or_default();
        (at, String::new(), nl.to_owned())
    } else {
        (at, nl.to_owned(), nl.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::natural;
    use std::cmp::Ordering;

    #[test]
    fn natural_order_is_case_insensitive_and_numeric() {
        assert_eq!(natural("torch.nn", "torch.distributed"), Ordering::Greater);
        assert_eq!(natural("Tqdm", "torch"), Ordering::Greater);
        assert_eq!(natural("a2", "a10"), Ordering::Less);
        assert_eq!(natural("torch", "torch.nn"), Ordering::Less);
    }
}
