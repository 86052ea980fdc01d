from torch import nn


class SmallCNN(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Linear(8 * 6 * 6, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))
