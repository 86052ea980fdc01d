"""A detector returns its losses while training and its per-image scores in evaluation mode;
the script switches it to evaluation with `eval()` and feeds the scores to a calibration layer
sized for the number of classes instead of the number of anchors."""

import torch
from torch import nn


class Head(nn.Module):
    def __init__(self, channels, num_anchors, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.cls = nn.Conv2d(channels, num_anchors * num_classes, 3, padding=1)

    def forward(self, x):
        n, _, h, w = x.shape
        logits = self.cls(x).view(n, -1, self.num_classes, h, w)
        return logits.permute(0, 3, 4, 1, 2).reshape(n, -1, self.num_classes)


class Detector(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU())
        self.head = Head(16, 2, num_classes)

    def forward(self, images, targets=None):
        logits = self.head(self.stem(images))
        losses, detections = {}, None
        if self.training and targets is not None:
            losses["classification"] = nn.functional.cross_entropy(logits.flatten(0, 1), targets)
        else:
            detections = logits.softmax(-1).amax(-1)
        return self.outputs(losses, detections)

    def outputs(self, losses, detections):
        if self.training:
            return losses
        return detections


net = Detector(num_classes=5)
net.eval()
scores = net(torch.rand(2, 3, 32, 32))
calibrate = nn.Linear(5, 1)
print(calibrate(scores).shape)
