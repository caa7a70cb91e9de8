"""A local HTTP server that speaks the OpenAI chat-completions and the Anthropic messages APIs, for tests.

The real `openai` and `anthropic` SDKs talk to it over HTTP, so a test exercises the whole client: request
building, structured output, errors, retries, rate limits, the cache and the call log. No key, no network.

Use it through the pytest fixtures in tests/conftest.py:

    def test_tagging(llm_server, llm_settings, store):
        # llm_settings: the project's Settings with every provider pointed at the fake, short timeouts and retry
        # bounds, and limits high enough never to slow a test down.
        llm_server.respond_with(lambda request: {"domain": "finance"})   # a function of the request ...
        llm_server.script(rate_limited(retry_after=0.01), server_error())  # ... after these, in order
        ...run the stage against llm_settings...
        assert llm_server.count() == 3
        assert "Titanic" in llm_server.requests[-1].user_text

What a responder may return (also what `script` takes):
  - a dict, list or pydantic model: the structured answer (JSON content for OpenAI, the forced tool call's input
    for Anthropic when the request forced a tool, JSON text otherwise);
  - a str: the answer text;
  - a `Response` from the helpers below: `answer(...)` (with token counts, including prompt-cached ones),
    `rate_limited(...)` (429 with retry-after or retry-after-ms), `server_error(status)`, `bad_request(message)`,
    `slow(seconds, then)`, `truncated_body()`, `cut_off(content)` (a whole-looking body cut in the middle of a
    multi-byte character), `invalid_json()`, `bare_envelope()` (JSON without the API's fields),
    `connection_reset()` (the connection reset before any answer), `refusal(text)`, `hang()` (held until the
    server stops or `release()` is called, then a 500).
Scripted responses are used first, in order; then the responder; the default responder answers "ok".
`reject_json_schema = True` makes it answer 400 to OpenAI json_schema requests, as llama.cpp's server does;
`refuse_parameter("temperature", model=None)` makes it answer 400 to requests carrying that parameter, worded as
OpenAI / Anthropic word it (also "reasoning_effort", "max_tokens", "output_config.effort", "tool_choice").
`prompt_cache = True` reports cached input tokens as the APIs do (OpenAI: a system prefix of
`min_cacheable_tokens` or more seen before; Anthropic: a cache_control system block, first a cache write).
`latency` delays every answer. Each request is recorded in `requests` before it is answered, as a `Request`:
`api` ("openai" | "anthropic"), `body`, `messages`, `system_text`, `user_text` (the last user message),
`mode` (json_schema | json_object | tool | None), `schema`, `credential` (the key sent), `received_at`.
`count(api=None)` counts requests, `answered` those that got a full answer, `max_in_flight` the most at once.
`models` answers `GET /v1/models/{id}` (both SDKs' models.retrieve) from `models.known` (None: every model exists;
else the others get each API's 404), see tests/fakes/llm_models.py; those lookups are not in `requests`.
`batches` serves the OpenAI files/batches and Anthropic message-batches endpoints (see tests/fakes/llm_batches.py):
each request in a batch is answered like an online one and recorded in `requests` too.

Settings for a test of your own: `pointed_at(settings, server, **provider_overrides)` (what `llm_settings`
is), e.g. `pointed_at(settings, llm_server, requests_per_minute=600, structured_output="json_mode")`.

Run it standalone (for scripts/bench_llm_client.py): `python -m tests.fakes.llm_server --latency 0.05`
prints its URL and serves "ok" (or `--answer TEXT`) until killed.
"""

from __future__ import annotations

import argparse
import json
import socket
import struct
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pydantic import BaseModel

from tests.fakes.llm_refusals import parameter_refusal
from tests.fakes.llm_batches import FakeBatches
from tests.fakes.llm_models import FakeModels


@dataclass
class Response:
    """One scripted answer or fault. Build it with the helpers below rather than by hand."""

    kind: str = "answer"  # answer | status | slow | truncated | cut_off | invalid_json | bare | reset | refusal | hang
    content: Any = "ok"
    tokens_in: int | None = None
    tokens_out: int | None = None
    tokens_cached: int = 0
    tokens_cache_write: int = 0
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    message: str = ""
    seconds: float = 0.0
    then: "Response | None" = None
    error_body: dict | None = None  # a status response's body as the real API words it (else built from message)


def answer(content: Any = "ok", tokens_in: int | None = None, tokens_out: int | None = None,
           tokens_cached: int = 0, tokens_cache_write: int = 0) -> Response:
    """A successful answer; token counts default to a chars/4 estimate of the request and the answer."""
    return Response(content=content, tokens_in=tokens_in, tokens_out=tokens_out, tokens_cached=tokens_cached,
                    tokens_cache_write=tokens_cache_write)


