"""What `curate status` shows for outlines: the stage's state per competition (it counts only the competitions it
has looked at, so a project that never makes outlines shows nothing), a column with the kept candidate and its
score ("2 of 3 (judge 7/8)"), and a section with the figures."""

from __future__ import annotations

from curation.records import Outline
from curation.status import Section, StatusContext, register_column, register_section, register_stage
from curation.store import Store

# Not every competition's: off by default, and its translations ("outline:kk") only when asked for.
register_stage("outline", order=45, every_competition=False)


def _outlines(store: Store) -> dict[str, Outline]:
    return {outline.competition: outline for outline in store.outlines()}


@register_column("outline")
def _outline(context: StatusContext, slug: str) -> str:
    outline = context.once(_outlines).get(slug)
    return outline.choice() if outline is not None else ""


@register_section
def _outline_summary(context: StatusContext) -> Section | None:
    outlines = context.once(_outlines)
    if not outlines:
        return None
    kept = [outline.kept for outline in outlines.values() if outline.kept is not None]
    first = sum(outline.chosen == 1 for outline in outlines.values())
    spend = sum(line.cost_usd for line in context.store.llm_costs() if line.stage == "outline")
    mean = sum(verdict.score for verdict in kept) / len(kept) if kept else 0.0
    most = next(iter(outlines.values())).max_score
    return Section("Outlines", ["outlines", "candidates", "mean judge score", "kept a later candidate",
                                "need a person", "outline USD"],
                   rows=[[len(outlines), sum(len(outline.candidates) for outline in outlines.values()),
                          f"{mean:.1f}/{most}", len(outlines) - first,
                          sum(outline.needs_human for outline in outlines.values()), f"{spend:.4f}"]])
