"""The optional quality-estimation pass: a second model (`[models] qe`) reads the English and the translation
and answers with MQM-style findings: a category — the meaning classes the lexical checks look for (negation,
direction, comparison, role, condition, unit, term) or addition, omission, mistranslation —, a severity, the words of
the translation and the English words they render.

Off unless `[models] qe` is set. It runs on a translation that passed the automatic checks (a text that failed
them goes back to the translator anyway, so judging it would be paid for nothing), and on one that only the word-list
checks (meaning, terms, roles) flagged: they match words, not meaning, and flag correct rewordings ("not after" as
"only before", "are not errors" as "are correct"), so the reviewing model is told what they suspect and has the last
word. What it does not confirm is overruled: the check passes, its detail kept. Major and critical findings
fail it: the findings go into the retranslate prompt like any failed check, and a translation that still has
them after `translate.max_attempts` is stored flagged, with the findings in the review sheet's "Check failed"
column. Minor findings are kept in the detail of a passed result. Each finding is written in plain words, which the
retry prompt and the sheet show as they are: "direction (major): the translation says 'ниже' where the English says
'higher' — lower RMSE is not what the metric rewards".
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from curation.records.translation import OVERRULED, CheckResult

ROLE = NAME = "qe"
FLAGGING = ("major", "critical")
# The checks a qe model may overrule: their findings are suspicions read off word lists.
SECOND_OPINION = ("meaning", "terms", "roles")


CATEGORIES = ("negation", "direction", "comparison", "role", "condition", "unit", "term", "addition", "omission",
              "mistranslation")
# What each category means, in the words the sheet and the retry prompt use.
KINDS = {"negation": "a negation added or lost", "direction": "a direction reversed", "comparison": "a comparison or "
         "limit reversed", "role": "two identifiers in each other's role", "condition": "a condition or scope left out",
         "unit": "a unit or scale changed", "term": "a wrong term", "addition": "something added",
         "omission": "something left out", "mistranslation": "a meaning changed"}


class Finding(BaseModel):
    """One error the reviewing model can point to."""

    category: Literal[CATEGORIES]  # type: ignore[valid-type]
    severity: Literal["minor", "major", "critical"]
    span: str = Field(description="the exact words of the translation (empty for an omission)")
    source_span: str = Field(default="", description="the English words the span renders, or that are left out")
    explanation: str = Field(description="one sentence in English")


class QualityEstimate(BaseModel):
    """The reviewing model's answer: every finding, or none for a faithful translation."""

    findings: list[Finding]


def _short(text: str) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= 80 else text[:79] + "…")


def _one(finding: Finding) -> str:
    """A finding in plain words: what the translation says and what the English says there."""
    said, english = finding.span.strip(), finding.source_span.strip()
    if finding.category == "omission" or not said:
        words = f"the translation leaves out {_short(english or said)}"
    elif finding.category == "addition" or not english:
        words = f"the translation says {_short(said)}, which the English does not"
    else:
        words = f"the translation says {_short(said)} where the English says {_short(english)}"
    return f"{finding.category} ({finding.severity}): {words} — {finding.explanation.strip()}"


def as_check(estimate: QualityEstimate) -> CheckResult:
    """The findings as a check result: failed on a major or critical finding, the findings in the detail."""
    serious = [f for f in estimate.findings if f.severity in FLAGGING]
    if serious:
        return CheckResult(name=NAME, passed=False, detail="; ".join(_one(f) for f in serious))
    minor = [_one(f) for f in estimate.findings]
    return CheckResult(name=NAME, passed=True,
                       detail=("minor only: " + "; ".join(minor)) if minor else "no findings")


def worth_a_reading(failed: list[CheckResult]) -> bool:
    """Whether a translation with these failed checks goes to the qe model: none failed, or only word-list checks."""
    return all(check.name in SECOND_OPINION for check in failed)


def suspicions(failed: list[CheckResult]) -> list[str]:
    """What the word-list checks suspect, as the qe prompt lists it."""
    return [f"{check.name}: {check.detail}" for check in failed if check.name in SECOND_OPINION]


def judged(checks: list[CheckResult], estimate: CheckResult) -> list[CheckResult]:
    """The checks with the qe result added. When the reviewing model, told what the word-list checks suspect, finds
    nothing serious, their findings are overruled: passed, with the detail they had."""
    if estimate.passed:
        checks = [CheckResult(name=check.name, passed=True, detail=f"{OVERRULED}{check.detail}")
                  if not check.passed and check.name in SECOND_OPINION else check for check in checks]
    return [*checks, estimate]
