"""The ML²B grading container, replayed in-process: a submission's code goes through the same steps as in
enaix/ml2b (python/bench.py loads it through python/ast_parser.py, python/code_grader.py runs train / prepare_val /
predict on a fold, python/grade_functions.py grades the predictions, python/common.py collects errors and
tracebacks and ends with sys.exit), so the results dict, its messages and its tracebacks are what the harness writes
for that code. The harness's functions are compiled under the container's file names (/home/bench/python/...) and
the submission under /home/bench/submission/code.py, so tracebacks name them as the container's do; library frames
are shown at the container's site-packages.
"""

from __future__ import annotations

import linecache
import sysconfig
import textwrap
import types

import numpy as np
import pandas as pd

CONTAINER_SITE = "/usr/local/lib/python3.11/site-packages"
CODE_PATH = "/home/bench/submission/code.py"

_COMMON = '''
import sys, traceback

class Results:
    def __init__(self):
        self.res = {"errors": [], "tracebacks": [], "success": False}
        self.written = None

    def write(self):
        self.written = dict(self.res, errors=list(self.res["errors"]), tracebacks=list(self.res["tracebacks"]))

bench_results = Results()

def report_error(err):
    bench_results.res["errors"].append(err)
    bench_results.res["tracebacks"].append(str(traceback.format_exc()))

def graceful_exit(status):
    bench_results.res["success"] = status == 0
    bench_results.write()
    sys.exit(status)

def set_bench_info(info):
    bench_results.res = {**bench_results.res, **info}

def log_results_and_exit(results):
    bench_results.res = {**bench_results.res, **results}
    graceful_exit(0)
'''

_AST_PARSER = '''
import ast, types

KEEP = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.If)

def safe_import_from_file(file_path, source_code, module_name):
    try:
        tree = ast.parse(source_code, filename=file_path)
    except SyntaxError as e:
        raise SyntaxError(f"Syntax error in {file_path}: {e}")
    body = [stmt for stmt in tree.body if isinstance(stmt, KEEP) or (isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and (stmt.targets[0].id.isupper() or isinstance(stmt.value, ast.Constant)))]
    filtered = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
    try:
        compiled_code = compile(filtered, file_path, 'exec')
    except Exception as e:
        raise ImportError(f"Failed to compile filtered code from {file_path}: {e}")
    module = types.ModuleType(module_name)
    try:
        exec(compiled_code, module.__dict__)
    except Exception as e:
        raise ImportError(f"Failed to execute filtered code from {file_path}: {e}")
    return module
'''

_GRADE_FUNCTIONS = '''
import sys
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score, accuracy_score, root_mean_squared_error

METRICS = {"roc_auc_score": roc_auc_score, "accuracy_score": accuracy_score,
           "root_mean_squared_error": root_mean_squared_error}

def grader_default(pred, val, comp, extra_data):
    """Default grader using specified metric from competition config"""
    metric_name = comp.get("metric", "accuracy_score")
    metric = METRICS.get(metric_name)
    try:
        if isinstance(pred, pd.DataFrame):
            pred_values = pred.iloc[:, 0] if pred.shape[1] == 1 else pred.values.flatten()
        else:
            pred_values = pred
        if isinstance(val, pd.DataFrame):
            val_values = val.iloc[:, 0] if val.shape[1] == 1 else val.values.flatten()
        else:
            val_values = val
        score = metric(val_values, pred_values)
        return score
    except Exception:
        common.report_error(f"Grader execution failed : {sys.exc_info()}")
        return np.nan

GRADERS = {"default": grader_default}
'''

_CODE_GRADER = '''
import traceback
import numpy as np

def grade_llm_code(train_code, competition_id, language, mono_predict, folds, data):
    comp = {"metric": data["metric"], "cv_folds": folds}
    common.set_bench_info({"grader_competition": competition_id, "grader_language": language})
    grader = "default"
    common.set_bench_info({"grader": grader})
    try:
        scores = []
        for fold_idx in range(folds):
            train_dataset, val_features_dataset, val_labels = data["train"], data["val_x"], data["val_y"]
            for func_name in ["train", "prepare_val", "predict"]:
                if not callable(train_code.get(func_name)):
                    raise ValueError(f"{func_name} is not a callable function")
            try:
                train_output = train_code["train"](train_dataset)
                val_prepared = train_code["prepare_val"](train_output, val_features_dataset)
                predictions = train_code["predict"](train_output, val_prepared)
                score = grade_functions.GRADERS[grader](predictions, val_labels, comp, {})
                scores.append(score)
            except Exception:
                common.report_error(f"Error during fold {fold_idx} execution: {traceback.format_exc()}")
                common.graceful_exit(1)
    except Exception as e:
        common.report_error(f"grade_llm_code() : grading failed : {e=} ({competition_id})")
        common.graceful_exit(1)
    valid_scores = [s for s in scores if not np.isnan(s)]
    if not valid_scores:
        common.report_error("Submission code failed for all CV folds")
        common.graceful_exit(1)
    return {"score": np.mean(valid_scores), "cv_scores": scores}
'''

