#!/usr/bin/env bash
# End-to-end check of `ranklift distribute` for TensorFlow >= 2.16 (Keras 3, tf_keras): the
# rewrite runs on TensorFlow's own collectives (`ranklift_tf`, `ranklift launch`), with the same
# checks as the Horovod e2e (see e2e_distribute.py --engine collectives), then a 2-"host" run.
# Usage: scripts/e2e-tf.sh [--ci] [EXAMPLE...]  (--ci: the fixed sample CI runs)
#   RANKLIFT_BIN=path/to/ranklift  use this binary instead of building one with cargo
#   RANKLIFT_TF_VENV=dir           the TensorFlow venv (default ~/.cache/ranklift/tf-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="$(scripts/tf-env.sh | tail -n 1)"
if [ -z "${RANKLIFT_BIN:-}" ]; then
  cargo build --quiet --bin ranklift
  RANKLIFT_BIN="$PWD/target/debug/ranklift"
fi
# The venv's python3 first on PATH: ranklift reads the installed TensorFlow's version from it.
export PATH="$VENV/bin:$PATH"
# The two-host run follows the whole list, or the CI sample.
"$VENV/bin/python" scripts/e2e_distribute.py --engine collectives --bin "$RANKLIFT_BIN" "$@"
if [ "$#" -eq 0 ] || [ "$*" = "--ci" ]; then
  "$VENV/bin/python" scripts/e2e_two_hosts.py --bin "$RANKLIFT_BIN"
  # The adapter itself: broadcast_object's size and the collective timeout.
  "$VENV/bin/python" scripts/e2e/tf_adapter_check.py --bin "$RANKLIFT_BIN"
fi
