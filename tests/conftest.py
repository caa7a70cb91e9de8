"""Shared fixtures: a throwaway project (config + store) per test. Fakes of remote services live in tests/fakes/."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import sys
from collections import Counter
from pathlib import Path

import pytest
import typer
import typer.testing

from curation.config import Settings, load_settings
from curation.llm import pacing
from curation.store import Store

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "data" / "sample"
PACING_SPEED = 100  # a second of rate limits and back-off takes 10 ms in a test

# A suite started in the background by a shell without job control (`pytest … &` in a script) inherits SIGINT ignored,
# and so would every `curate` the Ctrl-C tests start: they would wait for an exit that never comes (or see exit 0).
# Each process of the suite takes Ctrl-C as a terminal's foreground job does; a process it starts then does too.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# typer turns an app into its click commands at every CliRunner.invoke: 15 ms of signature and annotation reading for
# curate's commands (148 invocations in ten of the CLI and stage modules, measured). An app's commands are the same
# every time, so each app's are built once per process; options' defaults and environment variables are still read at
# each invocation. (A typer without that private hook is left as it is: slower, the same results.)
_get_command = getattr(typer.testing, "_get_command", None)
_commands: dict[typer.Typer, object] = {}  # keyed by the app itself: a Typer hashes by identity


def _command_once(app: typer.Typer):
    if app not in _commands:
        _commands[app] = _get_command(app)
    return _commands[app]


if _get_command is not None:
    typer.testing._get_command = _command_once


# Modules start longest first. With `--dist loadscope` a worker takes a whole module at a time, and xdist's own order
# (most tests first) left long modules of few tests to the end: the default 12-language run (two tests, 48 s) started
# last while three workers sat idle, and the last minute ran 10-second modules one after another.
# tests/module_seconds.json holds each module's seconds as last measured on this 2-core machine (`pytest
# --record-module-seconds` rewrites it); a module it does not know is guessed at a quarter of a second a test.
# pyproject.toml turns xdist's reordering off so this order holds.
MODULE_SECONDS = Path(__file__).with_name("module_seconds.json")
SECONDS_PER_UNKNOWN_TEST = 0.25


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-module-seconds", action="store_true",
                     help=f"write each module's seconds (setup, call, teardown) to {MODULE_SECONDS.name}")


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        # Registered first, so it runs last of the exit hooks (temporary folders, the checks' process): an xdist
        # worker has sent every result by then, and the interpreter's teardown of what the tests imported and left
        # (1.5 s a worker, 4-6 s when the four end together on two cores) is work nobody waits for but the suite.
        atexit.register(_exit_now)
    config.addinivalue_line("markers", "real_pacing: the LLM client paces requests in real time (rate-limit tests)")
    if config.getoption("--record-module-seconds") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(ModuleSecondsRecorder(), "module-seconds-recorder")


def _exit_now() -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    known = json.loads(MODULE_SECONDS.read_text()) if MODULE_SECONDS.exists() else {}
    module = {item: item.nodeid.split("::")[0] for item in items}
    tests_in = Counter(module.values())

    def seconds(item: pytest.Item) -> float:
        name = module[item]
        return known.get(name, tests_in[name] * SECONDS_PER_UNKNOWN_TEST)

    items.sort(key=lambda item: -seconds(item))  # stable: a module's tests keep their order


class ModuleSecondsRecorder:
    """Sums every test report's duration by module, on the process that sees all reports (xdist's controller)."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid.split("::")[0]] += report.duration

    def pytest_sessionfinish(self) -> None:
        ranked = {name: round(total, 1) for name, total in self.seconds.most_common()}
        MODULE_SECONDS.write_text(json.dumps(ranked, indent=0) + "\n")


@pytest.fixture(autouse=True)
def fast_pacing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test's LLM client paces itself (rate limits, back-off, retry budget) by a clock 100 times faster than
    real time (curation/llm/pacing.py), so a command in the default configuration never waits out Anthropic's 50
    requests a minute or a second of back-off; tests of the pacing itself are marked `real_pacing`. A subprocess
    (a killed or interrupted command) paces in real time."""
    if request.node.get_closest_marker("real_pacing") is None:
        monkeypatch.setattr(pacing, "clock", pacing.Clock(speed=PACING_SPEED))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder with the repository's curate.toml, glossary, prompts and cards, and the working dir set to it."""
    shutil.copy(REPO / "curate.toml", tmp_path / "curate.toml")
    shutil.copy(REPO / "glossary.csv", tmp_path / "glossary.csv")
    for folder in ("prompts", "cards"):
        if (REPO / folder).exists():
            shutil.copytree(REPO / folder, tmp_path / folder)
    if SAMPLE.exists():
        shutil.copytree(SAMPLE, tmp_path / "data" / "sample")
    for variable in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "HF_TOKEN",
                     "GOOGLE_APPLICATION_CREDENTIALS"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def settings(project: Path) -> Settings:
    return load_settings(project / "curate.toml")


@pytest.fixture
def store(settings: Settings):
    with Store(settings.path("store")) as opened:
        yield opened


# -- llm: the fake OpenAI/Anthropic server (see tests/fakes/llm_server.py for what it can script) ----------


@pytest.fixture
def llm_server():
    """A running FakeLLMServer speaking /v1/chat/completions and /v1/messages; stopped after the test."""
    from tests.fakes.llm_server import FakeLLMServer

    with FakeLLMServer() as server:
        yield server


@pytest.fixture
def llm_settings(settings: Settings, llm_server) -> Settings:
    """The project's settings with every provider pointed at `llm_server`, short timeouts and retry bounds."""
    from tests.fakes.llm_server import pointed_at

    return pointed_at(settings, llm_server)


# -- publish: a fake Hub write API behind huggingface_hub's own HTTP client (tests/fakes/hub_api.py) ---------


@pytest.fixture
def fake_hub(project: Path, monkeypatch: pytest.MonkeyPatch):
    """A FakeHub that every huggingface_hub call in the test reaches, with HF_TOKEN set to its token."""
    import httpx2
    from huggingface_hub.utils import _http

    from tests.fakes.hub_api import FakeHub

    hub = FakeHub()
    monkeypatch.setenv("HF_TOKEN", hub.token)
    _http.set_client_factory(lambda: httpx2.Client(transport=hub.transport(), follow_redirects=True))
    yield hub
    _http.set_client_factory(_http.default_client_factory)


ALL_LANGUAGES = 'languages = ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"]'


def commands_on(project: Path, llm_server, monkeypatch: pytest.MonkeyPatch, *languages: str) -> Path:
    """The project translating into `languages` only (English is the source), with every provider on the fake server,
    for tests that run `curate` commands."""
    toml = project / "curate.toml"
    text = toml.read_text(encoding="utf-8")
    assert ALL_LANGUAGES in text
    toml.write_text(text.replace(ALL_LANGUAGES, f"languages = {['en', *languages]!r}".replace("'", '"')),
                    encoding="utf-8")
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", llm_server.anthropic_base_url)
    return project
