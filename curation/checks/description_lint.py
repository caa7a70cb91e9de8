"""Description lint: deterministic rules that catch solution hints and leaks in a task description.

A benchmark description says what to solve, never how, and never what a solver could only know from the
competition's files. The rules flag: names of models and libraries, preprocessing and tuning vocabulary,
numbers that look like dataset sizes, and submission mechanics (file names, submission files, leaderboards).

Deliberate choices, to keep clean descriptions clean:
- "model", "text", "image", "features", "classes", "train"/"test" in their plain senses pass; only named model
  families ("train a CNN", "random forest") fire.
- "test set" passes: saying that predictions are judged on unseen examples is part of the task. File-level
  talk ("test.csv", "the test file", "test folder") fires, as does any file name with a data extension.
- Acronyms are matched case-sensitively (CNN the architecture, not "cnn" inside a word or a news site URL);
  words are matched case-insensitively on word boundaries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from curation.records import LintFinding


@dataclass(frozen=True)
class LintRule:
    name: str
    pattern: re.Pattern[str]
    why: str  # said to refine and to the curator


def _words(*alternatives: str) -> str:
    return r"\b(?:" + "|".join(alternatives) + r")\b"


_I = re.IGNORECASE

# Model families and named architectures; plural and hyphenated forms included. Names that are also plain
# words or people's names (BERT, ALBERT, GloVe, Llama, Prophet) are matched case-sensitively below.
_MODEL_WORDS = _words(
    r"light\s?gbm", r"lgbm", r"xgboost", r"xgb", r"cat\s?boost", r"random[\s-]forests?",
    r"gradient[\s-]boost(?:ing|ed)(?:\s+(?:trees|machines?))?", r"boosted\s+trees", r"decision[\s-]trees?",
    r"extra[\s-]trees", r"logistic\s+regression", r"linear\s+regression", r"ridge\s+regression", r"lasso\s+regression",
    r"elastic\s?net", r"support[\s-]vector\s+(?:machines?|classifiers?|regression)", r"k[\s-]?nearest[\s-]neighbou?rs?",
    r"naive\s+bayes", r"neural\s+net(?:work)?s?", r"deep\s+learning", r"convolutional(?:\s+neural)?(?:\s+networks?)?",
    r"recurrent\s+neural\s+networks?", r"transformers?", r"resnets?(?:-?\d+)?", r"efficient\s?nets?(?:-?b\d)?",
    r"u-?nets?", r"yolo(?:v\d+)?", r"mask\s+r-?cnn", r"faster\s+r-?cnn", r"vgg(?:-?\d+)?", r"inception-?v\d",
    r"mobilenet(?:-?v\d)?", r"densenet(?:-?\d+)?", r"roberta", r"deberta(?:-?v\d)?", r"distilbert", r"xlnet",
    r"gpt-?\d*", r"word2vec", r"fasttext", r"autoencoders?", r"s?arima", r"k-?means", r"attention\s+mechanisms?",
    r"embeddings?", r"ensembling", r"model\s+ensembl(?:e|es|ing)", r"ensembl(?:e|es)\s+of\s+(?:models|classifiers|learners|networks)",
    r"stacked\s+models", r"model\s+stacking", r"blend(?:ing|ed)?\s+(?:of\s+)?models",
)
_MODEL_CASED = r"\b(?:CNNs?|RNNs?|LSTMs?|GRUs?|SVMs?|SVR|SVC|KNN|GBM|GBDT|MLPs?|ViT|T5|BERT|ALBERT|ELECTRA|GloVe|LLaMA|Llama-?\d|Prophet)\b"

_LIBRARY_WORDS = _words(
    r"pandas", r"numpy", r"scipy", r"sklearn", r"scikit-?learn", r"py\s?torch", r"torchvision", r"tensor\s?flow",
    r"keras", r"fast\.?ai", r"hugging\s?face", r"timm", r"open\s?cv", r"cv2", r"spacy", r"nltk", r"gensim",
    r"statsmodels", r"optuna", r"hyperopt", r"matplotlib", r"seaborn", r"albumentations", r"cuml", r"auto-?ml",
    r"autogluon", r"dask", r"pyspark", r"jupyter",
)
_LIBRARY_CASED = r"\b(?:JAX|RAPIDS|H2O\.ai|H2O\s+AutoML)\b"

_PREPROCESSING_WORDS = _words(
    r"one[\s-]hot(?:[\s-]encod(?:e|ed|ing))?", r"label[\s-]encod(?:e|ed|ing|er)", r"target[\s-]encod(?:e|ed|ing)",
    r"ordinal[\s-]encod(?:e|ed|ing)", r"encod(?:e|ing)\s+(?:the\s+)?categorical", r"normali[sz](?:e|es|ed|ing|ation)",
    r"standardi[sz](?:e|es|ed|ing|ation)(?!\s+tests?\b)", r"min-?max\s+scal(?:e|ed|ing|er)", r"standard\s?scaler",
    r"feature\s+scaling", r"imput(?:e|es|ed|ing|ation|er)", r"fill(?:ing)?\s+(?:in\s+)?(?:the\s+)?missing\s+values",
    r"dropp?(?:ing)?\s+(?:the\s+)?missing", r"feature\s+engineering", r"engineered\s+features", r"feature\s+selection",
    r"feature\s+importances?", r"dimensionality\s+reduction", r"pca", r"principal\s+component\s+analysis", r"t-?sne",
    r"umap", r"tf-?idf", r"bag[\s-]of[\s-]words", r"count\s?vectori[sz]er", r"tokeni[sz](?:e|ed|ing|ation|er)",
    r"lemmati[sz](?:e|ed|ing|ation)", r"stemming", r"stop\s?-?words", r"data\s+augmentation", r"augmentations?",
    r"over-?sampl(?:e|ed|ing)", r"under-?sampl(?:e|ed|ing)", r"smote", r"log[\s-]transform(?:ed|ation)?",
    r"outlier\s+removal", r"remov(?:e|ing)\s+outliers", r"binning", r"lag\s+features", r"rolling\s+(?:mean|window)s?",
)

_TUNING_WORDS = _words(
    r"hyper-?\s?parameters?", r"grid[\s-]search(?:cv)?", r"random(?:ized)?[\s-]search(?:cv)?",
    r"bayesian\s+optimi[sz]ation", r"learning[\s-]rates?", r"\d+\s+epochs?", r"(?:training|number\s+of)\s+epochs",
    r"batch[\s-]sizes?", r"early[\s-]stopping", r"cross[\s-]validat(?:e|ed|ion|ing)", r"k-?fold", r"stratified\s+(?:k-?)?fold",
    r"\d+[\s-]folds?", r"(?:validation|cv)\s+folds?", r"dropout\s+(?:rates?|layers?)", r"regulari[sz]ation",
    r"weight\s+decay", r"optimi[sz]ers?", r"sgd", r"n_estimators", r"max_depth", r"num_leaves", r"fine-?tun(?:e|ed|ing)",
    r"pre-?trained", r"transfer\s+learning", r"gpus?", r"tpus?", r"loss\s+functions?",
    r"train(?:ing)?[\s/-]+validation\s+splits?", r"hold-?out\s+sets?", r"validation\s+sets?",
)

# A dataset size: a number of at least 100, or one with a scale ("50k", "1.2 million"), before a unit that
# counts data ("rows", "images", "passengers"), with at most two words between. Image dimensions ("28x28",
# "28 by 28 pixel images") are not sizes.
_NUMBER = (
    r"(?<![\w.,×])(?<!by\s)(?<!x\s)(?<!×\s)"
    r"(?:\d+(?:\.\d+)?\s?(?:k|K|M|B|thousand|million|billion|mln|bn)\b|\d{1,3}(?:,\d{3})+|\d{3,}(?:\.\d+)?)"
)
_SIZE_UNITS = "|".join((
    r"rows?", r"samples?", r"images?", r"photos?", r"pictures?", r"records?", r"examples?", r"entries", r"entry",
    r"observations?", r"instances?", r"data\s?points?", r"documents?", r"texts?", r"articles?", r"sentences?",
    r"tweets?", r"posts?", r"reviews?", r"comments?", r"questions?", r"files?", r"clips?", r"recordings?",
    r"videos?", r"transactions?", r"patients?", r"passengers?", r"customers?", r"users?", r"lines?", r"scans?",
    r"slides?", r"sequences?", r"sessions?", r"listings?", r"houses?", r"properties", r"tiles?",
))
_DATASET_SIZE = re.compile(
    _NUMBER + r"(?:[\s-]+[a-z]+){0,2}?[\s-]+(?:" + _SIZE_UNITS + r")\b"
    + r"|\b(?:thousands|millions|billions|hundreds\s+of\s+thousands)\s+of\s+(?:" + _SIZE_UNITS + r")\b",
    _I,
)

# File names with data extensions and submission mechanics. Plain "submitted"/"submissions" pass (essays
# submitted by students, Reddit submissions); only the competition's own submission machinery fires.
_SUBMISSION = re.compile(
    r"\b[\w-]+\.(?:csv|tsv|parquet|json|jsonl|zip|gz|npy|npz|h5|hdf5|pkl|pickle|feather|txt|xlsx)\b"
    r"|" + _words(
        r"sample[\s_-]submissions?", r"submission\s+(?:files?|format|template|csv)", r"submit\s+(?:your\s+|the\s+)?predictions?",
        r"submission\s+of\s+predictions", r"make\s+a\s+submission", r"leader-?boards?", r"public\s+lb", r"private\s+lb",
        r"kaggle", r"test\s+(?:files?|folders?|directory|csv)", r"(?:train|training|test)_(?:images|data|labels|set)",
    ),
    _I,
)

RULES: tuple[LintRule, ...] = (
    LintRule("model_name", re.compile(_MODEL_WORDS, _I), "names a model family; say what to predict, not how"),
    LintRule("model_name", re.compile(_MODEL_CASED), "names a model family; say what to predict, not how"),
    LintRule("library", re.compile(_LIBRARY_WORDS, _I), "names a library or tool; the task must not depend on one"),
    LintRule("library", re.compile(_LIBRARY_CASED), "names a library or tool; the task must not depend on one"),
    LintRule("preprocessing", re.compile(_PREPROCESSING_WORDS, _I), "names a preprocessing step; leave the method to the solver"),
    LintRule("tuning", re.compile(_TUNING_WORDS, _I), "names training or tuning vocabulary; leave the method to the solver"),
    LintRule("dataset_size", _DATASET_SIZE, "gives a dataset size; sizes belong to the data, not to the task"),
    LintRule("submission", _SUBMISSION, "talks about files or submission mechanics; describe the output instead"),
)


def lint_description(text: str) -> list[LintFinding]:
    """Every rule hit in a description, one finding per rule and distinct matched words, in rule order."""
    findings: list[LintFinding] = []
    seen: set[tuple[str, str]] = set()
    for rule in RULES:
        for match in rule.pattern.finditer(text):
            words = " ".join(match.group(0).split())
            key = (rule.name, words.lower())
            if key not in seen:
                seen.add(key)
                findings.append(LintFinding(rule=rule.name, matched=words))
    return findings


def explain(findings: list[LintFinding]) -> list[str]:
    """Lines for the refine prompt and the curator: the rule, the words and why they must go."""
    why = {rule.name: rule.why for rule in RULES}
    return [f"{finding.rule} — {finding.matched!r}: {why.get(finding.rule, '')}".rstrip(": ") for finding in findings]
