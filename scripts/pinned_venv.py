"""A pinned tool in a virtualenv cached under ~/.cache/ranklift (RANKLIFT_CACHE moves it): made
once, made again when the pins change (a `pinned.txt` marker records them)."""
import fcntl
import os
import subprocess
import sys
from pathlib import Path

CACHE = Path(os.environ.get("RANKLIFT_CACHE", Path.home() / ".cache" / "ranklift"))


def tool(venv_name, pins, exe):
    """The path of `exe` in the venv `venv_name` holding exactly `pins` (pip requirements)."""
    venv = CACHE / venv_name
    path = venv / "bin" / exe
    marker = venv / "pinned.txt"
    wanted = " ".join(pins)
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f"{venv_name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two runs building the same venv wait for each other
        if not (path.exists() and marker.exists() and marker.read_text() == wanted):
            uv = subprocess.run([str(Path(__file__).with_name("uv-env.sh"))], check=True,
                                capture_output=True, text=True).stdout.split()[-1]
            subprocess.run([uv, "venv", "--quiet", "--clear", "--seed", "--python", sys.executable, str(venv)], check=True)
            subprocess.run([uv, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"), *pins],
                           check=True)
            marker.write_text(wanted)
    return path
