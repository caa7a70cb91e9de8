"""What a call sends besides its messages, and which of it a model refused.

A role's parameters come from curate.toml ([llm], or the role's table under [models]). Models differ in what
they take: reasoning models refuse a temperature other than their default, some refuse `max_tokens` in favour of
`max_completion_tokens`, newer Claude models refuse a forced tool call. A 400 that names such a parameter is
answered by leaving it out (or using the alternative) for that model for the rest of the run; the request hash
is made from the configured parameters, so the cache key does not change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Words the providers use when a request carries a parameter the model does not take, e.g. OpenAI's
# "Unsupported parameter: 'temperature' is not supported with this model." / "Unsupported value: 'temperature'
# does not support 0 with this model." and Anthropic's "`temperature` is deprecated for this model." /
# 'tool_choice: type "tool" and "any" are not supported for this model.'
REFUSAL_WORDS = re.compile(r"unsupported|not supported|does not support|deprecated|not permitted|not allowed",
                           re.IGNORECASE)


@dataclass(frozen=True)
class CallParameters:
    """Per-call parameters; None leaves a parameter out, so the model's default applies."""

    max_output_tokens: int
    temperature: float | None = None
    reasoning_effort: str | None = None

    def for_hash(self) -> dict:
        """The part of the request hash these parameters make; an unset reasoning effort is left out, so configs
        that never set one keep the hashes (and cached answers) they had before it existed."""
        params: dict = {"temperature": self.temperature, "max_output_tokens": self.max_output_tokens}
        if self.reasoning_effort is not None:
            params["reasoning_effort"] = self.reasoning_effort
        return params


def refused_parameter(message: str, param: str | None, candidates: tuple[str, ...]) -> str | None:
    """Which of `candidates` (the optional parameters a request carried, by their wire names) a 400 says the model
    does not take: the error's `param` field when the API has one (OpenAI), else the one its message names."""
    if param in candidates:
        return param
    if not REFUSAL_WORDS.search(message):
        return None
    for name in sorted(candidates, key=len, reverse=True):  # output_config.effort before effort
        if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", message):
            return name
    return None


def api_message(body: object, fallback: str) -> str:
    """The provider's own error message from an SDK error's body ({"message": ...} or {"error": {"message": ...}})."""
    inner = body.get("error", body) if isinstance(body, dict) else None
    message = inner.get("message") if isinstance(inner, dict) else None
    return message if isinstance(message, str) and message else fallback


class ParameterRefused(Exception):
    """A 400 naming a parameter the model does not take; `parameter` is its wire name (e.g. temperature)."""

    def __init__(self, parameter: str, reason: str):
        super().__init__(reason)
        self.parameter = parameter
        self.reason = reason
