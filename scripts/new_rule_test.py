#!/usr/bin/env python3
"""Checks of scripts/new_rule.py on a copy of the files it edits: what it writes for each
target, and that a refused scaffold (a name taken, a code taken, a malformed code) writes
nothing. (Building the result is left to `cargo test`: the registry's and the order tables'
unit tests fail until a scaffolded code is raised.)"""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = Path("crates/ranklift_distribute/src")
FILES = [SRC / "codes.rs", SRC / "torch/rules/mod.rs", SRC / "tf/rules/mod.rs"]


def copy(tmp):
    for f in FILES:
        (tmp / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / f, tmp / f)


def scaffold(tmp, *args):
    return subprocess.run([sys.executable, str(ROOT / "scripts/new_rule.py"), *args,
                           "--root", str(tmp)], capture_output=True, text=True)


def snapshot(tmp):
    return {p: p.read_text() for p in sorted(tmp.rglob("*.rs"))}


def main():
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        copy(tmp)
        r = scaffold(tmp, "torch", "zz_demo", "--code", "DST499", "--const", "ZZ_DEMO")
        assert r.returncode == 0, r.stderr
        rule = (tmp / SRC / "torch/rules/zz_demo.rs").read_text()
        assert rule.startswith("//! Rule `zz_demo`:") and "**Trigger:**" in rule, rule
        assert "pub fn run(tx: &mut Tx)" in rule, rule
        mod = (tmp / SRC / "torch/rules/mod.rs").read_text()
        assert "pub mod zz_demo;\n" in mod
        # Registered before `process_group`, which must stay last.
        assert mod.index('("zz_demo", zz_demo::run)') < mod.index('("process_group"'), mod
        codes = (tmp / SRC / "codes.rs").read_text()
        assert 'pub const ZZ_DEMO: &str = "DST499";' in codes
        row = 'Code { code: ZZ_DEMO, name: "ZZ_DEMO", target: Target::Torch, home: "torch/rules/zz_demo.rs" }'
        assert row in codes, codes
        # In code order: after DST415, before DST900.
        assert codes.index("UNSHARDED_TRAINING_LOADER, name") < codes.index(row) < codes.index("INTERNAL, name")

        # TensorFlow twice: the second goes into the table the first expanded.
        for name in ["zz_one", "zz_two"]:
            r = scaffold(tmp, "tf", name)
            assert r.returncode == 0, r.stderr
        tf = (tmp / SRC / "tf/rules/mod.rs").read_text()
        last = tf[tf.index("const LAST"):tf.index("const FIT_CALLBACKS")]
        assert '("zz_one", zz_one::run)' in last and '("zz_two", zz_two::run)' in last, last
        assert "pub fn run(cx: &mut Cx)" in (tmp / SRC / "tf/rules/zz_one.rs").read_text()

        # Refusals write nothing.
        before = snapshot(tmp)
        for args, why in [(["torch", "zz_demo"], "exists already"),
                          (["torch", "zz_new", "--code", "DST499", "--const", "OTHER"], "already in codes.rs"),
                          (["torch", "zz_new", "--code", "DST49", "--const", "OTHER"], "DST and three digits"),
                          (["torch", "Bad-Name"], "lowercase Rust module name")]:
            r = scaffold(tmp, *args)
            assert r.returncode != 0 and why in r.stderr, (args, r.stderr)
            assert snapshot(tmp) == before, args
    print("new_rule: 3 scaffolds and 4 refusals checked")


if __name__ == "__main__":
    main()
