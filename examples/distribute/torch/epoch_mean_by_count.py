"""An epoch's mean loss over the batches it counted: the code after each pass divides by the
number of batches the pass drew, so a pass that draws none (which `ranklift distribute --verify`
makes of the passes past its step budget, to run the code after training) fails with
ZeroDivisionError. Verification then runs every program again, each ending at the budget's next
pass."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
gen = torch.Generator().manual_seed(7)
X = torch.randn(512, 6, generator=gen)
y = X.sum(dim=1, keepdim=True) + 0.1 * torch.randn(512, 1, generator=gen)
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)

model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

for epoch in range(4):
    total, batches = 0.0, 0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item()
        batches += 1
    print(f"epoch {epoch}: mean loss {total / batches:.4f}")
