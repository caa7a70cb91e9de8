"""What a downstream researcher runs, run in a fresh interpreter: `datasets.load_dataset` on a release.

A subprocess, because huggingface_hub and datasets read HF_ENDPOINT and the offline switches when imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

_SCRIPT = """
import json, sys
from datasets import load_dataset
path, revision, languages = sys.argv[1], sys.argv[2] or None, sys.argv[3].split(",")
found = {}
for language in languages:
    kwargs = {"revision": revision} if revision else {}
    split = load_dataset(path, language, split="test", **kwargs)
    found[language] = {"columns": split.column_names, "rows": split.to_list()}
print(json.dumps(found))
"""


def load_release(path: str, languages: list[str], cache: Path, *, revision: str | None = None,
                 endpoint: str | None = None) -> dict[str, dict]:
    """{language: {"columns": [...], "rows": [...]}} as load_dataset(path, language, split="test") gives them."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("HF_")}
    env.update(HF_HOME=str(cache), HF_DATASETS_CACHE=str(cache / "datasets"), HF_HUB_DISABLE_TELEMETRY="1")
    if endpoint:
        env["HF_ENDPOINT"] = endpoint
    else:
        env.update(HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1")
    result = subprocess.run([sys.executable, "-c", _SCRIPT, path, revision or "", ",".join(languages)],
                            capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])
