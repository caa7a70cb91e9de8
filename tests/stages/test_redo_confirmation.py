"""Before redoing more than a handful of existing texts, describe (like translate) says how many and what it
would cost, and goes on only with --yes, or a yes typed on a terminal."""

from __future__ import annotations

import os
import re
import pty
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curation.cli import app
from tests.stages.scripted_models import TaskWriter

runner = CliRunner()


def curate(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture
def described(project, llm_server, monkeypatch):
    """The sample described (six machine descriptions), then the describe prompt edited."""
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    llm_server.respond_with(TaskWriter())
    assert curate("ingest").exit_code == 0
    assert curate("describe").exit_code == 0
    prompt = project / "prompts" / "describe.md"
    prompt.write_text(prompt.read_text(encoding="utf-8") + "\nWrite in plain words.\n", encoding="utf-8")
    llm_server.reset()
    return project


def test_a_prompt_edit_redoes_descriptions_only_with_yes(described, llm_server):
    refused = curate("describe")
    assert refused.exit_code == 1 and llm_server.count() == 0
    estimate = re.search(r"describe would redo 6 texts that exist already \(en 6\); estimated cost \$(\d+\.\d\d) "
                         r"from \[prices\]", refused.output)
    assert estimate and float(estimate.group(1)) > 0, refused.output
    assert "rerun with --yes" in refused.output

    done = curate("describe", "--yes")
    assert done.exit_code == 0 and "describe: 7 done" in done.output, done.output


def on_a_terminal(project, answer: str) -> tuple[int, str]:
    """`curate describe` in a pseudo-terminal, typing `answer` at its question; (exit code, what it printed)."""
    main, child = pty.openpty()
    curate_script = Path(sys.executable).parent / "curate"
    process = subprocess.Popen([str(curate_script), "describe"], cwd=project, stdin=child,
                               stdout=child, stderr=child, env={**os.environ, "COLUMNS": "200"})
    os.close(child)
    output = b""
    deadline = time.monotonic() + 120
    answered = False
    while process.poll() is None and time.monotonic() < deadline:
        try:
            chunk = os.read(main, 4096)
        except OSError:
            break
        output += chunk
        if not answered and b"Go ahead?" in output:
            os.write(main, answer.encode() + b"\n")
            answered = True
    process.wait(timeout=60)
    os.close(main)
    return process.returncode, output.decode(errors="replace")


def test_on_a_terminal_the_curator_is_asked(described, llm_server):
    code, said = on_a_terminal(described, "n")
    assert code == 1 and "Go ahead?" in said and "nothing was sent; the existing texts are kept" in said
    assert llm_server.count() == 0

    code, said = on_a_terminal(described, "y")
    assert code == 0 and "describe: 7 done" in said, said
