"""A store seeded the way merge leaves it: competitions, English sources, final texts per language, rubric scores.

Texts carry what breaks naive CSV and YAML handling: commas, double quotes, newlines, a leading '=' and the
languages' own scripts.
"""

from __future__ import annotations

from curation.languages import parse_language
from curation.records import (
    FIELDS, CheckResult, Competition, Description, DomainTag, FinalText, IngestedCompetition, RubricScore, Translation,
    Verdict,
)
from curation.review.items import item_id, text_hash
from curation.store import Store

NASTY = 'Predict "survival", per row;\nuse the columns, not = formulas — 100% "quoted"\r\nend'

SCRIPT_SAMPLES = {
    "ar": "توقع البقاء", "be": "Прадказаць выжыванне", "zh": "预测存活", "ru": "Предсказать выживание",
    "fr": "Prédire la survie", "it": "Prevedere la sopravvivenza", "ja": "生存を予測する", "kk": "Өмір сүруді болжау",
    "pl": "Przewidzieć przeżycie", "ro": "Preziceți supraviețuirea", "es": "Predecir la supervivencia",
    "tr": "Hayatta kalmayı tahmin et", "uk": "Передбачити виживання",
}


def competition(slug: str, grading: bool = True) -> Competition:
    """A competition record with a data card that needs quoting in CSV."""
    return Competition(
        competition=slug, comp_name=f"{slug.replace('-', ' ').title()}, the \"challenge\"", comp_type="Playground",
        data_type="tabular", metric="ROC AUC", metric_type="higher is better",
        data_card=f"train.csv: id, target\n{slug} rows, \"quoted\", commas",
        grading={"metric": "roc_auc_score", "target_col": "target", "direction": "maximize"} if grading else None,
    )


def translated(language: str, slug: str, field: str, version: int = 1) -> str:
    """The final text of one item: the language's script, the nasty string, and a version marker."""
    return f"{SCRIPT_SAMPLES[language]} {slug} {field} v{version}\n{NASTY}"


def seed_store(store: Store, languages: list[str], slugs: list[str], *, version: int = 1, no_grading: tuple = (),
               unscored: tuple = (), model: str = "openai:gpt-4o", prompt_hash: str = "a" * 64) -> None:
    """Seed every competition fully merged in every target language, rubric score 2 each (none for `unscored`)."""
    for slug in slugs:
        record = competition(slug, grading=slug not in no_grading)
        store.save_ingested(IngestedCompetition(competition=record))
        store.save_description(Description(competition=slug, text=f"English task for {slug}, v{version}.\n{NASTY}",
                                           provenance="machine", grade="D", rounds=1))
        store.save_domain(DomainTag(competition=slug, domain="finance", model="openai:gpt-4o-mini"))
        description = store.description(slug)
        for annotator in ("rev-1", "rev-2") if slug not in unscored else ():
            store.save_rubric_final(slug, 2)
            store.add_rubric_score(RubricScore(competition=slug, annotator=annotator, score=2,
                                               description_hash=text_hash(description.text, "")))
        for language in languages:
            if language == "en":
                continue
            for field in FIELDS:
                text = translated(language, slug, field, version)
                store.save_translation(Translation(
                    competition=slug, field=field, language=language, source_text="source", source_hash="s",
                    text=text, model=model, prompt_hash=prompt_hash,
                    checks=[CheckResult(name="script", passed=True)]))
                # One annotator per item; the first competition's items get a second, agreeing one.
                verdict = "NO and YES" if field == "description" else "YES and YES"
                for annotator in ("ann-1", "ann-2") if slug == slugs[0] else ("ann-1",):
                    store.add_verdict(Verdict(
                        item_id=item_id(slug, field, language), competition=slug, field=field, language=language,
                        annotator=annotator, verdict=verdict, translation=text,
                        translation_hash=text_hash(text, "source"),
                        own_version=text if field == "description" else ""))
                store.save_final_text(FinalText(
                    competition=slug, field=field, language=language, text=text,
                    provenance="native_fix" if field == "description" else "machine", verdict=verdict))


def harness_names(languages: list[str]) -> list[str]:
    return [parse_language(code).harness for code in languages]
