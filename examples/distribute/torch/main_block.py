"""Everything under `if __name__ == "__main__":` — the model is bound and trained inside the
block (as pytorch/examples and most tutorials write it), so the DDP wrap belongs in the block."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.body(x)


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    X = torch.randn(640, 6, generator=gen)
    y = X.sum(dim=1, keepdim=True) + 0.1 * torch.randn(640, 1, generator=gen)
    loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
    model = Regressor()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(4):
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    torch.save(model.state_dict(), "regressor.pt")
