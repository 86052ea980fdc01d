"""Seeded stand-ins for the datasets a training program downloads, so the program runs unmodified
on a machine that reaches no dataset host: `ranklift distribute --verify --synthetic-data` loads
this module into every process it starts, and the real-program sweeps of the repository do too.

`install()` arranges, each when (and only if) the program imports the library:

- `torchvision.datasets.MNIST`, `FashionMNIST`, `KMNIST`, `CIFAR10`, `CIFAR100`, `SVHN` (the real
  classes, subclassed: `__getitem__`, `.data`, `.targets`, `.classes`, `train_data`... are
  torchvision's own; only the loading is replaced) and `ImageFolder` over a directory that does
  not exist (a generated tree);
- torchvision's and `urllib.request`'s downloads (`download_url`, `download_and_extract_archive`,
  `urlretrieve`: a text file gets a synthetic corpus), and `requests.get` (the same corpus as
  `.text`);
- `keras.datasets.*.load_data` (and `tf.keras.datasets`) and `get_file` of MNIST's npz.

Images carry their label (class-dependent brightness and stripes plus noise), so a model can
learn and a loss can fall. Sizes: `RANKLIFT_OFFLINE_N` training examples (default 512), a
quarter as many for a test split; `RANKLIFT_OFFLINE_REAL_SIZES=1` (what `--verify` sets): the
real datasets' sizes (60,000 MNIST images...), so batches split as they will on the real data —
a program that reshapes every batch to its full size (`x.reshape(batch_size, -1)`) meets no
partial batch the real data would not give it. Everything is deterministic (a fixed seed per dataset and split),
so every rank and every run sees the same data, as they would see the same files. Pretrained
weights are not faked: such a program still needs the network. `used` names every stand-in the
process handed out.

Importing this module changes nothing; it needs NumPy only once a stand-in is built.

Example: `datasets.MNIST("data", train=True, download=True)` returns 512 labelled 28x28 images
without a request; `len(...)`, indexing and transforms behave as torchvision's own.
"""
import importlib.abc
import io
import os
import sys

N = int(os.environ.get("RANKLIFT_OFFLINE_N", "512"))
# Files the stand-ins need (an image tree, downloaded text) live here, apart from the program's
# own writes.
CACHE = os.environ.get("RANKLIFT_SYNTHETIC_CACHE") or os.path.join(
    os.path.expanduser("~/.cache"), "ranklift", "offline-data")
# Every stand-in handed out in this process, e.g. "torchvision.datasets.MNIST".
used = []


def _note(name):
    if name not in used:
        used.append(name)


_WORDS = ("the model learns a small language of words that repeat with a simple grammar and "
          "some noise so that the loss of a language model can fall during training").split()


