"""A fake provider that answers the sample project's requests with real texts, for `curate run` end to end.

describe and score answer with the English task descriptions of tests/checks/natural/calibration/sources.json,
tag with their domain tags, and translate with the real translations of the calibration set into all 12 targets
(tests/checks/natural/calibration/<lang>.json), so every automatic check, adequacy included, runs as on a real
run's answers. Which translation comes back is decided per text by `Plan`:

- most texts: the plain translation at once;
- every third text, counted in another order per language ("broken first"): a broken translation of a class the checks must catch (a number damaged, a
  sentence left in English, a neighbour language, ...) at the first attempt, the plain one on the retry;
- every third text from the second ("restructured"): a correct translation that merges or splits sentences,
  reorders clauses or starts a sentence with a file name, which must be kept as it is;
- the texts of `always_broken`: broken at every attempt, so they reach the annotators flagged.

With `[models] qe` set, the reviewing model finds one major error in each answer the plan breaks on purpose and none
in the others, whatever the word-list checks suspected.

Use it as a responder of tests/fakes/llm_server.py (`llm_server.respond_with(SampleModel())`), or run a server a
curator can point `curate run` at, the README's main job without a key:

    python -m tests.fakes.sample_model --port 8765 [--latency 0.3]
    # prints the two export lines to paste, then serves until killed
"""

from __future__ import annotations

import argparse
import json
import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from curation.checks.masking import mask_identifiers, placeholder
from curation.languages import LANGUAGES
from tests.checks import natural
from tests.stages.scripted_models import TaskWriter

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
BY_NAME = {language.english: code for code, language in LANGUAGES.items()}
# The classes a broken first attempt is taken from: those the hard rules and the language checks own, so that what
# this fake exercises is the pipeline (retries, prompts, what reaches the sheets); how often each class is caught is
# scripts/bench_translation_checks.py's to measure.
FIRST_BROKEN = ("number_damaged", "number_dropped", "english_echo", "wrong_script", "language_confusion")
RESTRUCTURED = ("merge", "split", "reorder", "lowercase_start")


@lru_cache(maxsize=None)  # every Plan asks for the same few thousand: masking them again was most of a Plan's cost
def masked_answer(translation: str, source: str, names: tuple[str, ...] = ()) -> str | None:
    """A real translation as a model returns it: each of the English text's protected spans as its placeholder.

    The translation's own protected spans are matched to the English ones by their text; None when one of them has
    no English counterpart (a variant that writes "43 %" for a masked "43%" is not an answer a model could give)."""
    english = mask_identifiers(source, names)
    free = {}
    for number, span in enumerate(english.spans, start=1):
        free.setdefault(span, []).append(number)
    own = mask_identifiers(translation, names)
    answer = own.text
    for number, span in enumerate(own.spans, start=1):
        if not free.get(span):
            return None
        answer = answer.replace(placeholder(number), f"\0{free[span].pop(0)}\0", 1)
    if any(free.values()):
        return None
    return re.sub(r"\0(\d+)\0", lambda match: placeholder(int(match.group(1))), answer)


SENTENCES = Path(__file__).resolve().parents[1] / "checks" / "sentences.json"
PLACEHOLDER_NUMBER = re.compile(r"⟦(\d+)⟧")


@lru_cache(maxsize=1)
def careful_translations() -> dict[str, dict[str, str]]:
    """English text -> language -> its careful translation, which every check passes: the calibration set's plain
    translations of the sample's 21 texts, and tests/checks/sentences.json's translations of its own texts."""
    known: dict[str, dict[str, str]] = {}
    sentences = json.loads(SENTENCES.read_text(encoding="utf-8"))
    for text_id, english in sentences["sources"].items():
        for language, translations in sentences["translations"].items():
            known.setdefault(english, {})[language] = translations[text_id]
    for language in natural.LANGUAGES:  # the calibration set's, where both hold a text
        correct = natural.language_file("calibration", language)["correct"]
        for text_id, text in natural.sources("calibration").items():
            plain = [entry for entry in correct[text_id] if not entry["variation"]]
            known.setdefault(text["text"], {})[language] = plain[0]["text"]
    return known


