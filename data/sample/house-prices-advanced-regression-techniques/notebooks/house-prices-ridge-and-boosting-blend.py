"""Blend a regularised linear model with gradient boosting: they make different mistakes."""
import numpy as np
import pandas as pd
from scipy.stats import skew
from sklearn.linear_model import RidgeCV
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.model_selection import cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import RobustScaler

train = pd.read_csv("../input/train.csv")
test = pd.read_csv("../input/test.csv")
y = np.log1p(train["SalePrice"])
full = pd.concat([train.drop(columns="SalePrice"), test]).set_index("Id")

numeric = full.select_dtypes("number").columns
full[numeric] = full[numeric].fillna(full[numeric].median())
skewed = [c for c in numeric if abs(skew(full[c])) > 0.75]
full[skewed] = np.log1p(full[skewed].clip(lower=0))
full = pd.get_dummies(full.fillna("None"))

X, X_test = full.iloc[: len(train)], full.iloc[len(train):]
ridge = make_pipeline(RobustScaler(), RidgeCV(alphas=np.logspace(-1, 2, 30)))
gbr = GradientBoostingRegressor(n_estimators=3000, learning_rate=0.02, max_depth=4, max_features="sqrt",
                                min_samples_leaf=15, loss="huber", random_state=5)

for name, model in [("ridge", ridge), ("gbr", gbr)]:
    oof = cross_val_predict(model, X, y, cv=5)
    print(name, np.sqrt(np.mean((oof - y) ** 2)))

blend = 0.5 * ridge.fit(X, y).predict(X_test) + 0.5 * gbr.fit(X, y).predict(X_test)
pd.DataFrame({"Id": test["Id"], "SalePrice": np.expm1(blend)}).to_csv("submission.csv", index=False)
