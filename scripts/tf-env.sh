#!/usr/bin/env bash
# Create (or reuse, when it already works) the Python environment in which the end-to-end
# checks of the TensorFlow >= 2.16 target run: tensorflow-cpu (ships Keras 3) + tf_keras (the
# Keras 2 that TF_USE_LEGACY_KERAS=1 selects). No Horovod: the rewrite runs on TensorFlow's own
# collectives (MultiWorkerMirroredStrategy).
#
# Why these pins: tensorflow-cpu 2.21.0 is the newest release on PyPI (2026-11); Horovod 0.28.1
# does not build against it, which is why this target exists. tf_keras is released in step with
# TensorFlow (2.21.0 with 2.21.0), and so is tensorboard, which tensorflow-cpu 2.21 no longer
# installs (tf.summary needs it). imageio/pillow: what two examples import besides TensorFlow.
# Cached under ~/.cache/ranklift (about 1 GB).
#
# Prints the venv path on the last line of stdout. Exit 0 only if TensorFlow, Keras 3 and
# tf_keras import.
set -euo pipefail
. "$(dirname "$0")/uv-env.sh"

VENV="${RANKLIFT_TF_VENV:-$HOME/.cache/ranklift/tf-venv}"
TF="${RANKLIFT_TF_VERSION:-2.21.0}"
PY="${RANKLIFT_PYTHON:-python3.11}"
command -v "$PY" >/dev/null 2>&1 || PY=python3

check() {
  [ -x "$VENV/bin/python" ] || return 1
  "$VENV/bin/python" - "$TF" <<'PYEOF' >/dev/null 2>&1
import sys
import tensorflow as tf, keras, tf_keras, tensorboard, imageio, PIL  # noqa: F401
assert tf.__version__ == sys.argv[1], tf.__version__
assert keras.__version__.startswith("3."), keras.__version__
PYEOF
}

lock_cache tf-venv
if check; then
  echo "tf-env: reusing $VENV" >&2
  ensure_bytecode "$VENV"
  echo "$VENV"
  exit 0
fi

echo "tf-env: building $VENV (tensorflow-cpu $TF + tf_keras, a few minutes)" >&2
new_venv "$VENV" "$PY"
uv_install "$VENV" "tensorflow-cpu==$TF" "tf-keras==$TF" "tensorboard==$TF" "imageio==2.37.0" "pillow==11.3.0"
if ! check; then
  echo "tf-env: TensorFlow $TF, Keras 3 or tf_keras does not import from $VENV" >&2
  "$VENV/bin/python" -c "import tensorflow as tf, keras, tf_keras; print(tf.__version__, keras.__version__)" >&2 || true
  exit 1
fi
ensure_bytecode "$VENV"
echo "$VENV"
