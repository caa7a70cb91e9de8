"""`curate review push`: write the items of a language to each annotator's sheet, adding only what is new or changed.

A row an annotator has filled is never written again. When its item changed since (a retranslation, a new
source text), the new version goes to a new row whose id carries a suffix ("titanic/description/kk #2").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from curation.config import Settings
from curation.fingerprint import fingerprint
from curation.records import FIELDS, Competition, PushedRow, ReviewItem, Verdict
from curation.review.explanations import check_cell
from curation.review.fixes import answered
from curation.review.headers import NOT_TAKEN
from curation.review.items import assign, review_items, rubric_items
from curation.review.layout import QUESTION, RUBRIC_TAB, columns_for
from curation.review.outline_scores import OUTLINE_ANSWERS
from curation.review.progress import update_review_status
from curation.review.sheet import RowWrite, SheetBackend, SheetContent, SheetRow, Target
from curation.store import Store, now


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
    held: int = 0  # items not pushed because their tab was reshaped (columns moved, deleted or renamed)

    def line(self) -> str:
        return f"{self.annotator}: {self.ref}: {self.counts()}"

    def counts(self) -> str:
        """What happened to the rows: "21 added, 0 updated, 0 unchanged" and any kept or restored."""
        return (f"{self.added} added, {self.updated} updated, {self.unchanged} unchanged"
                + (f", {self.kept_filled} filled rows kept (new version added below)" if self.kept_filled else "")
                + (f", {self.restored} deleted rows restored" if self.restored else "")
                + (f", {self.held} held back (tab reshaped)" if self.held else ""))

    @classmethod
    def summed(cls, sheets: list[SheetPush]) -> SheetPush:
        """The row counts of several sheets added up (no annotator or sheet of its own)."""
        return cls(annotator="", ref="", **{name: sum(getattr(sheet, name) for sheet in sheets)
                                            for name in ("added", "updated", "unchanged", "kept_filled", "restored", "held")})


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


def row_values(item: ReviewItem, key: str, rubric: bool, competition: Competition | None = None) -> dict[str, str]:
    """The cells push writes in a row: the locked ones, and "Your version" prefilled with the machine text."""
    if rubric:
        return {"key": key, "text": item.text, "data_card": competition.data_card if competition else "",
                "link": (competition.competition_link or "") if competition else "", "outline": item.outline}
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
    known = Known.read(store, language, rubric)
    sheets = SheetCache(backend)
    for name, assigned in plan_annotators(settings, language, items, annotator, rubric).items():
        report.sheets.append(_push_sheet(store, sheets, Target(language, name, rubric), assigned, known, report.notes))
    if not rubric:
        update_review_status(store, language, items, known.pushed, known.verdicts)
    if not settings.review.annotators.get(language) and not annotator:
        report.notes.append(f"no annotators named for {language}: the sheets are for "
                            f"{', '.join(annotators_for(settings, language, rubric))}; name them under "
                            f'[review.annotators] in curate.toml ({language} = ["name@example.org"]) to send them')
    if not rubric and len(annotators_for(settings, language, rubric)) < 2 and not annotator:
        report.notes.append(f"only one annotator for {language}: no items are judged twice, so no agreement figures")
    return report


def _push_sheet(store: Store, sheets: SheetCache, target: Target, items: list[ReviewItem], known: Known,
                notes: list[str]) -> SheetPush:
    backend = sheets.backend
    ref = backend.locate(target)
    summary = SheetPush(target.annotator, ref)
    pushed = [row for row in known.pushed if row.annotator == target.annotator and row.sheet == ref]
    latest = _latest(pushed)
    if _proven_unchanged(backend, target, ref, items, latest, known):
        summary.unchanged = len(items)
        return summary
    content = sheets.read(target, ref)
    tabs = {backend.tab_name(target, tab): tab for tab in ([RUBRIC_TAB] if target.rubric else FIELDS)}
    in_sheet: dict[str, SheetRow] = {}
    next_row: dict[str, int] = {}
    # Only this annotator's tabs: in a Google spreadsheet the other annotators' tabs hold the same item ids.
    for tab, rows in (content.tabs if content else {}).items():
        if tab in tabs:
            for row in rows:
                in_sheet.setdefault(row.cells.get("key", ""), row)
            next_row[tab] = max((row.row for row in rows), default=1) + 1
    reshaped = {tab: problem for tab, problem in (content.problems if content else {}).items() if tab in tabs}
    judged = known.judged.get(target.annotator, set())

    writes: list[RowWrite] = []
    records: list[PushedRow] = []
    for item in items:
        tab = backend.tab_name(target, RUBRIC_TAB if target.rubric else item.field)
        if tab in reshaped:
            # Its rows cannot be found where push put them: writing by position would overwrite what people entered.
            summary.held += 1
            continue
        editable = tuple(c.key for c in columns_for(RUBRIC_TAB if target.rubric else item.field) if c.editable)
        versions = [row for row in pushed if row.item_id == item.item_id]
        last = latest.get(item.item_id)
        current = in_sheet.get(last.key) if last else None
        same = last is not None and (last.translation_hash, last.outline_hash) == (item.translation_hash,
                                                                                      item.outline_hash)
        values = row_values(item, last.key if last else "", target.rubric, known.competitions.get(item.competition))
        if same and current:
            summary.unchanged += 1
            continue
        if same:
            # The row is gone from the sheet (deleted, or the workbook was removed): write it again, same id.
            key, row_number = last.key, next_row.get(tab, 2)
            next_row[tab] = row_number + 1
            summary.restored += 1
        elif (last and current and not current.merged and last.translation_hash == item.translation_hash
              and not answered(current, last, OUTLINE_ANSWERS)
              and (item.item_id, f"outline {last.outline_hash}") not in judged):
            # Only the outline is new or changed, and nobody answered for it in this row: the outline goes into the
            # row beside the description and its answers, which stay as they were (nothing typed is written over).
            key, row_number = last.key, current.row
            values = {"outline": item.outline}
            summary.updated += 1
        elif (last and current and not current.merged and not answered(current, last, editable)
              and (item.item_id, last.translation_hash) not in judged):  # a row under merged cells is left as it is
            key, row_number = last.key, current.row
            summary.updated += 1
        else:
            key = item.item_id if not versions else f"{item.item_id} #{len(versions) + 1}"
            row_number = next_row.get(tab, 2)
            next_row[tab] = row_number + 1
            summary.added += 1
            summary.kept_filled += bool(current)  # the old row stays as the annotator left it
        writes.append(RowWrite(tab, row_number, {**values, "key": key} if "key" in values else values))
        records.append(PushedRow(language=target.language, annotator=target.annotator, key=key, item_id=item.item_id,
                                 sheet=ref, tab=tab, row=row_number, translation_hash=item.translation_hash,
                                 text=item.text, original=item.original, failed_checks=[c.line() for c in item.failed_checks],
                                 pushed_at=now(), outline_hash=item.outline_hash))
    for tab, problem in reshaped.items():
        notes.append(f"{ref} tab '{tab}' was not pushed to: {problem.removesuffix(NOT_TAKEN)}; undo the change to the "
                     "columns and push again")
    stamp = content.stamp if content else None
    if writes or content is None:
        stamp = sheets.write(target, ref, writes)
    # Only after the sheet is written: a failed write leaves the store saying what the sheet really holds.
    store.save_pushed_rows(records)
    replaced = {(row.annotator, row.key) for row in records}  # an updated row keeps its key: the store replaces it
    known.pushed[:] = [row for row in known.pushed if (row.annotator, row.key) not in replaced] + records
    # The sheet now holds every item's latest row (a reshaped tab's rows are unknown): remember its content.
    latest.update(_latest(records))
    store.save_sheet_stamp(target.language, target.annotator, ref, None if reshaped else stamp, _rows_print(items, latest))
    return summary


def _latest(rows: list[PushedRow]) -> dict[str, PushedRow]:
    """Item id -> the row its latest version was pushed to."""
    latest: dict[str, PushedRow] = {}
    for row in rows:
        if row.item_id not in latest or (row.pushed_at, row.row) > (latest[row.item_id].pushed_at, latest[row.item_id].row):
            latest[row.item_id] = row
    return latest


def _rows_print(items: list[ReviewItem], latest: dict[str, PushedRow]) -> str:
    """A fingerprint of the rows the items' latest versions were pushed to (key, tab, row, text hash)."""
    # A row's outline joins it only when it has one, so the prints of sheets without outlines stay what they were.
    rows = sorted((row.key, row.tab, row.row, row.translation_hash, *((row.outline_hash,) if row.outline_hash else ()))
                  for item in items if (row := latest.get(item.item_id)) is not None)
    return fingerprint(rows)


