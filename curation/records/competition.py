"""Records of a competition as ingested: the competition, its notebooks, problems found, and stage states."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator

from curation.fingerprint import fingerprint
from curation.records.base import Record

# Texts that are translated and reviewed, per competition.
FIELDS = ("description", "data_card", "domain")
Field_ = Literal["description", "data_card", "domain"]
# What the translate stage translates: the fields above, and the solution outline ([outline] translate), which is
# kept apart from them (no review tab, no merge, a release config of its own).
TranslatedField = Literal["description", "data_card", "domain", "outline"]

DATA_TYPES = (
    "tabular", "image", "text", "time series", "audio", "video", "graph", "multimodal", "geospatial", "signal",
)
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*[a-z0-9]$")


class Competition(Record):
    """One Kaggle competition, the benchmark's unit of work."""

    competition: str  # the Kaggle slug, the key
    comp_name: str
    competition_link: str = ""
    comp_type: str
    data_type: str
    metric: str
    metric_type: str = ""
    private: bool = False
    data_card: str = ""
    description: str | None = None  # written by a person; takes precedence over inference
    grading: dict[str, Any] | None = None  # passed through verbatim to the grading harness
    source: str = ""  # where it was read from, for messages
    synthesized: bool = False  # made by `curate synthesize` from a raw dataset (competition.yaml `source: synthesized`)
    license: str = ""  # of the data, for synthesized tasks
    origin: str = ""  # where the data came from, for synthesized tasks

    @field_validator("competition")
    @classmethod
    def _slug(cls, value: str) -> str:
        if not SLUG.match(value):
            raise ValueError(f"{value!r} is not a Kaggle slug (lowercase letters, digits and hyphens)")
        return value

    @field_validator("data_type")
    @classmethod
    def _data_type(cls, value: str) -> str:
        normal = value.strip().lower().replace("_", " ").replace("timeseries", "time series")
        if normal not in DATA_TYPES:
            raise ValueError(f"unknown data type {value!r}; use one of: {', '.join(DATA_TYPES)}")
        return normal

    def model_post_init(self, _context: Any) -> None:
        if not self.competition_link:
            self.competition_link = f"https://www.kaggle.com/competitions/{self.competition}"

    @property
    def input_hash(self) -> str:
        # The provenance fields join the hash only when set, so a Kaggle competition's hash is what it always was.
        data = self.model_dump(exclude={"source"})
        for name in ("synthesized", "license", "origin"):
            if not data[name]:
                del data[name]
        return fingerprint(data)


class Notebook(Record):
    """A public notebook's code, reduced to the text an LLM reads."""

    competition: str
    name: str
    score: float | None = None
    rank: int | None = None
    votes: int | None = None
    medal: int | None = None  # 1 gold, 2 silver, 3 bronze
    text: str
    tokens: int = 0
    cut: str | None = None  # what was cut to fit the token budget, said in words


class Problem(Record):
    """Bad input found by a stage: which file or item, and what to do about it."""

    stage: str
    path: str
    message: str
    competition: str | None = None

    def line(self) -> str:
        return f"{self.path}: {self.message}"


class IngestedCompetition(Record):
    """What a source reader yields per competition: the record and its selected notebooks."""

    competition: Competition
    notebooks: list[Notebook] = Field(default_factory=list)
    problems: list[Problem] = Field(default_factory=list)

    @property
    def input_hash(self) -> str:
        return fingerprint([self.competition.input_hash, [nb.model_dump() for nb in self.notebooks]])


StageState = Literal["done", "pending", "failed", "needs_human"]


class StageStatus(Record):
    competition: str
    stage: str
    status: StageState
    detail: str = ""
    input_hash: str = ""
    updated_at: str = ""
