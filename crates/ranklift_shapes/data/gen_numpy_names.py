"""Write a numpy names file: the public attributes of the NumPy modules and ndarray that
ranklift shapes checks attribute access against (E011). Run with the NumPy to record:
    python gen_numpy_names.py [OTHER_NAMES_FILE ...] > numpy_names.txt      (NumPy 1.x)
    python gen_numpy_names.py numpy_names.txt > numpy2_names.txt           (NumPy 2.x)
Each line is `<owner> <name>`; the first line records the NumPy version. `dir()` omits names a
module serves through `__getattr__` (`np.core` in 1.24, `np.bool8`): every name of the other
files given is also tried, and kept when `getattr` succeeds on this NumPy. A name that fails is
recorded as `! <owner> <name> <message>` with the first line of NumPy's own AttributeError
(`np.float`, and the names NumPy 2.0 removed: "`np.NaN` was removed in the NumPy 2.0 release.
Use `np.nan` instead.")."""
import sys
import warnings

import numpy as np

owners = [("numpy", np), ("numpy.random", np.random), ("numpy.linalg", np.linalg), ("numpy.fft", np.fft),
          ("numpy.testing", np.testing), ("numpy.ndarray", np.ndarray)]
extra = {}
for path in sys.argv[1:]:
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.split()
            owner, name = parts[1:3] if parts[0] == "!" else parts[:2]
            extra.setdefault(owner, set()).add(name)
# The aliases NumPy removed, which its module __getattr__ explains.
for mod in ("_expired_attrs_2_0",):
    try:
        m = __import__(f"numpy.{mod}", fromlist=["x"])
        extra.setdefault("numpy", set()).update(m.__expired_attributes__)
    except ImportError:
        pass
extra.setdefault("numpy", set()).update(getattr(np, "__former_attrs__", {}) or {})
extra.setdefault("numpy", set()).update(["float", "int", "complex", "object", "str", "bool", "long", "unicode"])
print("# numpy", np.__version__)
for owner, obj in owners:
    names = set()
    missing = {}
    # `dir()` may list names that only raise (NumPy 2 keeps `ndarray.ptp` to explain its removal).
    for name in sorted(set(dir(obj)) | extra.get(owner, set())):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                getattr(np.zeros((2, 2)) if owner == "numpy.ndarray" else obj, name)
                names.add(name)
            except AttributeError as e:
                missing[name] = str(e).splitlines()[0] if str(e) else ""
            except Exception:  # the attribute exists; computing it failed (`mT` of a 1-d array)
                names.add(name)
    for name in sorted(names):
        print(owner, name)
    for name, message in sorted(missing.items()):
        print("!", owner, name, message)
