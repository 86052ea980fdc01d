"""A HuggingFace Trainer program: the Trainer reads torchrun's environment, left as it is."""
import torch
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased", num_labels=2)
train_set = [{"input_ids": torch.tensor([101, 2023, 102]), "labels": torch.tensor(1)}] * 64
args = TrainingArguments(output_dir="out", per_device_train_batch_size=8, num_train_epochs=1)
Trainer(model=model, args=args, train_dataset=train_set).train()
