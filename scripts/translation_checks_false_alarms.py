"""False alarms and catches of the translation checks on the hand-written test sentences.

Runs every check on every correct translation in tests/checks/sentences.json (false alarms: a check failing
on a correct text), then on corrupted versions of them (catches: a check failing where it should), and prints
the rates per check and per language.

    python scripts/translation_checks_false_alarms.py
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from curation.checks.translation import CHECKS, check_translation  # noqa: E402
from curation.config import Settings  # noqa: E402
from curation.languages import LANGUAGES  # noqa: E402

# For each target, a language written in the same script that a model might answer in instead.
NEIGHBOUR = {"be": "ru", "ru": "be", "kk": "ru", "fr": "it", "it": "es", "es": "it", "pl": "ro", "ro": "it",
             "tr": "pl", "zh": "ja", "ja": "zh", "ar": None}


def corruptions(source: str, text: str, language: str, translations: dict, key: str) -> dict[str, str]:
    """Broken versions of a correct translation, keyed by the check that should catch them."""
    broken = {"not_copy": source}
    if len(source) >= 40:
        broken["length"] = text[: len(text) // 2]
    if "`" in text:
        first = text.index("`")
        end = text.index("`", first + 1) + 1
        broken["placeholders"] = text[:first] + text[end:]
    if NEIGHBOUR.get(language):
        broken["language"] = translations[NEIGHBOUR[language]][key]
    broken["script"] = translations["ar" if LANGUAGES[language].script != "Arabic" else "ru"][key]
    return broken


def main() -> None:
    data = json.loads((ROOT / "tests" / "checks" / "sentences.json").read_text(encoding="utf-8"))
    sources, translations, names = data["sources"], data["translations"], data["names"]
    settings = Settings()
    alarms = defaultdict(int)
    alarms_by_language = defaultdict(int)
    texts_by_language = defaultdict(int)
    caught = defaultdict(int)
    broken_count = defaultdict(int)
    total = 0
    for language, items in translations.items():
        for key, text in items.items():
            total += 1
            texts_by_language[language] += 1
            results = check_translation(sources[key], text, language, settings, names)
            failures = [r for r in results if not r.passed]
            for result in failures:
                alarms[result.name] += 1
                print(f"false alarm  {language} {key} {result.name}: {result.detail}")
            alarms_by_language[language] += bool(failures)
            for check, bad in corruptions(sources[key], text, language, translations, key).items():
                broken_count[check] += 1
                if any(not r.passed for r in check_translation(sources[key], bad, language, settings, names)
                       if r.name == check):
                    caught[check] += 1
    print(f"\n{total} correct translations in {len(translations)} languages "
          f"({len(sources)} English sources: task descriptions, data card lines, domain tags)\n")
    print("false-alarm rate per check (correct texts a check rejects):")
    for check in CHECKS:
        print(f"  {check:<13} {alarms[check]:>3}/{total}  {alarms[check] / total:6.1%}")
    any_alarm = sum(alarms_by_language.values())
    print(f"  {'any check':<13} {any_alarm:>3}/{total}  {any_alarm / total:6.1%}")
    print("\nfalse-alarm rate per language (correct texts with at least one failed check):")
    for language in translations:
        n = texts_by_language[language]
        print(f"  {language:<4} {alarms_by_language[language]:>2}/{n}  {alarms_by_language[language] / n:6.1%}")
    print("\ncatch rate per check (corrupted texts the intended check rejects):")
    for check in CHECKS:
        if broken_count[check]:
            print(f"  {check:<13} {caught[check]:>3}/{broken_count[check]}  {caught[check] / broken_count[check]:6.1%}")


if __name__ == "__main__":
    main()
