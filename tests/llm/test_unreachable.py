"""A server that is not there: a few quick connection attempts, then one line and the run stops; long back-offs
are announced rather than silent."""

from __future__ import annotations

import asyncio
import logging
import socket
import sys
import threading

import pytest
import typer
from pydantic import BaseModel
from typer.testing import CliRunner

from curation.config import ProviderSettings
from curation.llm import LLM, EndpointUnreachable, LLMConfigError
from curation.llm import backoff_notice
from curation.llm.sending import CONNECT_ATTEMPTS
from curation.stages.runner import run_stage
from curation.store import Store
from tests.fakes.llm_server import FakeLLMServer, pointed_at, rate_limited, server_error
from tests.llm.example_stage import DomainStage

MESSAGES = [{"role": "user", "content": "Name the domain of titanic."}]


class Domain(BaseModel):
    domain: str


def closed_port() -> int:
    """A local port nothing listens on: connecting to it is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def aimed_at(settings, base_url: str, **overrides):
    """`settings` with every provider on `base_url` and the short bounds tests use."""
    return settings.model_copy(update={"providers": {
        name: provider.model_copy(update={"base_url": base_url, "timeout_seconds": 2.0, "max_retry_seconds": 3.0,
                                          **overrides})
        for name, provider in settings.providers.items()}})


def done(store: Store) -> set[str]:
    return {s.competition for s in store.statuses() if s.stage == "example-tag" and s.status == "done"}


async def ask(settings, store, role="tag", item="titanic"):
    async with LLM(settings, store, stage="tag") as llm:
        return await llm.ask(role=role, messages=MESSAGES, schema=Domain, item=item)


@pytest.mark.parametrize("role", ["tag", "refine"])  # the OpenAI and the Anthropic SDK
async def test_a_closed_port_stops_after_a_few_attempts_with_one_line(settings, store, role):
    port = closed_port()
    url = f"http://127.0.0.1:{port}/v1" if role == "tag" else f"http://127.0.0.1:{port}"
    nowhere = aimed_at(settings, url)

    with pytest.raises(EndpointUnreachable) as unreachable:
        await ask(nowhere, store, role=role)

    provider = "openai" if role == "tag" else "anthropic"
    variable = "OPENAI_BASE_URL" if role == "tag" else "ANTHROPIC_BASE_URL"
    assert str(unreachable.value) == (
        f"cannot reach {url} (connection refused; {CONNECT_ATTEMPTS} attempts): start the server or fix "
        f"{variable} / providers.{provider}.base_url")
    assert isinstance(unreachable.value, LLMConfigError)  # the CLI's one-line path, as for a refused key
    [row] = store.llm_calls()
    assert row.attempts == CONNECT_ATTEMPTS == 3
    assert row.error == f"cannot reach {url} (connection refused; 3 attempts)" and row.response is None


async def test_a_custom_provider_says_where_its_base_url_lives(settings, store):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    local = settings.model_copy(update={
        "providers": {**settings.providers, "local": ProviderSettings(kind="openai", base_url=url,
                                                                     max_retry_seconds=3.0)},
        "models": settings.models.model_copy(update={"tag": "local:qwen2.5-7b"})})

    with pytest.raises(EndpointUnreachable) as unreachable:
        await ask(local, store)

    assert str(unreachable.value).endswith(
        "(connection refused; 3 attempts): start the server or fix providers.local.base_url in curate.toml")


async def test_an_unknown_host_is_named_as_such(settings, store):
    nowhere = aimed_at(settings, "http://no-such-host.invalid/v1")

    with pytest.raises(EndpointUnreachable) as unreachable:
        await ask(nowhere, store)

    assert str(unreachable.value).startswith("cannot reach http://no-such-host.invalid/v1 (unknown host")
    assert unreachable.value.attempts == 3


@pytest.mark.skipif(sys.platform != "linux", reason="Linux drops connections past a full listen backlog")
async def test_a_server_that_never_accepts_the_connection_is_unreachable_too(settings, store):
    """A listening socket whose backlog is full: the connection is never accepted, so the connect times out."""
    with socket.socket() as stuck:
        stuck.bind(("127.0.0.1", 0))
        stuck.listen(0)
        port = stuck.getsockname()[1]
        fillers = [socket.socket() for _ in range(4)]
        for filler in fillers:
            filler.setblocking(False)
            filler.connect_ex(("127.0.0.1", port))
        try:
            with pytest.raises(EndpointUnreachable) as unreachable:
                await ask(aimed_at(settings, f"http://127.0.0.1:{port}/v1", timeout_seconds=0.3), store)
        finally:
            for filler in fillers:
                filler.close()

    assert f"(no connection within 0.3s; {CONNECT_ATTEMPTS} attempts)" in str(unreachable.value)


async def test_once_unreachable_the_provider_is_not_tried_again_this_run(settings, store):
    nowhere = aimed_at(settings, f"http://127.0.0.1:{closed_port()}/v1")
    async with LLM(nowhere, store, stage="tag") as llm:
        with pytest.raises(EndpointUnreachable) as first:
            await llm.ask(role="tag", messages=MESSAGES, schema=Domain, item="titanic")
        with pytest.raises(EndpointUnreachable) as second:
            await llm.ask(role="tag", messages=MESSAGES, schema=Domain, item="house-prices")

    assert second.value is first.value
    assert [row.item for row in store.llm_calls()] == ["titanic"]  # the second call sent nothing


async def test_a_server_that_comes_up_after_a_refusal_is_reached(settings, store, caplog):
    """The first attempt is refused; the server starts while the client waits to try again."""
    port = closed_port()
    started: list[FakeLLMServer] = []

    class StartServerOnFirstRefusal(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "connection refused" in record.getMessage() and not started:
                server = FakeLLMServer(port=port).start()
                server.respond_with(lambda request: {"domain": "maritime"})
                started.append(server)

    handler = StartServerOnFirstRefusal()
    logging.getLogger("curation.llm").addHandler(handler)
    try:
        with caplog.at_level(logging.INFO, logger="curation.llm"):  # each refused attempt is an info line
            answer = await ask(aimed_at(settings, f"http://127.0.0.1:{port}/v1"), store)
    finally:
        logging.getLogger("curation.llm").removeHandler(handler)
        for server in started:
            server.stop()

    assert answer.parsed.domain == "maritime" and answer.attempts == 2
    assert started and started[0].count() == 1
    [row] = store.llm_calls()
    assert row.attempts == 2 and row.error is None


async def test_a_run_stops_at_an_unreachable_server_and_keeps_what_finished(settings, store):
    slugs = ["titanic", "house-prices", "digit-recognizer", "spaceship-titanic", "store-sales", "playground-s4e1"]
    server = FakeLLMServer().start()
    port = int(server.url.rsplit(":", 1)[1])
    server.respond_with(lambda request: {"domain": "tabular"})
    async with LLM(pointed_at(settings, server), store, stage="example-tag") as llm:
        first = await run_stage(DomainStage(slugs[:2]), store, settings, llm)
    server.stop()  # the server goes away between runs: its port is closed now
    assert first.done == 2

    async with LLM(pointed_at(settings, server), store, stage="example-tag") as llm:
        with pytest.raises(EndpointUnreachable) as unreachable:
            await run_stage(DomainStage(slugs), store, settings, llm)

    assert str(unreachable.value).startswith(f"cannot reach http://127.0.0.1:{port}/v1 (connection refused;")
    assert done(store) == set(slugs[:2])  # finished items are kept
    # Four items were pending; none retried past the bound, and the run stopped instead of working through them.
    failed_rows = [row for row in store.llm_calls() if row.error]
    assert failed_rows and all(row.attempts <= CONNECT_ATTEMPTS for row in failed_rows)
    assert sum(row.attempts for row in failed_rows) <= 4 * CONNECT_ATTEMPTS

    with FakeLLMServer(port=port) as restarted:  # the curator starts the server and reruns
        restarted.respond_with(lambda request: {"domain": "tabular"})
        async with LLM(pointed_at(settings, restarted), store, stage="example-tag") as llm:
            rest = await run_stage(DomainStage(slugs), store, settings, llm)
    assert rest.done == 4 and rest.complete and done(store) == set(slugs)
    assert restarted.count() == 4  # the two finished items were not asked again


def test_the_cli_says_cannot_reach_in_one_line_and_exits(settings, project):
    from curation.cli.base import open_store
    from curation.cli.llm import run_llm_stage

    url = f"http://127.0.0.1:{closed_port()}/v1"
    nowhere = aimed_at(settings, url)
    app = typer.Typer()

    @app.command()
    def tag() -> None:
        with open_store(nowhere) as store:
            run_llm_stage(DomainStage(["titanic", "house-prices"]), nowhere, store, None, roles=("tag",))

    result = CliRunner().invoke(app, [])

    assert result.exit_code == 2
    assert result.output.strip() == (f"error: cannot reach {url} (connection refused; 3 attempts): start the server "
                                     "or fix OPENAI_BASE_URL / providers.openai.base_url")


async def test_a_long_back_off_is_announced_once_for_the_calls_sharing_it(llm_server, llm_settings, store,
                                                                         caplog, monkeypatch):
    # What counts as long is lowered so that the test waits a fraction of a second rather than several.
    monkeypatch.setattr(backoff_notice, "NOTICE_AFTER_SECONDS", 0.2)
    # Both 429s go out together once both requests are in: a loaded machine could otherwise send the second request
    # after the first 429 had paused the provider, and a back-off that starts after another ends is rightly a new line.
    both_in, asked, lock = threading.Barrier(2, timeout=30), [], threading.Lock()

    def limited_together(request):
        with lock:
            asked.append(request)
            first_two = len(asked) <= 2
        if first_two:
            both_in.wait()
            return rate_limited(retry_after=0.4)
        return {"domain": "finance"}

    llm_server.respond_with(limited_together)

    with caplog.at_level(logging.WARNING, logger="curation.llm"):
        async with LLM(llm_settings, store, stage="tag") as llm:
            answers = await asyncio.gather(*(
                llm.ask(role="tag", messages=[{"role": "user", "content": f"Name the domain of {slug}."}],
                        schema=Domain, item=slug) for slug in ("titanic", "house-prices")))

    assert [answer.parsed.domain for answer in answers] == ["finance", "finance"]
    assert llm_server.count() == 4  # both were rate limited, both waited and got their answer
    assert [record.getMessage() for record in caplog.records] == [
        "openai: HTTP 429 (Error code: 429 - Rate limit reached; try again later.); waiting 0.4s before trying again"]


async def test_short_back_offs_stay_quiet(llm_server, llm_settings, store, caplog):
    llm_server.script(server_error(503), rate_limited(retry_after=0.05))
    llm_server.respond_with(lambda request: {"domain": "finance"})

    with caplog.at_level(logging.WARNING, logger="curation.llm"):
        answer = await ask(llm_settings, store)

    assert answer.attempts == 3
    assert caplog.records == []
