import torch
from torch import nn


class Regressor(nn.Module):
    """An MLP that returns its prediction and, given targets, the loss."""

    def __init__(self, width):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, width), nn.Tanh(), nn.Linear(width, 1))

    def configure_optimizers(self, lr, weight_decay):
        # Weights decay, biases do not: two parameter groups built from named parameters.
        decay = [p for n, p in self.named_parameters() if n.endswith("weight")]
        no_decay = [p for n, p in self.named_parameters() if not n.endswith("weight")]
        groups = [
            {"params": decay, "weight_decay": weight_decay},
            {"params": no_decay, "weight_decay": 0.0},
        ]
        optimizer = torch.optim.AdamW(groups, lr=lr)
        return optimizer

    def forward(self, x, targets=None):
        pred = self.net(x)
        loss = None if targets is None else nn.functional.mse_loss(pred, targets)
        return pred, loss
