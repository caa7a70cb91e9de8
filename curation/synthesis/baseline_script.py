# The body of every synthesized task's notebooks/baseline.py. The refactor step writes a header above it (a
# docstring stating the task and a CONFIG dict); verification runs the file in a subprocess, and `curate describe`
# reads it like any notebook. It must stay a plain, self-contained scikit-learn script.
# --- body ---
import sys
from pathlib import Path

import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
from sklearn.impute import SimpleImputer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder


def features(train, test):
    """Numeric columns as they are, low-cardinality text columns one-hot encoded; the rest is left out."""
    numeric = [c for c in train.columns if pd.api.types.is_numeric_dtype(train[c])]
    categorical = [c for c in train.columns if c not in numeric and train[c].nunique() <= 50]
    steps = []
    if numeric:
        steps.append(("numeric", SimpleImputer(strategy="median"), numeric))
    if categorical:
        steps.append(("categorical", Pipeline([
            ("fill", SimpleImputer(strategy="most_frequent")),
            ("encode", OneHotEncoder(handle_unknown="ignore", sparse_output=False)),
        ]), categorical))
    return ColumnTransformer(steps, remainder="drop")


def main(data_dir, output):
    train = pd.read_csv(Path(data_dir) / "train.csv")
    test = pd.read_csv(Path(data_dir) / "test.csv")
    target, id_col = CONFIG["target"], CONFIG["id_col"]
    y = train.pop(target)
    ids = test[id_col]
    train, test = train.drop(columns=[id_col]), test.drop(columns=[id_col])
    for frame in (train, test):  # categorical values as text, so numbers and strings never mix in one column
        for column in frame.columns:
            if not pd.api.types.is_numeric_dtype(frame[column]):
                frame[column] = frame[column].astype("string").astype(object)
    regression = CONFIG["task_type"] == "regression"
    model = (HistGradientBoostingRegressor if regression else HistGradientBoostingClassifier)(max_iter=100, random_state=0)
    pipeline = Pipeline([("features", features(train, test)), ("model", model)])
    pipeline.fit(train, y)
    if CONFIG["probability"]:
        classes = list(pipeline.classes_)
        predicted = pipeline.predict_proba(test)[:, classes.index(1) if 1 in classes else -1]
    else:
        predicted = pipeline.predict(test)
    pd.DataFrame({id_col: ids, target: predicted}).to_csv(output, index=False)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "data", sys.argv[2] if len(sys.argv) > 2 else "submission.csv")
