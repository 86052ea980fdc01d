class BaseTrainer:
    """The epoch loop; a subclass trains one epoch in `_train_epoch`."""

    def __init__(self, model, criterion, optimizer, epochs):
        self.model = model
        self.criterion = criterion
        self.optimizer = optimizer
        self.epochs = epochs

    def _train_epoch(self, epoch):
        raise NotImplementedError

    def train(self):
        for epoch in range(self.epochs):
            loss = self._train_epoch(epoch)
            print(f"epoch {epoch}: loss {loss:.4f}")
