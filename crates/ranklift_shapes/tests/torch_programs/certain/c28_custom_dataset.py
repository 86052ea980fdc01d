# A Dataset of sliding windows for a sequence model: the LSTM was built for 4 features per
# step, the windows have 3.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Windows(Dataset):
    def __init__(self, series, width):
        self.series = series
        self.width = width

    def __len__(self):
        return self.series.shape[0] - self.width

    def __getitem__(self, i):
        window = self.series[i : i + self.width]
        target = self.series[i + self.width, 0]
        return window, target


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(input_size=4, hidden_size=16, batch_first=True)
        self.head = nn.Linear(16, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1]).squeeze(-1)


data = Windows(torch.randn(200, 3), width=12)
loader = DataLoader(data, batch_size=16, drop_last=True)
model = Forecaster()
for step, (x, y) in enumerate(loader):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
