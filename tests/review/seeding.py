"""Seeds for review and merge tests: translations, descriptions and domains written straight into the store."""

from __future__ import annotations

import pytest

from curation.records import CheckResult, Competition, Description, DomainTag, IngestedCompetition, Translation
from curation.store import Store
from tests.fakes.sample_model import sample_texts

ORIGINALS = {
    "description": "Predict which passengers survived the sinking using the column `Survived` in train.csv.",
    "data_card": "train.csv holds one row per passenger with the columns PassengerId, Pclass and Survived.",
    "domain": "data science",
}


def seed_competition(store: Store, slug: str, description: str | None = None) -> None:
    """A competition with an English description and domain, as describe and tag would leave them."""
    competition = Competition(competition=slug, comp_name=slug.title(), comp_type="Playground", data_type="tabular",
                              metric="Accuracy", data_card=ORIGINALS["data_card"])
    store.save_ingested(IngestedCompetition(competition=competition))
    store.save_description(Description(competition=slug, text=description or ORIGINALS["description"],
                                       provenance="machine", grade="C"))
    store.save_domain(DomainTag(competition=slug, domain=ORIGINALS["domain"]))


def seed_translation(store: Store, slug: str, field: str, language: str, text: str, *, failed: tuple[str, ...] = (),
                     provenance: str = "machine", round: int = 1) -> Translation:
    """A machine translation as translate would store it."""
    translation = Translation(
        competition=slug, field=field, language=language, source_text=ORIGINALS[field], source_hash=f"src-{field}",
        text=text, model="openai:gpt-4o", checks=[CheckResult(name=name, passed=False, detail="") for name in failed],
        flagged=bool(failed), provenance=provenance, round=round)
    store.save_translation(translation)
    return translation


KK = {
    "description": "`Survived` бағанын пайдаланып, кеме апатынан қай жолаушылар аман қалғанын болжаңыз, train.csv.",
    "data_card": "train.csv файлында әр жолаушыға бір жол бар: PassengerId, Pclass және Survived бағандары.",
    "domain": "деректер ғылымы",
}


@pytest.fixture
def seeded(store: Store) -> Store:
    """Two competitions translated into Kazakh, all three fields each."""
    for slug in ("titanic", "spaceship-titanic"):
        seed_competition(store, slug)
        for field, text in KK.items():
            seed_translation(store, slug, field, "kk", text)
    return store


def with_review(settings, **changes):
    """Settings with [review] keys changed, as a curator would set them in curate.toml."""
    return settings.model_copy(update={"review": settings.review.model_copy(update=changes)})


@pytest.fixture
def review_settings(settings):
    """Two Kazakh annotators; 20% of the items go to the second one."""
    return with_review(settings, annotators={"kk": ["aigerim", "dana"]})


def fill(path, tab: str, key: str, **cells) -> None:
    """Fill one row of a workbook as an annotator would in Excel: answer, own version, comment (by column header)."""
    import openpyxl

    from curation.review.layout import columns_for

    book = openpyxl.load_workbook(path)
    sheet = book[tab]
    columns = {column.key: index + 1 for index, column in enumerate(columns_for(tab))}
    for row in range(2, sheet.max_row + 1):
        if sheet.cell(row, 1).value == key:
            for name, value in cells.items():
                sheet.cell(row, columns[name]).value = value
            break
    else:
        raise AssertionError(f"{key} not in {tab}")
    book.save(path)


def locked(sheet, row: int, column: int) -> bool:
    """Whether Excel or LibreOffice keeps a cell locked: by its own style, or by its column's when it has none (push
    leaves the annotator's empty cells to their column's style)."""
    cell = sheet.cell(row, column)
    return (cell if cell.has_style else sheet.column_dimensions[cell.column_letter]).protection.locked


def answer_unanswered(path, verdict: str = "YES and YES", overwrite: bool = False) -> int:
    """The annotator answers every row of a workbook she has not answered yet (every row with overwrite);
    returns how many rows she answered."""
    import openpyxl

    book = openpyxl.load_workbook(path)
    answered = 0
    for tab in ("description", "data_card", "domain"):
        for row in range(2, book[tab].max_row + 1):
            if book[tab].cell(row, 1).value and (overwrite or not book[tab].cell(row, 5).value):
                book[tab].cell(row, 5).value = verdict
                answered += 1
    book.save(path)
    return answered


def seed_sample_sources(project) -> None:
    """After `curate ingest` of the sample: the sample's English description and domain per competition, as describe
    and tag would leave them (texts the fakes answer with careful translations)."""
    with Store(project / "data" / "curation.sqlite") as store:
        for competition in store.competitions():
            texts = sample_texts(competition.competition)
            store.save_description(Description(competition=competition.competition, provenance="machine", grade="C",
                                               text=texts["description"]))
            store.save_domain(DomainTag(competition=competition.competition, domain=texts["domain"]))
