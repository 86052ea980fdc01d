# Inference: the model moved to a device, put in eval mode, run without gradients.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 20)
        self.fc2 = nn.Linear(20, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = Net().to(device)
model.eval()
with torch.no_grad():
    probs = torch.softmax(model(torch.randn(7, 10).to(device)), dim=1)
print(probs.argmax(dim=1).shape)
