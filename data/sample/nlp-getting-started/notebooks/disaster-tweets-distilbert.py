# Fine-tune DistilBERT on the disaster tweets (one GPU, ~5 minutes)
!pip install -q transformers==4.40.0
import numpy as np
import pandas as pd
import torch
from torch.utils.data import DataLoader, TensorDataset
from transformers import AutoTokenizer, AutoModelForSequenceClassification, get_linear_schedule_with_warmup
from sklearn.model_selection import train_test_split
from sklearn.metrics import f1_score

MODEL = "distilbert-base-uncased"
device = "cuda" if torch.cuda.is_available() else "cpu"
train = pd.read_csv("/kaggle/input/nlp-getting-started/train.csv")
test = pd.read_csv("/kaggle/input/nlp-getting-started/test.csv")
tokenizer = AutoTokenizer.from_pretrained(MODEL)

def encode(texts, labels=None):
    enc = tokenizer(list(texts), padding="max_length", truncation=True, max_length=64, return_tensors="pt")
    tensors = [enc["input_ids"], enc["attention_mask"]]
    if labels is not None:
        tensors.append(torch.tensor(labels))
    return TensorDataset(*tensors)

tr, va = train_test_split(train, test_size=0.15, stratify=train["target"], random_state=42)
train_loader = DataLoader(encode(tr["text"], tr["target"].values), batch_size=32, shuffle=True)
valid_loader = DataLoader(encode(va["text"], va["target"].values), batch_size=64)

model = AutoModelForSequenceClassification.from_pretrained(MODEL, num_labels=2).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5, weight_decay=0.01)
epochs = 3
scheduler = get_linear_schedule_with_warmup(optimizer, 0, epochs * len(train_loader))

for epoch in range(epochs):
    model.train()
    for ids, mask, labels in train_loader:
        loss = model(input_ids=ids.to(device), attention_mask=mask.to(device), labels=labels.to(device)).loss
        loss.backward()
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
    model.eval()
    preds = []
    with torch.no_grad():
        for ids, mask, _ in valid_loader:
            preds.append(model(input_ids=ids.to(device), attention_mask=mask.to(device)).logits.argmax(-1).cpu())
    print(f"epoch {epoch}: valid F1 {f1_score(va['target'], torch.cat(preds)):.4f}")

test_loader = DataLoader(encode(test["text"]), batch_size=64)
model.eval()
with torch.no_grad():
    labels = torch.cat([model(input_ids=i.to(device), attention_mask=m.to(device)).logits.argmax(-1).cpu() for i, m in test_loader])
pd.DataFrame({"id": test["id"], "target": labels.numpy()}).to_csv("submission.csv", index=False)
