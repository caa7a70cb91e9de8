"""How the fake LLM server refuses a parameter a model does not take: the real APIs' 400s, by their wording."""

from __future__ import annotations

from typing import Any


def _carried(body: dict, path: str) -> tuple[bool, Any]:
    """Whether the request body carries a (dotted) parameter, and its value."""
    value: Any = body
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return False, None
        value = value[part]
    if path == "tool_choice":  # only a forced call is refused; "auto" is fine
        return (isinstance(value, dict) and value.get("type") in ("tool", "any")), value
    return True, value


def parameter_refusal(api: str, body: dict, refused: dict[str, str | None]) -> tuple[str, dict] | None:
    """(message, error body) of the 400 a model that does not take a parameter answers, in the real APIs' words:
    OpenAI {"message": "Unsupported parameter: 'temperature' is not supported with this model.", "param":
    "temperature", "code": "unsupported_parameter"} (unsupported_value for a temperature other than the default);
    Anthropic "`temperature` is deprecated for this model." and 'tool_choice: type "tool" and "any" are not
    supported for this model.'"""
    for name, model in refused.items():
        carried, value = _carried(body, name)
        if not carried or (model is not None and body.get("model") != model):
            continue
        if api == "openai":
            if name == "temperature" and value != 1:
                message, code = (f"Unsupported value: 'temperature' does not support {value:g} with this model. "
                                 "Only the default (1) value is supported."), "unsupported_value"
            else:
                message, code = f"Unsupported parameter: '{name}' is not supported with this model.", "unsupported_parameter"
                if name == "max_tokens":
                    message += " Use 'max_completion_tokens' instead."
            error = {"error": {"message": message, "type": "invalid_request_error", "param": name, "code": code}}
        else:
            message = {"tool_choice": 'tool_choice: type "tool" and "any" are not supported for this model.',
                       "temperature": "`temperature` is deprecated for this model."}.get(
                name, f"{name}: this parameter is not supported for this model.")
            error = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
        return message, error
    return None