def rate_limited(retry_after: float = 0.05, milliseconds: bool = False) -> Response:
    """429 with `retry-after` (seconds) or `retry-after-ms`."""
    header = {"retry-after-ms": str(round(retry_after * 1000))} if milliseconds else {"retry-after": f"{retry_after:g}"}
    return Response(kind="status", status=429, headers=header, message="Rate limit reached; try again later.")


def server_error(status: int = 500) -> Response:
    return Response(kind="status", status=status, message="The server had an error while processing your request.")


def bad_request(message: str = "invalid request") -> Response:
    return Response(kind="status", status=400, message=message)


def slow(seconds: float, then: Response | Any = "ok") -> Response:
    """Wait `seconds` before answering (past the client's timeout, the client gives up first)."""
    return Response(kind="slow", seconds=seconds, then=_as_response(then))


def truncated_body() -> Response:
    """Promise a longer body than is sent, then drop the connection."""
    return Response(kind="truncated")


def cut_off(content: Any = "Жауап дайын") -> Response:
    """A 200 whose body (the answer `content`, sent as raw UTF-8) ends in the middle of a multi-byte character,
    with a Content-Length that matches what was sent: the HTTP exchange completes, the body cannot be decoded.
    Content without a multi-byte character is cut in the middle instead (then it is not valid JSON)."""
    return Response(kind="cut_off", content=content)


def invalid_json() -> Response:
    """A 200 with Content-Type application/json whose body is not JSON."""
    return Response(kind="invalid_json")


def bare_envelope() -> Response:
    """A 200 whose body is JSON but not the API's envelope: no choices (OpenAI), no content or usage (Anthropic)."""
    return Response(kind="bare")


def connection_reset() -> Response:
    """Reset the connection (TCP RST) once the request is read, without a byte of an answer."""
    return Response(kind="reset")


def refusal(text: str = "I can't help with that.") -> Response:
    """OpenAI: the message's `refusal` field; Anthropic: stop_reason "refusal"."""
    return Response(kind="refusal", message=text)


def hang() -> Response:
    """Hold the request unanswered until `release()` or the server stops (a client killed mid-call)."""
    return Response(kind="hang")


class Storm:
    """A responder that wraps another with a provider having a bad day, at random (seeded): `rate_limits` of the
    requests get 429 with retry-after, `server_errors` a 500, `cut_offs` a body cut inside a multi-byte character;
    the rest the wrapped answer. Faults come back at once, answers after `latency` seconds, as a real API does.

        llm_server.respond_with(Storm(model, rate_limits=0.30, server_errors=0.05, cut_offs=0.05, retry_after=1.0))
    """

    def __init__(self, responder: Callable[[Any], Any], rate_limits: float = 0.30, server_errors: float = 0.05,
                 cut_offs: float = 0.05, retry_after: float = 1.0, latency: float = 0.0, seed: int = 16):
        import random

        self.responder, self.latency, self.retry_after = responder, latency, retry_after
        self.rates = (rate_limits, server_errors, cut_offs)
        self.random = random.Random(seed)
        self.counts = {"answer": 0, "429": 0, "500": 0, "cut_off": 0}
        self._lock = threading.Lock()

    def __call__(self, request: Any) -> Response:
        with self._lock:
            draw = self.random.random()
        rate_limits, server_errors, cut_offs = self.rates
        if draw < rate_limits:
            return self._count("429", rate_limited(self.retry_after))
        if draw < rate_limits + server_errors:
            return self._count("500", server_error(500))
        real = _as_response(self.responder(request))
        if draw < rate_limits + server_errors + cut_offs and real.kind == "answer":
            real = cut_off(real.content)
            return self._count("cut_off", slow(self.latency, real) if self.latency else real)
        return self._count("answer", slow(self.latency, real) if self.latency else real)

    def _count(self, kind: str, response: Response) -> Response:
        with self._lock:
            self.counts[kind] += 1
        return response


