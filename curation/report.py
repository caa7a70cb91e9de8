"""`curate report`: the review report, reports/review.md with PNG plots beside it.

Verdict shares per language and per field as stacked bars (the way the method's figures show them), the
share of items annotators fixed and how much they changed (character edit rate: edit distance between the
machine text and the fix, over the longer one's length), texts with no translation to judge, agreement between annotators, and what is open.
The glossary terms annotators' fixes replaced are counted per language, so the glossary can learn from review.
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, never a window; must precede pyplot
import matplotlib.pyplot as plt  # noqa: E402
from rapidfuzz.distance import Levenshtein  # noqa: E402

from curation.checks.glossary import GlossaryError, load_glossary, term_changes  # noqa: E402
from curation.config import Settings  # noqa: E402
from curation.excerpt import plural  # noqa: E402
from curation.languages import parse_language  # noqa: E402
from curation.output_folders import cannot_write, write_whole  # noqa: E402
from curation.records import FIELDS, VERDICTS, ReviewStats, Verdict  # noqa: E402
from curation.review.statistics import (  # noqa: E402
    judged_units,
    read_review,
    rubric_statistics,
    shares,
    verdict_counts,
)
from curation.store import Store  # noqa: E402

COLOURS = {"YES and YES": "#4c9a5b", "NO and YES": "#e3c15a", "YES and NO": "#e58a3c", "NO and NO": "#c4453f"}
MAX_OPEN_LINES = 40


def edit_rate(machine: str, fix: str) -> float:
    """Characters changed to get from the machine text to the fix, per character of the longer of the two: 0 for
    the same text, 1 for a text rewritten entirely. (Per character of the machine text alone, a two-word tag
    replaced by a phrase read 243%.)"""
    return Levenshtein.distance(machine, fix) / max(len(machine), len(fix), 1)


def fix_edit_rates(verdicts: list[Verdict]) -> list[float]:
    """Edit rates of the fixes that count: the first fix per judged text, as merge takes it."""
    rates = []
    for group in judged_units(verdicts).values():
        fixes = [v for v in group if v.verdict != "YES and YES" and v.has_fix]
        if fixes:
            rates.append(edit_rate(fixes[0].translation, fixes[0].own_version.strip()))
    return rates


def glossary_changes(store: Store, settings: Settings, verdicts: dict[str, list[Verdict]]) -> list[str]:
    """The report's lines on the glossary renderings annotators' fixes replaced: one table row per language, term,
    machine rendering and the words the fix wrote instead, with how many fixes did so (the fix merge takes)."""
    try:
        glossary = load_glossary(settings.path("glossary"))
    except GlossaryError as error:
        return [f"The glossary could not be read: {error}"]
    found: dict[tuple[str, str, str, str], int] = {}
    for code, judged in verdicts.items():
        sources = {(t.competition, t.field): t.source_text for t in store.translations(language=code)}
        for group in judged_units(judged).values():
            fixes = [v for v in group if v.verdict != "YES and YES" and v.has_fix]
            source = sources.get((fixes[0].competition, fixes[0].field)) if fixes else None
            if not source:
                continue
            for term, machine, written in term_changes(glossary, source, fixes[0].translation,
                                                      fixes[0].own_version, code):
                found[code, term, machine, written] = found.get((code, term, machine, written), 0) + 1
    if not found:
        return ["No annotator's fix replaced a glossary term's rendering."]
    lines = ["| language | term | glossary rendering the machine wrote | the annotator wrote instead | fixes |",
             "|---|---|---|---|---|"]
    for (code, term, machine, written), count in sorted(found.items(), key=lambda kv: (kv[0][0], -kv[1], kv[0][1])):
        lines.append(f"| {code} | {term} | {machine} | {written} | {count} |")
    return lines


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _stacked(axis, labels: list[str], rows: list[dict[str, float]], title: str) -> None:
    left = [0.0] * len(labels)
    for verdict in VERDICTS:
        widths = [row.get(verdict, 0.0) * 100 for row in rows]
        bars = axis.barh(labels, widths, left=left, color=COLOURS[verdict], label=verdict, edgecolor="white")
        for bar, width in zip(bars, widths):
            if width >= 8:
                axis.text(bar.get_x() + width / 2, bar.get_y() + bar.get_height() / 2, f"{width:.0f}%",
                          ha="center", va="center", fontsize=8, color="white")
        left = [a + b for a, b in zip(left, widths)]
    axis.set_xlim(0, 100)
    axis.set_xlabel("% of judged texts")
    axis.set_title(title)
    axis.invert_yaxis()


def _plot_languages(path: Path, stats: dict[str, ReviewStats]) -> None:
    languages = list(stats)
    figure, axis = plt.subplots(figsize=(8, 0.45 * len(languages) + 1.6))
    _stacked(axis, [parse_language(code).english for code in languages], [stats[c].verdict_shares for c in languages],
             "Review verdicts per language")
    handles, labels = axis.get_legend_handles_labels()
    figure.legend(handles, labels, ncol=4, loc="lower center", frameon=False)
    figure.tight_layout(rect=(0, 0.35 / figure.get_figheight(), 1, 1))
    _save(figure, path)


def _plot_fields(path: Path, by_field: dict[str, dict[str, dict[str, float]]]) -> None:
    languages = list(by_field)
    figure, axes = plt.subplots(1, len(FIELDS), figsize=(13, 0.45 * len(languages) + 1.8), sharey=True)
    for axis, field in zip(axes, FIELDS):
        _stacked(axis, [parse_language(code).english for code in languages], [by_field[c][field] for c in languages],
                 field.replace("_", " "))
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, ncol=4, loc="lower center", frameon=False)
    figure.suptitle("Review verdicts per field")
    figure.tight_layout(rect=(0, 0.08, 1, 1))
    _save(figure, path)


def _plot_fixes(path: Path, stats: dict[str, ReviewStats], rates: dict[str, list[float]]) -> None:
    languages = list(stats)
    names = [parse_language(code).english for code in languages]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 0.45 * len(languages) + 1.4), sharey=True)
    fixed = [stats[c].share_fixed * 100 for c in languages]
    left.barh(names, fixed, color="#5b7fb3")
    left.bar_label(left.containers[0], labels=[f"{v:.0f}%" for v in fixed], padding=3, fontsize=8)
    left.set_xlabel("% of merged texts that are an annotator's version")
    left.set_title("Share fixed by annotators")
    mean = [100 * sum(rates[c]) / len(rates[c]) if rates[c] else 0 for c in languages]
    right.barh(names, mean, color="#8a6bb3")
    right.bar_label(right.containers[0], labels=[f"{v:.1f}%" if rates[c] else "no fixes" for v, c in zip(mean, languages)],
                    padding=3, fontsize=8)
    for axis in (left, right):
        axis.margins(x=0.15)
    right.set_xlabel("mean % of characters changed per fix")
    right.set_title("Character edit rate of fixes")
    left.invert_yaxis()
    figure.tight_layout()
    _save(figure, path)


def _save(figure, path: Path) -> None:
    image = io.BytesIO()
    try:
        figure.savefig(image, dpi=130, format="png")
    finally:
        plt.close(figure)
    _write(path, image.getvalue())


def _write(path: Path, data: bytes) -> None:
    """A file of the report, written whole; a full or unwritable folder is a FolderError."""
    try:
        write_whole(path, data)
    except OSError as error:
        raise cannot_write(path, error, "paths.reports", "run `curate report` again") from None


def _listed(ids: list[str]) -> str:
    more = len(ids) - MAX_OPEN_LINES
    return ", ".join(ids[:MAX_OPEN_LINES]) + (f" and {more} more" if more > 0 else "")


def _untranslated(store: Store, languages: list[str]) -> dict[str, list[str]]:
    """Per target language, the item ids of English texts that exist and have no translation in it: what review
    cannot judge because translate failed or has not reached it."""
    from curation.stages.translate_sources import source_texts

    texts = [f"{competition.competition}/{name}" for competition in store.competitions()
             for name, text in source_texts(store, competition).items() if text and text.strip()]
    missing = {}
    for code in languages:
        have = {f"{t.competition}/{t.field}" for t in store.translations(language=code)}
        if gone := [f"{text}/{code}" for text in texts if text not in have]:
            missing[code] = gone
    return missing


def write_report(store: Store, settings: Settings) -> Path:
    """Write reports/review.md and its plots from the store; returns the markdown file's path. Raises FolderError
    when the reports folder cannot take them."""
    folder = settings.path("reports")
    languages = [code for code in settings.project.targets if store.translations(language=code) or store.verdicts(code)]
    reviews = {code: read_review(store, code) for code in languages}
    stats = {code: review.statistics() for code, review in reviews.items()}
    verdicts = {code: review.verdicts for code, review in reviews.items()}
    judged = [code for code in languages if stats[code].items]
    by_field = {code: {field: shares(verdict_counts(verdicts[code], field), VERDICTS) for field in FIELDS} for code in judged}
    rates = {code: fix_edit_rates(verdicts[code]) for code in languages}
    rubric = rubric_statistics(store, settings.review.rubric_annotators)

    lines = [f"# Review report: {settings.project.pretty_name}", ""]
    if judged:
        _plot_languages(folder / "verdicts_by_language.png", {code: stats[code] for code in judged})
        _plot_fields(folder / "verdicts_by_field.png", by_field)
        _plot_fixes(folder / "fixes.png", {code: stats[code] for code in judged}, rates)
        lines += ["![Verdicts per language](verdicts_by_language.png)", "",
                  "![Verdicts per field](verdicts_by_field.png)", "", "![Fixes](fixes.png)", ""]
    else:
        lines += ["No verdicts pulled yet: push the sheets (`curate review push`) and pull them back "
                  "(`curate review pull`).", ""]
    untranslated = _untranslated(store, languages)
    lines += ["## Per language", "",
              "| language | judged | " + " | ".join(VERDICTS) + " | fixed | edit rate | doubly judged | agreement | "
              "kappa | open | no translation |",
              "|---" * (len(VERDICTS) + 9) + "|"]
    for code in languages:
        s = stats[code]
        rate = sum(rates[code]) / len(rates[code]) if rates[code] else None
        lines.append(f"| {parse_language(code).english} ({code}) | {s.items} | "
                     + " | ".join(_percent(s.verdict_shares.get(v)) for v in VERDICTS)
                     + f" | {_percent(s.share_fixed)} | {_percent(rate)} | {s.agreement_items} | "
                       f"{_percent(s.raw_agreement)} | {_number(s.kappa)} | {s.open_items} | "
                       f"{len(untranslated.get(code, []))} |")
    if judged:
        lines += ["", "## Per field", "", "| language | field | " + " | ".join(VERDICTS) + " |", "|---" * (len(VERDICTS) + 2) + "|"]
        for code in judged:
            for field in FIELDS:
                lines.append(f"| {code} | {field} | " + " | ".join(_percent(by_field[code][field].get(v)) for v in VERDICTS) + " |")
    lines += ["", "## Glossary terms annotators changed", "",
              f"Fixes that replaced a rendering of `{settings.paths.glossary}`: a term changed often is worth a look "
              "in the glossary.", "", *glossary_changes(store, settings, verdicts)]
    lines += ["", "## Rubric of the English descriptions", "",
              f"- scored: {rubric.items}; final scores: "
              + (", ".join(f"{score}: {_percent(share)}" for score, share in rubric.score_shares.items()) or "none yet"),
              f"- scored by two annotators: {rubric.agreement_items}; agreement {_percent(rubric.raw_agreement)}, "
              f"kappa {_number(rubric.kappa)}",
              f"- open (waiting for scores or a third annotator): {rubric.open_items}", "",
              "Kappa is Cohen's kappa over the doubly judged items; '–' where it is undefined (no such items, or "
              "every answer the same).", "", "## Open", ""]
    requests = store.open_requests("retranslate")
    sent_back = store.requests("redescribe")
    redescribe = sorted({r["competition"] for r in sent_back if r["resolved_at"] is None})
    lines.append(f"- retranslations requested and not done yet: {len(requests)}")
    lines.append(f"- descriptions sent back to describe: {len({r['competition'] for r in sent_back})}; "
                 f"not rewritten yet: {len(redescribe)}" + (f" ({', '.join(redescribe)})" if redescribe else ""))
    for code in languages:
        waiting = reviews[code].open_items()
        if waiting:
            lines.append(f"- {code}: {plural(len(waiting), 'item')} without a usable verdict: {_listed(waiting)}")
    for code, missing in untranslated.items():
        lines.append(f"- {code}: {plural(len(missing), 'text')} without a translation to judge (failed or not "
                     f"translated yet; `curate status --lang {code}` says why): {_listed(missing)}")
    path = folder / "review.md"
    _write(path, ("\n".join(lines) + "\n").encode("utf-8"))
    return path
