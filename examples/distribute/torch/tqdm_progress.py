"""A progress bar over the batches (tqdm) and a running loss in its postfix."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm

torch.manual_seed(0)
gen = torch.Generator().manual_seed(2)
X = torch.randn(800, 5, generator=gen)
y = X @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [3.0]])
loader = DataLoader(TensorDataset(X, y), batch_size=25, shuffle=True)

model = nn.Linear(5, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.02)

for epoch in range(3):
    bar = tqdm(loader, desc=f"epoch {epoch}", leave=False)
    for xb, yb in bar:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        optimizer.step()
        bar.set_postfix(loss=f"{loss.item():.3f}")
    print(f"epoch {epoch} done, loss {loss.item():.4f}")
