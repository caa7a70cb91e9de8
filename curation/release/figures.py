"""The figures a release reports: review statistics per language, rubric scores, and the models and prompts used."""

from __future__ import annotations

from collections import Counter

from curation.records import ReviewStats
from curation.review.statistics import review_statistics, rubric_statistics
from curation.store import Store


def review_figures(store: Store, languages: list[str]) -> dict[str, ReviewStats]:
    """Review statistics for each translated language, as the review stage computes them."""
    return {language: review_statistics(store, language) for language in languages}


def rubric_figures(store: Store, rubric: dict[str, int], published: set[str], annotators: int) -> dict:
    """How the published English descriptions were scored (0 unusable, 1 needs revision, 2 good), and agreement."""
    scores = Counter(rubric[slug] for slug in published if slug in rubric)
    agreement = rubric_statistics(store, annotators)
    return {"scores": {str(score): scores.get(score, 0) for score in (0, 1, 2)},
            "unscored": sum(1 for slug in published if slug not in rubric),
            "agreement_items": agreement.agreement_items, "raw_agreement": agreement.raw_agreement,
            "kappa": agreement.kappa}


def models_and_prompts(store: Store, published: dict[str, set[str]], source_language: str) -> tuple[dict, dict]:
    """({role: {model: texts}}, {role: {prompt hash: texts}}) over the machine outputs the published rows rest on.

    Descriptions count once per role of the describe loop that led to the published text (describe, score,
    refine); translations and domain tags once per stored text.
    """
    models: dict[str, Counter] = {"describe": Counter(), "score": Counter(), "refine": Counter(),
                                  "tag": Counter(), "translate": Counter()}
    prompts: dict[str, Counter] = {"describe": Counter(), "score": Counter(), "refine": Counter(), "tag": Counter(),
                                   "translate": Counter()}
    every = set().union(*published.values()) if published else set()
    _count_description_rounds(store, every, models, prompts)
    for language, slugs in sorted(published.items()):
        if language == source_language:
            continue
        for translation in store.translations(language=language):
            if translation.competition not in slugs:
                continue
            if translation.model:
                models["translate"][translation.model] += 1
            if translation.prompt_hash:
                prompts["translate"][translation.prompt_hash] += 1
    for tag in store.domains():
        if tag.competition in every and tag.model:
            models["tag"][tag.model] += 1
        if tag.competition in every and tag.prompt_hash:
            prompts["tag"][tag.prompt_hash] += 1
    return _non_empty(models), _non_empty(prompts)


def _count_description_rounds(store: Store, slugs: set[str], models: dict[str, Counter],
                              prompts: dict[str, Counter]) -> None:
    """Add the models and prompt hashes of the describe rounds that produced each published machine description.

    The rounds are those of the latest describe run up to the one whose text was kept; a description that no
    stored round wrote (written by a person, or edited since) adds nothing.
    """
    descriptions = {d.competition: d for d in store.descriptions() if d.competition in slugs}
    for slug, rounds in store.latest_description_rounds().items():
        description = descriptions.get(slug)
        if description is None or description.provenance != "machine":
            continue
        kept = next((index for index, round_ in enumerate(rounds) if round_.text == description.text), None)
        if kept is None:
            continue
        used: set[tuple[str, str, str]] = set()  # (table, role, value): each description counts once per value
        for round_ in rounds[:kept + 1]:
            role = "describe" if round_.step == "describe" else "refine" if round_.step == "refine" else ""
            if role and round_.model:
                used.add(("models", role, round_.model))
            if role and round_.prompt_hash:
                used.add(("prompts", role, round_.prompt_hash))
            if round_.score_model:
                used.add(("models", "score", round_.score_model))
            if round_.score_prompt_hash:
                used.add(("prompts", "score", round_.score_prompt_hash))
        for table, role, value in used:
            (models if table == "models" else prompts)[role][value] += 1


def _non_empty(table: dict[str, Counter]) -> dict[str, dict[str, int]]:
    return {role: dict(sorted(counts.items())) for role, counts in table.items() if counts}


def call_log_models(store: Store) -> dict[str, dict[str, int]]:
    """{role: {provider:model: answered calls}} from the LLM call log (every call the project made, cached included)."""
    used: dict[str, Counter] = {}
    for line in store.llm_costs():
        answered = line.calls - line.call_errors
        if answered > 0:
            used.setdefault(line.role, Counter())[line.model] += answered
    return _non_empty(used)


def reviewer_overrides(store: Store, published: dict[str, set[str]]) -> dict[str, int]:
    """Language -> published texts whose failed automatic checks the reviewers' YES and YES overrode."""
    counts = {}
    for language, slugs in sorted(published.items()):
        overridden = [f for f in store.final_texts(language) if f.overridden_checks and f.competition in slugs]
        if overridden:
            counts[language] = len(overridden)
    return counts
