"""A run imports only the SDKs its roles use: importing anthropic alone takes about a second and a half, paid at every
`curate` start when the configuration has no Anthropic role at all. Checked in a fresh interpreter, where
sys.modules shows what the run loaded."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.stages.scripted_models import TaskWriter

REPO = Path(__file__).resolve().parents[2]
# `curate ingest` then `curate describe` in this interpreter, then which SDKs it holds.
RUN = """
import json, sys
from curation.cli import app
for command in (["ingest"], ["describe", "--competition", "titanic", "--yes"]):
    try:
        app(command, standalone_mode=False)
    except SystemExit as stop:
        assert not stop.code, stop.code
print("SDKS " + json.dumps(sorted(name for name in ("anthropic", "openai") if name in sys.modules)))
"""


def _sdks_after_describe(project: Path, llm_server, model: str) -> list[str]:
    config = project / "curate.toml"
    config.write_text(re.sub(r'(?m)^(\w+) = "(openai|anthropic):[^"]+"$', rf'\1 = "{model}"',
                             config.read_text(encoding="utf-8")), encoding="utf-8")
    llm_server.respond_with(TaskWriter(domains={}))
    env = {**os.environ, "OPENAI_BASE_URL": llm_server.openai_base_url,
           "ANTHROPIC_BASE_URL": llm_server.anthropic_base_url, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", RUN], cwd=project, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert llm_server.requests, "describe asked nothing: the check would prove nothing"
    [line] = [line for line in done.stdout.splitlines() if line.startswith("SDKS ")]
    return json.loads(line.removeprefix("SDKS "))


@pytest.mark.parametrize(("model", "used"), [("openai:gpt-5.5-2026-04-23", ["openai"]),
                                             ("anthropic:claude-sonnet-5-5", ["anthropic"])])
def test_a_run_imports_only_the_sdk_of_its_roles(project, llm_server, model, used):
    assert _sdks_after_describe(project, llm_server, model) == used


def test_importing_the_command_line_loads_no_sdk():
    done = subprocess.run([sys.executable, "-c", "import sys, curation.cli, curation.llm, curation.stages.runner; "
                           "print([name for name in ('anthropic', 'openai') if name in sys.modules])"],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
