"""A HuggingFace Accelerate program: distributed by `accelerate launch`, left as it is."""
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset

accelerator = Accelerator()
model = nn.Linear(4, 1)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(torch.randn(128, 4), torch.randn(128, 1)), batch_size=16, shuffle=True)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
for xb, yb in loader:
    optimizer.zero_grad()
    accelerator.backward(nn.functional.mse_loss(model(xb), yb))
    optimizer.step()
