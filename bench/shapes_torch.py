#!/usr/bin/env python3
"""Benchmark of `ranklift shapes` on a PyTorch project with 10 models (< 1 s).

The project is torchvision 0.29.2 as installed in the torch venv (scripts/torch-env.sh, PyPI):
its `.py` files copied to a temporary directory, and a driver of ours that builds ten of its
models (AlexNet, VGG, two ResNets, two SqueezeNets, GoogLeNet, DenseNet, MobileNetV2,
ShuffleNetV2) and runs each on an input, so that every model's `__init__` and `forward` is
interpreted. Reported: the lines of the ten model files and of every project module the
driver's imports reach, the wall time of `ranklift shapes driver.py` (best of `--runs`), and
the same run's `ranklift parse-only` of the project as the baseline (the ratio is the analysis
cost over parsing). Nothing here fails on a time (timings are not tests).

Usage: bench/shapes_torch.py [--bin target/release/ranklift] [--python TORCH_PYTHON] [--runs 5]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DRIVER = """
import torch
from torchvision.models.alexnet import AlexNet
from torchvision.models.vgg import VGG, make_layers
from torchvision.models.resnet import ResNet, BasicBlock, Bottleneck
from torchvision.models.squeezenet import SqueezeNet
from torchvision.models.googlenet import GoogLeNet
from torchvision.models.densenet import DenseNet
from torchvision.models.mobilenetv2 import MobileNetV2
from torchvision.models.shufflenetv2 import ShuffleNetV2

x = torch.randn(2, 3, 96, 96)
models = [
    AlexNet(num_classes=10),
    VGG(make_layers([64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"]), num_classes=10),
    ResNet(BasicBlock, [2, 2, 2, 2], num_classes=10),
    ResNet(Bottleneck, [1, 1, 1, 1], num_classes=10),
    SqueezeNet("1_0", num_classes=10),
    SqueezeNet("1_1", num_classes=10),
    GoogLeNet(num_classes=10, aux_logits=False, init_weights=False),
    DenseNet(growth_rate=12, block_config=(2, 2, 2, 2), num_init_features=16, num_classes=10),
    MobileNetV2(num_classes=10),
    ShuffleNetV2([4, 8, 4], [24, 48, 96, 192, 1024], num_classes=10),
]
for m in models:
    m.eval()
    print(m(x).shape)
"""

FILES = ["alexnet", "vgg", "resnet", "squeezenet", "googlenet", "densenet", "mobilenetv2",
         "shufflenetv2"]


def best(cmd, runs, cwd):
    t = 1e9
    for _ in range(runs):
        s = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
        t = min(t, time.perf_counter() - s)
    return t, p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/ranklift")
    ap.add_argument("--python", default=os.path.expanduser("~/.cache/ranklift/torch-venv/bin/python"))
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    pkg = Path(subprocess.run([args.python, "-c", "import torchvision, os; "
                               "print(os.path.dirname(torchvision.__file__))"],
                              capture_output=True, text=True, check=True).stdout.strip())
    with tempfile.TemporaryDirectory(prefix="ranklift-bench-torch-") as tmp:
        root = Path(tmp)
        total = 0
        for f in pkg.rglob("*.py"):
            if "__pycache__" in f.parts:
                continue
            dest = root / f.relative_to(pkg.parent)
            dest.parent.mkdir(parents=True, exist_ok=True)
            text = f.read_text()
            dest.write_text(text)
            total += text.count("\n")
        (root / "driver.py").write_text(DRIVER)
        model_lines = sum((root / "torchvision" / "models" / f"{f}.py").read_text().count("\n")
                          for f in FILES)
        t, p = best([binary, "shapes", "driver.py"], args.runs, root)
        base, _ = best([binary, "parse-only", "torchvision"], args.runs, root)
        print(f"project: torchvision 0.29.2 ({total} lines in all); the ten models' files: "
              f"{model_lines} lines, plus the driver ({DRIVER.count(chr(10))} lines)")
        print(f"ranklift shapes driver.py: {t * 1000:.0f} ms (best of {args.runs}); "
              f"parse-only of the package: {base * 1000:.0f} ms; ratio {t / base:.2f}")
        print(f"findings: {p.stdout.strip().splitlines()[-1] if p.stdout.strip() else '(none)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
