#!/usr/bin/env python3
"""End-to-end check of `ranklift verify` (and `distribute --verify`) on real torch.distributed.

Run with any Python; the programs run with --python (the torch venv, scripts/torch-env.sh).

1. Every runnable example under examples/distribute/torch/ (the list scripts/e2e_torch.py
   runs) is distributed with `ranklift distribute -o`, then `ranklift verify OUT --original EX
   --format json` must exit 0 with no failed check.
2. Every negative control of scripts/e2e_torch.py (a rewrite broken by hand in one known way:
   no DDP wrap, no set_epoch, rank-1 writes, a missing find_unused_parameters, ...) must make
   `ranklift verify` exit 1, and the failed checks must include the one that names the fault
   (EXPECT below maps the e2e check to the verify check).
3. `ranklift distribute EX --verify` (the user's command) exits 0 on one example and writes
   its output; the same with a Python without torch exits 2 saying so.
4. Faults only verify looks for (VERIFY_CONTROLS: the process group left up at exit) fail their
   check.
5. `--synthetic-data`, with every download made to fail (proxies on a closed port): the MNIST
   example verifies and the table names the stand-in; without the flag (the control) it cannot
   run (exit 2) and the hint names the flag.

`--ci` runs a fixed sample (SAMPLE and one control per kind of fault); without it, everything.
Prints one line per row and `N passed, M failed`; exit 0 only if all passed.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import verify_common as V  # noqa: E402
from e2e_torch import CONTROLS, EXAMPLES, examples  # noqa: E402
from verify_common import failed_checks, row  # noqa: E402

# e2e_torch's check -> the verify checks that must fail for it.
EXPECT = {
    "agree": {"replicas"},
    "shuffle": {"reshuffle", "data split"},
    "output": {"rank 0 only"},
    "runs": {"runs"},
    "split": {"data split"},
}
# Where verify names another check than e2e_torch's harness, and why that is the right one:
# e2e_torch seeds its ranks apart (its DESYNC), so a wrap after Opacus' make_private shows there
# as replicas drifting; run as the user runs it (same seed on every rank), the ranks stay equal
# and the fault is what it is — each rank trains on the whole data set.
EXPECT_CONTROL = {
    ("private_training.py", "DDP wrap after make_private"): {"data split", "replicas"},
}
SAMPLE = {"plain_loop.py", "checkpoint_resume.py", "resume_if_present.py"}
# Controls that make replicas, reshuffle and rank 0 only fail on real runs in CI (a crashing
# rewrite failing `runs` is in the whole list, run locally, and in the check's unit test).
CI_CONTROLS = {
    ("plain_loop.py", "no DDP wrap"),
    ("plain_loop.py", "no set_epoch"),
    ("plain_loop.py", "saving on every rank"),
    ("plateau_schedule.py", "rank-local plateau metric"),
    ("hand_batched_lm.py", "every rank walks all the rows"),
}
# Faults only verify looks for (e2e_torch has no check of them): (example, what, edit, checks one
# of which must fail, step budget). Faults after the training loop under the default budget of 8
# steps: past it the passes over the data run empty and the program goes on to its end, where
# the fault is (a run that ended at the budget would pass them).
AFTER_TRAINING = "if RANK == 0:\n    torch.save("
VERIFY_CONTROLS = [
    ("plain_loop.py", "no teardown", lambda t: t.replace("    dist.destroy_process_group()", "    pass"),
     {"teardown"}, 8),
    ("plain_loop.py", "a rank fails after training", lambda t: t.replace(
        AFTER_TRAINING, 'if RANK == 1:\n    raise RuntimeError("rank 1 fails after training")\n' + AFTER_TRAINING),
     {"runs"}, 8),
]
# Programs whose short default budget does not reach what the check needs: run to the end.
TO_THE_END = {"plain_loop.py", "samples_and_progress.py", "save_and_reload.py"}
# Programs whose code after a pass needs a batch from it (an epoch's mean over the batches it
# counted): the passes past the budget cannot run empty, and verify must say it runs every
# program again, each ending at the budget's next pass — and then pass.
RUN_AGAIN = {
    "epoch_mean_by_count.py",
    # `run_epochs` prints the `loss` its own loop bound: the resumed call's empty pass binds none.
    "checkpoint_resume.py",
    # `train` returns (or prints) the `loss` of its last batch: an empty pass has none.
    "loaders_by_split.py",
    "project_unused_helper",
}
# Programs that download a standard dataset: verified with --synthetic-data.
SYNTHETIC = {"mnist_download.py"}


def verify(bin_path, python, dist, orig, steps, main=None):
    """`ranklift verify`; a project (`main`: its script) is verified whole, as its script may
    import the project's packages from the root (an installed package)."""
    extra = ["--synthetic-data"] if Path(orig).name in SYNTHETIC else []
    if main is not None:
        extra += ["--main", main]
    return V.verify(bin_path, python, dist, orig, steps, extra)


