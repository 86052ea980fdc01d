"""A trainer that takes the loaders as one tuple and unpacks it itself."""
import json

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, data_loader, epochs):
        self.train_loader = data_loader[0]
        self.valid_loader = data_loader[1]
        self.epochs = epochs
        self.model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05)

    def validate(self):
        self.model.eval()
        with torch.no_grad():
            return sum(
                nn.functional.mse_loss(self.model(x), y).item() for x, y in self.valid_loader
            ) / len(self.valid_loader)

    def train(self):
        for epoch in range(self.epochs):
            self.model.train()
            for x, y in self.train_loader:
                self.optimizer.zero_grad()
                nn.functional.mse_loss(self.model(x), y).backward()
                self.optimizer.step()
            print(f"epoch {epoch}: validation loss {self.validate():.4f}")

            with open("history.json", "a") as f:
                f.write(json.dumps({"epoch": epoch}) + "\n")
