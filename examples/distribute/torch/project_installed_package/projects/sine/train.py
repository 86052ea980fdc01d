"""Fit y = sin(x0) + x1 * x2 with the installed package's trainer (run from this directory)."""
import torch
from torch.utils.data import TensorDataset

from tinyreg.model import Regressor
from tinyreg.trainer import Trainer

torch.manual_seed(0)
gen = torch.Generator().manual_seed(3)
x = torch.randn(1024, 4, generator=gen)
y = torch.sin(x[:, :1]) + x[:, 1:2] * x[:, 2:3]
model = Regressor(width=32)
trainer = Trainer(model, TensorDataset(x, y), max_iters=120)


def on_batch_end(trainer):
    if trainer.iter_num % 20 == 0:
        print(f"iter {trainer.iter_num}: loss {trainer.loss.item():.4f}")
        torch.save(model.state_dict(), "regressor.pt")


trainer.add_callback(on_batch_end)
trainer.run()