@dataclass
class Request:
    """One request as the server saw it."""

    api: str  # "openai" | "anthropic"
    path: str
    body: dict
    headers: dict[str, str]  # without the key headers
    received_at: float  # time.monotonic()
    credential: str = ""  # the key the client sent (Authorization bearer or x-api-key), to check which was used

    @property
    def messages(self) -> list[dict]:
        return self.body.get("messages", [])

    @property
    def system_text(self) -> str:
        if self.api == "anthropic":
            return _text(self.body.get("system", ""))
        return "\n".join(_text(m.get("content")) for m in self.messages if m.get("role") == "system")

    @property
    def user_text(self) -> str:
        """The last user message's text."""
        users = [m for m in self.messages if m.get("role") == "user"]
        return _text(users[-1].get("content")) if users else ""

    @property
    def mode(self) -> str | None:
        """How a structured answer was asked for: json_schema, json_object, tool, or None for plain text."""
        if self.api == "anthropic":
            if ((self.body.get("output_config") or {}).get("format") or {}).get("type") == "json_schema":
                return "json_schema"
            return "tool" if self.body.get("tool_choice", {}).get("type") == "tool" else None
        return (self.body.get("response_format") or {}).get("type")

    @property
    def schema(self) -> dict | None:
        """The JSON schema the request asked the answer to follow, if any."""
        if self.api == "anthropic":
            if self.mode == "json_schema":
                return self.body["output_config"]["format"]["schema"]
            tools = self.body.get("tools") or []
            return tools[0].get("input_schema") if tools else None
        response_format = self.body.get("response_format") or {}
        return (response_format.get("json_schema") or {}).get("schema")


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


def _as_response(value: Any) -> Response:
    return value if isinstance(value, Response) else answer(value)


