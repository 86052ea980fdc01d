# The model and its smoke test under the main guard.
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, n_hidden), nn.ReLU(), nn.Linear(n_in, n_out))

    def forward(self, x):
        return self.net(x)


def main():
    model = Classifier(30, 64, 2)
    print(model(torch.randn(10, 30)).shape)


if __name__ == "__main__":
    main()
