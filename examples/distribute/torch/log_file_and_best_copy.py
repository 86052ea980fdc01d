"""Logs to a file through the logging module (a FileHandler set up once, as Stanford CS230's
`utils.set_logger` does), saves the last checkpoint every epoch and copies it to `best.pt`
when the validation loss improves (`shutil.copyfile`).

Distributed: rank 0 alone writes the log file (the other ranks get a NullHandler, so the
program's own setFormatter/addHandler calls still work), the checkpoint and its copy."""
import logging
import os
import shutil
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

out_dir = os.environ.get("CHECKPOINT_DIR", tempfile.mkdtemp())


def set_logger(log_path):
    logger = logging.getLogger()
    logger.setLevel(logging.INFO)
    if not logger.handlers:
        file_handler = logging.FileHandler(log_path)
        file_handler.setFormatter(logging.Formatter("%(asctime)s:%(levelname)s: %(message)s"))
        logger.addHandler(file_handler)


def save_checkpoint(state, is_best, checkpoint):
    filepath = os.path.join(checkpoint, "last.pt")
    torch.save(state, filepath)
    if is_best:
        shutil.copyfile(filepath, os.path.join(checkpoint, "best.pt"))


set_logger(os.path.join(out_dir, "train.log"))
torch.manual_seed(0)
gen = torch.Generator().manual_seed(2)
X = torch.randn(640, 5, generator=gen)
y = X @ torch.randn(5, 1, generator=gen)
train_loader = DataLoader(TensorDataset(X[:512], y[:512]), batch_size=32, shuffle=True)
val_x, val_y = X[512:], y[512:]
model = nn.Linear(5, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
best = float("inf")
for epoch in range(3):
    for xb, yb in train_loader:
        optimizer.zero_grad()
        nn.functional.mse_loss(model(xb), yb).backward()
        optimizer.step()
    with torch.no_grad():
        val_loss = nn.functional.mse_loss(model(val_x), val_y).item()
    logging.info("epoch %d: validation loss %.4f", epoch, val_loss)
    save_checkpoint({"epoch": epoch, "state_dict": model.state_dict()}, val_loss < best, out_dir)
    best = min(best, val_loss)
