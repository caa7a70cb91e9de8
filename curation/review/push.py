"""`curate review push`: write the items of a language to each annotator's sheet, adding only what is new or changed.

A row an annotator has filled is never written again. When its item changed since (a retranslation, a new
source text), the new version goes to a new row whose id carries a suffix ("titanic/description/kk #2").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from curation.config import Settings
from curation.records import PushedRow, ReviewItem
from curation.review.explanations import check_cell
from curation.review.fixes import answered
from curation.review.items import assign, review_items, rubric_items
from curation.review.layout import QUESTION, RUBRIC_TAB, columns_for
from curation.review.progress import update_review_status
from curation.review.sheet import RowWrite, SheetBackend, SheetRow, Target
from curation.store import Store


@dataclass
class SheetPush:
    """What one push did to one annotator's sheet."""

    annotator: str
    ref: str
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    kept_filled: int = 0  # changed items whose filled row was left alone and got a new row
    restored: int = 0  # rows the sheet had lost (deleted rows, a deleted workbook), written again

    def line(self) -> str:
        return f"{self.annotator}: {self.ref}: {self.counts()}"

    def counts(self) -> str:
        """What happened to the rows: "21 added, 0 updated, 0 unchanged" and any kept or restored."""
        return (f"{self.added} added, {self.updated} updated, {self.unchanged} unchanged"
                + (f", {self.kept_filled} filled rows kept (new version added below)" if self.kept_filled else "")
                + (f", {self.restored} deleted rows restored" if self.restored else ""))

    @classmethod
    def summed(cls, sheets: list[SheetPush]) -> SheetPush:
        """The row counts of several sheets added up (no annotator or sheet of its own)."""
        return cls(annotator="", ref="", **{name: sum(getattr(sheet, name) for sheet in sheets)
                                            for name in ("added", "updated", "unchanged", "kept_filled", "restored")})


@dataclass
class PushReport:
    language: str
    sheets: list[SheetPush] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def annotators_for(settings: Settings, language: str, rubric: bool) -> list[str]:
    """The configured annotators of a language, topped up with default names (annotator-1, annotator-2, ...):
    the rubric needs `rubric_annotators`; translations need one, and a second when items are to be judged twice."""
    names = list(settings.review.annotators.get(language, []))
    wanted = settings.review.rubric_annotators if rubric else (2 if settings.review.second_annotator_share > 0 else 1)
    if not names:
        names = [f"annotator-{n}" for n in range(1, wanted + 1)]
    elif rubric and len(names) < wanted:
        names += [f"annotator-{n}" for n in range(len(names) + 1, wanted + 1)]
    return names


def plan_annotators(settings: Settings, language: str, items: list[ReviewItem], annotator: str | None,
                    rubric: bool) -> dict[str, list[ReviewItem]]:
    """Annotator -> items to push. An --annotator outside the configured list gets every item."""
    names = annotators_for(settings, language, rubric)
    if rubric:
        plan = {name: list(items) for name in names[: settings.review.rubric_annotators]}
        return {annotator: list(items)} if annotator else plan
    plan = assign(items, names, settings.review.second_annotator_share)
    if annotator:
        return {annotator: plan.get(annotator, list(items))}
    return plan


def row_values(store: Store, item: ReviewItem, key: str, rubric: bool) -> dict[str, str]:
    """The cells push writes in a row: the locked ones, and "Your version" prefilled with the machine text."""
    if rubric:
        known = store.competition(item.competition)
        return {"key": key, "text": item.text, "data_card": known.data_card if known else "",
                "link": (known.competition_link or "") if known else ""}
    return {"key": key, "translation": item.text, "original": item.original, "question": QUESTION,
            "own_version": item.text, "check_failed": check_cell(item.failed_checks, item.language)}


