# The labels of another batch passed to the loss.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))
criterion = nn.CrossEntropyLoss()
images = torch.randn(32, 1, 28, 28)
labels = torch.randint(0, 10, (64,))
loss = criterion(model(images), labels)
