"""Classes named by a configuration and a trainer whose base class runs the epochs."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from config import SETTINGS, Config
from trainer import Trainer

torch.manual_seed(0)
gen = torch.Generator().manual_seed(11)
x = torch.randn(768, 10, generator=gen)
y = (x[:, :5].sum(dim=1) > 0).long()
config = Config(SETTINGS)
data_loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
trainable_params = filter(lambda p: p.requires_grad, model.parameters())
optimizer = config.init_obj("optimizer", torch.optim, trainable_params)
lr_scheduler = config.init_obj("lr_scheduler", torch.optim.lr_scheduler, optimizer)
trainer = Trainer(
    model,
    nn.CrossEntropyLoss(),
    optimizer,
    config["epochs"],
    data_loader=data_loader,
    lr_scheduler=lr_scheduler,
)
trainer.train()
torch.save(model.state_dict(), "model_best.pth")
