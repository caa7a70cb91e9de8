"""The optional quality-estimation pass: a second model (`[models] qe`) reads the English and the translation
and answers with MQM-style findings (addition, omission, mistranslation, terminology; a severity; the span).

Off unless `[models] qe` is set. It runs on a translation that passed the automatic checks (a text that failed
them goes back to the translator anyway, so judging it would be paid for nothing). Major and critical findings
fail it: the findings go into the retranslate prompt like any failed check, and a translation that still has
them after `translate.max_attempts` is stored flagged, with the findings in the review sheet's "Check failed"
column. Minor findings are kept in the detail of a passed result.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from curation.records import CheckResult

ROLE = NAME = "qe"
FLAGGING = ("major", "critical")


class Finding(BaseModel):
    """One error the reviewing model can point to."""

    category: Literal["addition", "omission", "mistranslation", "terminology"]
    severity: Literal["minor", "major", "critical"]
    span: str = Field(description="the exact words of the translation (of the English for an omission)")
    explanation: str = Field(description="one sentence in English")


class QualityEstimate(BaseModel):
    """The reviewing model's answer: every finding, or none for a faithful translation."""

    findings: list[Finding]


def _one(finding: Finding) -> str:
    span = " ".join(finding.span.split())
    span = span if len(span) <= 80 else span[:79] + "…"
    return f"{finding.category} ({finding.severity}): {span!r} — {finding.explanation.strip()}"


def as_check(estimate: QualityEstimate) -> CheckResult:
    """The findings as a check result: failed on a major or critical finding, the findings in the detail."""
    serious = [f for f in estimate.findings if f.severity in FLAGGING]
    if serious:
        return CheckResult(name=NAME, passed=False, detail="; ".join(_one(f) for f in serious))
    minor = [_one(f) for f in estimate.findings]
    return CheckResult(name=NAME, passed=True,
                       detail=("minor only: " + "; ".join(minor)) if minor else "no findings")

