#!/usr/bin/env python3
"""Scaffold a `ranklift distribute` rewrite rule: its file, its registration, its code.

Usage: scripts/new_rule.py {tf,torch} NAME [--code DSTNNN --const NAME] [--root DIR]

- writes `crates/ranklift_distribute/src/<target>/rules/<NAME>.rs` with the doc comment every
  rule carries (trigger, rewrite, why, a before/after example: it becomes the rule's page) and an
  empty `run` for the target's context (`Tx` for PyTorch, `Cx` for TensorFlow);
- declares the module in `rules/mod.rs` (in order) and lists its `run` in the order table there:
  PyTorch's `ORDER` before `process_group` (which must stay last), TensorFlow's `LAST` table
  (after every pattern's rules, before the rank-0 rules) — move it where its edits must come;
- with `--code`, adds the constant and its `REGISTRY` row to `codes.rs` (in code order), with a
  page to fill in.

Then: fill in the TODOs, add an example under `examples/distribute/` (its snapshot is made by
`INSTA_UPDATE=always cargo test -p ranklift_distribute --test examples`), and regenerate
docs/rules.md (`RANKLIFT_UPDATE_DOCS=1 cargo test -p ranklift --test it rules::`). The unit tests
of `codes.rs` and of the order tables fail until the new code is raised from the new file.
Nothing is written when any step would fail.
"""
import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTEXT = {"torch": ("crate::torch::Tx", "tx: &mut Tx"), "tf": ("crate::tf::context::Cx", "cx: &mut Cx")}
TARGET_NAME = {"torch": "Torch", "tf": "Tf"}

TEMPLATE = '''//! Rule `{name}`: TODO one line: what the rule makes true in the distributed program.
//!
//! **Trigger:** TODO what in the program makes it apply.
//!
//! **Rewrite:** TODO the edit, as small as it can be.
//!
//! **Why:** TODO the fault it prevents on several ranks (or the engine's practice).
//!
//! ```python
//! # before
//! TODO
//! # after
//! TODO
//! ```
use {ctx_path};

pub fn run({ctx_arg}) {{
    // TODO: find the trigger (the plan, the index) and add the edits through the editor.
    let _ = {ctx_var};
}}
'''


def fail(msg):
    sys.exit(f"error: {msg}")


def insert_mod(text, name):
    mods = [m.start() for m in re.finditer(r"^pub mod (\w+);$", text, re.M)]
    if not mods:
        fail("rules/mod.rs declares no `pub mod`")
    for pos in mods:
        existing = re.match(r"pub mod (\w+);", text[pos:]).group(1)
        if existing > name:
            return text[:pos] + f"pub mod {name};\n" + text[pos:]
    end = text.index("\n", mods[-1]) + 1
    return text[:end] + f"pub mod {name};\n" + text[end:]


def register(text, target, name):
    if target == "torch":
        anchor = '    ("process_group", process_group::run),\n'
        if anchor not in text:
            fail("torch/rules/mod.rs: `ORDER` has no `process_group` row to insert before")
        return text.replace(anchor, f'    ("{name}", {name}::run),\n' + anchor, 1)
    one_line = 'const LAST: &[Rule] = &[("keras_verbose", keras_verbose::run)];\n'
    if one_line in text:
        return text.replace(
            one_line,
            'const LAST: &[Rule] = &[\n    ("keras_verbose", keras_verbose::run),\n'
            f'    ("{name}", {name}::run),\n];\n', 1)
    m = re.search(r"^const LAST: &\[Rule\] = &\[\n(?:    .*\n)*?\];\n", text, re.M)
    if not m:
        fail("tf/rules/mod.rs: the `LAST` table is not in the form this script knows")
    end = m.end() - len("];\n")
    return text[:end] + f'    ("{name}", {name}::run),\n' + text[end:]


def add_code(text, code, const, target, home):
    if re.search(rf'"{code}"', text):
        fail(f"{code} is already in codes.rs")
    if re.search(rf"pub const {const}:", text):
        fail(f"a constant {const} is already in codes.rs")
    rows = list(re.finditer(r'^    Code \{ code: (\w+), name: "(\w+)".*\},$', text, re.M))
    codes = dict(re.findall(r'^pub const (\w+): &str = "(DST\d{3})";$', text, re.M))
    row = (f'    Code {{ code: {const}, name: "{const}", target: Target::{TARGET_NAME[target]}, '
           f'home: "{home}" }},\n')
    for r in rows:
        if codes.get(r.group(1), "") > code:
            text = text[:r.start()] + row + text[r.start():]
            break
    else:
        end = text.index("\n", rows[-1].end()) + 1
        text = text[:end] + row + text[end:]
    page = (f"/// TODO the page of {code}: what it reports, why the rewrite cannot be made safe,\n"
            f"/// an example, the fix.\npub const {const}: &str = \"{code}\";\n")
    marker = "\n#[cfg(test)]\nmod tests {"
    if marker not in text:
        fail("codes.rs has no test module to insert before")
    return text.replace(marker, "\n" + page + marker, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", choices=["tf", "torch"])
    ap.add_argument("name")
    ap.add_argument("--code", help="a new diagnostic code the rule raises (DSTNNN)")
    ap.add_argument("--const", help="the code's constant name (UPPER_SNAKE)")
    ap.add_argument("--root", type=Path, default=ROOT, help="the repository (for tests)")
    a = ap.parse_args()
    if not re.fullmatch(r"[a-z][a-z0-9_]*", a.name):
        fail(f"`{a.name}`: a rule name is a lowercase Rust module name (`shard_dataset`)")
    if bool(a.code) != bool(a.const):
        fail("--code and --const go together")
    if a.code and not re.fullmatch(r"DST\d{3}", a.code):
        fail(f"`{a.code}`: a code is DST and three digits")
    if a.const and not re.fullmatch(r"[A-Z][A-Z0-9_]*", a.const):
        fail(f"`{a.const}`: a constant name is UPPER_SNAKE")
    src = a.root / "crates" / "ranklift_distribute" / "src"
    rules = src / a.target / "rules"
    new_file = rules / f"{a.name}.rs"
    if new_file.exists():
        fail(f"{new_file.relative_to(a.root)} exists already")
    mod_rs = rules / "mod.rs"
    text = mod_rs.read_text()
    if re.search(rf"^pub mod {a.name};$", text, re.M):
        fail(f"`{a.name}` is declared in {mod_rs.relative_to(a.root)} already")
    writes = {mod_rs: register(insert_mod(text, a.name), a.target, a.name)}
    ctx_path, ctx_arg = CONTEXT[a.target]
    writes[new_file] = TEMPLATE.format(name=a.name, ctx_path=ctx_path, ctx_arg=ctx_arg,
                                      ctx_var=ctx_arg.split(":")[0])
    if a.code:
        codes = src / "codes.rs"
        writes[codes] = add_code(codes.read_text(), a.code, a.const, a.target,
                                 f"{a.target}/rules/{a.name}.rs")
    # Every change computed before the first write: a failure above leaves the tree as it was.
    for path, content in writes.items():
        path.write_text(content)
        print(f"wrote {path.relative_to(a.root)}")


if __name__ == "__main__":
    main()
