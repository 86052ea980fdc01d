# Code written for torch < 0.5, where a loss had one element: `loss.data[0]` (the running loss
# of many tutorials) indexes a 0-d tensor.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
criterion = nn.MSELoss()
x, y = torch.randn(16, 3), torch.randn(16, 1)
loss = criterion(model(x), y)
running_loss = 0.0
running_loss += loss.data[0]
