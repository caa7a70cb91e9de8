"""What a run would send before it sends anything: per stage and language, the calls the cache cannot answer and
their estimated cost at [prices] (`--dry-run` on run, describe, tag, translate and outline).

Each stage's pending items go through the stage's own run_one against DryRunLLM, which answers from the cache and
notes every other request, so the counted requests are the ones a real run would build. Costs are estimates: the
rendered prompt's tokens in, a role's typical answer out (curation/llm/pricing.py, shared with the confirmation
before a big redo). Where a stage's inputs do not exist yet - tag and translate of descriptions that describe has
still to write, in `curate run --dry-run` - the calls are counted from what is known (one tag per competition, one
translation per field and language, one per vocabulary domain at most) with a typical description's length, and
marked as estimated. Each call's cost is multiplied by the answers per item this project has paid so far for its
role (retries; curation/llm/pricing.py's calls_per_item). Outline's judge request needs the candidates' answers, so
it is counted at a typical outline's length, estimated like the translations of outlines not written yet. What a dry
run writes is only what selecting pending work always writes (describe's "needs a person" notes for competitions with
nothing to describe from, outline's "waiting" for those without notebooks): no output, no call-log row, no cache
entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from curation.config import Settings
from curation.llm.answer import Usage
from curation.llm.dry_run import DryRunLLM, NotSent
from curation.llm.pricing import (BYTES_PER_TOKEN, TYPICAL_OUTPUT_TOKENS, calls_per_item, estimate_input_tokens,
                                  estimated_cost, translation_tokens_out)
from curation.store import Store

# Stand-in for a description not written yet: as long as a typical describe answer.
TYPICAL_DESCRIPTION = "word " * (TYPICAL_OUTPUT_TOKENS["describe"] * BYTES_PER_TOKEN // 5)
TYPICAL_DOMAIN = "environmental science"
# Stand-in for an outline not written yet: as long as a typical outline answer.
TYPICAL_OUTLINE = "word " * (TYPICAL_OUTPUT_TOKENS["outline"] * BYTES_PER_TOKEN // 5)


@dataclass
class PlanRow:
    """One stage and language: items pending, calls to send (`estimated` of them counted from texts not written
    yet), calls the cache answers, and the estimated cost."""

    stage: str
    language: str
    items: int = 0
    calls: int = 0
    cached: int = 0
    estimated: int = 0
    cost_usd: float = 0.0
    fail_again: int = 0  # items whose cached answers fail them again: a real run sends nothing for them


@dataclass
class DryRun:
    """A dry run's rows, the models without a price, and notes (what may cost more, what waits)."""

    rows: list[PlanRow] = field(default_factory=list)
    unpriced: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    measured: dict[str, tuple[int, int]] = field(default_factory=dict)  # Store.paid_calls_by_role()

    def count(self, settings: Settings, row: PlanRow, role: str, usage: Usage, estimated: bool = False) -> None:
        """One call to send, priced with the retries this project has measured for its role (a first answer
        that fails its checks is paid again)."""
        cost, unpriced = estimated_cost(settings, role, usage)
        row.calls += 1
        row.estimated += estimated
        row.cost_usd += cost * calls_per_item(self.measured, role)
        if unpriced:
            self.unpriced.add(unpriced)

    @property
    def calls(self) -> int:
        return sum(row.calls for row in self.rows)

    @property
    def cost_usd(self) -> float:
        return sum(row.cost_usd for row in self.rows)

    def as_dict(self) -> dict:
        return {"rows": [vars(row) for row in self.rows], "calls": self.calls, "cost_usd": self.cost_usd,
                "estimated": sum(row.estimated for row in self.rows), "unpriced": sorted(self.unpriced),
                "notes": self.notes, "fail_again": sum(row.fail_again for row in self.rows)}


async def _through(stage, items: list, llm: DryRunLLM) -> int:
    """Run each item against the dry-run client until its first request the cache cannot answer; returns how many
    items the cached answers fail (a real run fails them the same way, at no cost)."""
    failing = 0
    for item in items:
        try:
            await stage.run_one(item, llm)
        except NotSent:  # its request is noted
            pass
        except Exception:  # noqa: BLE001  what fails the item alone in a real run
            failing += 1
    return failing


async def _describe(store: Store, settings: Settings, stage, plan: DryRun) -> set[str]:
    """Describe's calls; returns the competitions whose description the run would (re)write."""
    from curation.llm.schemas import json_schema
    from curation.records import GradeReport

    row = PlanRow("describe", settings.project.source_language)
    items = stage.pending(store, settings)
    llm = DryRunLLM(settings, store, stage="describe")
    row.fail_again = await _through(stage, items, llm)
    by_key = {item.key: item for item in items}
    for call in llm.wanted.values():
        plan.count(settings, row, call.role, Usage(call.tokens_in, TYPICAL_OUTPUT_TOKENS[call.role]))
        if call.role in ("describe", "refine"):  # every written version is graded next
            record = by_key[call.item].record
            scored = stage.prompts["score"].render(comp_name=record.comp_name, data_type=record.data_type,
                                                   metric=record.metric, data_card=record.data_card,
                                                   description=TYPICAL_DESCRIPTION)
            plan.count(settings, row, "score", Usage(estimate_input_tokens(scored, json_schema(GradeReport)),
                                                     TYPICAL_OUTPUT_TOKENS["score"]))
    row.items, row.cached = len(items), llm.cache_hits
    plan.rows.append(row)
    if row.calls and stage.rounds_limit > 1:
        plan.notes.append(f"describe: a description graded below {'/'.join(settings.describe.good_grades)} costs up to "
                          f"{stage.rounds_limit - 1} more refine + score rounds (max_rounds {stage.rounds_limit})")
    return {item.competition for item in items}


