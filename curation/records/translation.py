"""Records of the translate stage: a machine translation and the automatic checks it went through."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from curation.records.base import Record
from curation.records.competition import TranslatedField

# The start of the detail of a check whose finding the qe model overruled.
OVERRULED = "overruled by the qe model: "


class CheckResult(Record):
    """One automatic translation check: its name (curation.checks.translation.CHECKS), pass or not, and why."""

    name: str
    passed: bool
    detail: str = ""

    def line(self) -> str:
        """The check as the curator reads it (store, status, publish, `curate check`): "name: detail", or the name
        alone when there is no detail."""
        return f"{self.name}: {self.detail}" if self.detail else self.name

    @property
    def overruled(self) -> bool:
        """A word-list check's finding the qe model did not confirm (curation/checks/quality_estimate.py)."""
        return self.passed and self.detail.startswith(OVERRULED)


class Translation(Record):
    """The current machine translation of one field of one competition into one language."""

    competition: str
    field: TranslatedField
    language: str
    source_text: str  # the English original
    source_hash: str
    text: str
    model: str = ""
    prompt_hash: str = ""
    attempts: int = 1
    checks: list[CheckResult] = Field(default_factory=list)
    flagged: bool = False  # a check still failed after max_attempts: the annotator's attention is needed
    provenance: Literal["machine", "retranslated"] = "machine"
    feedback: str | None = None  # an annotator's comment that asked for this retranslation
    round: int = 1  # review round this translation is for
    input_hash: str = ""

    @property
    def failed_checks(self) -> list[CheckResult]:
        return [check for check in self.checks if not check.passed]


class TranslationTally(Record):
    """How one language's stored translations fare in the automatic checks, as `curate status` counts them."""

    language: str
    translated: int = 0
    flagged: int = 0
    checks: dict[str, list[int]] = Field(default_factory=dict)  # check name -> [passed, translations it checked]
