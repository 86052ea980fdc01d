#!/usr/bin/env python3
"""Generate a synthetic PyTorch project for bench/distribute_torch.sh.

`gen_torch_project.py OUT [MODULES]` writes OUT/train.py (a training loop over a DataLoader that
calls into the packages, and through their imports reaches every module) and MODULES modules in packages OUT/pkgNN/ (nn.Module models, datasets
and loaders, losses, helpers with prints and checkpoints), each about 200 lines, importing one
another. Deterministic: same arguments, same files. Only the standard library is used.
"""
import os
import sys

MODULE_TEMPLATE = '''"""Synthetic module {name} of the ranklift benchmark project."""
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
{imports}

SCALE_{i} = {i}.5
WIDTHS_{i} = [{w}, {w2}, 1]


class Block{i}(nn.Module):
    def __init__(self, width={w}):
        super().__init__()
        self.linear = nn.Linear(width, width)
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        return self.norm(F.relu(self.linear(x)))


class Model{i}(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(8, WIDTHS_{i}[0])
        self.blocks = nn.ModuleList([Block{i}(WIDTHS_{i}[0]) for _ in range(2)])
        self.head = nn.Linear(WIDTHS_{i}[0], WIDTHS_{i}[-1])

    def forward(self, x):
        h = self.inp(x)
        for block in self.blocks:
            h = block(h)
        return self.head(h)

    def describe(self):
        return f"Model{i} with {{sum(p.numel() for p in self.parameters())}} parameters"


class Data{i}(Dataset):
    def __init__(self, n={n}, seed={i}):
        gen = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, 8, generator=gen)
        self.y = self.x.sum(dim=1, keepdim=True) * SCALE_{i}

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]


def make_loader_{i}(batch=32, shuffle=True):
    return DataLoader(Data{i}(), batch_size=batch, shuffle=shuffle)

{helpers}
{losses}

def evaluate_{i}(model, loader):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            total += F.mse_loss(model(x), y).item()
    print(f"{name}: eval loss {{total / max(len(loader), 1):.4f}}")
    return total


def save_{i}(model, path):
    torch.save(model.state_dict(), os.path.join(path, "{name}.pt"))
    print("saved {name}")
'''

HELPER = '''
def helper_{i}_{k}(values, factor={k}):
    """Helper {k} of module {i}: a little arithmetic that the analysis has to walk through."""
    out = []
    for v in values:
        if v > factor:
            out.append(math.sqrt(v) * factor)
        elif v < -factor:
            out.append(-math.sqrt(-v))
        else:
            out.append(v * SCALE_{i})
    acc = 0.0
    for j, v in enumerate(out):
        acc += v / (j + 1)
    return acc, len(out)
'''

LOSS = '''
def loss_{i}_{k}(pred, target):
    diff = pred - target
    return (diff * diff).mean() * {k} + diff.abs().mean()
'''

TRAIN = '''"""Entry point of the synthetic benchmark project: trains Model0 on Data0."""
import os
import tempfile

import torch
import torch.nn.functional as F

{imports}


def train_one_epoch(model, loader, optimizer):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    loader = make_loader_0()
    model = Model0()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(3):
        loss = train_one_epoch(model, loader, optimizer)
        print(f"epoch {{epoch}}: loss {{loss:.4f}}")
        evaluate_0(model, loader)
    save_0(model, tempfile.gettempdir())


if __name__ == "__main__":
    main()
'''


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 260
    per_pkg = 20
    mods = []
    for i in range(n):
        pkg, mod = f"pkg{i // per_pkg:02d}", f"mod{i:03d}"
        os.makedirs(os.path.join(out, pkg), exist_ok=True)
        init = os.path.join(out, pkg, "__init__.py")
        if not os.path.exists(init):
            with open(init, "w") as f:
                f.write("")
        # Each module imports the next: the training script reaches the whole project, as a
        # real one reaches its models, data and utilities.
        imports = ""
        if i + 1 < n:
            j = i + 1
            imports = f"from pkg{j // per_pkg:02d}.mod{j:03d} import helper_{j}_1"
        helpers = "".join(HELPER.format(i=i, k=k) for k in range(1, 8))
        losses = "".join(LOSS.format(i=i, k=k) for k in range(1, 6))
        text = MODULE_TEMPLATE.format(name=f"{pkg}.{mod}", i=i, w=16 + i % 16, w2=8 + i % 8, n=256 + i,
                                      imports=imports, helpers=helpers, losses=losses)
        with open(os.path.join(out, pkg, f"{mod}.py"), "w") as f:
            f.write(text)
        mods.append((pkg, mod, i))
    pkg, mod, _ = mods[0]
    imports = f"from {pkg}.{mod} import Model0, evaluate_0, make_loader_0, save_0"
    with open(os.path.join(out, "train.py"), "w") as f:
        f.write(TRAIN.format(imports=imports))


if __name__ == "__main__":
    main()
