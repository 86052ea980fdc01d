"""A training script whose checkpoint helper comes from `from helpers import *`."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from helpers import *


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    x = torch.randn(384, 6, generator=gen)
    y = x.sum(dim=1, keepdim=True)
    loader = DataLoader(TensorDataset(x, y), batch_size=24, shuffle=True)
    model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(3):
        meter = AverageMeter()
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            optimizer.step()
            meter.update(loss.item(), xb.size(0))
        print(f"epoch {epoch}: loss {meter.avg:.4f}")
        save_checkpoint(epoch, model.state_dict(), optimizer.state_dict())


if __name__ == "__main__":
    main()