async def _tag(store: Store, settings: Settings, stage, plan: DryRun, changing: set[str] | None) -> None:
    """Tag's calls; with `changing` (a run that describes first), those competitions are estimated."""
    row = PlanRow("tag", settings.project.source_language)
    items = stage.pending(store, settings)
    ahead = {item.competition for item in items if changing and item.competition in changing}
    ahead |= {slug for slug in stage.waiting if changing and slug in changing}
    llm = DryRunLLM(settings, store, stage="tag")
    row.fail_again = await _through(stage, [item for item in items if item.competition not in ahead], llm)
    for call in llm.wanted.values():
        plan.count(settings, row, call.role, Usage(call.tokens_in, TYPICAL_OUTPUT_TOKENS["tag"]))
    for slug in sorted(ahead):
        record = store.competition(slug)
        messages = stage.prompt.render(comp_name=record.comp_name, description=TYPICAL_DESCRIPTION,
                                       data_card=record.data_card, vocabulary=settings.tag.vocabulary,
                                       allow_new=settings.tag.allow_new_tags, error="")
        plan.count(settings, row, "tag", Usage(estimate_input_tokens(messages, None), TYPICAL_OUTPUT_TOKENS["tag"]), True)
    row.items, row.cached = len(items) + len(ahead - {item.competition for item in items}), llm.cache_hits
    plan.rows.append(row)
    if changing is None and stage.waiting:
        plan.notes.append(f"tag: {len(stage.waiting)} competitions wait for a description (`curate describe` first)")


async def _translate(store: Store, settings: Settings, stages: list, plan: DryRun, changing: set[str] | None) -> None:
    """Translate's calls per language; with `changing`, the description and domain of those competitions are
    estimated (their English is not written yet, or will be rewritten first)."""
    from curation.checks.masking import mask_identifiers, protected_names
    from curation.stages.translate_sources import source_texts

    waiting = 0  # texts per language whose English is not written yet
    for stage in stages:
        row = PlanRow("translate", stage.language)
        items = stage.pending(store, settings)
        later = [item for item in items
                 if changing and item.field in ("description", "domain") and item.competition in changing]
        ahead = [(item.competition, item.field) for item in later]
        for slug in sorted(changing or ()):
            texts = source_texts(store, store.competition(slug))
            ahead += [(slug, name) for name in ("description", "domain") if texts[name] is None]
        waiting = max(waiting, len(stage.waiting))
        llm = DryRunLLM(settings, store, stage=stage.name)
        sources = {item.key: item.source_text for item in items}
        row.fail_again = await _through(stage, [item for item in items if item not in later], llm)
        for call in llm.wanted.values():
            if call.role == "qe":
                plan.count(settings, row, "qe", Usage(call.tokens_in, TYPICAL_OUTPUT_TOKENS["qe"]))
                continue
            usage = Usage(call.tokens_in, translation_tokens_out(sources.get(call.item, "")))
            plan.count(settings, row, "translate", usage)
            if settings.models.qe:  # a translation that passes the checks is read by the qe model next
                plan.count(settings, row, "qe", Usage(usage.tokens_in + usage.tokens_out, TYPICAL_OUTPUT_TOKENS["qe"]))
        # Domains are vocabulary phrases shared across competitions: one request per phrase, not per competition.
        domains = min(sum(1 for _, name in ahead if name == "domain"), len(settings.tag.vocabulary))
        estimate = [(slug, name) for slug, name in ahead if name == "description"] + [("", "domain")] * domains
        for slug, name in estimate:
            text = TYPICAL_DESCRIPTION if name == "description" else TYPICAL_DOMAIN
            names = protected_names(store.competition(slug)) if slug else ()
            messages = stage.first_request(name, mask_identifiers(text, names).text)
            usage = Usage(estimate_input_tokens(messages, None), translation_tokens_out(text))
            plan.count(settings, row, "translate", usage, True)
            if settings.models.qe:
                plan.count(settings, row, "qe", Usage(usage.tokens_in + usage.tokens_out, TYPICAL_OUTPUT_TOKENS["qe"]),
                           True)
        row.items, row.cached = len(items) - len(later) + len(ahead), llm.cache_hits
        plan.rows.append(row)
    if changing is None and waiting:
        plan.notes.append(f"translate: {waiting} texts per language wait for describe or tag (`curate run "
                          "--dry-run` counts them)")
    if any(row.calls for row in plan.rows if row.stage == "translate"):
        rate = calls_per_item(plan.measured, "translate")
        measured = (f"; this project has paid {rate:.1f} answers a text so far, and the cost counts that"
                    if rate > 1.0 else "")
        plan.notes.append(f"translate: a translation failing its checks is asked again, up to "
                          f"{settings.translate.max_attempts} attempts in all{measured}")


