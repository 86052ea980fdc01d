#!/usr/bin/env bash
# Create (or reuse) a small virtualenv with mypy, used by the test that type-checks the
# role-erased programs `ranklift choreo project --emit-erased` writes. Cached under
# ~/.cache/ranklift. Prints the mypy executable on the last line of stdout.
set -euo pipefail
VENV="${RANKLIFT_MYPY_VENV:-$HOME/.cache/ranklift/mypy-venv}"
VERSION="2.4.1"
if [ -x "$VENV/bin/mypy" ] && "$VENV/bin/mypy" --version 2>/dev/null | grep -q "mypy $VERSION"; then
  echo "$VENV/bin/mypy"
  exit 0
fi
echo "mypy-env: creating $VENV (mypy $VERSION)" >&2
rm -rf "$VENV"
mkdir -p "$(dirname "$VENV")"
python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet "mypy==$VERSION" >&2
echo "$VENV/bin/mypy"
