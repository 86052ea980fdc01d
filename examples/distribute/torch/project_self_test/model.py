"""The model of the project, with a self-test under its own `__main__` guard that trains a few
steps on random tensors: it runs only as `python model.py`, never when train.py imports it, so
ranklift neither judges nor edits it."""
import torch
import torch.nn as nn


class Regressor(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, width), nn.Tanh(), nn.Linear(width, 1))

    def forward(self, x):
        return self.body(x)


if __name__ == "__main__":
    net = Regressor()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for x in [torch.randn(8, 6) for _ in range(3)]:
        loss = net(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("self-test ok")
