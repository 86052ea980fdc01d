"""Helpers the training script takes with `from helpers import *`, as captioning projects do."""
import os
import tempfile

import torch


def save_checkpoint(epoch, model_state, optimizer_state):
    state = {"epoch": epoch, "model": model_state, "optimizer": optimizer_state}
    torch.save(state, os.path.join(tempfile.gettempdir(), "star_import_checkpoint.pt"))


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)
