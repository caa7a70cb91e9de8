"""The description lint catches solution hints and leaks, and leaves clean descriptions of real tasks alone."""

from __future__ import annotations

import pytest

from curation.checks.description_lint import explain, lint_description

HINTS = [
    ("Use LightGBM to predict the price.", "model_name", "LightGBM"),
    ("Train a CNN on the images.", "model_name", "CNN"),
    ("A random forest works well here.", "model_name", "random forest"),
    ("Fine-tune BERT on the reviews.", "model_name", "BERT"),
    ("Build a transformer over the token sequence.", "model_name", "transformer"),
    ("An XGBoost regressor with CatBoost as backup.", "model_name", "XGBoost"),
    ("A ResNet50 backbone classifies the tiles.", "model_name", "ResNet50"),
    ("Use an LSTM over the daily series.", "model_name", "LSTM"),
    ("Stack gradient boosting models.", "model_name", "gradient boosting"),
    ("Logistic regression is a strong baseline.", "model_name", "Logistic regression"),
    ("Load the data with pandas.", "library", "pandas"),
    ("Use sklearn pipelines.", "library", "sklearn"),
    ("Write the network in PyTorch.", "library", "PyTorch"),
    ("A TensorFlow or Keras model is expected.", "library", "TensorFlow"),
    ("One-hot encode the categorical columns.", "preprocessing", "One-hot encode"),
    ("Normalize the pixel values first.", "preprocessing", "Normalize"),
    ("Standardize every numeric feature.", "preprocessing", "Standardize"),
    ("Missing ages need imputation.", "preprocessing", "imputation"),
    ("Careful feature engineering on the dates helps.", "preprocessing", "feature engineering"),
    ("Apply TF-IDF to the comments.", "preprocessing", "TF-IDF"),
    ("Tune the hyper-parameters.", "tuning", "hyper-parameters"),
    ("Run a grid search over depths.", "tuning", "grid search"),
    ("A learning rate of 0.01 converges.", "tuning", "learning rate"),
    ("Train for 20 epochs.", "tuning", "20 epochs"),
    ("Use 5-fold cross-validation.", "tuning", "5-fold"),
    ("Evaluate with cross-validation folds.", "tuning", "cross-validation"),
    ("The dataset has 10,000 rows.", "dataset_size", "10,000 rows"),
    ("There are 50k images in total.", "dataset_size", "50k images"),
    ("It contains 1.2 million samples.", "dataset_size", "1.2 million samples"),
    ("Records of 891 passengers are given.", "dataset_size", "891 passengers"),
    ("About 25000 labelled movie reviews.", "dataset_size", "25000 labelled movie reviews"),
    ("Thousands of images are provided.", "dataset_size", "Thousands of images"),
    ("Submit sample_submission.csv with your answers.", "submission", "sample_submission.csv"),
    ("Predictions go into the submission file.", "submission", "submission file"),
    ("Read test.csv for the rows to predict.", "submission", "test.csv"),
    ("Your score appears on the public leaderboard.", "submission", "leaderboard"),
    ("Follow the sample submission format.", "submission", "sample submission"),
]


@pytest.mark.parametrize(("text", "rule", "words"), HINTS)
def test_lint_names_the_rule_and_the_words(text: str, rule: str, words: str) -> None:
    findings = lint_description(text)
    assert (rule, words) in [(finding.rule, finding.matched) for finding in findings], findings


CLEAN = {
    "house-prices": (
        "Predict the sale price of residential homes in Ames, Iowa. Each home is described by its lot, "
        "neighbourhood, building type, quality and condition ratings, living area, number of rooms and bathrooms, "
        "garage and basement, and the year it was built and sold. For every home without a known price, give the "
        "predicted sale price in dollars. Predictions are judged by the root mean squared error between the "
        "logarithms of the predicted and the actual prices."
    ),
    "titanic": (
        "Predict which passengers survived the sinking of the Titanic. For each passenger you know the ticket "
        "class, name, sex, age, the number of siblings or spouses and of parents or children aboard, the ticket "
        "number, the fare, the cabin and the port of embarkation; some ages and cabins are unknown. For every "
        "passenger in the test set, answer 1 if they survived and 0 otherwise. Accuracy is the metric."
    ),
    "digit-recognizer": (
        "Classify images of handwritten digits. Each image is a 28x28 grayscale picture of a single digit written "
        "by hand, given as pixel intensities from 0 to 255. For each image, name the digit it shows, from 0 to 9. "
        "The share of correctly classified images is the metric."
    ),
    "jigsaw-toxic-comment-classification-challenge": (
        "Detect toxic behaviour in comments from Wikipedia talk pages. Each comment is a piece of English text "
        "written by an editor. For each comment, estimate the probability that it is toxic, severely toxic, "
        "obscene, a threat, an insult, or identity hate; a comment can carry several of these labels at once. "
        "The mean column-wise ROC AUC over the six labels is the metric."
    ),
    "nlp-getting-started": (
        "Decide whether a tweet is about a real disaster. Each tweet comes with its text and, when available, a "
        "keyword and the location it was sent from. For each tweet, answer 1 if it reports a real disaster and 0 "
        "if it does not, for instance when the words are used figuratively. The F1 score is the metric."
    ),
    "store-sales-time-series-forecasting": (
        "Forecast daily sales for the product families sold at the stores of an Ecuadorian grocery chain over "
        "the 16 days after the known history. The input is the history of unit sales per store and product "
        "family, with the number of items on promotion, store locations and types, holidays and events, daily "
        "oil prices and transaction counts. The model should output the expected sales for each store, product "
        "family and day. The root mean squared logarithmic error is the metric."
    ),
    "learning-agency-lab-automated-essay-scoring-2": (
        "Score student essays. Each essay was submitted by a student in grades 6 to 12 in response to a writing "
        "prompt and has been graded by people on a holistic scale from 1 to 6. For each essay, predict the score "
        "a trained rater would give. Agreement with the human scores is measured by the quadratic weighted kappa, "
        "as on standardized tests."
    ),
    "predict-student-dropout": (
        "Predict whether a university student will drop out, stay enrolled, or graduate. For each student, the "
        "text of the application is not given; instead, the data holds demographic information, the course, "
        "grades in the first two semesters, and economic indicators at enrolment. The output is one of three "
        "classes for each student; accuracy is the metric, and a school dropout counts as a positive outcome to detect."
    ),
}


@pytest.mark.parametrize("slug", sorted(CLEAN))
def test_clean_descriptions_pass(slug: str) -> None:
    assert lint_description(CLEAN[slug]) == []


def test_each_rule_and_words_reported_once() -> None:
    findings = lint_description("Use LightGBM. Then LightGBM again, and lightgbm once more with pandas.")
    assert [(f.rule, f.matched.lower()) for f in findings] == [("model_name", "lightgbm"), ("library", "pandas")]


def test_explanations_say_what_to_do() -> None:
    lines = explain(lint_description("The dataset has 10,000 rows."))
    assert lines == ["dataset_size — '10,000 rows': gives a dataset size; sizes belong to the data, not to the task"]
