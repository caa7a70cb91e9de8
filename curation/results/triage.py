"""The optional `triage` role: a model names the class of a failed run the rules left as `other`.

Off unless `[models] triage` names a model. Runs that said the same thing are asked about once; each answer is
cached and costed in the call log like every role's, so a rerun over the same runs pays nothing. An answer that
cannot be had (a call that keeps failing) leaves its runs as `other`.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from pydantic import BaseModel, Field

from curation.config import Settings
from curation.llm import LLM, BudgetExceeded, LLMCallFailed
from curation.prompts import load_prompt
from curation.records import RunResult
from curation.results.taxonomy import TAXONOMY

ROLE = "triage"
FAILURES = {name: meaning for name, meaning in TAXONOMY.items() if name != "success"}


class TriageAnswer(BaseModel):
    """The model's class for one failed run."""

    error_class: Literal["syntax_error", "missing_package", "runtime_error", "out_of_memory", "timeout",
                         "bad_submission", "hallucination", "leakage", "other"]
    reason: str = Field(description="one sentence in English naming the evidence")


async def triage(runs: list[RunResult], llm: LLM, settings: Settings) -> tuple[int, list[str]]:
    """Ask the triage model about each run classed `other` (in place); (runs it placed, one line per failed call)."""
    prompt = load_prompt(settings, ROLE)
    groups: dict[tuple[str, str, bool], list[RunResult]] = {}
    for run in runs:
        if run.error_class == "other" and run.classified_by == "rules":
            groups.setdefault((run.evidence, run.reason, run.has_code), []).append(run)
    failed: list[str] = []

    async def ask(members: list[RunResult]) -> int:
        first = members[0]
        language = f"{settings.language(first.language).english} ({first.language})"
        messages = prompt.render(classes=FAILURES, competition=first.competition, language=language,
                                 agent=first.agent, has_code="yes" if first.has_code else "no",
                                 evidence=first.evidence or "(nothing)", rules=first.reason)
        try:
            answer = await llm.ask(role=ROLE, messages=messages, schema=TriageAnswer, item=first.run,
                                   prompt_hash=prompt.hash)
        except LLMCallFailed as error:
            failed.append(f"{first.run}: the triage call failed ({error.reason}); left as other")
            return 0
        except BudgetExceeded as error:
            failed.append(f"{first.run}: not sent to triage ({error}); left as other")
            return 0
        placed = answer.parsed
        if placed.error_class == "other":
            return 0
        for run in members:
            run.error_class = placed.error_class
            run.reason = f"triage: {' '.join(placed.reason.split())}"
            run.classified_by = "triage"
        return len(members)

    placed = await asyncio.gather(*(ask(members) for members in groups.values()))
    return sum(placed), failed
