"""The PyTorch quickstart's ending: save the weights, build a fresh model and load them into it,
then predict with the fresh one (which is never wrapped)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.stack = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, x):
        return self.stack(x)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(9)
X = torch.randn(600, 10, generator=gen)
y = X[:, :3].argmax(dim=1)
train_dataloader = DataLoader(TensorDataset(X, y), batch_size=50, shuffle=True)

model = NeuralNetwork()
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.2)

for t in range(4):
    for xb, yb in train_dataloader:
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    print(f"epoch {t + 1}: loss {loss.item():.4f}")

torch.save(model.state_dict(), "model.pth")
print("Saved PyTorch Model State to model.pth")

model = NeuralNetwork()
model.load_state_dict(torch.load("model.pth", weights_only=True))
model.eval()
with torch.no_grad():
    pred = model(X[:5]).argmax(dim=1)
print(f"Predicted: {pred.tolist()}, actual: {y[:5].tolist()}")
