"""`curate review pull`: read verdicts and rubric scores back from the sheets, check each row, store the valid ones.

Every bad row gets one line naming the sheet, tab and row and what to do; the other rows go on. Valid answers
go first to annotations/<lang>/<timestamp>-<annotator>.csv, then to the store; what the store already has
(the annotator's latest answer, unchanged) is not added again.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from curation.checks.masking import protected_names
from curation.checks.translation import HARD_CHECKS, check_translation
from curation.config import Settings
from curation.records import OutlineScore, PushedRow, RubricScore, Verdict
from curation.review import annotations
from curation.review.copied_tabs import Copy, answer_of, copy_lines, find_copies, ours
from curation.review.explanations import refusal
from curation.review.fixes import answered, own_fix
from curation.review.items import parse_item_id
from curation.review.layout import INSTRUCTIONS_TAB, RUBRIC_TAB, columns_for
from curation.review.outline_scores import OUTLINE_ANSWERS, new_outline_scores, read_outline_score
from curation.review.progress import update_review_status
from curation.review.sheet import ReviewError, SheetBackend, SheetContent, SheetRow, normal_text
from curation.review.verdicts import parse_score, parse_verdict
from curation.review.xlsx_backend import XlsxBackend, safe_text
from curation.store import Store

# An annotator's own version passes the same checks as a machine translation and as `curate check` input
# (curation/checks/translation.py): right language and script, every identifier and number kept, nothing
# left in English, no sentence lost.


@dataclass
class PullReport:
    language: str
    verdicts: int = 0
    scores: int = 0
    repeated: int = 0
    problems: list[str] = field(default_factory=list)  # what keeps rows from being taken, one line each
    notes: list[str] = field(default_factory=list)  # rows taken, but worth a look (a NO without a version)
    files: list[Path] = field(default_factory=list)
    not_taken: int = 0  # rows the problems cover: a refused tab is one line for all of its rows

    def refuse(self, problem: str, rows: int = 1) -> None:
        """A problem line, and how many rows it keeps out of the store until it is corrected."""
        self.problems.append(problem)
        self.not_taken += rows


@dataclass
class _Collected:
    verdicts: dict[str, list[Verdict]] = field(default_factory=lambda: defaultdict(list))
    scores: dict[str, list[RubricScore]] = field(default_factory=lambda: defaultdict(list))
    outline_scores: dict[str, list[OutlineScore]] = field(default_factory=lambda: defaultdict(list))
    # id(verdict) -> a note on its row; said only when the verdict is new, not again on every later pull
    notes: dict[int, str] = field(default_factory=dict)


def pull(store: Store, settings: Settings, language: str, backend: SheetBackend, file: Path | None = None) -> PullReport:
    """Pull one language's sheets (or one workbook file) into annotations/ and the store."""
    report = PullReport(language)
    contents: list[SheetContent] = []
    if file is not None:
        readers = [(XlsxBackend(file.parent), str(file))]
    else:
        readers = [(backend, ref) for ref in sorted({row.sheet for row in store.pushed_rows(language)})]
        if not readers:
            report.refuse(f"nothing was pushed for {language} yet; run `curate review push --lang {language}` first", 0)
    for reader, ref in readers:
        # the rows pushed to a sheet that cannot be read (a file given with --file: its annotator's are unknown yet)
        rows = 0 if file is not None else sum(1 for row in store.pushed_rows(language) if row.sheet == ref)
        try:
            content = reader.read(ref)
        except ReviewError as error:  # one unreadable sheet does not stop the others
            report.refuse(str(error), rows)
            continue
        if content is None:
            report.refuse(f"{ref}: no such sheet" if file is not None else
                          f"{ref}: the sheet pushed for {language} is gone; push again to recreate it", rows)
        else:
            contents.append(content)
    collected = _Collected()
    for content in contents:
        _read_sheet(store, settings, language, content, collected, report, from_file=file is not None)
    _store(store, settings, language, collected, report)
    if language != settings.project.source_language:
        update_review_status(store, language)
    return report


