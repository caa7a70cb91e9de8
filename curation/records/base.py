"""The base of every record: a pydantic model that refuses fields it does not declare."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """A record refuses fields it does not declare: a misspelt field is an error, not a silently dropped value."""

    model_config = ConfigDict(extra="forbid")
