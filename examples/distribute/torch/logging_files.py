"""Logging, a CSV of metrics and a NumPy file of losses: all of it from one process only."""
import csv
import logging
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logging.basicConfig(level=logging.INFO, format="%(message)s")
log = logging.getLogger("train")
out_dir = os.path.join(tempfile.gettempdir(), "logging_files")
os.makedirs(out_dir, exist_ok=True)

torch.manual_seed(0)
gen = torch.Generator().manual_seed(12)
X = torch.randn(720, 7, generator=gen)
y = (X @ torch.randn(7, 1, generator=gen)).tanh()
loader = DataLoader(TensorDataset(X, y), batch_size=36, shuffle=True)

model = nn.Sequential(nn.Linear(7, 20), nn.ReLU(), nn.Linear(20, 1))
optimizer = torch.optim.RMSprop(model.parameters(), lr=2e-3)
history = []
for epoch in range(4):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        optimizer.step()
    history.append(loss.item())
    log.info("epoch %d: loss %.4f", epoch, loss.item())

with open(os.path.join(out_dir, "metrics.csv"), "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(["epoch", "loss"])
    writer.writerows(enumerate(history))
np.save(os.path.join(out_dir, "history.npy"), np.array(history))
logging.info("wrote %s", out_dir)
