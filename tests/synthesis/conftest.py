"""The scripted task designer behind the fake LLM server, shared by the synthesize tests that go through the CLI."""

from __future__ import annotations

import pytest

from tests.synthesis.scripted import TaskDesigner


@pytest.fixture
def designer(llm_server, monkeypatch) -> TaskDesigner:
    """Every LLM role of `curate synthesize` answered by a TaskDesigner; both providers' URLs point at the fake."""
    scripted = TaskDesigner()
    llm_server.respond_with(scripted)
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    return scripted
