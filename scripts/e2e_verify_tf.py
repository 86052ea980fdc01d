#!/usr/bin/env python3
"""End-to-end check of `ranklift verify` on TensorFlow: Horovod (TensorFlow 2.13, `horovodrun`)
or TensorFlow's own collectives (TensorFlow >= 2.16, `ranklift_tf`, `ranklift launch`).

Run with the engine's venv Python (it imports e2e_distribute's tables, which need NumPy); the
programs run with the same Python (`--python`, default: this one).

1. Every TensorFlow example (e2e_distribute's list for the engine, tf_keras where it says so) is
   distributed with `ranklift distribute -o`, then `ranklift verify OUT --original EX --format
   json --scaled-lr` must exit 0 with no failed check.
2. Every negative control of e2e_distribute.py for the engine (the rewrite broken by hand in one
   known way) must make `ranklift verify` exit 1 and fail the check that names the fault:
   sharding taken away (SPLIT_CONTROLS, SAMPLE_CONTROLS) -> `data split`; a failure the rewrite
   avoids put back (RUN_CONTROLS) -> `runs`; callbacks on every rank (OUTPUT_CONTROLS) ->
   `rank 0 only`; the initial broadcast removed (CONTROLS) -> `replicas`, where the program
   starts its ranks from different weights (BROADCAST_VISIBLE: a seeded program starts them
   equal, and then nothing is wrong); a learning-rate warm-up given twice (VERIFY_LR) ->
   `learning rate`.
3. `ranklift distribute EX --verify` as a user types it, on one example.

`--ci` runs CI_SAMPLE of the engine; without it everything. Prints one line per row and `N passed, M failed`;
exit 0 only if all passed.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import e2e_distribute as E  # noqa: E402
import verify_common as V  # noqa: E402
from verify_common import failed_checks, row  # noqa: E402

# Examples whose ranks start from different weights unless the broadcast runs (unseeded): there
# removing the broadcast must fail `replicas`.
BROADCAST_VISIBLE = {"tape_mlp.py", "keras_fit_basic.py"}
# What CI runs (`--ci`), per engine: a Keras program with its split and broadcast controls and
# the rank-0 checkpoint read back (collectives); a tape loop with its broadcast control and the
# callbacks-on-every-rank control (Horovod's launcher and its output), a TF1 session fed by hand
# with its split control, and the pass inside a function called per epoch with its unseeded split
# control (only the size of the pass shows it). The rest runs locally.
CI_SAMPLE = {
    "collectives": {"keras_fit_basic.py", "keras_checkpoint_reload.py", "tape_endless_iterator.py"},
    "horovod": {"tape_mlp.py", "keras_fit_generator_callbacks.py", "tf1_session_placeholders.py",
                "keras_saved_formats.py", "tape_epochs_call_train_loop.py"},
}
# Faults only verify's records show, as (text of the rewrite, what to put instead): a TF1 loop
# fed from a generator seeded per rank, the rank taken out of the seed — every rank then feeds
# the same rows, which `data split` must name (from the arrays fed to Session.run).
VERIFY_SPLIT = {"tf1_session_placeholders.py": ("default_rng(31 + hvd.rank())", "default_rng(31)")}
# The shard taken away and the seeds with it: every rank shuffles the whole data set its own way,
# and in the 8 steps verify runs the ranks meet few of its 6,400 rows by chance — `data split`
# must name it from the size of the pass (as many batches as the original's on every rank).
VERIFY_UNSEEDED_SPLIT = {"tape_epochs_call_train_loop.py": lambda t: t.replace(
    ".shard(hvd.size(), hvd.rank())", "").replace("tf.keras.utils.set_random_seed(8)", "").replace(
    ".shuffle(6400, seed=8)", ".shuffle(6400)")}
# Faults after training, as (line of the rewrite, what to insert after it): a rank that fails
# once `fit` is over, after `evaluate` — the budget stops `fit`, and the program must run on
# past evaluation (an evaluation's tf.function does not end the run: it does not train).
VERIFY_AFTER = {"keras_fit_basic.py": (
    re.compile(r"^loss, acc = model\.evaluate\(.*$", re.M),
    '\nif hvd.rank() == 1:\n    raise RuntimeError("rank 1 fails after training")')}
# A warm-up given twice: one compiled model fitted twice, the second `fit` warming up again from
# the rate the first reached divided by N (the step budget stops the first mid-warm-up, so the
# second starts below the original's rate) — `learning rate` must name it.
WARMUP = re.compile(r"hvd\.callbacks\.LearningRateWarmupCallback\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\),")


def warm_up_again(t):
    added = WARMUP.search(t).group(0)
    at = t.rindex("hvd.callbacks.MetricAverageCallback(),") + len("hvd.callbacks.MetricAverageCallback(),")
    return t[:at] + " " + added + t[at:]


VERIFY_LR = {"keras_fit_twice.py": ("the second fit warms up again", warm_up_again)}
# Programs whose short default budget does not reach what a check needs: run to the end.
TO_THE_END = set()


def verify(bin_path, python, dist, orig, env, steps=8):
    return V.verify(bin_path, python, dist, orig, steps, ["--scaled-lr"], env)


def controls(name):
    """(what, edit(text) -> text, the checks one of which must fail) for example `name`."""
    out = []
    if name in E.SPLIT_CONTROLS or name in E.SAMPLE_CONTROLS:
        added, back = E.SPLIT_CONTROLS.get(name) or E.SAMPLE_CONTROLS[name]

        def unshard(t, added=added, back=back):
            if hasattr(added, "sub"):
                return added.sub(back, t)
            for a in (added, added.replace("::", " :: ")):
                t = t.replace(a, back)
            return t

        out.append(("sharding removed", unshard, {"data split"}))
    if name in VERIFY_SPLIT:
        seeded, same = VERIFY_SPLIT[name]
        out.append(("every rank feeds the same rows", lambda t: t.replace(seeded, same), {"data split"}))
    if name in VERIFY_UNSEEDED_SPLIT:
        out.append(("unsharded, shuffled unseeded", VERIFY_UNSEEDED_SPLIT[name], {"data split"}))
    if name in VERIFY_AFTER:
        line, fault = VERIFY_AFTER[name]
        out.append(("a rank fails after evaluate", lambda t: line.sub(lambda m: m.group(0) + fault, t, 1),
                    {"runs"}))
    if name in VERIFY_LR:
        what, edit = VERIFY_LR[name]
        out.append((what, edit, {"learning rate"}))
    if name in E.RUN_CONTROLS and E.ENGINE["name"] == "horovod" and "horovod" in E.RUN_CONTROL_ENGINES.get(name, {"horovod"}):
        what, edit = E.RUN_CONTROLS[name]
        # A run the fault stops (an error, a stall); or, under the step budget, the ranks stepping
        # apart before the stall is reached (unequal shares: one rank's extra batch).
        out.append((what, edit, {"runs", "replicas"}))
    if name in E.OUTPUT_CONTROLS:
        what, edit = E.OUTPUT_CONTROLS[name]
        out.append((what, edit, {"rank 0 only"}))
    if name in BROADCAST_VISIBLE:
        def unbroadcast(t):
            for a, b in (("hvd.broadcast_variables(", "(lambda *args, **kwargs: None)("),
                         ("hvd.callbacks.BroadcastGlobalVariablesCallback(0),", "")):
                t = t.replace(a, b)
            return t

        out.append(("broadcast removed", unbroadcast, {"replicas"}))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--engine", choices=["horovod", "collectives"], required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--ci", action="store_true")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    bin_path = Path(args.bin).resolve()
    E.ENGINE.update(name=args.engine, bin=str(bin_path))
    work = Path(tempfile.mkdtemp(prefix="rl-e2e-verify-tf-"))
    # ranklift reads the installed TensorFlow's version from RANKLIFT_PYTHON.
    base = dict(os.environ, RANKLIFT_PYTHON=args.python, TF_CPP_MIN_LOG_LEVEL="3")
    results = []
    try:
        for ex in E.runnable_examples():
            if args.ci and ex.name not in CI_SAMPLE[args.engine] or args.names and ex.name not in args.names:
                continue
            env = dict(base)
            if args.engine == "collectives" and ex.name in E.LEGACY_KERAS:
                env["TF_USE_LEGACY_KERAS"] = "1"
            out = work / "out" / ex.name
            p = subprocess.run([str(bin_path), "distribute", str(ex), "-o", str(out), "--format", "json"],
                               capture_output=True, text=True, env=env)
            if p.returncode != 0:
                results.append(row(False, ex.name, f"distribute exited {p.returncode}"))
                continue
            main_rel = json.loads(p.stdout)["main"]
            dist, orig = (out, ex) if ex.is_file() else (out / main_rel, ex / main_rel)
            steps = 0 if ex.name in TO_THE_END else 8
            rc, report, err = verify(bin_path, args.python, dist, orig, env, steps)
            bad = failed_checks(report)
            undecided = [c["name"] for c in report.get("checks", []) if c["status"] == "not-run"]
            results.append(row(rc == 0 and not bad, f"verify {ex.name}",
                               f"exit {rc}; failed {bad}; not decided {undecided} {err.strip()[-300:] if rc == 2 else ''}"
                               if rc or bad else f"exit 0; not decided {undecided}"))
            for what, edit, want in controls(ex.name):
                results.append(V.control(f"control {ex.name} ({what})", dist, edit, want,
                                         lambda: verify(bin_path, args.python, dist, orig, env, steps)))
        if not args.names:
            # The user's command: distribute --verify writes the rewrite, then proves it.
            proj = work / "user"
            proj.mkdir()
            shutil.copy2(E.EXAMPLES / "keras_fit_basic.py", proj / "keras_fit_basic.py")
            p = subprocess.run([str(bin_path), "distribute", "keras_fit_basic.py", "--verify", "--python", args.python],
                               cwd=proj, capture_output=True, text=True, timeout=2400, env=base)
            results.append(row(p.returncode == 0 and (proj / "keras_fit_basic_hvd.py").exists()
                               and "Verified:" in p.stdout, "distribute keras_fit_basic.py --verify",
                               f"exit {p.returncode}: {p.stdout.strip().splitlines()[-1:]}"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()
