"""Refactor and verify (role `task_review` for the one LLM check): each design becomes a draft folder, goes
through the deterministic checks, the baseline run and the soundness review, and then lands in the
competitions folder (accepted) or in `<out>/rejected/<slug>/` with REJECTED.md saying why.

Checks stop at the first failing layer: a draft that fails a deterministic check is not run or reviewed, since
neither could make it acceptable. A finished verdict is stored with the hash of everything it depended on, so a
rerun after a kill repeats no finished verification.
"""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from curation.config import Settings
from curation.fingerprint import fingerprint
from curation.llm import LLM
from curation.project_paths import resolved_path, stored_path
from curation.prompts import Prompt, load_prompt
from curation.stages.runner import ItemFailed
from curation.store import Store
from curation.synthesis.checks import deterministic_checks
from curation.synthesis.design import STEP as DESIGN
from curation.synthesis.execution import run_baseline
from curation.synthesis.profile import load_table
from curation.synthesis.records import CheckOutcome, DatasetProfile, TaskDesign, VerifiedTask
from curation.synthesis.refactor import write_draft
from curation.synthesis.split import SplitError

STEP = "verify"
STAGE = "synthesize"
DRAFTS = ".drafts"
REJECTED = "rejected"
MARKER = Path("private") / "design.json"  # present in every folder this step writes, so it never removes others'


class SoundnessReview(BaseModel):
    sound: bool
    problems: list[str] = []


@dataclass(frozen=True)
class VerifyItem:
    competition: str  # the task's slug
    design: TaskDesign
    profile: DatasetProfile
    input_hash: str

    @property
    def key(self) -> str:
        return self.competition


@dataclass
class VerifyResult:
    item: VerifyItem
    verdict: VerifiedTask
    draft: Path


@dataclass
class VerifyStage:
    """Verify every design whose verdict is missing or stale; `out` is where accepted tasks are written."""

    settings: Settings
    profiles: list[DatasetProfile]
    out: Path
    force: bool = False
    name: str = STAGE
    prompt: Prompt = field(init=False)

    def __post_init__(self) -> None:
        self.prompt = load_prompt(self.settings, "task_review")

    def input_hash(self, design: TaskDesign, profile: DatasetProfile) -> str:
        limits = self.settings.synthesize
        # The output folder as the store keeps it, so a copied or moved project does not verify its tasks again.
        return fingerprint({"design": design, "data": profile.input_hash, "out": stored_path(self.out, self.settings.root),
                            "limits": [limits.max_rows, limits.baseline_seconds, limits.baseline_memory_mb],
                            "prompt": self.prompt.hash, "model": self.settings.models.task_review})

    def pending(self, store: Store, settings: Settings) -> list[VerifyItem]:
        """Designs of this run's datasets without a current verdict."""
        items = []
        for profile in self.profiles:
            for design in store.synthesis_records(DESIGN, TaskDesign, dataset=profile.dataset):
                digest = self.input_hash(design, profile)
                stored = store.synthesis(STEP, design.slug, VerifiedTask)
                if stored is not None and stored[1] == digest and not self.force:
                    continue
                items.append(VerifyItem(competition=design.slug, design=design, profile=profile, input_hash=digest))
        return items

    async def run_one(self, item: VerifyItem, llm: LLM) -> VerifyResult:
        """Write the draft, run the checks in order of cost, and return the verdict (the draft not yet moved)."""
        draft_folder = self.out / DRAFTS / item.key
        for place in (self.destination(item.key, True), self.destination(item.key, False)):
            if place.exists() and not (place / MARKER).exists():
                raise ItemFailed(f"{place} exists and was not written by curate synthesize; move it away and rerun")
        try:
            draft = await asyncio.to_thread(self._draft, item, draft_folder)
        except SplitError as error:
            raise ItemFailed(f"the design cannot be split: {error}") from None
        checks = await asyncio.to_thread(deterministic_checks, draft)
        score = trivial = None
        if all(check.passed for check in checks):
            limits = self.settings.synthesize
            outcome, score, trivial = await asyncio.to_thread(run_baseline, draft, limits.baseline_seconds,
                                                              limits.baseline_memory_mb)
            checks.append(outcome)
        if all(check.passed for check in checks):
            checks.append(await self._review(item, draft.train.columns, checks, llm))
        accepted = all(check.passed for check in checks)
        verdict = VerifiedTask(slug=item.key, dataset=item.design.dataset, accepted=accepted,
                               folder=stored_path(self.destination(item.key, accepted), self.settings.root),
                               checks=checks, baseline_score=score,
                               trivial_score=trivial, input_hash=item.input_hash)
        return VerifyResult(item=item, verdict=verdict, draft=draft_folder)

    def _draft(self, item: VerifyItem, folder: Path):
        table = item.profile.table(item.design.idea.table)
        dataset = resolved_path(item.profile.path, self.settings.root)
        frame, _ = load_table(dataset / table.file, self.settings.synthesize.max_rows)
        return write_draft(frame, item.design, item.profile, folder)

    async def _review(self, item: VerifyItem, columns, checks: list[CheckOutcome], llm: LLM) -> CheckOutcome:
        table = item.profile.table(item.design.idea.table)
        kinds = {column.name: column.kind for column in table.columns}
        shown = [{"name": name, "kind": kinds.get(name, "identifier")} for name in columns
                 if name != item.design.idea.target]
        messages = self.prompt.render(dataset=item.design.dataset, design=item.design, columns=shown, checks=checks)
        answer = await llm.ask(role="task_review", messages=messages, schema=SoundnessReview, item=item.key,
                               prompt_hash=self.prompt.hash)
        review: SoundnessReview = answer.parsed
        problems = "; ".join(p.strip() for p in review.problems if p.strip())
        return CheckOutcome(check="soundness review", passed=review.sound,
                            detail=problems or ("" if review.sound else "judged unsound, no reason given"))

    def destination(self, slug: str, accepted: bool) -> Path:
        return self.out / slug if accepted else self.out / REJECTED / slug

    def record(self, store: Store, result: VerifyResult) -> None:
        """Move the draft to its place, then store the verdict and the task's status."""
        verdict = result.verdict
        place = self.destination(verdict.slug, verdict.accepted)
        for earlier in (self.destination(verdict.slug, True), self.destination(verdict.slug, False)):
            if earlier.exists() and (earlier / MARKER).exists():
                shutil.rmtree(earlier)  # a previous verdict's folder; never a folder this step did not write
        place.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(result.draft), str(place))
        if not verdict.accepted:
            reasons = "\n".join(f"- {reason}" for reason in verdict.reasons())
            (place / "REJECTED.md").write_text(f"# {verdict.slug} was rejected\n\n{reasons}\n", encoding="utf-8")
        store.save_synthesis(STEP, verdict.slug, verdict.dataset, verdict, result.item.input_hash)
        if verdict.accepted:
            detail = f"verified: {verdict.checks[-2].detail}"
            store.set_status(verdict.slug, STAGE, "done", detail, result.item.input_hash)
        else:
            store.set_status(verdict.slug, STAGE, "failed", "rejected: " + "; ".join(verdict.reasons()),
                             result.item.input_hash)