async def _outline(store: Store, settings: Settings, plan: DryRun, only: str | None = None,
                        force: bool = False, languages: list[str] | None = None) -> None:
    """Add the outline row (and one row per language translating outlines) to `plan`."""
    from curation.checks.masking import mask_identifiers, protected_names
    from curation.stages.outline import OutlineStage
    from curation.stages.outline_translate import OutlineTranslateStage

    stage = OutlineStage(settings, only=only, force=force)
    row = PlanRow("outline", settings.project.source_language)
    items = stage.pending(store, settings)
    llm = DryRunLLM(settings, store, stage="outline")
    row.fail_again = await _through(stage, items, llm)
    asking = set()
    for call in llm.wanted.values():
        plan.count(settings, row, call.role, Usage(call.tokens_in, TYPICAL_OUTPUT_TOKENS[call.role]))
        asking.add(call.item)
    judge = stage.prompts["outline_judge"]
    for item in items:
        if item.key not in asking or any(call.role == "outline_judge" for call in llm.wanted.values()
                                         if call.item == item.key):
            continue
        outlines = [{"number": number, "text": TYPICAL_OUTLINE} for number in range(1, stage.candidates + 1)]
        messages = judge.render(**stage.task_variables(item), outlines=outlines)
        plan.count(settings, row, "outline_judge", Usage(estimate_input_tokens(messages, None),
                                                         TYPICAL_OUTPUT_TOKENS["outline_judge"]), True)
    row.items, row.cached = len(items), llm.cache_hits
    plan.rows.append(row)
    if stage.waiting:
        plan.notes.append(f"outline: {len(stage.waiting)} competitions wait for notebooks")
    changing = {item.competition for item in items}
    for language in languages or []:
        translator = OutlineTranslateStage(settings, language, only=only, force=force)
        row = PlanRow("outline", language)
        waiting = [item for item in translator.pending(store, settings) if item.competition not in changing]
        llm = DryRunLLM(settings, store, stage="outline")
        row.fail_again = await _through(translator, waiting, llm)
        for call in llm.wanted.values():
            plan.count(settings, row, call.role, Usage(call.tokens_in, TYPICAL_OUTPUT_TOKENS.get(call.role)
                                                       or translation_tokens_out(TYPICAL_OUTLINE)))
        for slug in sorted(changing):
            text = mask_identifiers(TYPICAL_OUTLINE, protected_names(store.competition(slug))).text
            messages = translator.first_request("outline", text)
            plan.count(settings, row, "translate", Usage(estimate_input_tokens(messages, None),
                                                         translation_tokens_out(TYPICAL_OUTLINE)), True)
        row.items, row.cached = len(waiting) + len(changing), llm.cache_hits
        plan.rows.append(row)


async def plan_run(store: Store, settings: Settings, stages: tuple[str, ...], languages: list[str],
                   only: str | None = None, force: bool = False, max_rounds: int | None = None,
                   redo_reviewed: bool = False) -> DryRun:
    """The dry run of `stages` (describe, tag, translate, outline, in that order); when describe is among them, the
    later stages count the competitions it would (re)write as estimates. Outline's translations go into `languages`
    when [outline] translate is on."""
    from curation.stages.describe import DescribeStage
    from curation.stages.tag import TagStage
    from curation.stages.translate import TranslateStage

    plan = DryRun(measured=store.paid_calls_by_role())
    changing = None
    if "describe" in stages:
        changing = await _describe(store, settings, DescribeStage(settings, only=only, max_rounds=max_rounds,
                                                                  force=force, redo_reviewed=redo_reviewed), plan)
    if "tag" in stages:
        await _tag(store, settings, TagStage(settings, only=only, force=force), plan, changing)
    if "translate" in stages:
        translators = [TranslateStage(settings, code, only=only, force=force, redo_reviewed=redo_reviewed)
                       for code in languages]
        await _translate(store, settings, translators, plan, changing)
    if "outline" in stages:
        await _outline(store, settings, plan, only=only, force=force,
                       languages=languages if settings.outline.translate else [])
    return plan


def failing_again(plan: DryRun) -> list[str]:
    """One line per stage whose pending items the cached answers fail again: how many, where, what to change."""
    from curation.status import ASK_ANEW

    lines = []
    for stage in dict.fromkeys(row.stage for row in plan.rows):
        rows = [row for row in plan.rows if row.stage == stage and row.fail_again]
        if not rows:
            continue
        total = sum(row.fail_again for row in rows)
        where = "" if stage != "translate" else " (" + ", ".join(f"{row.language} {row.fail_again}" for row in rows) + ")"
        lines.append(f"{stage}: {total} of these items{where} fail again, at no cost: their answers are cached and "
                     f"fail the same checks; read why (`curate status --why`), then {ASK_ANEW[stage]}")
    return lines
