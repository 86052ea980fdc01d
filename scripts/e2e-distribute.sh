#!/usr/bin/env bash
# End-to-end check of `ranklift distribute` on real TensorFlow + Horovod (see e2e_distribute.py).
# Usage: scripts/e2e-distribute.sh [EXAMPLE...]
#   RANKLIFT_BIN=path/to/ranklift  use this binary instead of building one with cargo
#   RANKLIFT_HVD_VENV=dir          the Horovod virtualenv (default ~/.cache/ranklift/hvd-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="$(scripts/horovod-env.sh | tail -n 1)"
if [ -z "${RANKLIFT_BIN:-}" ]; then
  cargo build --quiet --bin ranklift
  RANKLIFT_BIN="$PWD/target/debug/ranklift"
fi
export PATH="$VENV/bin:$PATH"
exec "$VENV/bin/python" scripts/e2e_distribute.py --bin "$RANKLIFT_BIN" "$@"