def _proven_unchanged(backend: SheetBackend, target: Target, ref: str, items: list[ReviewItem],
                      latest: dict[str, PushedRow], known: Known) -> bool:
    """Whether the sheet provably gets nothing: every item's latest pushed row holds its current text, and the sheet's
    content is byte for byte what it was when all those rows were known to be in it (not its mtime: a copied-back or
    edited workbook has other bytes). Then every row counts unchanged without reading the sheet."""
    if not all((row := latest.get(item.item_id)) is not None and row.translation_hash == item.translation_hash
               and row.outline_hash == item.outline_hash for item in items):
        return False
    recorded = known.stamps.get(target.annotator)
    if recorded is None or recorded[0] != ref or recorded[2] != _rows_print(items, latest):
        return False
    stamp = backend.stamp(ref)
    return stamp is not None and stamp == recorded[1]


@dataclass
class Known:
    """What the store says about a language's review, read once per push rather than once per sheet or row."""

    pushed: list[PushedRow]
    verdicts: list[Verdict]
    judged: dict[str, set[tuple[str, str]]]  # annotator -> (item id, text hash) she answered
    competitions: dict[str, Competition]
    stamps: dict[str, tuple[str, str, str]]  # annotator -> (sheet, stamp, rows print)

    @classmethod
    def read(cls, store: Store, language: str, rubric: bool) -> Known:
        verdicts = [] if rubric else store.verdicts(language)
        judged: dict[str, set[tuple[str, str]]] = {}
        for verdict in verdicts:
            judged.setdefault(verdict.annotator, set()).add((verdict.item_id, verdict.translation_hash))
        for score in store.rubric_scores() if rubric else []:
            judged.setdefault(score.annotator, set()).add((score.competition, score.description_hash))
        for outline in store.outline_scores() if rubric else []:
            judged.setdefault(outline.annotator, set()).add((outline.competition, f"outline {outline.outline_hash}"))
        competitions = {c.competition: c for c in store.competitions()} if rubric else {}
        return cls(store.pushed_rows(language), verdicts, judged, competitions, store.sheet_stamps(language))


class SheetCache:
    """Each sheet read at most once per push: a Google spreadsheet holds every annotator's tabs of a language.

    A tab written since its sheet was read is read again before anyone else writes to it (two annotators whose names
    map to one workbook), so the rows are never placed from a stale picture."""

    def __init__(self, backend: SheetBackend):
        self.backend = backend
        self._read: dict[str, SheetContent | None] = {}
        self._written: dict[str, set[str]] = {}

    def read(self, target: Target, ref: str) -> SheetContent | None:
        tabs = {self.backend.tab_name(target, tab) for tab in ([RUBRIC_TAB] if target.rubric else FIELDS)}
        if ref not in self._read or self._read[ref] is None or tabs & self._written.get(ref, set()):
            self._read[ref] = self.backend.read(ref)
            self._written[ref] = set()
        return self._read[ref]

    def write(self, target: Target, ref: str, writes: list[RowWrite]) -> str | None:
        if self._read.get(ref) is None:
            self._read.pop(ref, None)  # a sheet created now: read it again if anyone else pushes to it
        self._written.setdefault(ref, set()).update(write.tab for write in writes)
        return self.backend.write(target, ref, writes)
