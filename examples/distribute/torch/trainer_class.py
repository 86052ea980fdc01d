"""A Trainer class that owns the model, the optimizer and the loaders, and checkpoints every epoch."""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Autoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(16, 4)
        self.decoder = nn.Linear(4, 16)

    def forward(self, x):
        return self.decoder(torch.relu(self.encoder(x)))

    def embed(self, x):
        return self.encoder(x)


class Trainer:
    def __init__(self, dataset, epochs=3, lr=0.05):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = Autoencoder().to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)
        self.train_loader = DataLoader(dataset, batch_size=32, shuffle=True, drop_last=True)
        self.epochs = epochs
        self.ckpt_dir = os.path.join(tempfile.gettempdir(), "trainer_class")
        os.makedirs(self.ckpt_dir, exist_ok=True)

    def train_epoch(self):
        self.model.train()
        total = 0.0
        for (batch,) in self.train_loader:
            batch = batch.to(self.device)
            self.optimizer.zero_grad()
            loss = F.mse_loss(self.model(batch), batch)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(self.train_loader)

    def save(self, epoch):
        path = os.path.join(self.ckpt_dir, f"epoch{epoch}.pt")
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict()}, path)

    def fit(self):
        for epoch in range(self.epochs):
            loss = self.train_epoch()
            print(f"epoch {epoch}: reconstruction loss {loss:.4f}")
            self.save(epoch)
        with torch.no_grad():
            codes = self.model.embed(torch.randn(5, 16, device=self.device))
        print("embedding shape", tuple(codes.shape))


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    basis = torch.randn(4, 16, generator=gen)
    data = torch.randn(640, 4, generator=gen) @ basis
    Trainer(TensorDataset(data)).fit()
