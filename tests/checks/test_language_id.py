"""Preloading lingua for some targets loads their scripts' models only, and the detector still knows the world; a
long sentence reads as with every model, a short one without the rivals read on long sentences only."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# In a fresh process: what a Kazakh-only run's checks process loads, then what the rest of the scripts add.
PRELOAD = """
import json
from curation.checks import language_id

def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 2**20

start = rss()
language_id.preload(["kk"])
kazakh = rss()
ukrainian = language_id.confidences("Учасники мають передбачити ціну кожного будинку за його описом і фотографіями.",
                                    language_id.rivals("ru"))
read = rss()
language_id.preload()
print(json.dumps({"kazakh": kazakh - start, "read": read - kazakh, "rest": rss() - read, "ukrainian": ukrainian}))
"""


def test_a_kazakh_run_preloads_cyrillic_only_and_still_tells_its_neighbours_apart():
    done = subprocess.run([sys.executable, "-c", PRELOAD], capture_output=True, text=True, timeout=300, check=True)
    figures = json.loads(done.stdout)
    # Ukrainian is no target, yet a Ukrainian sentence reads as Ukrainian: the detector's languages did not shrink.
    assert max(figures["ukrainian"], key=figures["ukrainian"].get) == "uk"
    assert figures["kazakh"] > 100  # MB: the Cyrillic models came in with the preload ...
    assert figures["read"] < 50  # ... so reading Cyrillic loaded nothing more ...
    assert figures["rest"] > 150  # ... and the Latin and Arabic ones were left for a text that needs them


def test_a_long_sentence_reads_as_with_every_model_and_a_short_one_without_the_long_only_rivals():
    from lingua import LanguageDetectorBuilder

    from curation.checks import language_id

    # 120 letters or more: lingua reads trigrams alone in either mode, so the trigram detector's answer is the one
    # the full detector over all of WORLD gives.
    long = ("Los participantes deben predecir el precio final de venta de cada casa a partir de sus características, "
            "su barrio, su superficie y las fotografías de sus habitaciones.")
    assert language_id._letters(long) >= language_id.LONG
    every_model = LanguageDetectorBuilder.from_languages(*map(language_id._iso, sorted(language_id._WORLD))).build()
    values = {value.language.iso_code_639_1.name.lower(): value.value
              for value in every_model.compute_language_confidence_values(long)}
    candidates = language_id.rivals("es")
    total = sum(values[code] for code in candidates)
    assert language_id.confidences(long, candidates) == pytest.approx({code: values[code] / total for code in candidates})
    # A Catalan tag is not read against Catalan for a French target, but a Catalan target's own models are read.
    assert language_id.confidences("anàlisi de sentiments", language_id.rivals("fr"))["ca"] == 0
    catalan = language_id.confidences("anàlisi de sentiments", language_id.rivals("ca"))
    assert max(catalan, key=catalan.get) == "ca"