@lru_cache(maxsize=4096)
def careful_answer(language: str, masked: str) -> str | None:
    """The careful translation of a text the sets hold, as a model returns it for `masked` (the English with its
    protected spans as placeholders, whatever names the caller protected); None for a text they do not hold."""
    pieces = PLACEHOLDER_NUMBER.split(masked)  # literal, number, literal, number, ...
    pattern = re.compile("".join(re.escape(piece) if place % 2 == 0 else "(.+?)"
                                 for place, piece in enumerate(pieces)), re.DOTALL)
    for english, translations in careful_translations().items():
        if language in translations and (match := pattern.fullmatch(english)):
            spans = dict(zip(map(int, pieces[1::2]), match.groups()))
            return with_placeholders(translations[language], spans)
    return None


def with_placeholders(translation: str, spans: dict[int, str]) -> str | None:
    """`translation` with each span's first free occurrence as its placeholder (a longer span first: it may hold a
    shorter one); None when a span is not in it."""
    answer = translation
    for number, span in sorted(spans.items(), key=lambda item: (-len(item[1]), item[0])):
        found = re.search(rf"(?<![A-Za-z0-9_]){re.escape(span)}(?![A-Za-z0-9_])", answer)
        if not found:
            return None
        answer = answer[:found.start()] + f"\0{chr(0xE000 + number)}\0" + answer[found.end():]
    return re.sub(r"\0(.)\0", lambda match: placeholder(ord(match.group(1)) - 0xE000), answer)


def sample_competitions() -> dict[str, str]:
    """Competition name -> slug of every competition of data/sample."""
    names = {}
    for folder in sorted(SAMPLE.iterdir()):
        meta = yaml.safe_load((folder / "competition.yaml").read_text(encoding="utf-8"))
        names[meta["comp_name"]] = meta["competition"]
    return names


def sample_texts(slug: str) -> dict[str, str]:
    """kind (description, data_card, domain) -> English text of one sample competition in the calibration set."""
    sources = natural.sources("calibration")
    return {kind: sources[text_id]["text"] for kind, text_id in _texts_of(slug).items()}


def _texts_of(slug: str) -> dict[str, str]:
    """kind -> text id of one competition's texts in the calibration set."""
    return {text["kind"]: text_id for text_id, text in natural.sources("calibration").items()
            if text["competition"] == slug}


@dataclass
class Plan:
    """What the fake translator answers for each (language, text id), attempt by attempt."""

    always_broken: set[tuple[str, str]] = field(default_factory=lambda: {("kk", "titanic_domain"),
                                                                         ("fr", "house_description")})
    kinds: dict[tuple[str, str], str] = field(default_factory=dict)  # plain | broken first | restructured | always broken
    answers: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    plain_only: bool = False  # every text its plain translation at once: tests of what comes after translate

    @classmethod
    def plain(cls) -> Plan:
        """Every text answered with its careful translation, which every check passes: for tests of the stages
        and commands around translate, in the default configuration, that count requests or read the sheets."""
        return cls(always_broken=set(), plain_only=True)

    def __post_init__(self) -> None:
        sources = natural.sources("calibration")
        for shift, language in enumerate(natural.LANGUAGES):
            data = natural.language_file("calibration", language)
            for place, (text_id, text) in enumerate(sorted(sources.items()), start=shift):
                names = tuple(text["names"])
                correct = [entry for entry in data["correct"][text_id] if not entry["variation"]]
                plain = masked_answer(correct[0]["text"], text["text"], names)
                broken = [masked_answer(entry["text"], text["text"], names) for defect in FIRST_BROKEN
                          for entry in data["broken"].get(text_id, []) if entry["defect"] == defect]
                broken = [answer for answer in broken if answer]
                restructured = [masked_answer(entry["text"], text["text"], names) for entry in data["correct"][text_id]
                                if set(entry["variation"]) & set(RESTRUCTURED)]
                restructured = [answer for answer in restructured if answer]
                key = (language, text_id)
                if self.plain_only:
                    self.kinds[key], self.answers[key] = "plain", [plain]
                elif key in self.always_broken and broken:
                    self.kinds[key], self.answers[key] = "always broken", [broken[0]]
                elif place % 3 == 1 and broken:
                    self.kinds[key], self.answers[key] = "broken first", [broken[0], plain]
                elif place % 3 == 2 and restructured:
                    self.kinds[key], self.answers[key] = "restructured", [restructured[0]]
                else:
                    self.kinds[key], self.answers[key] = "plain", [plain]

    def answer(self, language: str, text_id: str, attempt: int) -> str:
        answers = self.answers[language, text_id]
        return answers[min(attempt, len(answers)) - 1]

    def final(self, language: str, text_id: str) -> str:
        """The text the plan leaves stored (restored from its placeholders)."""
        return self._restored(text_id, self.answers[language, text_id][-1])

    def broken_on_purpose(self, language: str, text_id: str, text: str) -> bool:
        """Whether `text` (restored) is an answer the plan breaks on purpose."""
        if self.kinds[language, text_id] not in ("broken first", "always broken"):
            return False
        return text == self._restored(text_id, self.answers[language, text_id][0])

    @staticmethod
    def _restored(text_id: str, answer: str) -> str:
        text = natural.sources("calibration")[text_id]
        masked = mask_identifiers(text["text"], tuple(text["names"]))
        return re.sub(r"⟦(\d+)⟧", lambda match: masked.spans[int(match.group(1)) - 1], answer)


