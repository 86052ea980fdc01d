#!/usr/bin/env bash
# Create (or reuse) the pinned uv that every venv builder of this project installs with, and print
# its path on the last line of stdout. uv (a pip-compatible installer, itself a wheel on PyPI)
# fetches and unpacks wheels in parallel: torch with its nvidia packages (about 5 GB) installs in
# about 20 s where pip took about 10 min on a cold machine, which is most of a cold CI run's set-up.
#
# Also defines, when sourced (`. scripts/uv-env.sh`), the helpers the venv builders share:
#   new_venv VENV [PYTHON]   an empty venv with pip in it (programs and tests may call its pip)
#   uv_install VENV ARGS...  `uv pip install` into that venv, compiled to bytecode
#   ensure_bytecode VENV     compile a venv installed before that (once; a marker file says so)
#   lock_cache NAME          hold ~/.cache/ranklift/NAME.lock until the calling script exits, so
#                            that two runs building the same venv wait for each other
set -euo pipefail

RANKLIFT_CACHE="${RANKLIFT_CACHE:-$HOME/.cache/ranklift}"
UV_VERSION="0.13.9"
UV_VENV="$RANKLIFT_CACHE/uv-venv"

uv_ok() {
  [ -x "$UV_VENV/bin/uv" ] && "$UV_VENV/bin/uv" --version 2>/dev/null | grep -q "^uv $UV_VERSION"
}

uv_bin() {
  local uv="$UV_VENV/bin/uv"
  if uv_ok; then
    echo "$uv"
    return 0
  fi
  # Builders may run side by side (scripts/prepare-envs.sh in the background of a test run):
  # the first one installs uv, the others wait for it and then reuse it.
  mkdir -p "$RANKLIFT_CACHE"
  (
    flock 9
    if ! uv_ok; then
      echo "uv-env: installing uv $UV_VERSION into $UV_VENV" >&2
      rm -rf "$UV_VENV"
      python3 -m venv "$UV_VENV"
      "$UV_VENV/bin/pip" install --quiet --disable-pip-version-check "uv==$UV_VERSION" >&2
    fi
  ) 9>"$RANKLIFT_CACHE/uv-venv.lock"
  echo "$uv"
}

new_venv() {
  local venv="$1" py="${2:-python3}"
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  "$(uv_bin)" venv --quiet --seed --python "$py" "$venv" >&2
}

# Installed packages are compiled to bytecode (.pyc) at install time. Python would write the
# .pyc files on first import, but not where PYTHONDONTWRITEBYTECODE is set (as on these
# machines): then every process compiles what it imports again — measured here, `import torch`
# took 3.5 s of CPU and `import tensorflow` 7.4 s, against 1.7 s and 2.5 s compiled, in every
# process of every end-to-end run.
uv_install() {
  local venv="$1"
  shift
  "$(uv_bin)" pip install --quiet --compile-bytecode --python "$venv/bin/python" "$@" >&2
}

ensure_bytecode() {
  local venv="$1"
  [ -e "$venv/.ranklift-bytecode" ] && return 0
  local site
  site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  # A package may ship files that are not Python 3 (templates, test data): those fail to
  # compile and are left as they are.
  "$venv/bin/python" -m compileall -q -j 0 "$site" >/dev/null 2>&1 || true
  touch "$venv/.ranklift-bytecode"
}

lock_cache() {
  mkdir -p "$RANKLIFT_CACHE"
  exec {RANKLIFT_LOCK_FD}>"$RANKLIFT_CACHE/$1.lock"
  flock "$RANKLIFT_LOCK_FD"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  uv_bin
fi