class FakeLLMServer:
    """The fake itself: start with `with FakeLLMServer() as server:` (the `llm_server` fixture does this)."""

    def __init__(self, latency: float = 0.0, host: str = "127.0.0.1", port: int = 0):
        self.latency = latency
        self.reject_json_schema = False
        self.refused_parameters: dict[str, str | None] = {}
        # Prompt caching as the APIs report it: OpenAI caches a prefix of 1024 tokens or more by itself (its prompt
        # caching guide); Anthropic caches a system block marked with cache_control, reporting the first use as a
        # cache write. Off by default so scripted token counts stay exact; the prefix here is the system text.
        self.prompt_cache = False
        self.min_cacheable_tokens = 1024
        self._cached_prefixes: set[tuple[str, str]] = set()  # parameter -> the only model refusing it (None: all)
        self.requests: list[Request] = []
        self.answered = 0
        self.in_flight = 0
        self.max_in_flight = 0  # most requests being handled at once
        self._lock = threading.Lock()
        self._scripted: deque[Response] = deque()
        self._responder: Callable[[Request], Any] = lambda request: "ok"
        self._released = threading.Event()
        self.batches = FakeBatches(self)  # OpenAI files + batches, Anthropic message batches (llm_batches.py)
        self.models = FakeModels()  # GET /v1/models/{id} of both APIs, from a known-model list (llm_models.py)
        self._http = _HTTPServer((host, port), _handler_for(self))
        self._http.daemon_threads = True
        self._thread: threading.Thread | None = None

    # -- what a test sets up ---------------------------------------------------------------------

    def script(self, *responses: Response | Any) -> None:
        """Queue responses, used in order before the responder is asked."""
        with self._lock:
            self._scripted.extend(_as_response(r) for r in responses)

    def respond_with(self, responder: Callable[[Request], Any]) -> None:
        """Answer every unscripted request with `responder(request)` (a value or a Response)."""
        self._responder = responder

    def refuse_parameter(self, name: str, model: str | None = None) -> None:
        """Answer 400 to any request carrying `name` (a dotted path such as output_config.effort; tool_choice
        means a forced tool call), worded as the real API words it; only for `model` when given. Scripted
        responses are not used up by a refused request."""
        self.refused_parameters[name] = model

    def release(self) -> None:
        """Let every `hang()` request go (it then gets a 500)."""
        self._released.set()

    # -- what a test inspects --------------------------------------------------------------------

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def openai_base_url(self) -> str:
        return f"{self.url}/v1"

    @property
    def anthropic_base_url(self) -> str:
        return self.url  # the Anthropic SDK adds /v1/messages itself

    def count(self, api: str | None = None) -> int:
        """Requests received (answered or not), optionally for one API."""
        with self._lock:
            return sum(1 for r in self.requests if api is None or r.api == api)

    def reset(self) -> None:
        """Forget recorded requests and counts (scripted responses and the responder stay)."""
        with self._lock:
            self.requests.clear()
            self.answered = 0
            self.max_in_flight = 0

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> "FakeLLMServer":
        self._thread = threading.Thread(target=self._http.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-llm-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._released.set()
        self._http.shutdown()
        self._http.server_close()

    def __enter__(self) -> "FakeLLMServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- used by the handler ---------------------------------------------------------------------

    def _record(self, request: Request) -> Response:
        with self._lock:
            self.requests.append(request)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            refused = parameter_refusal(request.api, request.body, self.refused_parameters)
            scripted = self._scripted.popleft() if self._scripted and refused is None else None
        if refused is not None:
            message, body = refused
            return Response(kind="status", status=400, message=message, error_body=body)
        if scripted is not None:
            return scripted
        return _as_response(self._responder(request))

    def _with_prompt_cache(self, request: Request, response: Response) -> Response:
        """The response with the prompt-cache usage the real API would report for this request (when on)."""
        if not self.prompt_cache or response.tokens_in is not None or response.tokens_cached or response.tokens_cache_write:
            return response
        prefix = len(request.system_text) // 4
        total = max(1, len(json.dumps(request.messages)) // 4) + (prefix if request.api == "anthropic" else 0)
        marked = request.api == "openai" or any(isinstance(block, dict) and block.get("cache_control")
                                                for block in request.body.get("system") or [])
        if not marked or prefix < self.min_cacheable_tokens:
            return replace(response, tokens_in=total)
        key = (str(request.body.get("model")), request.system_text)
        with self._lock:
            seen = key in self._cached_prefixes
            self._cached_prefixes.add(key)
        if seen:
            return replace(response, tokens_in=total, tokens_cached=prefix)
        return replace(response, tokens_in=total, tokens_cache_write=prefix if request.api == "anthropic" else 0)

    def _done(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _count_answered(self, step: int = 1) -> None:
        with self._lock:
            self.answered += step


class _HTTPServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # a client that went away between requests (a command stopped by Ctrl-C): no server fault
        super().handle_error(request, client_address)


def _handler_for(server: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as real APIs do
        disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms wait for an ACK between

        def log_message(self, *args: object) -> None:  # quiet
            pass

        def do_GET(self) -> None:  # noqa: N802 (the models and batch endpoints are read with GET)
            if server.models.handles(self.path):
                self._send_batch_answer(*server.models.get(self.path, dict(self.headers)))
                return
            self._send_batch_answer(*server.batches.get(self.path))

        def _send_batch_answer(self, status: int, payload: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            received = time.monotonic()
            length = int(self.headers.get("content-length", 0))
            raw = self.rfile.read(length)
            if len(raw) < length:
                return  # the client went away before sending its body (a command stopped mid-request): no request
            if server.batches.handles(self.path):
                self._send_batch_answer(*server.batches.post(self.path, self.headers.get("content-type", ""), raw))
                return
            api = "anthropic" if self.path.rstrip("/").endswith("/messages") else "openai"
            if not self.path.rstrip("/").endswith(("/chat/completions", "/v1/messages")):
                self._send(404, {"error": {"message": f"unknown path {self.path}"}})
                return
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                self._send(400, {"error": {"message": "request body is not JSON"}})
                return
            headers = {k.lower(): v for k, v in self.headers.items() if k.lower() not in ("authorization", "x-api-key")}
            credential = self.headers.get("x-api-key") or self.headers.get("authorization", "").removeprefix("Bearer ")
            request = Request(api=api, path=self.path, body=body, headers=headers, received_at=received,
                              credential=credential)
            response = server._record(request)
            try:
                self._respond(request, response)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (its timeout), as a real client would
            finally:
                server._done()

        def _respond(self, request: Request, response: Response) -> None:
            if server.latency:
                time.sleep(server.latency)
            while response.kind == "slow":
                time.sleep(response.seconds)
                response = response.then or answer()
            if response.kind == "hang":
                server._released.wait()
                self._send(500, {"error": {"message": "released"}})
                return
            if response.kind == "truncated":
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", "4096")
                self.end_headers()
                self.wfile.write(b'{"id": "chatcmpl-1", "choices": [{"mess')
                self.wfile.flush()
                self.close_connection = True
                return
            if response.kind == "cut_off":
                content = response.content.model_dump(mode="json") if isinstance(response.content, BaseModel) \
                    else response.content
                if request.api == "openai" and not isinstance(content, str):  # raw UTF-8 in the content string too
                    response = answer(json.dumps(content, ensure_ascii=False))
                self._send_bytes(200, _cut(json.dumps(_answer_body(request, response), ensure_ascii=False)), {},
                                 answered=True)
                return
            if response.kind == "reset":
                # A linger of zero makes close() send RST instead of FIN: the client reads a reset, not an end.
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                self.close_connection = True
                return
            if response.kind == "bare":
                self._send_bytes(200, b'{"id": "chatcmpl-1", "object": "error"}', {}, answered=True)
                return
            if response.kind == "invalid_json":
                self._send_bytes(200, b'{"id": "chatcmpl-1", "choices": [oops', {}, answered=True)
                return
            if response.kind == "status":
                body = response.error_body or _error_body(request.api, response.status, response.message)
                self._send(response.status, body, response.headers)
                return
            if request.mode == "json_schema" and request.api == "openai" and server.reject_json_schema:
                # llama.cpp's words, more or less
                self._send(400, _error_body("openai", 400, "response_format type json_schema is not supported"))
                return
            self._send(200, _answer_body(request, server._with_prompt_cache(request, response)), answered=True)

        def _send(self, status: int, body: dict, headers: dict[str, str] | None = None, answered: bool = False) -> None:
            self._send_bytes(status, json.dumps(body).encode(), headers or {}, answered)

        def _send_bytes(self, status: int, payload: bytes, headers: dict[str, str], answered: bool = False) -> None:
            """Send one response; an `answered` one is counted before its body goes out, not after.

            Counted after, a client that has read the whole answer could look at `answered` before this thread
            counted it (seen in CI under load: a run's 40th answer read as 39)."""
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            if answered:
                server._count_answered()
            try:
                self.wfile.write(payload)
            except OSError:
                if answered:
                    server._count_answered(-1)  # the client went away: it got no answer
                raise

    return Handler


def _cut(body: str) -> bytes:
    """The body's UTF-8 bytes up to the first byte of its first multi-byte character (or its first half)."""
    encoded = body.encode("utf-8")
    for index, byte in enumerate(encoded):
        if byte >= 0xC0:  # the lead byte of a multi-byte character: keep it, drop the rest of the character
            return encoded[:index + 1]
    return encoded[:len(encoded) // 2]


def _error_body(api: str, status: int, message: str) -> dict:
    if api == "anthropic":
        kind = {429: "rate_limit_error", 400: "invalid_request_error", 529: "overloaded_error"}.get(status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": "server_error" if status >= 500 else "invalid_request_error",
                      "code": None, "param": None}}


def _answer_body(request: Request, response: Response) -> dict:
    content = response.content
    if isinstance(content, BaseModel):
        content = content.model_dump(mode="json")
    text = content if isinstance(content, str) else json.dumps(content)
    tokens_in = response.tokens_in if response.tokens_in is not None else max(1, len(json.dumps(request.messages)) // 4)
    tokens_out = response.tokens_out if response.tokens_out is not None else max(1, len(text) // 4)
    refused = response.kind == "refusal"
    model = request.body.get("model", "fake")
    if request.api == "anthropic":
        if refused:
            blocks = [{"type": "text", "text": response.message}]
        elif request.mode == "tool" and not isinstance(content, str):
            tool = request.body["tool_choice"]["name"]
            blocks = [{"type": "tool_use", "id": "toolu_fake", "name": tool, "input": content}]
        else:
            blocks = [{"type": "text", "text": text}]
        return {"id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": blocks,
                "stop_reason": "refusal" if refused else ("tool_use" if blocks[0]["type"] == "tool_use" else "end_turn"),
                "stop_sequence": None,
                "usage": {"input_tokens": tokens_in - response.tokens_cached - response.tokens_cache_write,
                          "output_tokens": tokens_out, "cache_read_input_tokens": response.tokens_cached,
                          "cache_creation_input_tokens": response.tokens_cache_write}}
    message = {"role": "assistant", "content": None if refused else text, "refusal": response.message if refused else None}
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}],
            "usage": {"prompt_tokens": tokens_in, "completion_tokens": tokens_out, "total_tokens": tokens_in + tokens_out,
                      "prompt_tokens_details": {"cached_tokens": response.tokens_cached}}}


def pointed_at(settings: Any, server: FakeLLMServer, **overrides: Any) -> Any:
    """`settings` with every provider's base_url on the fake, short timeouts and retry bounds, and limits high
    enough never to slow a test; `overrides` (e.g. requests_per_minute=600) apply to every provider."""
    providers = {}
    for name, provider in settings.providers.items():
        url = server.anthropic_base_url if provider.kind == "anthropic" else server.openai_base_url
        update = {"base_url": url, "timeout_seconds": 2.0, "max_retry_seconds": 3.0, "requests_per_minute": 600_000,
                  "tokens_per_minute": 100_000_000, "max_concurrent": 16, **overrides}
        providers[name] = provider.model_copy(update=update)
    return settings.model_copy(update={"providers": providers})


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve fake OpenAI/Anthropic answers until killed.")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
    parser.add_argument("--answer", default="ok", help="the answer text, e.g. a JSON object for structured calls")
    args = parser.parse_args()
    server = FakeLLMServer(latency=args.latency, port=args.port)
    server.respond_with(lambda request: args.answer)
    print(server.url, flush=True)
    server._http.serve_forever(poll_interval=0.05)


if __name__ == "__main__":
    main()
