"""What one HTTP exchange with a provider produced, in provider-neutral terms."""

from __future__ import annotations

from dataclasses import dataclass

from curation.llm.answer import Usage


@dataclass(frozen=True)
class Reply:
    """The model's text (for structured output: the JSON text) and the tokens it was billed for."""

    text: str
    usage: Usage
    refusal: str | None = None  # the model declined; the item fails, retrying would not help
    truncated: bool = False  # stopped at max_output_tokens


class Transient(Exception):
    """Worth retrying after a wait: 429, 5xx, timeouts, dropped connections, malformed bodies."""

    def __init__(self, reason: str, retry_after: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


class Rejected(Exception):
    """The server refused the request itself (4xx other than 429); retrying the same request would not help."""

    def __init__(self, reason: str, status: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.status = status


class SchemaUnsupported(Rejected):
    """A 400 for a json_schema request: the server may not speak structured output (llama.cpp does not)."""


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
