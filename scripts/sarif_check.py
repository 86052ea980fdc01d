#!/usr/bin/env python3
"""Validate ranklift's SARIF output with real validators.

1. The SARIF 2.1.0 JSON schema, as Microsoft's SARIF SDK ships it (`sarif-2.1.0.json` in the
   npm package @microsoft/sarif-multitool-linux, pinned and checked by SHA-256 below), applied
   with the `jsonschema` package from PyPI (pinned, in a cached venv).
2. Microsoft's SARIF Multitool (`Sarif.Multitool validate`, from the same package): its
   error- and warning-level rules (SARIF1xxx, and SARIF2xxx such as "the tool gives no
   version") must find nothing. Its notes (suggestions such as "use message ids") are printed.

The logs come from every command that writes SARIF, on inputs with findings: `shapes` on the
shape examples (a notebook among them), `distribute` on a refused program, `choreo check` on a
choreography with errors. Negative controls: a log with an invalid `level` must fail the schema,
and a log without the tool's version must draw the Multitool's SARIF2005 warning.

Downloads and the venv are cached under ~/.cache/ranklift/sarif.

Usage: sarif_check.py --bin target/debug/ranklift
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("RANKLIFT_CACHE", Path.home() / ".cache" / "ranklift")) / "sarif"
PACKAGE = "@microsoft/sarif-multitool-linux@5.7.0"
TARBALL = "microsoft-sarif-multitool-linux-5.7.0.tgz"
PINNED = ["jsonschema==4.23.0", "jsonschema-specifications==2024.10.1", "referencing==0.35.1",
          "rpds-py==0.22.3", "attrs==24.3.0"]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fetch_multitool():
    """The schema and the Multitool binary, from the pinned npm package (cached)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    tgz = CACHE / TARBALL
    if not tgz.exists():
        subprocess.run(["npm", "pack", PACKAGE, "--pack-destination", str(CACHE)], check=True,
                       stdout=subprocess.DEVNULL)
    digest = sha256(tgz)
    if digest != EXPECTED_SHA256:
        tgz.unlink()
        sys.exit(f"{TARBALL}: SHA-256 {digest} is not the pinned {EXPECTED_SHA256}")
    out = CACHE / "package"
    schema, tool = out / "sarif-2.1.0.json", out / "Sarif.Multitool"
    if not (schema.exists() and tool.exists()):
        with tarfile.open(tgz) as t:
            for name in ("package/sarif-2.1.0.json", "package/Sarif.Multitool"):
                t.extract(name, CACHE, filter="data")
        tool.chmod(0o755)
    return schema, tool


EXPECTED_SHA256 = "27d8e3e96dde578a23b7c45035b8d741fece5731e2700aa068015b8c44d1514e"


def venv_python():
    venv = CACHE / "venv"
    py = venv / "bin" / "python"
    marker = venv / "pinned.txt"
    if not (py.exists() and marker.exists() and marker.read_text() == "\n".join(PINNED)):
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        *PINNED], check=True)
        marker.write_text("\n".join(PINNED))
    return py


VALIDATE = r"""
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
v = Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    errors = sorted(v.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
    for e in errors[:5]:
        print(f"{path}: {'/'.join(map(str, e.path))}: {e.message[:200]}")
    bad += bool(errors)
sys.exit(1 if bad else 0)
"""


def logs(bin_path, out_dir):
    """Write one SARIF log per command; each must have results."""
    runs = {
        "shapes": [bin_path, "shapes", "--format", "sarif", "--isolated", "examples/shapes"],
        "distribute": [bin_path, "distribute", "--format", "sarif", "--check", "--isolated",
                       "examples/distribute/torch/refusals/dst201_manual_update.py"],
        "choreo": [bin_path, "choreo", "check", "--format", "sarif",
                   "crates/ranklift_choreo/tests/fixtures/fail/g01_forward_missing.py"],
    }
    paths = []
    for name, cmd in runs.items():
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if p.returncode not in (0, 1):
            sys.exit(f"{name}: exit {p.returncode}\n{p.stderr}")
        log = json.loads(p.stdout)
        n = len(log["runs"][0]["results"])
        if n == 0:
            sys.exit(f"{name}: the log has no results, nothing would be validated")
        path = out_dir / f"{name}.sarif"
        path.write_text(p.stdout)
        print(f"{name}: {n} results")
        paths.append(path)
    return paths


def multitool(tool, path, out_dir):
    """The Multitool's findings on one log: (rule, level, message) each."""
    out = out_dir / (path.stem + ".validation.sarif")
    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1")
    p = subprocess.run([str(tool), "validate", str(path), "-o", str(out), "--level",
                        "Error;Warning;Note"], capture_output=True, text=True, env=env)
    if p.returncode != 0 or not out.exists():
        sys.exit(f"Sarif.Multitool failed on {path}:\n{p.stdout}{p.stderr}")
    found = []
    for r in json.loads(out.read_text())["runs"][0].get("results", []):
        level = r.get("level", "warning")
        msg = r["message"].get("text") or " ".join(r["message"].get("arguments", []))
        found.append((r["ruleId"], level, msg))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    bin_path = str(Path(args.bin).resolve())
    schema, tool = fetch_multitool()
    py = venv_python()
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        paths = logs(bin_path, tmp)
        r = subprocess.run([str(py), "-c", VALIDATE, str(schema), *map(str, paths)])
        print(f"schema ({schema.name}, JSON Schema 2020-12): {'ok' if r.returncode == 0 else 'FAILED'}")
        failed |= r.returncode != 0
        for path in paths:
            found = multitool(tool, path, tmp)
            blocking = [f for f in found if f[1] in ("error", "warning")]
            notes = sorted({f[0] for f in found if f[1] == "note"})
            print(f"Sarif.Multitool {path.stem}: {len(blocking)} errors/warnings; notes: {', '.join(notes) or 'none'}")
            for rule, level, msg in blocking:
                print(f"  {level} {rule}: {msg[:400]}")
            failed |= bool(blocking)
        # Negative controls: each validator must reject a broken log.
        log = json.loads(paths[0].read_text())
        log["runs"][0]["results"][0]["level"] = "fatal"
        bad = tmp / "bad-level.sarif"
        bad.write_text(json.dumps(log))
        r = subprocess.run([str(py), "-c", VALIDATE, str(schema), str(bad)], capture_output=True)
        control1 = r.returncode != 0
        log = json.loads(paths[0].read_text())
        for key in ("version", "semanticVersion"):
            del log["runs"][0]["tool"]["driver"][key]
        bad = tmp / "no-version.sarif"
        bad.write_text(json.dumps(log))
        control2 = any(f[0] == "SARIF2005" for f in multitool(tool, bad, tmp))
        print(f"negative controls: invalid level rejected by the schema: {control1}; "
              f"missing version flagged by the Multitool (SARIF2005): {control2}")
        failed |= not (control1 and control2)
    print("SARIF check:", "FAILED" if failed else "passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
