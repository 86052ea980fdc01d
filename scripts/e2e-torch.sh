#!/usr/bin/env bash
# End-to-end check of `ranklift distribute` on real PyTorch DistributedDataParallel (torchrun,
# gloo on CPU; see e2e_torch.py).
# Usage: scripts/e2e-torch.sh [EXAMPLE...]
#   RANKLIFT_BIN=path/to/ranklift   use this binary instead of building one with cargo
#   RANKLIFT_TORCH_VENV=dir         the torch virtualenv (default ~/.cache/ranklift/torch-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="$(scripts/torch-env.sh | tail -n 1)"
if [ -z "${RANKLIFT_BIN:-}" ]; then
  cargo build --quiet --bin ranklift
  RANKLIFT_BIN="$PWD/target/debug/ranklift"
fi
export PATH="$VENV/bin:$PATH"
exec "$VENV/bin/python" scripts/e2e_torch.py --bin "$RANKLIFT_BIN" "$@"
