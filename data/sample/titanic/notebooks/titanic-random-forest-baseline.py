# Titanic: a random forest baseline in a few lines
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import cross_val_score

train = pd.read_csv("/kaggle/input/titanic/train.csv")
test = pd.read_csv("/kaggle/input/titanic/test.csv")

def prepare(df):
    out = pd.DataFrame(index=df.index)
    out["Pclass"] = df["Pclass"]
    out["Male"] = (df["Sex"] == "male").astype(int)
    out["Age"] = df["Age"].fillna(28)
    out["Fare"] = df["Fare"].fillna(14.45)
    out["Family"] = df["SibSp"] + df["Parch"]
    out["HasCabin"] = df["Cabin"].notna().astype(int)
    return out

X, y = prepare(train), train["Survived"]
forest = RandomForestClassifier(n_estimators=500, max_depth=6, min_samples_leaf=2, random_state=1)
print("CV accuracy:", cross_val_score(forest, X, y, cv=5).mean())

forest.fit(X, y)
pd.DataFrame({"PassengerId": test["PassengerId"], "Survived": forest.predict(prepare(test))}).to_csv("submission.csv", index=False)