class SampleModel:
    """Answers describe, score, tag and translate requests of the sample project from the calibration set (outline
    and outline_judge as tests/stages/scripted_models.py's TaskWriter does)."""

    def __init__(self, plan: Plan | None = None) -> None:
        self.plan = plan or Plan()
        competitions = sample_competitions()
        sources = natural.sources("calibration")
        self.writer = TaskWriter(
            first={name: sources[_texts_of(slug)["description"]]["text"] for name, slug in competitions.items()},
            domains={name: [sources[_texts_of(slug)["domain"]]["text"]] for name, slug in competitions.items()})
        self._by_masked = {}
        self._by_source = {text["text"]: text_id for text_id, text in sources.items()}
        for text_id, text in sources.items():
            names = tuple(text["names"]) if text["kind"] != "domain" else ()
            self._by_masked[mask_identifiers(text["text"], names).text] = text_id
        self.asked: list[tuple[str, str, int]] = []  # (language, text id, attempt) of each translate request
        self._lock = threading.Lock()

    def __call__(self, request):
        user = request.user_text
        if request.system_text.startswith("You are a meticulous reviewer of translations"):
            return self._review(user)
        if not user.startswith("Translate this"):
            return self.writer(request)
        language = BY_NAME[re.match(r"Translate this .*? into (\w+)\.", user).group(1)]
        masked = re.findall(r"<<<\n(.*?)\n>>>", user, re.DOTALL)[-1]
        if masked not in self._by_masked:
            # A text the calibration set has no translation of (a solution outline, [outline] translate = true): the
            # English back, as a model that failed to translate would, for the checks to flag.
            return masked
        text_id = self._by_masked[masked]
        attempt = int(match.group(1)) if (match := re.search(r"\(attempt (\d+) of \d+\)", user)) else 1
        with self._lock:
            self.asked.append((language, text_id, attempt))
        return self.plan.answer(language, text_id, attempt)


    def _review(self, user: str) -> dict:
        """The qe model's answer: a major finding for an answer the plan breaks on purpose, none for the others."""
        english, translation = re.findall(r"<<<\n(.*?)\n>>>", user, re.DOTALL)[:2]
        language = BY_NAME[re.search(r"^(\w+) translation:$", user, re.M).group(1)]
        text_id = self._by_source.get(english)
        if text_id is None or not self.plan.broken_on_purpose(language, text_id, translation):
            return {"findings": []}
        return {"findings": [{"category": "mistranslation", "severity": "major", "span": " ".join(translation.split()[:6]),
                              "source_span": " ".join(english.split()[:6]),
                              "explanation": "This part does not say what the English says."}]}


def main() -> None:
    from tests.fakes.llm_server import FakeLLMServer

    parser = argparse.ArgumentParser(description="Serve the sample project's answers (real texts) until killed.")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
    args = parser.parse_args()
    server = FakeLLMServer(latency=args.latency, port=args.port).start()
    server.respond_with(SampleModel())
    print(f"export OPENAI_BASE_URL={server.openai_base_url}\nexport ANTHROPIC_BASE_URL={server.anthropic_base_url}",
          flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
