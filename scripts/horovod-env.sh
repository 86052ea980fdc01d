#!/usr/bin/env bash
# Create (or reuse, when it already works) the Python environment in which the
# end-to-end checks run the original and the distributed programs for real:
# TensorFlow (CPU) 2.13.1 + Horovod 0.28.1 built from source with Gloo.
#
# Why these pins (measured on a 2-core machine):
#   - CMake 4 refuses Horovod's bundled gloo, hence "cmake<4" inside the venv;
#   - without --no-build-isolation the build cannot see the venv's cmake;
#   - Keras 3 (TensorFlow >= 2.16) breaks horovod.tensorflow.keras.
# The Horovod build takes about 7 minutes on 2 cores; the venv is cached under
# ~/.cache/ranklift so later runs reuse it.
#
# Prints the venv path on the last line of stdout. Exit 0 only if
# `horovodrun --check-build` reports TensorFlow and Gloo.
set -euo pipefail
. "$(dirname "$0")/uv-env.sh"

VENV="${RANKLIFT_HVD_VENV:-$HOME/.cache/ranklift/hvd-venv}"
PY="${RANKLIFT_PYTHON:-python3.11}"
command -v "$PY" >/dev/null 2>&1 || PY=python3

check() {
  [ -x "$VENV/bin/horovodrun" ] || return 1
  local out
  out="$(PATH="$VENV/bin:$PATH" "$VENV/bin/horovodrun" --check-build 2>/dev/null)" || return 1
  grep -q '\[X\] TensorFlow' <<<"$out" && grep -q '\[X\] Gloo' <<<"$out"
}

# What the examples import besides TensorFlow (a GIF of training frames: imageio, Pillow),
# pinned to what TensorFlow 2.13's numpy 1.24 allows; added to a cached venv too.
extras() {
  "$VENV/bin/python" -c "import imageio, PIL" >/dev/null 2>&1 ||
    uv_install "$VENV" "imageio==2.34.2" "pillow==10.4.0" "numpy==1.24.3"
}

lock_cache hvd-venv
if check; then
  echo "horovod-env: reusing $VENV" >&2
  extras
  ensure_bytecode "$VENV"
  echo "$VENV"
  exit 0
fi

echo "horovod-env: building $VENV (TensorFlow 2.13.1 + Horovod 0.28.1, ~10 min)" >&2
new_venv "$VENV" "$PY"
export PATH="$VENV/bin:$PATH"
# TensorFlow by uv (downloads in parallel); Horovod's own compile by pip, as its docs show it.
uv_install "$VENV" "pip<25" "setuptools<70" wheel "cmake<4" "tensorflow-cpu==2.13.1" "numpy<2"
HOROVOD_WITH_TENSORFLOW=1 HOROVOD_WITH_GLOO=1 HOROVOD_WITHOUT_MPI=1 \
HOROVOD_WITHOUT_PYTORCH=1 HOROVOD_WITHOUT_MXNET=1 HOROVOD_CMAKE="$VENV/bin/cmake" \
MAKEFLAGS="-j$(nproc)" \
  pip install --quiet --no-build-isolation --no-cache-dir "horovod==0.28.1" >&2

if ! check; then
  echo "horovod-env: horovodrun --check-build does not report TensorFlow and Gloo" >&2
  "$VENV/bin/horovodrun" --check-build >&2 || true
  exit 1
fi
extras
ensure_bytecode "$VENV"
echo "$VENV"
