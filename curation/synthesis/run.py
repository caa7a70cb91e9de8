"""`curate synthesize`: profile each dataset folder, then brainstorm, design and verify through the stage runner.

Profiling is cached in the store by the files' sizes and modification times, so a rerun neither re-reads a
multi-GB file nor forgets the problems found in it; the LLM steps are cached by the client like every stage's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from curation.config import Settings
from curation.llm import LLM
from curation.project_paths import stored_path
from curation.records import Problem
from curation.stages.runner import ProgressCallback, RunSummary, run_stage
from curation.store import Store
from curation.synthesis.brainstorm import STEP as BRAINSTORM, BrainstormStage, TaskIdeas
from curation.synthesis.design import DesignStage
from curation.synthesis.profile import STAGE, dataset_slug, files_stamp, inputs_hash, profile_dataset
from curation.synthesis.records import DatasetProfile, VerifiedTask
from curation.synthesis.verify import DRAFTS, STEP as VERIFY, VerifyStage

PROFILE = "profile"


class ProfiledDataset(DatasetProfile):
    """A profile as stored, with the problem lines its files gave."""

    problems: list[Problem] = []


@dataclass
class SynthesisReport:
    """What a run did: problems with the input, each step's summary, and the verdicts of this run's datasets."""

    problems: list[Problem] = field(default_factory=list)
    summaries: list[RunSummary] = field(default_factory=list)
    ideas: dict[str, TaskIdeas] = field(default_factory=dict)
    verdicts: list[VerifiedTask] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return all(summary.complete for summary in self.summaries)

    def lines(self) -> list[str]:
        """One line per dataset's proposals and per task's verdict, as a curator reads them."""
        lines = []
        for dataset, ideas in self.ideas.items():
            lines.append(f"{dataset}: {len(ideas.ideas)} task{'s' if len(ideas.ideas) != 1 else ''} proposed"
                         + (f" ({len(ideas.dropped)} proposals dropped: {'; '.join(ideas.dropped)})" if ideas.dropped else ""))
        for verdict in self.verdicts:
            if verdict.accepted:
                lines.append(f"  accepted {verdict.slug} -> {verdict.folder}")
            else:
                lines.append(f"  rejected {verdict.slug} -> {verdict.folder}: {'; '.join(verdict.reasons())}")
        return lines


def profiled(store: Store, folder: Path, settings: Settings) -> ProfiledDataset:
    """The folder's profile: from the store when its files are unchanged, otherwise read now and stored.

    The folder and the problem files are kept relative to the project root, and files with new modification times
    but the same bytes (a copied, moved or cloned project) keep their profile, so nothing after it is redone."""
    max_rows = settings.synthesize.max_rows
    slug, stamp, where = dataset_slug(folder), files_stamp(folder, max_rows), stored_path(folder, settings.root)
    stored = store.synthesis(PROFILE, slug, ProfiledDataset)
    if stored is not None and stored[0].path == where:
        if stored[1] == stamp:
            return stored[0]
        if stored[0].input_hash == inputs_hash(folder, max_rows):
            store.save_synthesis(PROFILE, slug, slug, stored[0], stamp)
            return stored[0]
    result = profile_dataset(folder, max_rows)
    problems = [problem.model_copy(update={"path": stored_path(problem.path, settings.root)}) for problem in result.problems]
    profile = ProfiledDataset(**result.profile.model_dump(exclude={"path"}), path=where, problems=problems)
    store.save_synthesis(PROFILE, slug, slug, profile, stamp)
    return profile


async def synthesize(folders: list[Path], out: Path, settings: Settings, store: Store, llm: LLM, tasks: int,
                     force: bool = False, progress: ProgressCallback | None = None) -> SynthesisReport:
    """Run every step for the dataset folders; accepted tasks land in `out`, rejected ones in `out/rejected`."""
    report = SynthesisReport()
    profiles: list[DatasetProfile] = []
    for folder in folders:
        profile = profiled(store, folder, settings)
        report.problems += profile.problems
        if profile.tables:
            profiles.append(DatasetProfile(**profile.model_dump(exclude={"problems"})))
    store.replace_problems(STAGE, report.problems)
    stages = [BrainstormStage(settings, profiles, tasks, force=force), DesignStage(settings, profiles, force=force),
              VerifyStage(settings, profiles, out, force=force)]
    for stage in stages:
        step = f"{STAGE} {type(stage).__name__.removesuffix('Stage').lower()}"
        # Each step is a run of the stage `synthesize` (its name in the status table); progress tells them apart.
        told = None if progress is None else partial(_told_as, progress, step)
        summary = await run_stage(stage, store, settings, llm, progress=told)
        summary.stage = step
        report.summaries.append(summary)
        if summary.stopped:
            break  # the budget is spent: later steps would only stop too
    drafts = out / DRAFTS
    if drafts.is_dir() and not any(drafts.iterdir()):
        drafts.rmdir()
    for profile in profiles:
        stored = store.synthesis(BRAINSTORM, profile.dataset, TaskIdeas)
        if stored is not None:
            report.ideas[profile.dataset] = stored[0]
        report.verdicts += store.synthesis_records(VERIFY, VerifiedTask, dataset=profile.dataset)
    return report


def _told_as(progress: ProgressCallback, step: str, _stage: str, finished: int, total: int, failed: int = 0) -> None:
    progress(step, finished, total, failed)
