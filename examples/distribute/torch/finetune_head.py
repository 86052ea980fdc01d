"""Fine-tuning only a head: the backbone runs without gradients and the optimizer takes the head's
parameters alone."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Finetuned(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        with torch.no_grad():
            features = self.backbone(x)
        return self.head(features)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(19)
X = torch.randn(800, 10, generator=gen)
y = X[:, :4].argmax(dim=1)
loader = DataLoader(TensorDataset(X, y), batch_size=40, shuffle=True)
model = Finetuned()
optimizer = torch.optim.SGD(model.head.parameters(), lr=0.1, momentum=0.9)
for epoch in range(4):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
