"""What `curate status` shows for describe and tag: grade, rounds and flags per competition, the loop's figures
(share of good descriptions after round 1 and after the last round, as the method reports 80% -> 96%), the spend,
and the data-card lint findings (report only; the curator edits the cards).
"""

from __future__ import annotations

from dataclasses import dataclass

from curation.checks.data_card_lint import lint_data_card
from curation.records import Description, DomainTag, LintFinding
from curation.status import Section, StatusContext, register_column, register_section, register_stage
from curation.store import Store

register_stage("describe", order=20)
register_stage("tag", order=30)


@dataclass(frozen=True)
class DescribeFigures:
    """The describe loop over machine-written descriptions (person-written ones are only graded)."""

    machine: int  # competitions whose description came out of the loop
    good_first: int  # good (grade in good_grades, no lint findings) after round 1
    good_last: int  # good after the last round
    needs_human: int  # descriptions of any provenance a person must look at
    person_written: int
    spend_usd: float  # describe and tag calls, all runs

    def share(self, count: int) -> str:
        return f"{count / self.machine:.0%}" if self.machine else "–"

    def line(self) -> str:
        return (f"good after round 1: {self.share(self.good_first)} ({self.good_first}/{self.machine}), "
                f"after the last round: {self.share(self.good_last)} ({self.good_last}/{self.machine}); "
                f"{self.needs_human} need a person; {self.person_written} written by a person; "
                f"describe + tag spend ${self.spend_usd:.4f}")


def describe_figures(store: Store, good_grades: list[str],
                     descriptions: dict[str, Description] | None = None) -> DescribeFigures:
    """The loop's figures from the latest run of every competition; `descriptions`: by slug, when read already."""
    descriptions = _descriptions(store) if descriptions is None else descriptions
    machine = good_first = good_last = 0
    for slug, rounds in store.latest_description_rounds().items():
        described = descriptions.get(slug)
        if not rounds or described is None or described.provenance != "machine":
            continue
        machine += 1
        good_first += rounds[0].good(good_grades)
        good_last += rounds[-1].good(good_grades)
    spend = sum(line.cost_usd for line in store.llm_costs() if line.stage in ("describe", "tag"))
    return DescribeFigures(
        machine=machine, good_first=good_first, good_last=good_last,
        needs_human=sum(d.needs_human for d in descriptions.values()),
        person_written=sum(d.provenance == "human" for d in descriptions.values()), spend_usd=spend,
    )


def _descriptions(store: Store) -> dict[str, Description]:
    return {described.competition: described for described in store.descriptions()}


def _domains(store: Store) -> dict[str, DomainTag]:
    return {tag.competition: tag for tag in store.domains()}


def _card_findings(store: Store) -> dict[str, list[LintFinding]]:
    return {competition.competition: lint_data_card(competition.data_card) for competition in store.competitions()}


# The columns read whole tables once per report (`context.once`), not a row per competition.
@register_column("grade")
def _grade(context: StatusContext, slug: str) -> str:
    described = context.once(_descriptions).get(slug)
    return (described.grade or "") if described else ""


@register_column("rounds")
def _rounds(context: StatusContext, slug: str) -> str:
    described = context.once(_descriptions).get(slug)
    if described is None:
        return ""
    return "person" if described.provenance == "human" else str(described.rounds)


@register_column("domain")
def _domain(context: StatusContext, slug: str) -> str:
    tag = context.once(_domains).get(slug)
    if tag is None:
        return ""
    return f"{tag.domain} (new)" if tag.is_new else tag.domain


@register_column("flags")
def _flags(context: StatusContext, slug: str) -> str:
    flags = []
    described = context.once(_descriptions).get(slug)
    if described is not None and described.needs_human:
        lint = sum(reason.startswith("lint ") for reason in described.reasons)
        flags.append("needs human" + (f" ({lint} lint)" if lint else ""))
    tag = context.once(_domains).get(slug)
    if tag is not None and tag.is_new:
        flags.append("new domain")
    card = len(context.once(_card_findings).get(slug, []))
    if card:
        flags.append(f"card: {card} sentence{'s' if card != 1 else ''}")
    return ", ".join(flags)


@register_section
def _describe_summary(context: StatusContext) -> Section | None:
    figures = describe_figures(context.store, context.settings.describe.good_grades, context.once(_descriptions))
    if not figures.machine and not figures.person_written:
        return None
    return Section(
        "Descriptions", ["machine-written", "good after round 1", "good after last round", "need a person",
                         "written by a person", "describe + tag USD"],
        rows=[[figures.machine, f"{figures.share(figures.good_first)} ({figures.good_first})",
               f"{figures.share(figures.good_last)} ({figures.good_last})", figures.needs_human,
               figures.person_written, f"{figures.spend_usd:.4f}"]],
        note=figures.line(),
    )


@register_section
def _data_card_lint(context: StatusContext) -> Section | None:
    rows = [[slug, finding.rule, finding.matched]
            for slug, findings in sorted(context.once(_card_findings).items()) for finding in findings]
    if not rows:
        return None
    return Section("Data-card sentences about submissions or test files (report only: edit data_card.md)",
                   ["competition", "rule", "sentence"], rows=rows)