def push(store: Store, settings: Settings, language: str, backend: SheetBackend, annotator: str | None = None) -> PushReport:
    """Push a language's items (the rubric for the source language) to its annotators' sheets."""
    rubric = language == settings.project.source_language
    items = rubric_items(store) if rubric else review_items(store, language)
    report = PushReport(language)
    if not items:
        what = "English descriptions" if rubric else f"translations into {language}"
        report.notes.append(f"no {what} in the store yet; run the earlier stages first")
        return report
    for name, assigned in plan_annotators(settings, language, items, annotator, rubric).items():
        report.sheets.append(_push_sheet(store, backend, Target(language, name, rubric), assigned))
    if not rubric:
        update_review_status(store, language)
    if not settings.review.annotators.get(language) and not annotator:
        report.notes.append(f"no annotators named for {language}: the sheets are for "
                            f"{', '.join(annotators_for(settings, language, rubric))}; name them under "
                            f'[review.annotators] in curate.toml ({language} = ["name@example.org"]) to send them')
    if not rubric and len(annotators_for(settings, language, rubric)) < 2 and not annotator:
        report.notes.append(f"only one annotator for {language}: no items are judged twice, so no agreement figures")
    return report


def _push_sheet(store: Store, backend: SheetBackend, target: Target, items: list[ReviewItem]) -> SheetPush:
    ref = backend.locate(target)
    content = backend.read(ref)
    in_sheet: dict[str, SheetRow] = {}
    next_row: dict[str, int] = {}
    for tab, rows in (content.tabs if content else {}).items():
        for row in rows:
            in_sheet.setdefault(row.cells.get("key", ""), row)
        next_row[tab] = max((row.row for row in rows), default=1) + 1
    pushed = [row for row in store.pushed_rows(target.language, target.annotator) if row.sheet == ref]
    judged = {(v.item_id, v.translation_hash) for v in store.verdicts(target.language) if v.annotator == target.annotator}
    judged |= {(s.competition, s.description_hash) for s in store.rubric_scores() if s.annotator == target.annotator}

    summary = SheetPush(target.annotator, ref)
    writes: list[RowWrite] = []
    records: list[PushedRow] = []
    for item in items:
        tab = backend.tab_name(target, RUBRIC_TAB if target.rubric else item.field)
        editable = tuple(c.key for c in columns_for(RUBRIC_TAB if target.rubric else item.field) if c.editable)
        versions = [row for row in pushed if row.item_id == item.item_id]
        latest = max(versions, key=lambda row: (row.pushed_at, row.row)) if versions else None
        current = in_sheet.get(latest.key) if latest else None
        if latest and latest.translation_hash == item.translation_hash and current:
            summary.unchanged += 1
            continue
        if latest and latest.translation_hash == item.translation_hash:
            # The row is gone from the sheet (deleted, or the workbook was removed): write it again, same id.
            key, row_number = latest.key, next_row.get(tab, 2)
            next_row[tab] = row_number + 1
            summary.restored += 1
        elif latest and current and not answered(current, latest, editable) and (item.item_id, latest.translation_hash) not in judged:
            key, row_number = latest.key, current.row
            summary.updated += 1
        else:
            key = item.item_id if not versions else f"{item.item_id} #{len(versions) + 1}"
            row_number = next_row.get(tab, 2)
            next_row[tab] = row_number + 1
            summary.added += 1
            summary.kept_filled += bool(current)  # the old row stays as the annotator left it
        writes.append(RowWrite(tab, row_number, row_values(store, item, key, target.rubric)))
        records.append(PushedRow(language=target.language, annotator=target.annotator, key=key, item_id=item.item_id,
                                 sheet=ref, tab=tab, row=row_number, translation_hash=item.translation_hash,
                                 text=item.text, original=item.original, failed_checks=[c.line() for c in item.failed_checks]))
    if writes or content is None:
        backend.write(target, ref, writes)
    # Only after the sheet is written: a failed write leaves the store saying what the sheet really holds.
    store.save_pushed_rows(records)
    return summary
