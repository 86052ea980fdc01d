#!/usr/bin/env bash
# Create (or reuse) a virtualenv with a pinned NumPy, used to record and check what real NumPy
# does with the shapes test programs (`--numpy-version`). Cached under ~/.cache/ranklift.
#   scripts/numpy-env.sh 2   -> NumPy 2.2.6 (the default model)
#   scripts/numpy-env.sh 1   -> NumPy 1.24.3 (the Horovod venv's, when present)
# Prints the venv's python on the last line of stdout.
set -euo pipefail
. "$(dirname "$0")/uv-env.sh"
MAJOR="${1:-2}"
case "$MAJOR" in
  2) VERSION="2.2.6" ;;
  1) VERSION="1.24.3" ;;
  *) echo "numpy-env: unknown NumPy major version $MAJOR" >&2; exit 2 ;;
esac
VENV="$HOME/.cache/ranklift/numpy$MAJOR-venv"
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import numpy; assert numpy.__version__ == '$VERSION'" 2>/dev/null; then
  ensure_bytecode "$VENV"
  echo "$VENV/bin/python"
  exit 0
fi
# NumPy 1.24.3 is also the Horovod venv's: reused when it exists and no NumPy-only venv does.
if [ "$MAJOR" = 1 ] && [ -x "$HOME/.cache/ranklift/hvd-venv/bin/python" ] \
   && "$HOME/.cache/ranklift/hvd-venv/bin/python" -c "import numpy; assert numpy.__version__ == '$VERSION'" 2>/dev/null; then
  echo "$HOME/.cache/ranklift/hvd-venv/bin/python"
  exit 0
fi
echo "numpy-env: creating $VENV (numpy $VERSION)" >&2
lock_cache "numpy$MAJOR-venv"
if ! { [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import numpy; assert numpy.__version__ == '$VERSION'" 2>/dev/null; }; then
  new_venv "$VENV"
  uv_install "$VENV" "numpy==$VERSION"
fi
echo "$VENV/bin/python"
