"""Run functions on the `tensorflow` module once TensorFlow *and* Keras are imported, whichever
the program imports first (`import keras` imports TensorFlow from inside Keras's own import:
patching Keras then would meet a half-initialised module). Shared by the e2e probes and the
offline data layer; each hook defers to the finders after it, so several layers can hook."""
import importlib.abc
import sys

_patches = []
_state = {"done": False, "finder": None}


def _ready(name, loading):
    module = sys.modules.get(name)
    if module is None:
        return False
    return name == loading or not getattr(getattr(module, "__spec__", None), "_initializing", False)


def _maybe_run(loading):
    if _state["done"] or not _ready("tensorflow", loading):
        return
    if "keras" in sys.modules and not _ready("keras", loading):
        return  # Keras is importing TensorFlow: run when Keras is done
    _state["done"] = True
    if _state["finder"] in sys.meta_path:
        sys.meta_path.remove(_state["finder"])
    for patch in _patches:
        patch(sys.modules["tensorflow"])


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname not in ("tensorflow", "keras"):
            return None
        i = sys.meta_path.index(self)
        spec = None
        for finder in sys.meta_path[i + 1:]:
            spec = finder.find_spec(fullname, path, target) if hasattr(finder, "find_spec") else None
            if spec is not None:
                break
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_and_patch(module):
            exec_module(module)
            _maybe_run(fullname)

        spec.loader.exec_module = exec_and_patch
        return spec


def on_tensorflow(patch):
    _patches.append(patch)
    if _state["finder"] is None:
        _state["finder"] = _Finder()
        sys.meta_path.insert(0, _state["finder"])
