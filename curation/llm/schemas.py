"""JSON schemas of answer models, computed once per model class (pydantic rebuilds them on every call otherwise)."""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel


@cache
def json_schema(model: type[BaseModel]) -> dict:
    """The model's JSON schema; part of the cache key, the JSON-mode instruction and the Anthropic tool."""
    return model.model_json_schema()


@cache
def strict_json_schema(model: type[BaseModel]) -> dict:
    """The schema in OpenAI's strict structured-output form (all fields required, no extra properties)."""
    # Imported here: a run whose roles are all on Anthropic never loads the openai SDK.
    from openai.lib._pydantic import to_strict_json_schema  # the schema the SDK's own .parse() sends

    return to_strict_json_schema(model)
