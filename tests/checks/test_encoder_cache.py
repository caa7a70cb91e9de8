"""The process-wide cache of sentence vectors (curation/checks/encoders.py) when it is full, as in a long run."""

import numpy as np
import pytest

from curation.checks import encoders
from curation.checks.encoders import EncoderUnavailable, Vectors, model

ENGLISH = "Predict the yield of each field from `train.csv`."
OTHERS = ["The metric is the root mean squared error.", "Submit one row per field.", "Прогнозируйте урожай.",
          "Soumettez une ligne par champ."]


@pytest.fixture
def use():
    try:
        model("use")
    except EncoderUnavailable as error:
        pytest.skip(str(error))


def test_a_vector_cached_long_ago_and_asked_for_beside_new_ones_is_not_lost_when_the_cache_is_full(monkeypatch, use):
    # An English sentence embedded for the first language and asked for again, with a new translation's sentences,
    # when the cache has filled since: it is the oldest entry, and the new ones push the oldest out.
    monkeypatch.setattr(encoders, "_CACHE_SIZE", 3)
    cache = Vectors()
    cache("use", [ENGLISH, OTHERS[0], OTHERS[1]])
    rows = cache("use", [ENGLISH, OTHERS[2], OTHERS[3]])
    fresh = Vectors()("use", [ENGLISH, OTHERS[2], OTHERS[3]])
    assert np.allclose(rows, fresh, atol=1e-6)
    assert cache.has("use", ENGLISH)  # just used: kept, and the least recently used went instead
    assert not cache.has("use", OTHERS[0]) and not cache.has("use", OTHERS[1])


def test_a_call_for_more_texts_than_the_cache_holds_gets_every_vector(monkeypatch, use):
    monkeypatch.setattr(encoders, "_CACHE_SIZE", 2)
    texts = [ENGLISH, *OTHERS, ENGLISH]
    rows = Vectors()("use", texts)
    assert rows.shape[0] == len(texts)
    assert np.allclose(rows[0], rows[-1]) and np.allclose(np.linalg.norm(rows, axis=1), 1, atol=1e-5)
