#!/usr/bin/env bash
# Create (or reuse) a small virtualenv with mypy, used by the test that type-checks the
# role-erased programs `ranklift choreo project --emit-erased` writes. Cached under
# ~/.cache/ranklift. Prints the mypy executable on the last line of stdout.
set -euo pipefail
. "$(dirname "$0")/uv-env.sh"
VENV="${RANKLIFT_MYPY_VENV:-$HOME/.cache/ranklift/mypy-venv}"
VERSION="2.4.1"
if [ -x "$VENV/bin/mypy" ] && "$VENV/bin/mypy" --version 2>/dev/null | grep -q "mypy $VERSION"; then
  echo "$VENV/bin/mypy"
  exit 0
fi
echo "mypy-env: creating $VENV (mypy $VERSION)" >&2
lock_cache mypy-venv
if ! { [ -x "$VENV/bin/mypy" ] && "$VENV/bin/mypy" --version 2>/dev/null | grep -q "mypy $VERSION"; }; then
  new_venv "$VENV"
  uv_install "$VENV" "mypy==$VERSION"
fi
echo "$VENV/bin/mypy"
