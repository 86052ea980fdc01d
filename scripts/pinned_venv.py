"""A pinned tool in a virtualenv cached under ~/.cache/ranklift (RANKLIFT_CACHE moves it): made
once, made again when the pins change (a `pinned.txt` marker records them)."""
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
    if not (path.exists() and marker.exists() and marker.read_text() == wanted):
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet",
                        "--disable-pip-version-check", *pins], check=True)
        marker.write_text(wanted)
    return path
