"""The outline lint (issue 26): code, library calls, paths and files the competition does not have, and a missing
metric are refused; a plan in words, with the data card's own names and files and the method's numbers, passes."""

from __future__ import annotations

from curation.checks.outline_lint import lint_outline, names_metric
from curation.records import Competition

TITANIC = Competition(competition="titanic", comp_name="Titanic", comp_type="Getting Started", data_type="tabular",
                      metric="Accuracy", data_card="train.csv holds PassengerId, Pclass, Name, Age and Survived; "
                                                   "test.csv the same without Survived. Columns such as `ticket_no`.",
                      grading={"target_col": "Survived", "id_col": "PassengerId"})

IN_WORDS = """## Data preparation
- Read train.csv and test.csv and fill missing ages with the median age of each passenger class, e.g. third class.
- Keep ticket_no as it is and take the title (Mr, Mrs, Miss) from each Name.
## Model
- Train gradient-boosted trees (LightGBM) with five folds and a 0.5 threshold on the predicted probability.
## Inference and submission
- Predict Survived for every PassengerId of the test table; the predictions are judged by accuracy."""


def rules(text: str) -> list[tuple[str, str]]:
    return [(finding.rule, finding.matched) for finding in lint_outline(text, TITANIC)]


def test_a_plan_in_words_passes():
    assert rules(IN_WORDS) == []


def test_an_outline_with_code_is_refused():
    with_code = IN_WORDS + """
- Load the data with pd.read_csv('/kaggle/input/titanic/train.csv') and model = LGBMClassifier(n_estimators=500).
```python
import lightgbm
```
- Add df['Title'] and call model.fit(X, y); save weights.pkl under ../working/."""

    found = rules(with_code)

    assert ("code", "```") in found and ("code", "import lightgbm") in found
    assert ("code", "model = LGBMClassifier(n_estimators=500).") in found
    assert ("code", "model.fit(X, y)") in found and ("code", "df['Title']") in found
    assert ("code", "pd.read_csv('/kaggle/input/titanic/train.csv')") in found
    assert ("library_call", "n_estimators") in found
    assert ("file_path", "/kaggle/input/titanic/train.csv") in found and ("file_path", "../working/.") in found
    assert ("file_path", "weights.pkl") in found
    assert all(rule != "metric_missing" for rule, _ in found)


def test_an_outline_that_never_names_the_metric_is_refused():
    assert rules(IN_WORDS.replace("; the predictions are judged by accuracy", "")) == [("metric_missing", "Accuracy")]


def test_the_metric_is_named_by_its_words_or_their_initials():
    assert names_metric("judged by the root-mean-squared error", "Root mean squared error")
    assert names_metric("Evaluate with RMSE on the hold-out fold.", "Root mean squared error")
    assert names_metric("judged by the area under the ROC curve", "Area under the ROC curve")
    assert not names_metric("judged by the error", "Root mean squared error")
