"""A project shaped like kevinzakka/recurrent-visual-attention: `import data_loader`, whose
function returns (train_loader, valid_loader); the Trainer takes the pair and keeps
`data_loader[0]` for training."""
import torch

import data_loader
from trainer import Trainer


def main():
    torch.manual_seed(0)
    loaders = data_loader.get_train_valid_loaders(batch_size=24, seed=1)
    trainer = Trainer(loaders, epochs=3)
    trainer.train()


if __name__ == "__main__":
    main()
