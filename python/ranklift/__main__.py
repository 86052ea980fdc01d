"""`python -m ranklift ...`: run the `ranklift` binary installed with this package."""
import os
import sys
import sysconfig


def find_binary() -> str:
    """The `ranklift` executable of this installation (its scripts directory), else on PATH."""
    name = "ranklift" + (sysconfig.get_config_var("EXE") or "")
    for scheme in (sysconfig.get_default_scheme(), "posix_user" if os.name == "posix" else "nt_user"):
        try:
            candidate = os.path.join(sysconfig.get_path("scripts", scheme), name)
        except KeyError:
            continue
        if os.path.isfile(candidate):
            return candidate
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.isfile(here):
        return here
    import shutil

    found = shutil.which("ranklift")
    if found is None:
        raise FileNotFoundError("the ranklift binary is not installed next to this package")
    return found


if __name__ == "__main__":
    binary = find_binary()
    if os.name == "posix":
        os.execv(binary, [binary, *sys.argv[1:]])
    else:
        import subprocess

        sys.exit(subprocess.call([binary, *sys.argv[1:]]))
