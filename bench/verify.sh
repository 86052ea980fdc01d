#!/usr/bin/env bash
# Benchmark of `ranklift verify`: its wall time against the original program's own run for the
# same step budget, measured in this run (the baseline). Target: at most about twice the
# original's run plus start-up, on 2 CPUs — verify runs the original beside the rewrite on one
# process (one core each), then the rewrite on two.
#   For each example (PyTorch: plain_loop.py, checkpoint_resume.py; TensorFlow 2.21 when its venv
#   exists: keras_fit_basic.py): the original under the recorder alone (`--verify-steps` budget,
#   as verify runs it) — best of RUNS — then `ranklift verify` on ranklift's rewrite — best of
#   RUNS — and their ratio; plus the peak resident memory of the verify process tree.
# Usage: bench/verify.sh [RUNS] [STEPS]   (defaults 3 and 8)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-3}"
STEPS="${2:-8}"
cargo build --release -q -p ranklift
BIN="$PWD/target/release/ranklift"
TORCH_PY="$(scripts/torch-env.sh | tail -n 1)/bin/python"
TF_PY="${RANKLIFT_TF_VENV:-$HOME/.cache/ranklift/tf-venv}/bin/python"
DIR="$(mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
python3 - "$BIN" "$DIR" "$RUNS" "$STEPS" "$TORCH_PY" "$TF_PY" <<'PY'
import os, resource, shutil, subprocess, sys, time
bin_, d, runs, steps, torch_py, tf_py = sys.argv[1:7]
runs, steps = int(runs), int(steps)
cases = [("examples/distribute/torch/plain_loop.py", torch_py),
         ("examples/distribute/torch/checkpoint_resume.py", torch_py)]
if os.path.exists(tf_py):
    cases.append(("examples/distribute/keras_fit_basic.py", tf_py))
probe = os.path.join(d, "probe")
os.makedirs(probe)


def best(cmd, env=None, cwd=None):
    t = 1e9
    for _ in range(runs):
        s = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
        t = min(t, time.perf_counter() - s)
        if r.returncode != 0:
            sys.exit(f"{cmd} failed: {r.stderr[-2000:]}")
    return t


print(f"{'example':<28} {'original s':>10} {'verify s':>9} {'ratio':>6} {'peak MB':>8}")
for path, py in cases:
    name = os.path.basename(path)
    work = os.path.join(d, name)
    os.makedirs(work)
    shutil.copy(path, work)
    out = os.path.join(work, "dist_" + name)
    env = dict(os.environ, RANKLIFT_PYTHON=py)
    subprocess.run([bin_, "distribute", os.path.join(work, name), "-o", out], check=True,
                   capture_output=True, env=env)
    # The baseline: the original alone with the same budget, under verify's own recorder (the
    # files verify writes as sitecustomize.py and beside it), as verify's original run is.
    run_dir, rec = os.path.join(work, "orig"), os.path.join(work, "rec")
    os.makedirs(run_dir)
    os.makedirs(rec)
    shutil.copy(path, run_dir)
    is_tf = py == tf_py
    for src, dst in (("verify_probe_tf.py" if is_tf else "verify_probe.py", "sitecustomize.py"),
                     ("verify_record.py", "ranklift_verify_record.py"),
                     ("synthetic_data.py", "ranklift_synthetic_data.py")):
        shutil.copy(os.path.join("python", "ranklift", src), os.path.join(probe, dst))
    t_orig = best([py, name], cwd=run_dir, env=dict(
        env, PYTHONPATH=probe, RANKLIFT_VERIFY_OUT=rec, RANKLIFT_VERIFY_ROLE="original",
        RANKLIFT_VERIFY_ROOT=run_dir, RANKLIFT_VERIFY_STEPS=str(steps),
        RANKLIFT_VERIFY_PASS=str((steps + 1) // 2), CUDA_VISIBLE_DEVICES=""))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t_verify = best([bin_, "verify", out, "--original", os.path.join(work, name), "--python", py,
                     "--verify-steps", str(steps)] + (["--scaled-lr"] if is_tf else []), env=env)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"{name:<28} {t_orig:>10.1f} {t_verify:>9.1f} {t_verify / t_orig:>6.2f} {max(peak, before) / 1024:>8.0f}")
PY