_BENCH = '''
import traceback

def load_modular_submission(source):
    try:
        try:
            mod = ast_parser.safe_import_from_file("submission/code.py", source, "submission.code")
        except BaseException:
            common.report_error("Could not parse the AST of the submission. Trying to load the usual way...")
            mod = import_usual_way(source)
        funcs = {}
        for func in ["train", "prepare_val", "predict"]:
            if not hasattr(mod, func):
                common.report_error(f"Submission code does not have the {func} function")
                common.graceful_exit(1)
            funcs[func] = getattr(mod, func)
        return funcs
    except BaseException as e:
        common.report_error(f"Could not load submission code: {e=}")
        common.graceful_exit(1)

def main(source, comp_id, language, data):
    train_code = load_modular_submission(source)
    results = code_grader.grade_llm_code(train_code, comp_id, language, False, 1, data)
    common.log_results_and_exit(results)
'''


def _module(name: str, path: str, source: str, namespace: dict) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(namespace)
    lines = source.splitlines(keepends=True)
    linecache.cache[path] = (len(source), None, lines, path)
    exec(compile(source, path, "exec"), module.__dict__)
    return module


_IMPORTLIB = "/usr/local/lib/python3.11/importlib/__init__.py"
_IMPORT_MODULE = '''
def import_module(name, source):
    """importlib.import_module("submission.code"): the whole file, top-level code and all."""
    module = types.ModuleType(name)
    exec(compile(source, code_path, "exec"), module.__dict__)
    return module
'''


def _import_usual_way(source: str) -> types.ModuleType:
    importlib = _module("importlib", _IMPORTLIB, _IMPORT_MODULE, {"types": types, "code_path": CODE_PATH})
    return importlib.import_module("submission.code", source)


def sample_data(metric: str = "roc_auc_score", rows: int = 300, seed: int = 0) -> dict:
    """A small binary task: train with its target column, validation features and labels."""
    generator = np.random.default_rng(seed)
    features = pd.DataFrame({"Age": generator.integers(1, 80, rows).astype(float),
                             "Fare": generator.gamma(2.0, 15.0, rows), "Pclass": generator.integers(1, 4, rows)})
    target = (features["Fare"] / 30 + generator.normal(0, 1, rows) > 1.2).astype(int)
    cut = rows * 2 // 3
    train = features.iloc[:cut].assign(Survived=target.iloc[:cut])
    return {"metric": metric, "train": train, "val_x": features.iloc[cut:].reset_index(drop=True),
            "val_y": target.iloc[cut:].reset_index(drop=True).to_frame()}


def grade(code: str, comp_id: str, language: str, data: dict | None = None) -> dict:
    """What the grading container writes as results.json for `code` (what the runner copies to code_results.json)."""
    source = textwrap.dedent(code)
    for path in (CODE_PATH, "submission/code.py"):  # the loader's relative path, from the container's /home/bench
        linecache.cache[path] = (len(source), None, source.splitlines(keepends=True), path)
    common = _module("python.common", "/home/bench/python/common.py", _COMMON, {})
    parser = _module("python.ast_parser", "/home/bench/python/ast_parser.py", _AST_PARSER, {})
    grading = _module("python.grade_functions", "/home/bench/python/grade_functions.py", _GRADE_FUNCTIONS,
                      {"common": common})
    grader = _module("python.code_grader", "/home/bench/python/code_grader.py", _CODE_GRADER,
                     {"common": common, "grade_functions": grading})
    bench = _module("python.bench", "/home/bench/python/bench.py", _BENCH,
                    {"common": common, "ast_parser": parser, "code_grader": grader,
                     "import_usual_way": _import_usual_way})
    try:
        bench.main(source, comp_id, language, data or sample_data())
    except SystemExit:
        pass
    written = common.bench_results.written
    assert written is not None, "the container always writes its results before it exits"
    site = sysconfig.get_paths()["purelib"]
    return {key: ([text.replace(site, CONTAINER_SITE) for text in value]
                  if key in ("errors", "tracebacks") else value) for key, value in written.items()}
