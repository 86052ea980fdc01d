#!/usr/bin/env python3
"""A 2-"host" run of the collectives engine: two `ranklift launch` invocations, one
worker each, that share one cluster spec (`--workers 127.0.0.1:P0,127.0.0.1:P1`, `--index 0` and
`--index 1`) — what two machines run, one command each. Run with the TensorFlow >= 2.16 venv's
python (scripts/e2e-tf.sh does).

For each example: the rewrite (`ranklift distribute -o`) runs on the two "hosts" and must pass the
checks of the single-launcher e2e (e2e_distribute.py): both workers succeed, their trainable
weights are equal, the loss falls, rank 1 prints nothing and writes nothing, each worker runs
half of the original's optimizer steps on disjoint examples.
Negative control: the broadcast taken out of the rewrite, the two hosts end with different
weights (otherwise equal weights would prove nothing).

Then the SLURM form the rewrite prints (`srun ... python train.py`, no launcher) for one
example: two processes with the variables srun would set, the cluster from TensorFlow's
SlurmClusterResolver; the same checks and control.
"""
import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import e2e_distribute as e2e  # noqa: E402

EXAMPLES = ["tape_mlp.py", "keras_fit_basic.py"]


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


MODE = {"slurm": False}


def two_hosts(bin_path, prog, env, timeout=600):
    """Start both "hosts" at once; (return codes, stdout of each) when both are done.

    In SLURM mode there is no launcher: each process gets the variables `srun --nodes 1
    --ntasks 2` sets (SLURM_PROCID, SLURM_STEP_NUM_TASKS, SLURM_STEP_NODELIST,
    SLURM_STEP_TASKS_PER_NODE, SLURM_LOCALID) and ranklift_tf builds the cluster with
    TensorFlow's SlurmClusterResolver (ports 8888 and 8889 of localhost); its output is prefixed
    here as the launcher would, so that the checks read it the same way."""
    workers = ",".join(f"127.0.0.1:{p}" for p in free_ports(2))
    procs = []
    full = dict(os.environ, **env)
    full.pop("TF_CONFIG", None)
    for index in (0, 1):
        if MODE["slurm"]:
            cmd = [sys.executable, str(prog)]
            penv = dict(full, SLURM_PROCID=str(index), SLURM_LOCALID=str(index), SLURM_NTASKS="2",
                        SLURM_STEP_NUM_TASKS="2", SLURM_STEP_NODELIST="localhost",
                        SLURM_STEP_TASKS_PER_NODE="2", RANKLIFT_RANK=str(index))
        else:
            cmd = [bin_path, "launch", "-n", "1", "--workers", workers, "--index", str(index), sys.executable, str(prog)]
            penv = full
        procs.append(subprocess.Popen(cmd, cwd=prog.parent, env=penv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    deadline = time.monotonic() + timeout
    outs = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            err += "\ntimeout"
        if MODE["slurm"]:
            rank = len(outs)
            out = "".join(f"[{rank}]<stdout>:{line}\n" for line in out.splitlines())
        outs.append((p.returncode, out, err))
    return outs


def check(name, bin_path, work):
    ex = e2e.EXAMPLES / name
    work.mkdir(parents=True)
    out = work / "out" / name
    rc = subprocess.run([bin_path, "distribute", str(ex), "-o", str(out)], capture_output=True, text=True)
    if rc.returncode != 0:
        raise e2e.Failure(f"ranklift exited {rc.returncode}: {rc.stderr[-2000:]}")
    base = {"TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONHASHSEED": "0", "PYTHONPATH": str(e2e.SITE)}
    dirs = {k: work / k for k in ("orig", "tmp-orig", "hosts", "tmp-hosts", "control", "tmp-control")}
    for d in dirs.values():
        d.mkdir()
    env = dict(base, RANKLIFT_E2E_OUT=str(dirs["orig"]), TMPDIR=str(dirs["tmp-orig"]),
               RANKLIFT_E2E_COUNT=str(dirs["orig"]), RANKLIFT_E2E_PROBE=str(dirs["orig"]))
    r = subprocess.run([sys.executable, str(ex)], cwd=ex.parent, env=dict(os.environ, **env), capture_output=True, text=True)
    if r.returncode != 0:
        raise e2e.Failure(f"original failed: {r.stderr[-2000:]}")
    orig_steps = e2e.load_count(dirs["orig"], 0)
    env = dict(base, RANKLIFT_E2E_OUT=str(dirs["hosts"]), RANKLIFT_E2E_TMP=str(dirs["tmp-hosts"]),
               RANKLIFT_E2E_DESYNC="1", RANKLIFT_E2E_COUNT=str(dirs["hosts"]), RANKLIFT_E2E_PROBE=str(dirs["hosts"]))
    (rc0, out0, err0), (rc1, out1, err1) = two_hosts(bin_path, out, env)
    if rc0 != 0 or rc1 != 0:
        raise e2e.Failure(f"a host failed ({rc0}, {rc1}): {err0[-1500:]} {err1[-1500:]}")
    r0, r1 = e2e.load_rank(dirs["hosts"], 0), e2e.load_rank(dirs["hosts"], 1)
    if r0 is None or r1 is None:
        raise e2e.Failure("a worker wrote no npz file")
    d = e2e.max_diff(r0[1], r1[1])
    if d > e2e.AGREE_TOL:
        raise e2e.Failure(f"the hosts disagree: max |diff| = {d}")
    if not r0[0][-1] < r0[0][0]:
        raise e2e.Failure("the loss did not go down")
    why = e2e.split_error(orig_steps or 0, [e2e.load_count(dirs["hosts"], 0), e2e.load_count(dirs["hosts"], 1)], 2)
    if why:
        raise e2e.Failure(why)
    why = e2e.samples_error(e2e.load_batches(dirs["orig"], 0),
                            [e2e.load_batches(dirs["hosts"], 0), e2e.load_batches(dirs["hosts"], 1)])
    if why:
        raise e2e.Failure(why)
    if e2e.rank_output(out1, 1):
        raise e2e.Failure(f"host 2 (rank 1) printed: {e2e.rank_output(out1, 1)[:300]!r}")
    if not e2e.rank_output(out0, 0):
        raise e2e.Failure("host 1 (rank 0) printed nothing")
    if e2e.written_files(dirs["tmp-hosts"] / "rank1"):
        raise e2e.Failure(f"rank 1 wrote files: {e2e.written_files(dirs['tmp-hosts'] / 'rank1')[:5]}")
    # Negative control: no broadcast, different weights.
    text = out.read_text()
    broken = text.replace("hvd.broadcast_variables(", "(lambda *args, **kwargs: None)(").replace(
        "hvd.callbacks.BroadcastGlobalVariablesCallback(0),", "")
    if broken == text:
        raise e2e.Failure("negative control: no broadcast found to remove")
    prog = out.with_name("control_" + out.name)
    prog.write_text(broken)
    env = dict(base, RANKLIFT_E2E_OUT=str(dirs["control"]), RANKLIFT_E2E_TMP=str(dirs["tmp-control"]), RANKLIFT_E2E_DESYNC="1")
    (rc0, _, err0), (rc1, _, err1) = two_hosts(bin_path, prog, env)
    if rc0 != 0 or rc1 != 0:
        raise e2e.Failure(f"negative control failed to run ({rc0}, {rc1}): {err0[-1000:]} {err1[-1000:]}")
    dc = e2e.max_diff(e2e.load_rank(dirs["control"], 0)[1], e2e.load_rank(dirs["control"], 1)[1])
    if dc <= 1e-3:
        raise e2e.Failure(f"negative control: without the broadcast the hosts still agree ({dc}); the check is powerless")
    return f"hosts agree (max |diff| {d:.1g}), steps {orig_steps}->{e2e.load_count(dirs['hosts'], 0)}/{e2e.load_count(dirs['hosts'], 1)}, control ok ({dc:.2g})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "ranklift-e2e-hosts"))
    args = ap.parse_args()
    import shutil

    shutil.rmtree(args.work, ignore_errors=True)
    failed = 0
    runs = [(False, name) for name in EXAMPLES] + [(True, "tape_mlp.py")]
    for slurm, name in runs:
        MODE["slurm"] = slurm
        what = "SLURM (2 tasks, SlurmClusterResolver)" if slurm else "two hosts"
        try:
            work = Path(args.work) / (("slurm-" if slurm else "") + name)
            print(f"PASS {what} {name}: {check(name, str(Path(args.bin).resolve()), work)}", flush=True)
        except e2e.Failure as f:
            failed += 1
            print(f"FAIL {what} {name}: {f}", flush=True)
    print(f"{len(runs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