def _read_sheet(store: Store, settings: Settings, language: str, content: SheetContent, collected: _Collected,
                report: PullReport, from_file: bool) -> None:
    name = Path(content.ref).name if from_file or content.ref.endswith(".xlsx") else content.ref
    sheet_language = content.meta.get("Language", "")
    if sheet_language and sheet_language != language:
        report.refuse(f"{name}: this sheet is for {sheet_language!r}, not {language!r}; pull it with --lang "
                      f"{sheet_language}", sum(len(rows) for tab, rows in content.tabs.items() if tab != INSTRUCTIONS_TAB))
        return
    owner = content.meta.get("Annotator", "")
    pushed_to: dict[str, dict[str, PushedRow]] = defaultdict(dict)
    for row in store.pushed_rows(language):
        pushed_to[row.annotator][row.key] = row
    # Tabs of the curator's own (notes, the spreadsheet's first empty tab) hold no pushed item ids and are left alone.
    copies = find_copies(content, pushed_to, owner)
    for tab, rows in content.tabs.items():
        if tab == INSTRUCTIONS_TAB or not ours(tab):
            continue
        kind, _, tab_annotator = tab.partition(" - ")
        annotator = tab_annotator or owner
        if not annotator:
            report.refuse(f"{name}: cannot tell whose answers tab '{tab}' holds: the Instructions tab lost its "
                          "Annotator row; restore it or pull the annotator's original file", len(rows))
            continue
        pushed = pushed_to.get(annotator, {})
        if not pushed:
            report.refuse(f"{name}: nothing was pushed to {annotator!r} for {language}; check the Annotator row",
                          len(rows))
            continue
        where = f"{name} tab '{tab}'"
        if tab in content.problems:  # a reshaped tab is read not at all: every row pushed to it waits
            report.refuse(f"{where}: {content.problems[tab]}", sum(
                1 for row in pushed.values() if row.tab == tab and (from_file or row.sheet == content.ref)))
            continue
        if content.merged.get(tab):  # rows under merged cells are not read: counted once for all the ranges
            report.problems.extend(f"{where} {line}" for line in content.merged[tab])
            report.not_taken += sum(1 for row in rows if row.merged)
        _read_tab(store, settings, language, annotator, kind, tab, rows, pushed, where, collected, report,
                  sheet_ref=None if from_file else content.ref, copies=copies.get((annotator, tab), []), name=name)
    # A returned file may have been renamed or moved: it is known by its annotator; a pushed sheet by its reference.
    mine = (lambda row: row.annotator == owner) if from_file else (lambda row: row.sheet == content.ref)
    expected = Counter((row.tab, row.annotator) for row in store.pushed_rows(language) if mine(row))
    for tab, annotator in sorted(expected):
        if tab in content.tabs:
            continue
        if copies.get((annotator, tab)):  # the annotator answered in a copy and deleted the tab push made
            _read_tab(store, settings, language, annotator, tab.partition(" - ")[0], tab, [], pushed_to[annotator],
                      f"{name} tab '{tab}'", collected, report, sheet_ref=None if from_file else content.ref,
                      copies=copies[(annotator, tab)], name=name)
            continue
        report.refuse(f"{name}: tab '{tab}' is missing; its rows cannot be read; restore the tab (or push "
                      "again to recreate it; answers pulled before are kept)", expected[tab, annotator])
    for found in copies.values():
        problems, notes = copy_lines(name, found)
        report.problems.extend(problems)
        # an item its copies answer otherwise than each other is named in each of them: one row not taken
        report.not_taken += len({key for copy in found for key in copy.differing})
        report.notes.extend(notes)


def _read_tab(store: Store, settings: Settings, language: str, annotator: str, kind: str, tab: str, rows: list[SheetRow],
              pushed: dict[str, PushedRow], where: str, collected: _Collected, report: PullReport, sheet_ref: str | None,
              copies: list[Copy], name: str) -> None:
    rubric = kind == RUBRIC_TAB
    editable = ("score", "comment", *OUTLINE_ANSWERS) if rubric else ("verdict", "own_version", "comment")
    counts = Counter(row.cells.get("key", "") for row in rows)
    first_row: dict[str, int] = {}
    repeated: set[str] = set()
    seen: set[str] = set()
    for row in rows:
        key = row.cells.get("key", "")
        if not key:
            if answered(row, None, editable) and not row.merged:
                report.refuse(f"{where} row {row.row}: the item id is empty; undo the change to the id column so the "
                              "answer can be matched to its text")
            continue
        seen.add(key)
        if row.merged:
            continue  # named once for its merged range
        if key not in pushed:
            report.refuse(f"{where} row {row.row} ({key}): unknown item id {key!r}; it was never pushed to "
                          f"{annotator}; restore the id column as it was")
            continue
        if counts[key] > 1:
            if key in first_row:  # the first copy is skipped too: counted with the line for the second
                report.refuse(f"{where} row {row.row} ({key}): item id {key!r} appears again (first at row "
                              f"{first_row[key]}); keep one row per item and delete the copy; both rows are "
                              "skipped until then", 1 if key in repeated else 2)
                repeated.add(key)
            first_row.setdefault(key, row.row)
            continue
        _read_row(store, settings, language, annotator, kind, row, pushed[key], where, collected, report, copies, name)
    for key, sent in pushed.items():
        # A workbook given with --file may live anywhere; a pushed sheet must also be the one the row went to.
        if sent.tab != tab or key in seen or (sheet_ref is not None and sent.sheet != sheet_ref):
            continue
        if any(key in copy.rows for copy in copies):  # its row lives on in a copy
            _read_row(store, settings, language, annotator, kind, None, sent, where, collected, report, copies, name)
            continue
        report.refuse(f"{where}: the row of {key} (pushed to row {sent.row}) was deleted; "
                      f"push again to restore it, or undo the deletion")