def _images(n, h, w, c, classes, seed):
    """(uint8 images N×H×W[×C], int64 labels) with the label written into the pixels: a
    brightness and stripes per class, plus noise drawn from a bank of 256 noise images (so that
    a real-sized set — 60,000 MNIST images — costs its own bytes and little more). The top
    row's first pixels hold the image's index, one bit a pixel (black or white, so that it
    survives scaling and a program's own binarising): no two images are equal — `--verify`
    tells examples apart by their bytes, and 10 classes × 256 noise images alone would repeat."""
    import numpy as np

    rng = np.random.default_rng(seed)
    labels = rng.integers(0, classes, size=n)
    bank = np.clip(rng.normal(0, 20, size=(256, h, w)), -127, 127).astype(np.int16)
    level = (np.arange(classes) * (200.0 / max(classes - 1, 1)) + 20.0).astype(np.int16)
    pattern = np.zeros((classes, h, w), dtype=np.int16)
    for k in range(classes):
        pattern[k, (k * 3) % h::max(classes // 2, 2), :] = 30
    pattern += level[:, None, None]
    noise_of = rng.integers(0, 256, size=n)
    img = np.empty((n, h, w, c) if c else (n, h, w), dtype=np.uint8)
    for start in range(0, n, 4096):
        sl = slice(start, min(n, start + 4096))
        gray = pattern[labels[sl]] + bank[noise_of[sl]]
        if c:
            img[sl] = np.clip(gray, 0, 255).astype(np.uint8)[..., None]
            # The red channel also says the class (mod 3), so colour matters.
            red = gray + (labels[sl, None, None] % 3).astype(np.int16) * 20
            img[sl, ..., 0] = np.clip(red, 0, 255).astype(np.uint8)
        else:
            img[sl] = np.clip(gray, 0, 255).astype(np.uint8)
    index = np.arange(n)
    for k in range(min(max(n - 1, 1).bit_length(), w)):
        bit = ((index >> k) & 1).astype(np.uint8) * 255
        img[:, 0, k] = bit.reshape((n,) + (1,) * (img.ndim - 3))
    return img, labels.astype(np.int64)


def corpus(n_chars=200_000, seed=0):
    import numpy as np

    rng = np.random.default_rng(seed)
    out, size = [], 0
    while size < n_chars:
        k = int(rng.integers(4, 12))
        line = " ".join(_WORDS[int(i)] for i in rng.integers(0, len(_WORDS), size=k)) + ".\n"
        out.append(line)
        size += len(line)
    return "".join(out)


# Programs that hard-code a dataset's real size (`x_train.reshape(60000, 784)`) run with
# RANKLIFT_OFFLINE_REAL_SIZES=1: the splits then have the real dataset's sizes.
REAL_SIZES = os.environ.get("RANKLIFT_OFFLINE_REAL_SIZES") == "1"


def _split_n(train, real=None):
    if REAL_SIZES and real:
        return real[0] if train else real[1]
    return N if train else max(N // 4, 16)


def _patch_torchvision(D):
    """`D` is `torchvision.datasets`, just imported."""
    import torch
    from torchvision.datasets.vision import VisionDataset

    def mnist_like(base, seed):
        class Synthetic(base):
            def __init__(self, root, train=True, transform=None, target_transform=None,
                         download=False, **kwargs):
                VisionDataset.__init__(self, root, transform=transform, target_transform=target_transform)
                _note(f"torchvision.datasets.{base.__name__}")
                self.train = train
                data, labels = _images(_split_n(train, (60000, 10000)), 28, 28, 0, 10, seed + (0 if train else 1))
                self.data = torch.from_numpy(data)
                self.targets = torch.from_numpy(labels)

        Synthetic.__name__ = Synthetic.__qualname__ = base.__name__
        Synthetic.__module__ = base.__module__
        return Synthetic

    def cifar_like(base, classes, seed):
        class Synthetic(base):
            def __init__(self, root, train=True, transform=None, target_transform=None,
                         download=False, **kwargs):
                VisionDataset.__init__(self, root, transform=transform, target_transform=target_transform)
                _note(f"torchvision.datasets.{base.__name__}")
                self.train = train
                data, labels = _images(_split_n(train, (50000, 10000)), 32, 32, 3, classes, seed + (0 if train else 1))
                self.data = data
                self.targets = [int(x) for x in labels]
                self.classes = [f"class{i}" for i in range(classes)]
                self.class_to_idx = {c: i for i, c in enumerate(self.classes)}

        Synthetic.__name__ = Synthetic.__qualname__ = base.__name__
        Synthetic.__module__ = base.__module__
        return Synthetic

    class SVHN(D.SVHN):
        def __init__(self, root, split="train", transform=None, target_transform=None,
                     download=False, **kwargs):
            VisionDataset.__init__(self, root, transform=transform, target_transform=target_transform)
            _note("torchvision.datasets.SVHN")
            self.split = split
            data, labels = _images(_split_n(split == "train", (73257, 26032)), 32, 32, 3, 10, 30 + (split != "train"))
            self.data = data.transpose(0, 3, 1, 2)  # SVHN keeps CHW
            self.labels = labels

    real_image_folder = D.ImageFolder

    class ImageFolder(real_image_folder):
        def __init__(self, root, *args, **kwargs):
            if not os.path.isdir(root) or not os.listdir(root):
                _note("torchvision.datasets.ImageFolder")
                root = _make_tree(root)
            super().__init__(root, *args, **kwargs)

    replacements = {
        "MNIST": mnist_like(D.MNIST, 10),
        "FashionMNIST": mnist_like(D.FashionMNIST, 12),
        "KMNIST": mnist_like(D.KMNIST, 14),
        "CIFAR10": cifar_like(D.CIFAR10, 10, 20),
        "CIFAR100": cifar_like(D.CIFAR100, 100, 22),
        "SVHN": SVHN,
        "ImageFolder": ImageFolder,
    }
    for name, cls in replacements.items():
        # Also in the defining module, so that pickling an instance (a Hogwild program sends its
        # dataset to worker processes) finds this class under its name.
        setattr(sys.modules[getattr(D, name).__module__], name, cls)
        setattr(D, name, cls)
    import torchvision.datasets.utils as U

    def no_download(*a, **k):
        return None

    U.download_url = no_download
    U.download_and_extract_archive = no_download


def _make_tree(root):
    """A two-class image folder (64×64 RGB PNGs) under a private directory; its path."""
    from PIL import Image

    base = os.path.join(CACHE, "images", f"{N}")
    if os.path.isdir(base):
        return base
    data, labels = _images(max(N // 4, 32), 64, 64, 3, 2, 40)
    tmp = base + f".{os.getpid()}"
    for i, (img, y) in enumerate(zip(data, labels)):
        d = os.path.join(tmp, f"class{y}")
        os.makedirs(d, exist_ok=True)
        Image.fromarray(img).save(os.path.join(d, f"{i}.png"))
    try:
        os.rename(tmp, base)  # whole, or another process made it first
    except OSError:
        pass
    return base


def _patch_urllib(request):
    """`request` is `urllib.request`, just imported (`urllib.request` is not yet an attribute)."""
    def urlretrieve(url, filename=None, *a, **k):
        _note("urllib.request.urlretrieve")
        # Written where the program says, through io.open (not the `open` the probes watch): the
        # layer stands in for the network, its writes are not the program's output.
        if filename is None:
            os.makedirs(CACHE, exist_ok=True)
            filename = os.path.join(CACHE, os.path.basename(url) or "download")
        with io.open(filename, "w") as f:
            f.write(corpus())
        return filename, None

    request.urlretrieve = urlretrieve

    class _Response(io.BytesIO):
        status = 200

        def getcode(self):
            return 200

    def urlopen(url, *a, **k):
        _note("urllib.request.urlopen")
        return _Response(corpus().encode())

    request.urlopen = urlopen


def _patch_requests(requests):

    class _Fake:
        status_code = 200
        ok = True

        def __init__(self):
            _note("requests.get")
            self.text = corpus()
            self.content = self.text.encode()

        def raise_for_status(self):
            return None

        def json(self):
            return {}

    requests.get = lambda *a, **k: _Fake()


def _sequences(n, classes, num_words, seed, maxlen=None):
    """IMDB/Reuters-like: lists of word indices (1 = start, 2 = out of vocabulary) whose words
    depend on the label, as object arrays, and int64 labels."""
    import numpy as np

    rng = np.random.default_rng(seed)
    vocab = min(int(num_words or 5000), 5000)
    labels = rng.integers(0, classes, size=n)
    seqs = np.empty(n, dtype=object)
    for i, label in enumerate(labels):
        length = int(rng.integers(20, min(maxlen or 200, 200) + 1))
        common = rng.integers(4, max(vocab // 2, 5), size=length)
        marked = 4 + (label * 7 + rng.integers(0, 7, size=length)) % max(vocab - 4, 1)
        words = np.where(rng.random(length) < 0.3, marked, common)
        seqs[i] = [1] + [int(w) for w in words]
    return seqs, labels.astype(np.int64)


def _patch_keras_datasets(tf):
    """`tf.keras.datasets.*.load_data` (and `keras.datasets`, the same functions in Keras 2)
    answer with synthetic arrays of the real shapes and dtypes; `get_file` of MNIST's npz too."""
    import keras
    import numpy as np

    def mnist_like(seed):
        def load_data(path="mnist.npz"):
            _note("keras.datasets.mnist")
            (a, b), (c, d) = (_images(_split_n(True, (60000, 10000)), 28, 28, 0, 10, seed),
                              _images(_split_n(False, (60000, 10000)), 28, 28, 0, 10, seed + 1))
            return (a, b.astype(np.uint8)), (c, d.astype(np.uint8))
        return load_data

    def cifar_like(classes, seed):
        def load_data(label_mode="fine"):
            _note("keras.datasets.cifar")
            (a, b), (c, d) = (_images(_split_n(True, (50000, 10000)), 32, 32, 3, classes, seed),
                              _images(_split_n(False, (50000, 10000)), 32, 32, 3, classes, seed + 1))
            return (a, b.astype(np.uint8)[:, None]), (c, d.astype(np.uint8)[:, None])
        return load_data

    def text_like(classes, seed):
        def load_data(path=None, num_words=None, skip_top=0, maxlen=None, seed_=113, start_char=1,
                      oov_char=2, index_from=3, test_split=0.2, **kwargs):
            _note("keras.datasets.imdb" if classes == 2 else "keras.datasets.reuters")
            sizes = (25000, 25000) if classes == 2 else (8982, 2246)
            return (_sequences(_split_n(True, sizes), classes, num_words, seed, maxlen),
                    _sequences(_split_n(False, sizes), classes, num_words, seed + 1, maxlen))
        return load_data

    def word_index(path=None):
        return {w: i + 1 for i, w in enumerate(sorted(set(_WORDS)) + [f"w{k}" for k in range(5000)])}

    def boston(path="boston_housing.npz", test_split=0.2, seed=113):
        _note("keras.datasets.boston_housing")
        rng = np.random.default_rng(seed)
        x = rng.normal(size=(_split_n(True) + _split_n(False), 13))
        y = x @ rng.normal(size=13) * 3 + 22
        n = _split_n(True)
        return (x[:n], y[:n]), (x[n:], y[n:])

    loaders = {"mnist": mnist_like(11), "fashion_mnist": mnist_like(21),
               "cifar10": cifar_like(10, 31), "cifar100": cifar_like(100, 41),
               "imdb": text_like(2, 51), "reuters": text_like(46, 61), "boston_housing": boston}
    import importlib
    for prefix in ("keras.datasets", "keras.src.datasets", "keras.api._v2.keras.datasets"):
        for name, load in loaders.items():
            try:
                module = importlib.import_module(f"{prefix}.{name}")
            except ImportError:
                continue
            module.load_data = load
            if hasattr(module, "get_word_index"):
                module.get_word_index = word_index

    original_get_file = keras.utils.get_file

    def get_file(fname=None, origin=None, *a, **k):
        name = os.path.basename(str(origin or fname or ""))
        if name == "mnist.npz":
            _note("keras.utils.get_file(mnist.npz)")
            os.makedirs(CACHE, exist_ok=True)
            path = os.path.join(CACHE, "mnist.npz")
            (a_, b_), (c_, d_) = loaders["mnist"]()
            np.savez(path, x_train=a_, y_train=b_, x_test=c_, y_test=d_)
            return path
        return original_get_file(fname, origin, *a, **k)

    for module in (keras.utils, tf.keras.utils):
        module.get_file = get_file


# Patches run after a module's own code, whichever way the program imports it.
_after = {}  # module name -> [patch(module)]
_state = {"tf_done": False, "finder": None}


class _AfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: for a hooked module it asks the finders after it, then runs the
    patches once the module's code has run."""

    def find_spec(self, fullname, path, target=None):
        if fullname not in _after:
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
            for patch in _after.get(fullname, ()):
                patch(module)

        spec.loader.exec_module = exec_and_patch
        return spec


def after_import(name, patch):
    """Run `patch(module)` once `name` is imported (at once if it already is)."""
    if name in sys.modules and not getattr(getattr(sys.modules[name], "__spec__", None), "_initializing", False):
        patch(sys.modules[name])
        return
    _after.setdefault(name, []).append(patch)
    if _state["finder"] is None:
        _state["finder"] = _AfterImport()
        sys.meta_path.insert(0, _state["finder"])


def _ready(name, loading):
    module = sys.modules.get(name)
    if module is None:
        return False
    return name == loading or not getattr(getattr(module, "__spec__", None), "_initializing", False)


_tf_patches = []


def _maybe_tensorflow(loading):
    if _state["tf_done"] or not _ready("tensorflow", loading):
        return
    if "keras" in sys.modules and not _ready("keras", loading):
        return  # Keras is importing TensorFlow: run when Keras is done
    _state["tf_done"] = True
    for patch in _tf_patches:
        patch(sys.modules["tensorflow"])


def on_tensorflow(patch):
    """Run `patch(tensorflow)` once TensorFlow *and* Keras are imported, whichever the program
    imports first (`import keras` imports TensorFlow from inside Keras's own import: patching
    Keras then would meet a half-initialised module)."""
    first = not _tf_patches
    _tf_patches.append(patch)
    if first:
        after_import("tensorflow", lambda _m: _maybe_tensorflow("tensorflow"))
        after_import("keras", lambda _m: _maybe_tensorflow("keras"))
    elif _state["tf_done"]:
        patch(sys.modules["tensorflow"])


def install():
    """Arrange the stand-ins (see the module's doc); idempotent."""
    if _state.get("installed"):
        return
    _state["installed"] = True
    on_tensorflow(_patch_keras_datasets)
    after_import("urllib.request", _patch_urllib)
    after_import("requests", _patch_requests)
    after_import("torchvision.datasets", _patch_torchvision)
