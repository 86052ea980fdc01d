"""Mixed precision: autocast and a GradScaler (both switch themselves off on a CPU)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_amp = device.type == "cuda"

gen = torch.Generator().manual_seed(5)
X = torch.randn(768, 12, generator=gen)
y = torch.sin(X[:, :1]) + 0.05 * torch.randn(768, 1, generator=gen)
loader = DataLoader(TensorDataset(X, y), batch_size=48, shuffle=True, num_workers=0)

model = nn.Sequential(nn.Linear(12, 64), nn.GELU(), nn.Linear(64, 1)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
scaler = torch.amp.GradScaler("cuda", enabled=use_amp)

for epoch in range(4):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type=device.type, enabled=use_amp):
            loss = nn.functional.mse_loss(model(xb), yb)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    print(f"epoch {epoch} loss {loss.item():.4f}")
