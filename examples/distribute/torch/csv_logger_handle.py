"""Metrics written by a small CSV logger that opens its file once, in `__init__`, and writes a
row per epoch through the handle (the shape of the Cutout repository's `CSVLogger`).

Distributed, rank 0 alone writes the file: the other ranks' logger writes to os.devnull, so
every call on it still works."""
import csv
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class CSVLogger:
    def __init__(self, filename, fieldnames):
        self.csv_file = open(filename, "w")
        self.writer = csv.DictWriter(self.csv_file, fieldnames=fieldnames)
        self.writer.writeheader()

    def writerow(self, row):
        self.writer.writerow(row)
        self.csv_file.flush()

    def close(self):
        self.csv_file.close()


out_dir = os.environ.get("CHECKPOINT_DIR", tempfile.mkdtemp())
torch.manual_seed(0)
gen = torch.Generator().manual_seed(8)
X = torch.randn(480, 6, generator=gen)
y = (X[:, 0] > X[:, 1]).long()
loader = DataLoader(TensorDataset(X, y), batch_size=24, shuffle=True)
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
logger = CSVLogger(os.path.join(out_dir, "metrics.csv"), fieldnames=["epoch", "loss"])
for epoch in range(3):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()
    logger.writerow({"epoch": epoch, "loss": round(loss.item(), 4)})
logger.close()
