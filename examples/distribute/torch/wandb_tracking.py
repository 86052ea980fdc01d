"""Experiment tracking with Weights & Biases (offline here): the run's config drives the
training, the model is watched, metrics are logged every step, a summary and the saved model are
attached to the run.

Distributed, every rank calls wandb as the original does, but only rank 0's run records: the
others run disabled, so `wandb.config` still answers and every other call is a no-op."""
import torch
import torch.nn as nn
import wandb
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
run = wandb.init(project="ranklift-demo", config={"lr": 0.05, "epochs": 3}, mode="offline")
gen = torch.Generator().manual_seed(9)
X = torch.randn(480, 4, generator=gen)
y = X @ torch.tensor([[0.5], [-1.0], [2.0], [0.0]])
loader = DataLoader(TensorDataset(X, y), batch_size=24, shuffle=True)

model = nn.Linear(4, 1)
wandb.watch(model, log_freq=10)
wandb.config.update({"batch_size": 24})
optimizer = torch.optim.SGD(model.parameters(), lr=wandb.config.lr)
for epoch in range(wandb.config.epochs):
    for xb, yb in loader:
        loss = nn.functional.mse_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        wandb.log({"loss": loss.item()})
    run.summary["last_loss"] = loss.item()
torch.save(model.state_dict(), "wandb_tracking.pt")
wandb.save("wandb_tracking.pt", policy="now")
wandb.finish()
