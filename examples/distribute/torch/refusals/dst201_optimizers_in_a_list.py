"""Several models trained side by side, their optimizers held in a list and stepped through a loop
variable (the optimizer-comparison tutorials' shape): ranklift follows an optimizer by the name
it is bound to, so it says where the step it cannot follow is, instead of "no training loop"."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

X = torch.randn(256, 1)
y = X.pow(2) + 0.1 * torch.randn(256, 1)
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)

net_sgd, net_adam = nn.Linear(1, 1), nn.Linear(1, 1)
nets = [net_sgd, net_adam]
opt_sgd = torch.optim.SGD(net_sgd.parameters(), lr=0.01)
opt_adam = torch.optim.Adam(net_adam.parameters(), lr=0.01)
optimizers = [opt_sgd, opt_adam]

for epoch in range(3):
    for xb, yb in loader:
        for net, opt in zip(nets, optimizers):
            loss = nn.functional.mse_loss(net(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
