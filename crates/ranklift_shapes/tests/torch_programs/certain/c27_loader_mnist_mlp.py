# An MLP trained on flattened MNIST-sized images from a DataLoader: the first layer was sized
# for three colour channels.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

images = torch.randn(100, 1, 28, 28)
labels = torch.randint(0, 10, (100,))
loader = DataLoader(TensorDataset(images, labels), batch_size=32, shuffle=True)

model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 28 * 28, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for x, y in loader:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
