from base.base_trainer import BaseTrainer


class Trainer(BaseTrainer):
    def __init__(self, model, criterion, optimizer, epochs, data_loader, lr_scheduler=None):
        super().__init__(model, criterion, optimizer, epochs)
        self.data_loader = data_loader
        self.lr_scheduler = lr_scheduler

    def _train_epoch(self, epoch):
        self.model.train()
        total = 0.0
        for data, target in self.data_loader:
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(data), target)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        if self.lr_scheduler is not None:
            self.lr_scheduler.step()
        return total / len(self.data_loader)
