"""The release's `outlines` config: the solution outline of each published competition, kept apart from the task.

A task description says what to solve and never how; an outline says how the best public notebooks solved it. So
the outlines never enter the language configs (whose files stay byte for byte what they would be without them): they
are a config of their own, `load_dataset(path, "outlines", split="test")`, one row per competition and language
(English, and the translated outlines when [outline] translate is on), for a "with hints" variant of the benchmark
that is kept apart from the plain one.

Left out, each with a line in the manifest: an outline the rubric reviewers scored 0 (unusable), and one flagged for a
person (every candidate failed the lint, or the judge gave a criterion 0) that no reviewer scored 1 or 2.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from curation.records import SECTIONS, Outline, OutlineScore, Translation
from curation.review.decisions import decide_rubric
from curation.review.items import text_hash

CONFIG = "outlines"
COLUMN_TYPES = {"competition": "string", "comp_name": "string", "language": "string", "outline": "string",
                **{name: "list<string>" for name in SECTIONS}, "sources": "sources", "candidates": "int64",
                "chosen": "int64", "judge_score": "int64", "judge_max": "int64", "review_score": "int64",
                "provenance": "string", "flagged": "bool_"}


def outlines_path() -> str:
    """Where the outlines config's test split lives in the release, relative to its root."""
    return f"{CONFIG}/test-00000-of-00001.parquet"


def outline_hash(outline: Outline) -> str:
    """Names one outline text: a reviewer's score holds for exactly that text."""
    return text_hash(outline.text(), "")


@dataclass
class ReleaseOutlines:
    """The outlines config's rows, what was left out and why, and where the outlines came from."""

    rows: list[dict] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    outlines: list[Outline] = field(default_factory=list)  # those published

    def provenance(self) -> dict:
        """For the manifest and the card: how many, in which languages, written and judged by which models."""
        writers, judges, candidates = {}, {}, {}
        for outline in self.outlines:
            writers[outline.writer] = writers.get(outline.writer, 0) + 1
            judges[outline.judge] = judges.get(outline.judge, 0) + 1
            candidates[str(len(outline.candidates))] = candidates.get(str(len(outline.candidates)), 0) + 1
        return {"config": CONFIG, "data_file": outlines_path(), "rows": len(self.rows),
                "competitions": sorted(outline.competition for outline in self.outlines),
                "languages": sorted({row["language"] for row in self.rows}),
                "written_by": writers, "judged_by": judges, "candidates": candidates,
                "reviewed": sum(row["review_score"] is not None for row in self.rows if row["provenance"] == "machine"),
                "left_out": self.left_out,
                "source": "the top-ranked public notebooks of each competition (the ones ingest keeps), their code "
                          "read by the `outline` model; the `outline_judge` model picked the best of the candidates "
                          "on a rubric (faithful, complete, executable, no leakage) after a lint (no code, no library "
                          "calls, no other files, the metric named)"}


def release_outlines(outlines: dict[str, Outline], translations: list[Translation], scores: list[OutlineScore],
                     names: dict[str, str], published: set[str], source_language: str, needed: int) -> ReleaseOutlines:
    """The rows of the outlines config for the `published` competitions; `names`: slug -> comp_name; `needed`: the
    rubric annotators a final score waits for."""
    result = ReleaseOutlines()
    by_text: dict[tuple[str, str], list[OutlineScore]] = {}
    for score in scores:
        by_text.setdefault((score.competition, score.outline_hash), []).append(score)
    translated: dict[str, list[Translation]] = {}
    for translation in translations:
        translated.setdefault(translation.competition, []).append(translation)
    for slug in sorted(published & set(outlines)):
        outline = outlines[slug]
        review = decide_rubric(by_text.get((slug, outline_hash(outline)), []), needed).score
        if review == 0:
            result.left_out.append(f"{slug}: the rubric reviewers scored the outline 0 (unusable)")
            continue
        if outline.needs_human and not review:
            result.left_out.append(f"{slug}: the outline needs a person ({'; '.join(outline.reasons)}) and no "
                                   "reviewer scored it 1 or 2")
            continue
        result.outlines.append(outline)
        common = {"competition": slug, "comp_name": names.get(slug, ""),
                  "sources": [source.model_dump() for source in outline.sources],
                  "candidates": len(outline.candidates), "chosen": outline.chosen,
                  "judge_score": outline.kept.score if outline.kept else None, "judge_max": outline.max_score,
                  "review_score": review}
        result.rows.append({**common, "language": source_language, "outline": outline.text(), **outline.sections(),
                            "provenance": "machine", "flagged": False})
        for translation in sorted(translated.get(slug, []), key=lambda t: t.language):
            if translation.source_text != outline.text():
                continue  # the translation of an earlier outline: the next `curate outline` translates this one
            result.rows.append({**common, "language": translation.language, "outline": translation.text,
                                **split_sections(translation.text), "review_score": None,
                                "provenance": "machine translation", "flagged": translation.flagged})
    return result


def split_sections(text: str) -> dict[str, list[str] | None]:
    """A translated outline's parts, by the order of its headings (their words are translated, their places kept);
    None for every part when the translation does not have one heading per part."""
    parts = re.split(r"(?m)^##[^\n]*\n?", text)[1:]
    if len(parts) != len(SECTIONS):
        return dict.fromkeys(SECTIONS)
    return {name: [line.strip()[1:].strip() for line in part.splitlines() if line.strip().startswith(("-", "*"))]
            for name, part in zip(SECTIONS, parts)}


def write_outlines(rows: list[dict], path: Path) -> None:
    """Write the outlines config's rows with its schema."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sources = pa.list_(pa.struct([("notebook", pa.string()), ("rank", pa.int64())]))
    types = {"list<string>": pa.list_(pa.string()), "sources": sources}
    schema = pa.schema([pa.field(name, types[kind] if kind in types else getattr(pa, kind)())
                        for name, kind in COLUMN_TYPES.items()])
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist([{name: row.get(name) for name in COLUMN_TYPES} for row in rows],
                                        schema=schema), path)