def _read_row(store: Store, settings: Settings, language: str, annotator: str, kind: str, row: SheetRow | None,
              sent: PushedRow, where: str, collected: _Collected, report: PullReport, copies: list[Copy],
              name: str) -> None:
    """Read one item's answer: from its row in the tab, or from a copy of the tab when only the copy answers it."""
    rubric = kind == RUBRIC_TAB
    editable = ("score", "comment", *OUTLINE_ANSWERS) if rubric else ("verdict", "own_version", "comment")
    row, copy = answer_of(row, sent, editable, copies)
    if row is None:
        return  # no row, or tabs that answer it differently (said once per copy)
    if copy is not None:
        where = f"{name} tab '{copy.title}'"
    at = f"{where} row {row.row} ({sent.key})"
    edited = _edited_locked(row, sent, rubric)
    if edited:
        report.refuse(f"{at}: the locked column '{edited}' was edited; restore the pushed text and put "
                      "your version in 'Your version'; this row is skipped until then")
        return
    source = f"{where} row {row.row}"
    if rubric:
        _read_score(row, sent, annotator, at, source, collected, report)
        outline = read_outline_score(row, sent, annotator, at, source)
        if isinstance(outline, str):
            report.refuse(outline)
        elif outline is not None:
            collected.outline_scores[annotator].append(outline)
        return
    before = len(collected.verdicts[annotator])
    _read_verdict(store, settings, language, row, sent, annotator, at, source, collected, report)
    if row.formulas and len(collected.verdicts[annotator]) > before:
        taken = collected.verdicts[annotator][-1]
        collected.notes[id(taken)] = "; ".join(filter(None, [collected.notes.get(id(taken)),
                                                             _formula_note(row, kind, at)]))


def _formula_note(row: SheetRow, kind: str, at: str) -> str:
    """Formulas are taken as the text typed; say so, since the sheet showed their result instead."""
    headers = {column.key: column.header for column in columns_for(kind)}
    cells = ", ".join(f"'{headers[key]}' = {row.cells[key]!r}" for key in row.formulas)
    return f"{at}: taken as typed, not as the formula's result: {cells}; type plain text if you meant the result"


def _edited_locked(row: SheetRow, sent: PushedRow, rubric: bool) -> str | None:
    columns = (("text", sent.text),) if rubric else (("translation", sent.text), ("original", sent.original))
    for key, text in columns:
        if normal_text(row.cells.get(key, "")) != normal_text(safe_text(text)):
            return {"text": "English description", "translation": "Translation", "original": "English original"}[key]
    return None


def _read_score(row: SheetRow, sent: PushedRow, annotator: str, at: str, source: str, collected: _Collected,
                report: PullReport) -> None:
    answer, comment = row.cells.get("score", ""), row.cells.get("comment", "")
    if not answer:
        if comment:
            report.refuse(f"{at}: a comment but no score; pick 0, 1 or 2")
        return
    score = parse_score(answer)
    if score is None:
        report.refuse(f"{at}: {answer!r} is not a score; pick 0 (unusable), 1 (needs revision) or 2 (good)")
        return
    collected.scores[annotator].append(RubricScore(competition=sent.item_id, annotator=annotator, score=score,
                                                   comment=comment, description_hash=sent.translation_hash, source=source))


