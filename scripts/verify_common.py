"""What the end-to-end checks of `ranklift verify` share (scripts/e2e_verify.py for PyTorch,
scripts/e2e_verify_tf.py for TensorFlow): running it for JSON, reading its failed checks, one
printed row per result, and a negative control (the rewrite broken by hand in one known way must
fail the check that names the fault). Standard library only: each runs under its own venv."""
import json
import subprocess


def verify(bin_path, python, dist, orig, steps, extra=(), env=None):
    """`ranklift verify DIST --original ORIG --format json`: (exit status, report, stderr)."""
    cmd = [str(bin_path), "verify", str(dist), "--original", str(orig), "--format", "json",
           "--python", python, "--verify-steps", str(steps), "--timeout", "600", *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=2400, env=env)
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        report = {"checks": []}
    return p.returncode, report, p.stderr


def failed_checks(report):
    return [c["name"] for c in report.get("checks", []) if c["status"] == "fail"]


def row(result, name, why):
    print(f"{'PASS' if result else 'FAIL'} {name:<64} {why}", flush=True)
    return result


def control(label, dist, edit, want, run):
    """Break `dist` with `edit`, verify it with `run()` -> (exit, report, stderr), restore it;
    a row that passes when verify exits 1 failing one of the checks in `want`."""
    text = dist.read_text()
    broken = edit(text)
    if broken == text:
        return row(False, label, "the control edit changed nothing")
    dist.write_text(broken)
    try:
        rc, report, _ = run()
    finally:
        dist.write_text(text)
    bad = failed_checks(report)
    return row(rc == 1 and bool(want & set(bad)), label, f"exit {rc}; failed {bad}; expected one of {sorted(want)}")
