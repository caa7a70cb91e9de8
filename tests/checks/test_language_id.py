"""Preloading lingua for some targets loads their scripts' models only, and the detector still knows the world."""

from __future__ import annotations

import json
import subprocess
import sys

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