def _read_verdict(store: Store, settings: Settings, language: str, row: SheetRow, sent: PushedRow, annotator: str,
                  at: str, source: str, collected: _Collected, report: PullReport) -> None:
    answer = row.cells.get("verdict", "")
    # "Your version" came prefilled with the pushed text: only an edit of it is a fix.
    own, comment = own_fix(row, sent), row.cells.get("comment", "")
    if not answer:
        if own or comment:
            report.refuse(f"{at}: no answer chosen; pick one from the dropdown in 'Your answer'")
        return
    verdict = parse_verdict(answer)
    if verdict is None:
        report.refuse(f"{at}: unknown answer {answer!r}; pick one of YES and YES, NO and YES, YES and NO, "
                      "NO and NO")
        return
    parsed = parse_item_id(sent.item_id)
    if parsed is None:  # pushed rows always carry valid ids; a store from elsewhere might not
        report.refuse(f"{at}: {sent.item_id!r} is not an item id")
        return
    competition, field_name, _ = parsed
    note = ""
    if verdict == "YES and YES" and own:
        note = (f"{at}: your version is ignored with 'YES and YES'; choose a NO answer if it should "
                "replace the translation")
    elif verdict != "YES and YES" and not own:
        note = (f"{at}: {verdict!r} without your version (the cell is unchanged or empty); the text goes back to "
                "machine translation "
                "with your comment as feedback" + ("" if comment else " (add a comment saying what is wrong)")
                + "; write your version to fix it yourself instead")
    elif own:
        known = store.competition(competition)
        failed = [check for check in check_translation(sent.original, own, language, settings,
                                                       names=protected_names(known) if known else ())
                  if not check.passed]
        hard = [check for check in failed if check.name in HARD_CHECKS]
        if hard:
            names = ", ".join(check.name for check in hard)
            report.refuse(f"{at}: your version did not pass the checks ({names}): "
                          f"{refusal(hard, language)}; correct 'Your "
                          "version' and pull again")
            return
        if failed:
            names = ", ".join(check.name for check in failed)
            note = (f"{at}: your version is taken; the checks that only warn flag it ({names}): "
                    f"{refusal(failed, language)}; a native speaker's version is the authority here, look at it "
                    "if in doubt")
    taken = Verdict(
        item_id=sent.item_id, competition=competition, field=field_name, language=language, annotator=annotator,
        verdict=verdict, own_version=own, comment=comment, translation=sent.text, translation_hash=sent.translation_hash,
        source=source)
    collected.verdicts[annotator].append(taken)
    if note:
        collected.notes[id(taken)] = note


def _store(store: Store, settings: Settings, language: str, collected: _Collected, report: PullReport) -> None:
    root = settings.path("annotations")
    # Microseconds: `review import` replays answers in this order, and two pulls can fall in the same second.
    pulled_at = datetime.now(timezone.utc).isoformat(timespec="microseconds")
    known = {(v.item_id, v.annotator, v.translation_hash): v for v in store.verdicts(language)}
    for annotator, verdicts in collected.verdicts.items():
        fresh = [v for v in verdicts if not _repeats(known.get((v.item_id, v.annotator, v.translation_hash)), v)]
        report.notes.extend(collected.notes[id(v)] for v in fresh if id(v) in collected.notes)
        new = [v.model_copy(update={"pulled_at": pulled_at}) for v in fresh]
        report.repeated += len(verdicts) - len(new)
        if new:
            # The file first: it is the source of truth, and a store write that fails is redone by the next pull.
            report.files.append(annotations.write_verdicts(root, language, annotator, new))
            report.verdicts += sum(store.add_verdict(v) for v in new)
    scored = {(s.competition, s.annotator, s.description_hash): s for s in store.rubric_scores()}
    for annotator, scores in collected.scores.items():
        new = [s.model_copy(update={"pulled_at": pulled_at}) for s in scores
               if (previous := scored.get((s.competition, s.annotator, s.description_hash))) is None
               or (previous.score, previous.comment) != (s.score, s.comment)]
        report.repeated += len(scores) - len(new)
        if new:
            report.files.append(annotations.write_rubric(root, language, annotator, new))
            report.scores += sum(store.add_rubric_score(s) for s in new)
    for annotator, outlines in collected.outline_scores.items():
        new = [s.model_copy(update={"pulled_at": pulled_at}) for s in new_outline_scores(store.outline_scores(), outlines)]
        report.repeated += len(outlines) - len(new)
        if new:
            report.files.append(annotations.write_outline_scores(root, language, annotator, new))
            report.scores += sum(store.add_outline_score(s) for s in new)


def _repeats(previous: Verdict | None, verdict: Verdict) -> bool:
    return previous is not None and (previous.verdict, previous.own_version, previous.comment) == (
        verdict.verdict, verdict.own_version, verdict.comment)
