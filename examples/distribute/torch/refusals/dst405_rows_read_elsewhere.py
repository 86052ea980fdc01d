"""Mini-batches cut by hand from arrays (`X[i:i + BATCH]`), but the training arrays are also
read after the loop, for the final training accuracy: cutting them to each rank's block of
rows would change that number, so ranklift says why it cannot split the data."""
import torch
import torch.nn as nn

BATCH = 32
X = torch.randn(640, 3)
y = (X.sum(dim=1) > 0).long()

model = nn.Linear(3, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    for i in range(0, len(X), BATCH):
        xb, yb = X[i:i + BATCH], y[i:i + BATCH]
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(xb), yb).backward()
        optimizer.step()
print("training accuracy", (model(X).argmax(dim=1) == y).float().mean().item())
