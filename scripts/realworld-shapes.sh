#!/usr/bin/env bash
# `ranklift shapes` on pinned real NumPy packages from PyPI, compared with a ledger of confirmed
# findings (see scripts/realworld_shapes.py). Downloads are cached under ~/.cache/ranklift.
#   RANKLIFT_BIN=path/to/ranklift  use this binary (default: a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${RANKLIFT_BIN:-}" ]; then
  cargo build --quiet --release --bin ranklift
  RANKLIFT_BIN="$PWD/target/release/ranklift"
fi
exec python3 scripts/realworld_shapes.py --bin "$RANKLIFT_BIN" "$@"
