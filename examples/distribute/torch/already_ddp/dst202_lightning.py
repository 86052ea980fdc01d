"""A Lightning program: its Trainer distributes it (devices=N, strategy="ddp"), left as it is."""
import pytorch_lightning as pl
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.mse_loss(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


loader = DataLoader(TensorDataset(torch.randn(128, 4), torch.randn(128, 1)), batch_size=16, shuffle=True)
pl.Trainer(max_epochs=2).fit(Regressor(), loader)
