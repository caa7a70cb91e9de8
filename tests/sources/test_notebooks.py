"""Notebook text extraction: what an LLM will read from each kind of notebook, and the lines bad files give."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from curation.sources.notebooks import NotebookError, count_tokens, extract


def notebook4(cells: list[dict]) -> str:
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def code(source: str, outputs: list | None = None) -> dict:
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": outputs or [], "source": source.splitlines(True)}


def markdown(source: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def test_nbformat4_keeps_code_and_drops_outputs_and_markdown(tmp_path):
    path = write(tmp_path, "a.ipynb", notebook4([
        markdown("# Exploring the data\nSome words."),
        code("import pandas as pd\ntrain = pd.read_csv('train.csv')",
             outputs=[{"output_type": "stream", "name": "stdout", "text": ["OUTPUT-LINE-12345\n"]},
                      {"output_type": "display_data", "data": {"image/png": base64.b64encode(b"\x89PNG" * 500).decode()}}]),
        code("model.fit(X, y)"),
    ]))
    text = extract(path, token_budget=6000).text
    assert text == "import pandas as pd\ntrain = pd.read_csv('train.csv')\n\nmodel.fit(X, y)"


def test_markdown_is_kept_as_comments_when_asked(tmp_path):
    path = write(tmp_path, "a.ipynb", notebook4([markdown("Predict the price.\n\nUse RMSE."), code("x = 1")]))
    text = extract(path, token_budget=6000, keep_markdown=True).text
    assert text.splitlines()[:3] == ["# Predict the price.", "#", "# Use RMSE."]
    assert text.endswith("x = 1")


def test_nbformat3_reads_worksheet_inputs(tmp_path):
    document = {"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": ""}, "worksheets": [{"cells": [
        {"cell_type": "markdown", "source": ["Old notebook"]},
        {"cell_type": "code", "language": "python", "input": ["import numpy as np\n", "print np.pi"],
         "outputs": [{"output_type": "stream", "stream": "stdout", "text": ["3.14159\n"]}]},
    ]}]}
    path = write(tmp_path, "old.ipynb", json.dumps(document))
    assert extract(path, token_budget=6000).text == "import numpy as np\nprint np.pi"


def test_shell_and_magic_lines_go_but_the_python_of_timed_cells_stays(tmp_path):
    path = write(tmp_path, "a.ipynb", notebook4([
        code("!pip install -q lightgbm\n%matplotlib inline\nimport lightgbm as lgb"),
        code("%%time\nmodel = lgb.train(params, data)"),
        code("%%bash\nls -la /kaggle/input\nnvidia-smi"),
    ]))
    text = extract(path, token_budget=6000).text
    assert text == "import lightgbm as lgb\n\nmodel = lgb.train(params, data)"


def test_base64_blobs_in_code_are_replaced(tmp_path):
    blob = base64.b64encode(bytes(range(256)) * 4).decode()
    path = write(tmp_path, "a.py", f"logo = 'data:image/png;base64,{blob}'\nshow(logo)\n")
    text = extract(path, token_budget=6000).text
    assert blob[:50] not in text
    assert text == "logo = '<base64 data removed>'\nshow(logo)"


def test_scripts_lose_shell_lines(tmp_path):
    path = write(tmp_path, "train.py", "!pip install catboost\nimport catboost\nprint('ok')\n")
    assert extract(path, token_budget=6000).text == "import catboost\nprint('ok')"


@pytest.mark.parametrize("content, expected", [
    ('{"cells": [ {"cell_type": "code", "sour', "not valid notebook JSON"),
    ("", "is empty"),
    ("   \n\n", "is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "is binary"),
    ('{"data": [1, 2, 3]}', "not a Jupyter notebook"),
    (notebook4([markdown("Only prose here.")]), "has no code cells"),
    (notebook4([code("!pip install x\n%load_ext autoreload")]), "has no code cells"),
])
def test_bad_notebooks_raise_one_clear_message(tmp_path, content, expected):
    path = write(tmp_path, "bad.ipynb", content)
    with pytest.raises(NotebookError) as error:
        extract(path, token_budget=6000)
    assert expected in str(error.value)
    assert "\n" not in str(error.value)


def test_a_notebook_over_the_size_limit_is_refused_before_reading(tmp_path):
    path = write(tmp_path, "huge.ipynb", notebook4([code("x = 1\n" * 2000)]))
    with pytest.raises(NotebookError, match=r"over the limit of 0\.0 MB \(ingest.max_notebook_bytes\)"):
        extract(path, token_budget=6000, max_bytes=2048)


def test_unsupported_file_types_are_refused(tmp_path):
    with pytest.raises(NotebookError, match="unsupported file type .txt"):
        extract(write(tmp_path, "notes.txt", "hello"), token_budget=6000)


@pytest.mark.parametrize("encoding, expected", [
    ("cp1252", "cp1252"), ("utf-8-sig", "utf-8-sig"), ("utf-16", "utf-16"), ("utf-8", "utf-8"),
])
def test_other_encodings_are_decoded_and_named(tmp_path, encoding, expected):
    source = "# naïve Bayes — “quoted”\nimport sklearn\n"
    if encoding == "utf-16":
        path = write(tmp_path, "nb.ipynb", notebook4([code(source)]).encode("utf-16"))
    else:
        path = write(tmp_path, "script.py", source.encode(encoding))
    extracted = extract(path, token_budget=6000)
    assert extracted.encoding == expected
    assert "naïve Bayes — “quoted”" in extracted.text


def test_latin1_is_the_last_resort(tmp_path):
    path = write(tmp_path, "script.py", "# caf\xe9 \x81\nimport os\n".encode("latin-1"))  # 0x81 is undefined in cp1252
    extracted = extract(path, token_budget=6000)
    assert extracted.encoding == "latin-1"
    assert "café" in extracted.text


def test_long_text_keeps_head_and_tail_and_says_what_was_cut(tmp_path):
    lines = [f"feature_{i} = compute_feature(frame, column_{i}, window={i})" for i in range(400)]
    path = write(tmp_path, "long.py", "\n".join(lines))
    extracted = extract(path, token_budget=400)
    kept = extracted.text.splitlines()
    assert kept[0] == lines[0]
    assert kept[-1] == lines[-1]
    markers = [line for line in kept if "tokens cut from the middle" in line]
    assert len(markers) == 1
    cut_tokens = int(markers[0].split("[... ")[1].split(" tokens")[0])
    assert cut_tokens == count_tokens("\n".join(lines)) - count_tokens("\n".join(l for l in kept if l not in markers))
    assert extracted.cut.startswith(f"{cut_tokens} tokens")
    assert 350 <= extracted.tokens <= 420
    assert lines[200] not in extracted.text


def test_one_enormous_line_is_still_cut_to_the_budget(tmp_path):
    path = write(tmp_path, "minified.py", "x=[" + ",".join(str(i) for i in range(20000)) + "]")
    extracted = extract(path, token_budget=500)
    assert extracted.cut is not None
    assert extracted.tokens <= 520
    assert extracted.text.startswith("x=[0,1,2")
    assert extracted.text.endswith("19999]")


def test_short_text_is_not_cut(tmp_path):
    extracted = extract(write(tmp_path, "a.py", "import os\nprint(os.getcwd())\n"), token_budget=200)
    assert extracted.cut is None
    assert "cut" not in extracted.text


def test_token_estimate_is_about_four_characters_per_token():
    sample = Path(__file__).resolve().parents[2] / "data" / "sample" / "nlp-getting-started" / "notebooks" / "disaster-tweets-distilbert.py"
    text = sample.read_text(encoding="utf-8")
    assert 2.5 <= len(text) / count_tokens(text) <= 5.0
    assert count_tokens("") == 0
    assert count_tokens("a, b") == 3
    assert count_tokens("extraordinarily") == 4
