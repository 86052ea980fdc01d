"""Train a small CNN on synthetic images: a project with argparse, a data module and a model module."""
import argparse
import os
import tempfile

import torch
from torch import nn

from data import make_loaders
from model import SmallCNN
from utils import save_checkpoint


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "project_argparse"))
    return p.parse_args()


def train(args):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader, val_loader = make_loaders(args.batch_size)
    model = SmallCNN(num_classes=4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)
            optimizer.zero_grad()
            loss = criterion(model(images), labels)
            loss.backward()
            optimizer.step()
        model.eval()
        correct = 0
        with torch.no_grad():
            for images, labels in val_loader:
                correct += (model(images.to(device)).argmax(1) == labels.to(device)).sum().item()
        print(f"epoch {epoch}: loss {loss.item():.3f} val acc {correct / len(val_loader.dataset):.3f}")
    os.makedirs(args.out, exist_ok=True)
    save_checkpoint(model, os.path.join(args.out, "cnn.pt"))


if __name__ == "__main__":
    train(parse_args())
