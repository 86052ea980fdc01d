#!/usr/bin/env bash
# Create (or reuse, when it already works) the Python environment in which the PyTorch
# end-to-end checks run the original and the distributed programs for real: torch (the PyPI
# wheel, which is the CUDA build and runs on CPU with gloo) + torchvision (real programs import
# its datasets, transforms and utils) + numpy + tqdm.
#
# Why these pins (measured here):
#   - torch==2.15.0 from PyPI imports only with its nvidia-* packages installed (without them:
#     "libcudart.so.13: cannot open shared object file"), so they are not skipped; the venv is
#     about 5.4 GB, built once and cached under ~/.cache/ranklift (uv installs it in about 20 s,
#     pip took about 10 min; scripts/uv-env.sh);
#   - torchrun comes with the wheel; on CPU the programs use the gloo backend;
#   - torchvision==0.29.2 is the release built against torch 2.15.0 (installed together, pip
#     resolves them to each other; measured here).
#
# Prints the venv path on the last line of stdout. Exit 0 only if torch imports, gloo is
# available and torchrun is on the venv's PATH.
set -euo pipefail
. "$(dirname "$0")/uv-env.sh"

VENV="${RANKLIFT_TORCH_VENV:-$HOME/.cache/ranklift/torch-venv}"
TORCH="${RANKLIFT_TORCH_VERSION:-2.15.0}"
TORCHVISION="${RANKLIFT_TORCHVISION_VERSION:-0.29.2}"
PY="${RANKLIFT_PYTHON:-python3.11}"
command -v "$PY" >/dev/null 2>&1 || PY=python3

check() {
  [ -x "$VENV/bin/torchrun" ] || return 1
  "$VENV/bin/python" - "$TORCH" "$TORCHVISION" <<'PYEOF' 2>/dev/null
import sys
import torch, torch.distributed as dist, numpy, tqdm, torchvision  # noqa: F401
assert torch.__version__.split("+")[0] == sys.argv[1], torch.__version__
assert torchvision.__version__.split("+")[0] == sys.argv[2], torchvision.__version__
assert dist.is_available() and dist.is_gloo_available()
PYEOF
}

# Opacus (pure Python, a few hundred kB): its examples are the PyPI programs of the CI sample of
# the real-program sweep, and one e2e example trains with its PrivacyEngine. Added to a cached
# venv in place, so an existing torch install is never rebuilt for it.
OPACUS=(opacus==1.6.0 opt-einsum==3.4.0 scipy==1.17.1)
ensure_opacus() {
  "$VENV/bin/python" -c "import opacus" 2>/dev/null && return 0
  uv_install "$VENV" --no-deps "${OPACUS[@]}"
}

# jaxtyping + beartype (pure Python): the shapes corpus' annotated models are run with jaxtyping's
# runtime checker, whose exceptions are the ground truth of W303. Added in place, like Opacus.
JAXTYPING=(jaxtyping==0.3.11 wadler_lindig==0.1.8 beartype==0.23.1)
ensure_jaxtyping() {
  "$VENV/bin/python" -c "import jaxtyping, beartype" 2>/dev/null && return 0
  uv_install "$VENV" --no-deps "${JAXTYPING[@]}"
}

lock_cache torch-venv
# wandb (offline; its deps resolved by uv): an e2e example logs to Weights & Biases, which must
# record on rank 0 only while every rank calls it.
ensure_wandb() {
  "$VENV/bin/python" -c "import wandb" 2>/dev/null && return 0
  uv_install "$VENV" "wandb==0.31.0"
}

if check; then
  echo "torch-env: reusing $VENV" >&2
  ensure_opacus
  ensure_jaxtyping
  ensure_wandb
  ensure_bytecode "$VENV"
  echo "$VENV"
  exit 0
fi

echo "torch-env: building $VENV (torch $TORCH + torchvision $TORCHVISION from PyPI with the nvidia packages, ~5 GB)" >&2
new_venv "$VENV" "$PY"
uv_install "$VENV" "torch==$TORCH" "torchvision==$TORCHVISION" "numpy==2.2.6" "tqdm==4.67.1"

if ! check; then
  echo "torch-env: torch $TORCH does not import with gloo in $VENV" >&2
  "$VENV/bin/python" -c "import torch" >&2 || true
  exit 1
fi
ensure_opacus
ensure_jaxtyping
ensure_wandb
ensure_bytecode "$VENV"
echo "$VENV"
