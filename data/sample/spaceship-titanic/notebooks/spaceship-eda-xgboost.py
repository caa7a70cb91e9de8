# %% [markdown]
# Spaceship Titanic - quick EDA and an XGBoost model

# %%
import pandas as pd
import numpy as np
import xgboost as xgb
from sklearn.model_selection import cross_val_score

# %%
train = pd.read_csv("/kaggle/input/spaceship-titanic/train.csv")
test = pd.read_csv("/kaggle/input/spaceship-titanic/test.csv")
print(train.groupby("CryoSleep")["Transported"].mean())

# %%
def encode(df):
    df = df.copy()
    df[["Deck", "Num", "Side"]] = df["Cabin"].str.split("/", expand=True)
    df["Num"] = pd.to_numeric(df["Num"])
    df["Spend"] = df[["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]].sum(axis=1)
    df["LogSpend"] = np.log1p(df["Spend"])
    df = pd.get_dummies(df.drop(columns=["PassengerId", "Name", "Cabin"]), columns=["HomePlanet", "Destination", "Deck", "Side"])
    return df.astype(float)

X = encode(train.drop(columns="Transported"))
y = train["Transported"].astype(int)
X_test = encode(test).reindex(columns=X.columns, fill_value=0)

# %%
model = xgb.XGBClassifier(n_estimators=600, learning_rate=0.03, max_depth=5, subsample=0.8, colsample_bytree=0.7)
print("CV accuracy:", cross_val_score(model, X, y, cv=5, scoring="accuracy").mean())
model.fit(X, y)
pd.DataFrame({"PassengerId": test["PassengerId"], "Transported": model.predict(X_test).astype(bool)}).to_csv("submission.csv", index=False)
