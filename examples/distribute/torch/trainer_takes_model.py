"""A Trainer that is handed the model, optimizer and loader (PyTorch's DDP tutorial series starts
from this `single_gpu.py` shape): a factory builds them, `main()` passes them to `Trainer(...)`,
which keeps `self.model = model.to(device)` and trains it in its methods. The copy that trains is
the trainer's: DDP must wrap `self.model` where `__init__` stores it — wrapped in `main()` after
the trainer was built, it would wrap a model that never trains."""
import os
import tempfile

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset


class Trainer:
    def __init__(self, model, train_data, optimizer, device, save_every):
        self.device = device
        self.model = model.to(device)
        self.train_data = train_data
        self.optimizer = optimizer
        self.save_every = save_every

    def _run_batch(self, source, targets):
        self.optimizer.zero_grad()
        loss = F.mse_loss(self.model(source), targets)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def _run_epoch(self, epoch):
        total = 0.0
        for source, targets in self.train_data:
            total += self._run_batch(source.to(self.device), targets.to(self.device))
        print(f"epoch {epoch} | steps {len(self.train_data)} | loss {total / len(self.train_data):.4f}")

    def _save_checkpoint(self, epoch):
        path = os.path.join(tempfile.gettempdir(), "checkpoint.pt")
        torch.save(self.model.state_dict(), path)

    def train(self, max_epochs):
        for epoch in range(max_epochs):
            self._run_epoch(epoch)
            if epoch % self.save_every == 0:
                self._save_checkpoint(epoch)


def load_train_objs():
    gen = torch.Generator().manual_seed(4)
    x = torch.randn(2048, 20, generator=gen)
    y = x[:, :5].sum(dim=1, keepdim=True) - 0.5 * x[:, 5:6]
    train_set = TensorDataset(x, y)
    model = torch.nn.Sequential(torch.nn.Linear(20, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    return train_set, model, optimizer


def prepare_dataloader(dataset: Dataset, batch_size: int):
    return DataLoader(dataset, batch_size=batch_size, shuffle=True)


def main(device, total_epochs, save_every, batch_size):
    dataset, model, optimizer = load_train_objs()
    train_data = prepare_dataloader(dataset, batch_size)
    trainer = Trainer(model, train_data, optimizer, device, save_every)
    trainer.train(total_epochs)


if __name__ == "__main__":
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    main(device, total_epochs=4, save_every=2, batch_size=32)
