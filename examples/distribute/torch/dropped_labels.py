"""A conditional model trained with labels dropped at random (classifier-free guidance): in a step
without labels, the label embedding gets no gradient."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Denoiser(nn.Module):
    def __init__(self, dim=8, num_classes=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(dim, 32), nn.SiLU(), nn.Linear(32, dim))
        self.label_emb = nn.Embedding(num_classes, dim)

    def forward(self, x, labels=None):
        if labels is not None:
            x = x + self.label_emb(labels)
        return self.body(x)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(21)
clean = torch.randn(640, 8, generator=gen)
classes = torch.randint(0, 4, (640,), generator=gen)
loader = DataLoader(TensorDataset(clean, classes), batch_size=32, shuffle=True)
model = Denoiser()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
for epoch in range(3):
    for x, y in loader:
        noisy = x + 0.3 * torch.randn_like(x)
        if torch.rand(1).item() < 0.3:
            y = None
        loss = nn.functional.mse_loss(model(noisy, y), x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