def run_control(bin_path, python, base, name, what, edit, want, steps):
    """Control `name`: an example, or `project:file` — a project's file broken, the project
    verified whole with its main script."""
    project, _, rel = name.partition(":")
    ex = EXAMPLES / project
    out = base / what.replace(" ", "_") / project
    p = subprocess.run([str(bin_path), "distribute", str(ex), "-o", str(out), "--format", "json"],
                       capture_output=True, text=True, check=True)
    main_rel = json.loads(p.stdout)["main"] if rel else None
    return V.control(f"control {name} ({what})", out / rel if rel else out, edit, want,
                     lambda: verify(bin_path, python, out, ex, steps, main_rel))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--ci", action="store_true")
    ap.add_argument("--python-without-torch", default="python3")
    args = ap.parse_args()
    bin_path = Path(args.bin).resolve()
    work = Path(tempfile.mkdtemp(prefix="rl-e2e-verify-"))
    results = []
    try:
        for ex in examples():
            if args.ci and ex.name not in SAMPLE:
                continue
            out = work / "out" / ex.name
            p = subprocess.run([str(bin_path), "distribute", str(ex), "-o", str(out), "--format", "json"],
                               capture_output=True, text=True)
            if p.returncode != 0:
                results.append(row(False, ex.name, f"distribute exited {p.returncode}"))
                continue
            main_rel = json.loads(p.stdout)["main"]
            steps = 0 if ex.name in TO_THE_END else 8
            rc, report, err = verify(bin_path, args.python, out, ex, steps, None if ex.is_file() else main_rel)
            bad = failed_checks(report)
            undecided = [c["name"] for c in report.get("checks", []) if c["status"] == "not-run"]
            again = "running each program again" in err
            results.append(row(rc == 0 and not bad and again == (ex.name in RUN_AGAIN), f"verify {ex.name}",
                               f"exit {rc}; failed {bad}; not decided {undecided}; run again: {again}"))
        for name, what, edit, check in CONTROLS:
            if args.ci and (name, what) not in CI_CONTROLS:
                continue
            want = EXPECT_CONTROL.get((name, what), EXPECT[check])
            results.append(run_control(bin_path, args.python, work / "ctl", name, what, edit, want,
                                       0 if name in TO_THE_END else 8))
        for name, what, edit, want, steps in VERIFY_CONTROLS:
            results.append(run_control(bin_path, args.python, work / "vctl", name, what, edit, want, steps))
        # The user's command: distribute --verify writes the rewrite, then proves it.
        proj = work / "user"
        proj.mkdir()
        shutil.copy2(EXAMPLES / "plain_loop.py", proj / "plain_loop.py")
        p = subprocess.run([str(bin_path), "distribute", "plain_loop.py", "--verify", "--python", args.python],
                           cwd=proj, capture_output=True, text=True, timeout=2000)
        results.append(row(p.returncode == 0 and (proj / "plain_loop_ddp.py").exists() and "Verified:" in p.stdout,
                           "distribute plain_loop.py --verify", f"exit {p.returncode}: {p.stdout.strip().splitlines()[-1:]}"))
        # --synthetic-data where no download can succeed; the control without it cannot run.
        offline = dict(os.environ, HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9",
                       https_proxy="http://127.0.0.1:9", http_proxy="http://127.0.0.1:9")
        shutil.copy2(EXAMPLES / "mnist_download.py", proj / "mnist_download.py")
        for flag in (["--synthetic-data"], []):
            p = subprocess.run([str(bin_path), "distribute", "mnist_download.py", "--verify", "--python", args.python,
                                "--timeout", "600", *flag], cwd=proj, capture_output=True, text=True, timeout=2000,
                               env=offline)
            if flag:
                ok = p.returncode == 0 and "synthetic data  seeded stand-ins, nothing downloaded: torchvision.datasets.MNIST" in p.stdout
                why = f"exit {p.returncode}: {p.stdout.strip().splitlines()[-1:]}"
            else:
                ok = p.returncode == 2 and "--synthetic-data answers the standard datasets" in p.stderr
                why = f"exit {p.returncode}: {p.stderr.strip().splitlines()[-1:]}"
            results.append(row(ok, f"distribute mnist_download.py --verify {' '.join(flag) or '(no flag: cannot run)'}", why))
        # Negative control: a Python without torch cannot verify (exit 2, said).
        bare = args.python_without_torch
        has_torch = subprocess.run([bare, "-c", "import torch"], capture_output=True).returncode == 0
        if not has_torch:
            p = subprocess.run([str(bin_path), "distribute", "plain_loop.py", "--verify", "--python", bare],
                               cwd=proj, capture_output=True, text=True, timeout=600)
            results.append(row(p.returncode == 2 and "torch is not installed" in p.stderr,
                               "distribute --verify with a Python without torch", f"exit {p.returncode}"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()
