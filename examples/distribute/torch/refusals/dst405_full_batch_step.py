"""Full-batch training: one step per epoch on the whole (graph-shaped) data, no DataLoader."""
import torch
import torch.nn as nn

features = torch.randn(200, 16)
labels = torch.randint(0, 3, (200,))
adjacency = (torch.rand(200, 200) < 0.05).float()


class GraphNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(16, 3)

    def forward(self, x, adj):
        return self.lin(adj @ x)


def train_epoch(model, optimizer):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(features, adjacency), labels)
    loss.backward()
    optimizer.step()
    return loss.item()


model = GraphNet()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(50):
    train_epoch(model, optimizer)
