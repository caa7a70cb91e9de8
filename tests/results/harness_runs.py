"""Run folders exactly as the ML²B harness leaves them (enaix/ml2b src/runners/runner.py): under an agent's logs_dir,
`<comp-id>-<Language>-python-<fold>/` with the agent's `logs/`, `submission/submission.py`, and the grading's
`code_results.json` (json.dump, indent 2, NaN written bare), or without it where the harness writes none.

Each scenario's code goes through the replayed grading container (container.py), so its results, messages and
tracebacks are what the harness writes for that code; a few results no container run yields (a hallucinated score)
are written as the harness would store them.
"""

from __future__ import annotations

import json
from pathlib import Path

from curation.release.harness import write_grading_config, write_tasks_csv
from curation.release.rows import COLUMNS
from tests.results.container import grade, sample_data

HARNESS_NAMES = {"ar": "Arab", "be": "Belarus", "zh": "Chinese", "en": "English", "ru": "Russian", "fr": "French",
                 "it": "Italian", "ja": "Japanese", "kk": "Kazakh", "pl": "Polish", "ro": "Romanian", "es": "Spanish",
                 "tr": "Turkish", "uk": "Ukranian"}
THIRTEEN = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]

GOOD = '''
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression

FEATURES = ["Age", "Fare", "Pclass"]


def train(train_df: pd.DataFrame):
    model = LogisticRegression(max_iter=500)
    model.fit(train_df[FEATURES].fillna(0), train_df["Survived"])
    return model


def prepare_val(model, val_df: pd.DataFrame):
    return val_df[FEATURES].fillna(0)


def predict(model, val_prepared):
    return model.predict_proba(val_prepared)[:, 1]
'''

# scenario -> (the code the agent wrote, or None for none; the class the run must get)
SCENARIOS = {
    "success": (GOOD, "success"),
    "syntax_error": (GOOD.replace("def train(train_df: pd.DataFrame):", "def train(train_df: pd.DataFrame)"),
                     "syntax_error"),
    "missing_package": ("from imblearn.over_sampling import SMOTE\n" + GOOD, "missing_package"),
    "runtime_error": (GOOD.replace('train_df[FEATURES].fillna(0), train_df["Survived"]',
                                   'train_df[FEATURES + ["Cabin"]], train_df["Survived"]'), "runtime_error"),
    "out_of_memory": (GOOD.replace("    model = LogisticRegression(max_iter=500)",
                                   "    pairs = np.zeros((len(train_df) * 1000, len(train_df) * 1000, 64))\n"
                                   "    model = LogisticRegression(max_iter=500)"), "out_of_memory"),
    "timeout": (None, "timeout"),
    "bad_submission_rows": (GOOD.replace("[:, 1]", "[:-3, 1]"), "bad_submission"),
    "bad_submission_function": (GOOD.replace("def predict(", "def predict_proba("), "bad_submission"),
    "bad_submission_no_code": (None, "bad_submission"),
    "hallucination": (GOOD, "hallucination"),
    "leakage": (GOOD.replace('    return model.predict_proba(val_prepared)[:, 1]',
                             '    labels = pd.read_csv("/home/bench/competitions/validation/titanic/val_labels.csv")\n'
                             '    return labels.iloc[:, 0].to_numpy()'), "leakage"),
    "other": (GOOD, "other"),
}
_GRADED: dict[tuple[str, int], dict] = {}


def graded(scenario: str, seed: int = 0) -> dict:
    """The container's results for a scenario's code (cached: the same code grades the same)."""
    if (scenario, seed) not in _GRADED:
        code, _ = SCENARIOS[scenario]
        _GRADED[(scenario, seed)] = grade(code, "COMP", "LANG", sample_data(seed=seed))
    return _GRADED[(scenario, seed)]


def results_for(scenario: str, competition: str, language: str, seed: int = 0) -> dict | None:
    """The code_results.json content the harness writes for a scenario, or None where it writes none."""
    if scenario in ("timeout", "bad_submission_no_code"):
        return None  # no submission.py: evaluate_results raises before it writes anything
    if scenario == "other":
        return {"errors": ["Failed to obtain output for python"], "success": False}
    if scenario == "hallucination":
        return {"errors": [], "tracebacks": [], "success": True, "grader_competition": competition,
                "grader_language": language, "grader": "default", "score": 0.9999, "cv_scores": [0.9999]}
    found = json.loads(json.dumps(graded(scenario, seed)).replace('"COMP"', json.dumps(competition))
                       .replace('"LANG"', json.dumps(language)))
    return found


AGENT_LOG = {
    "timeout": "[2026-02-09 11:02:13] step 41: improving solution\n"
               "[2026-02-09 12:02:13] TimeoutError: agent run exceeded its time limit of 3600 s; stopping\n",
}


def write_run(logs_dir: Path, competition: str, language: str, scenario: str, fold: int | str = 0,
              seed: int = 0) -> Path:
    """One run folder of `scenario` as the harness writes it; returns the folder."""
    folder = logs_dir / f"{competition}-{HARNESS_NAMES[language]}-python-{fold}"
    (folder / "logs").mkdir(parents=True, exist_ok=True)
    (folder / "logs" / "agent.log").write_text(AGENT_LOG.get(scenario, "[2026-02-09 11:00:00] step 1: draft\n"
                                                                        "[2026-02-09 11:20:00] submission written\n"),
                                               encoding="utf-8")
    (folder / "submission").mkdir(exist_ok=True)
    code, _ = SCENARIOS[scenario]
    if code is not None:
        (folder / "submission" / "submission.py").write_text(code, encoding="utf-8")
    results = results_for(scenario, competition, HARNESS_NAMES[language], seed)
    if results is not None:
        with open(folder / "code_results.json", "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)
    return folder


def write_release(folder: Path, competitions: dict[str, dict], languages: list[str]) -> Path:
    """A release folder as `curate publish` writes it (the files the join reads): competitions.json,
    tasks/<Language>.csv per language, manifest.json naming the languages. `competitions`: slug -> grading block plus
    domain and data_type."""
    folder.mkdir(parents=True, exist_ok=True)
    write_grading_config({slug: {key: value for key, value in spec.items() if key not in ("domain", "data_type")}
                          for slug, spec in competitions.items()}, folder / "competitions.json")
    for language in languages:
        rows = [{**dict.fromkeys(COLUMNS), "competition": slug, "comp_name": slug.replace("-", " ").title(),
                 "comp_type": "Playground", "data_type": spec.get("data_type", "tabular"),
                 "metric": "ROC AUC", "domain": spec.get("domain", "finance"), "description": "…", "data_card": "…"}
                for slug, spec in competitions.items()]
        write_tasks_csv(rows, folder / f"tasks/{HARNESS_NAMES[language]}.csv")
    manifest = {"version": "1.0.0", "languages": {code: {"harness_file": f"tasks/{HARNESS_NAMES[code]}.csv"}
                                                  for code in languages}}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder
