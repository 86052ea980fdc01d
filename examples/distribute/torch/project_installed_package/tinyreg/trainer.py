import torch
from torch.utils.data import DataLoader, RandomSampler


class Trainer:
    """Runs a fixed budget of optimizer steps over batches drawn with replacement."""

    def __init__(self, model, dataset, max_iters, batch_size=32, lr=3e-3):
        self.model = model
        self.dataset = dataset
        self.max_iters = max_iters
        self.batch_size = batch_size
        self.lr = lr
        self.callbacks = []
        self.iter_num = 0
        self.loss = None

    def add_callback(self, fn):
        self.callbacks.append(fn)

    def run(self):
        model = self.model
        self.optimizer = model.configure_optimizers(self.lr, weight_decay=0.01)
        sampler = RandomSampler(self.dataset, replacement=True, num_samples=10**9)
        loader = DataLoader(self.dataset, sampler=sampler, batch_size=self.batch_size)
        model.train()
        batches = iter(loader)
        while True:
            try:
                x, y = next(batches)
            except StopIteration:
                batches = iter(loader)
                x, y = next(batches)
            _, self.loss = model(x, y)
            model.zero_grad(set_to_none=True)
            self.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            self.optimizer.step()
            for fn in self.callbacks:
                fn(self)
            self.iter_num += 1
            if self.iter_num >= self.max_iters:
                break
