"""The attempts at one translation: ask the `translate` model, turn away an answer that is no translation, restore
the protected spans, run the automatic checks (and the optional `qe` reading), and ask again with the failures named,
up to `translate.max_attempts`. TranslateStage (curation/stages/translate.py) decides what to translate and stores
the outcome.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from curation.checks.masking import mask_identifiers, placeholder, restore_identifiers
from curation.checks.not_content import not_content
from curation.checks.off_loop import check_translation_off_loop, warm_up
from curation.checks.quality_estimate import QualityEstimate, as_check, judged, suspicions, worth_a_reading
from curation.config import Settings
from curation.excerpt import plural
from curation.llm import LLM
from curation.prompts import Prompt
from curation.records import CheckResult
from curation.stages.runner import ItemFailed

ROLE = "translate"
# The translate prompt's variables that carry other people's text into it (see Prompt.own_words).
QUOTED = ("text", "failures", "previous", "feedback", "terms")
QE_ROLE = "qe"

KINDS = {
    "description": "task description",
    "data_card": "data card (a description of the dataset's files and columns)",
    "domain": "domain tag (the application field a task comes from)",
    "outline": "solution outline (the steps the strongest public solutions take, as a Markdown list)",
}


class Text(Protocol):
    """What the attempts read of a translate item (TranslateItem)."""

    field: str
    language: str
    source_text: str
    names: tuple[str, ...]
    feedback: str | None

    @property
    def key(self) -> str: ...


@dataclass(frozen=True)
class Outcome:
    """What the model's attempts produced for one request, shared by every item that made the same request."""

    text: str
    checks: list[CheckResult]
    attempts: int


def _clean_answer(text: str) -> str:
    # Models sometimes echo the delimiters of the prompt or fence the whole answer; neither is part of it.
    text = text.strip()
    if text.startswith("<<<") and text.endswith(">>>"):
        text = text[3:-3].strip()
    fenced = re.fullmatch(r"```[\w-]*\n(.*)\n```", text, re.DOTALL)
    return fenced.group(1).strip() if fenced else text


def _in_placeholders(detail: str, spans: tuple[str, ...]) -> str:
    """A check's detail as the model knows the spans: "'`Age`' appears 0 times" -> "⟦7⟧ ('`Age`') appears 0 times"."""
    numbers: dict[str, list[str]] = {}
    for number, span in enumerate(spans, start=1):
        numbers.setdefault(span, []).append(placeholder(number))
    for span, marks in sorted(numbers.items(), key=lambda kv: -len(kv[0])):
        detail = detail.replace(repr(span), f"{'/'.join(marks)} ({span!r})")
    return detail


@dataclass(frozen=True)
class Attempts:
    """One target language's attempts: its settings, prompts and the translate prompt's variables for an attempt
    (TranslateStage._request_variables)."""

    settings: Settings
    prompt: Prompt
    qe_prompt: Prompt | None
    variables: Callable[..., dict]

    async def run(self, item: Text, llm: LLM) -> Outcome:
        """Ask until the checks pass or the attempts run out; the last answer is kept with its failed checks."""
        # The checks' models of this language load (once) while its first request is answered; a run with nothing
        # to translate into a language loads none of them.
        warm_up((item.language,), self.settings)
        masked = mask_identifiers(item.source_text, item.names)
        failures: list[str] = []
        previous = ""
        attempts = self.settings.translate.max_attempts
        for attempt in range(1, attempts + 1):
            variables = self.variables(item.field, masked.text, item.feedback or "", failures, previous, attempt)
            messages = self.prompt.render(**variables)
            answer = await llm.ask(role=ROLE, messages=messages, item=item.key, prompt_hash=self.prompt.hash)
            answered = _clean_answer(answer.text)
            # Only our own words count as an echo: a retry rightly keeps text of the previous attempt, of the checks'
            # quotes (taken from it) and of the reviewer's request.
            ours = self.prompt.own_words(QUOTED, **variables)
            junk = not_content(answered, source=masked.text, instructions=ours)
            if junk:
                # Not a translation at all (a refusal, our retry text echoed, a placeholder): asked again like a
                # malformed answer, and never stored, not even flagged for a person.
                if attempt == attempts:
                    raise ItemFailed(f"no translation after {plural(attempts, 'attempt')}: the last answer was not one ({junk})")
                failures, previous = [f"not a translation: {junk}"], answered
                continue
            text = restore_identifiers(answered, masked.spans)
            with llm.batcher.busy():  # in batch mode, the round's batch waits for these checks
                checks = await check_translation_off_loop(item.source_text, text, item.language, self.settings,
                                                          item.names)
            failed = [check for check in checks if not check.passed]
            if self.qe_prompt is not None and worth_a_reading(failed):
                # A text the automatic checks passed, or one only the word-list checks doubt: the second model reads
                # it, told what they suspect, and overrules what it does not confirm.
                checks = judged(checks, await self._estimate(self.qe_prompt, item, text, llm, failed))
                failed = [check for check in checks if not check.passed]
            if not failed or attempt == attempts:
                return Outcome(text=text, checks=checks, attempts=attempt)
            failures = [f"{check.name}: {_in_placeholders(check.detail, masked.spans)}" for check in failed]
            previous = answered
        raise AssertionError("unreachable: the last attempt returns")

    async def _estimate(self, qe_prompt: Prompt, item: Text, text: str, llm: LLM,
                        failed: list[CheckResult]) -> CheckResult:
        """The `qe` model's MQM-style findings on one translation, as the check result "qe"."""
        language = self.settings.language(item.language)
        messages = qe_prompt.render(english=language.english, native=language.native, kind=KINDS[item.field],
                                    source=item.source_text, translation=text, suspected=suspicions(failed))
        answer = await llm.ask(role=QE_ROLE, messages=messages, schema=QualityEstimate, item=item.key,
                               prompt_hash=qe_prompt.hash)
        return as_check(answer.parsed)
