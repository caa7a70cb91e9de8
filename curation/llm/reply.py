"""What one HTTP exchange with a provider produced, in provider-neutral terms."""

from __future__ import annotations

import errno
import socket
import sys
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError

from curation.llm.answer import Usage


@dataclass(frozen=True)
class Reply:
    """The model's text (for structured output: the JSON text) and the tokens it was billed for."""

    text: str
    usage: Usage
    refusal: str | None = None  # the model declined; the item fails, retrying would not help
    truncated: bool = False  # stopped at max_output_tokens


class Transient(Exception):
    """Worth retrying after a wait: 429, 5xx, timeouts, dropped connections, bodies that did not arrive whole."""

    def __init__(self, reason: str, retry_after: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


class BrokenBody(Transient):
    """A body that did not arrive whole or is not the API's envelope: cut off (even in the middle of a multi-byte
    character), not UTF-8, not JSON, or JSON without its fields. The model's answer never reached us, so this is a
    transport fault like a 5xx, retried with back-off within max_retry_seconds; it never uses up
    validation_retries, which are for answers that arrived and do not validate."""


class Unusable(Exception):
    """The server answered, but the answer cannot be used: an empty answer, a refusal, a structured answer that does
    not match its schema. One class for all of them, because the remedy is the same: ask again (a fresh answer is
    usually fine), validation_retries times, then fail that item alone.

    `correction` is what to tell the model before asking again (a schema mismatch), None to repeat the request."""

    def __init__(self, reason: str, answer: str = "", correction: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.answer = answer
        self.correction = correction


def unreadable_body(error: BaseException) -> BrokenBody:
    """A body the SDK could not read (cut off, bad encoding, not JSON) as a BrokenBody, in one line."""
    cause = "cut off or not UTF-8" if isinstance(error, UnicodeDecodeError) else "not valid JSON"
    detail = " ".join(str(error).split())[:160]
    return BrokenBody(f"the server sent an unreadable response body ({cause}: {type(error).__name__}: {detail})")


def broken_connection(error: BaseException) -> str:
    """Why an open connection failed, in a few words: the first cause under the SDK's own "Connection error." that
    says anything (a reset reaches us as an empty ReadError over "[Errno 104] Connection reset by peer")."""
    cause = error.__cause__ or error.__context__
    for _ in range(16):
        if cause is None:
            break
        if str(cause).strip():
            return one_line(str(cause), 160)
        cause = cause.__cause__ or cause.__context__
    return str(error) or type(error).__name__


class Unreachable(Exception):
    """No connection could be made (refused, unknown host, no route, connect timeout): no request was sent.

    Unlike a Transient failure this says little about load and much about configuration: the server is not
    running or the address is wrong, so the client tries a few times only and then stops using the provider.
    """

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Rejected(Exception):
    """The server refused the request itself (4xx other than 429); retrying the same request would not help."""

    def __init__(self, reason: str, status: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.status = status


class SchemaUnsupported(Rejected):
    """A 400 for a json_schema request: the server may not speak structured output (llama.cpp does not)."""


# A server that is up accepts a connection at once; waiting the full answer timeout for one only delays the
# news that it is not there.
CONNECT_TIMEOUT_SECONDS = 10.0


def passing_fault(status: int) -> bool:
    """Whether an HTTP error status says the server had a passing fault (429, 5xx, 408, 409): worth asking again."""
    return status == 429 or status >= 500 or status in (408, 409)


def classify(status: int, message: str, headers: object, schema_requested: bool) -> Exception:
    """An HTTP error status (from either SDK) as Transient (wait and retry), SchemaUnsupported or Rejected."""
    if passing_fault(status):
        return Transient(f"HTTP {status} ({message})", retry_after_seconds(headers))
    if status == 400 and schema_requested:
        return SchemaUnsupported(f"HTTP 400 for a json_schema request ({message})", status)
    return Rejected(f"HTTP {status} ({message})", status)


def retry_after_seconds(headers: object) -> float | None:
    """The wait a 429/503 asks for: retry-after-ms, else retry-after in seconds (an HTTP date is ignored)."""
    if headers is None:
        return None
    get = getattr(headers, "get", None)
    if get is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) * scale)
        except ValueError:
            continue
    return None


def unreachable_reason(error: BaseException, connect_timeout: float) -> str | None:
    """Why no connection could be made, in a few words, if `error` (an SDK connection error or timeout) is a
    failure to connect at all; None when the connection was made and broke later (worth the longer retries)."""
    chain = []
    while error is not None and len(chain) < 16:
        chain.append(error)
        error = error.__cause__ or error.__context__
    # The most specific cause first: the OS error at the bottom of the chain says what actually happened.
    for cause in chain:
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused"
        if isinstance(cause, socket.gaierror):
            return f"unknown host: {cause.strerror or cause}"
        if isinstance(cause, OSError) and cause.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
            return "no route to the host"
    connect_timeouts, connect_errors = _connect_failures()
    for cause in chain:
        if isinstance(cause, connect_timeouts):
            return f"no connection within {connect_timeout:g}s"
        if isinstance(cause, connect_errors):
            return f"could not connect: {cause}"
    return None


def _connect_failures() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """The connect errors of the HTTP libraries the SDKs use (httpx2, or legacy httpx when loaded); looked up
    rather than imported, since they are the SDKs' dependencies, not ours."""
    modules = [sys.modules[name] for name in ("httpx2", "httpx") if name in sys.modules]
    return tuple(m.ConnectTimeout for m in modules), tuple(m.ConnectError for m in modules)


# -- reading an answer: what the client tells a model, and a user, about a reply -------------------------


def without_code_fence(text: str) -> str:
    """Servers that ignore the requested format often wrap JSON in a ```json fence; the JSON inside is the answer."""
    stripped = text.strip()
    if stripped.startswith("```") and stripped.endswith("```"):
        return stripped.split("\n", 1)[1].rsplit("```", 1)[0] if "\n" in stripped else stripped.strip("`")
    return text


def usable(reply: Reply, schema: type[BaseModel] | None) -> BaseModel | None:
    """The parsed answer (None for plain text), or Unusable: a refusal, an empty answer, or one not matching the
    schema (then the model is told what was wrong)."""
    if reply.refusal is not None:
        raise Unusable(f"the model refused: {one_line(reply.refusal)}")
    if not reply.text.strip():
        raise Unusable("the answer was cut off at max_output_tokens" if reply.truncated else "the answer was empty")
    if schema is None:
        return None
    try:
        return schema.model_validate_json(without_code_fence(reply.text))
    except ValidationError as error:
        problem = describe_invalid(error, reply)
        raise Unusable(f"the answer did not match {schema.__name__}: {problem}", answer=reply.text,
                       correction=correction(schema, problem)) from None


def describe_invalid(error: ValidationError, reply: Reply) -> str:
    """The validation problem in a line; a cut-off answer says so, since that is the likelier cause."""
    if reply.truncated:
        return "the answer was cut off at max_output_tokens"
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "the answer"
    return f"{where}: {first['msg']}" + (f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else "")


def correction(schema: type[BaseModel], problem: str) -> str:
    """What the model is told when its answer did not validate."""
    return (f"That answer could not be read as {schema.__name__}: {problem}. Reply again with only the JSON object, "
            "complete and matching the schema.")


def one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"
