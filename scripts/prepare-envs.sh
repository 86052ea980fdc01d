#!/usr/bin/env bash
# Build (or check) every virtualenv the test run needs, one after another, so that
# scripts/test.sh can start this in the background while cargo compiles: on a cold machine the
# downloads (torch with its nvidia packages, TensorFlow twice) and Horovod's compile then overlap
# the Rust build instead of following it. Each builder holds its own lock
# (~/.cache/ranklift/NAME.lock), so when the test step reaches `scripts/torch-env.sh` it waits for
# the build under way here, then reuses it; a build that failed here is simply tried again there,
# where its error is shown in the step that needs it.
#
# Order: what `cargo test` needs first (mypy, NumPy 2 and 1, torch), then what the later
# end-to-end steps need (TensorFlow 2.21, then TensorFlow 2.13 + Horovod, the longest).
# A venv whose directory exists is left to the step that uses it (which checks it and rebuilds it
# if broken): on a warm machine this costs nothing beside the compile.
# Prints one line per venv with its time; exit status is that of the last failure (0 if none).
set -uo pipefail
cd "$(dirname "$0")"
CACHE="${RANKLIFT_CACHE:-$HOME/.cache/ranklift}"
status=0
build() {
  local dir="$1" start=$SECONDS
  shift
  if [ -d "$CACHE/$dir" ]; then
    echo "prepare-envs: $dir exists (checked by the step that uses it)"
    return 0
  fi
  if "$@" >/dev/null; then
    echo "prepare-envs: $* ready in $((SECONDS - start)) s"
  else
    status=$?
    echo "prepare-envs: $* failed after $((SECONDS - start)) s (the step that needs it builds it again)"
  fi
}
build uv-venv ./uv-env.sh
build mypy-venv ./mypy-env.sh
build numpy2-venv ./numpy-env.sh 2
build numpy1-venv ./numpy-env.sh 1
build torch-venv ./torch-env.sh
build tf-venv ./tf-env.sh
build hvd-venv ./horovod-env.sh
exit "$status"
