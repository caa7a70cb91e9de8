"""Failed automatic checks in words an annotator understands, one plain sentence each.

The checks (curation/checks/translation.py's REGISTRY and the optional `qe` pass) report to the curator in their
own terms: `length: length ratio 0.41 outside 0.60-1.90 (cut short?)`. A native speaker reading the sheet needs
what that means for the text in front of her: "much shorter than the English: the end or a part may be missing". The
check names stay with the curator (the store, `curate status`, `--json`); the sheet's "Check failed" cell and
pull's refusal of a version speak these sentences.

The sentences are chosen from the check's detail, whose wording the checks own; a detail this module does not
recognise still gets the check's general sentence, never the raw detail (the qe findings excepted: they are
already sentences, written for a reader).
"""

from __future__ import annotations

import re

from curation.checks.quality_estimate import KINDS
from curation.languages import parse_language
from curation.records import CheckResult
from curation.review.authority import PROTECTED_CHECKS

# "'Survived' appears 0 times, the source has 1" (placeholders) and "0.5 appears 0 times, the source has 2
# (written '0,5': ...)" (numbers): the value, how often the text has it, how often the English has it.
_COUNT = re.compile(r"(?P<value>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+) appears (?P<got>\d+) times?, "
                    r"the source has (?P<want>\d+)(?: \(written (?P<written>'[^']*'|\"[^\"]*\"))?")

NO_YES = "a YES cannot publish it, so correct it in 'Your version'"
# One qe finding as curation/checks/quality_estimate.py writes it: "direction (major): the translation says 'x' where
# the English says 'y' — explanation", or as it wrote it before the meaning classes: "omission (major): 'span' — ...".
_FINDING = re.compile(r"\b(?P<category>[a-z]+) \((?P<severity>minor|major|critical)\): (?P<span>'(?:[^'\\]|\\.)*'|"
                      r"\"(?:[^\"\\]|\\.)*\"|the translation [^—]*?) — ")
_FOUND = {**KINDS, "addition": "something added that the English does not say",
          "omission": "something of the English left out", "terminology": "a wrong term"}
_SEVERITY = {"major": "serious", "critical": "critical", "minor": "minor"}


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _unquote(value: str) -> str:
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"" else value


def _counts(detail: str, subject: str, numbers: bool) -> list[str]:
    """The rule once, then each value it was broken for: a text that lost 19 identifiers gets one sentence listing
    them, not the same sentence 19 times."""
    found = []
    for match in _COUNT.finditer(detail):
        value, got, want = _unquote(match["value"]), int(match["got"]), int(match["want"])
        has = f"{subject} has it {_times(got) if got else 'nowhere'}"
        if numbers and match["written"]:
            has += f" (it writes {_unquote(match['written'])})"
        found.append((value, want, has))
    if not found:
        return []
    if len(found) == 1:
        [(value, want, has)] = found
        if numbers:
            return [f"the number {value} must stay written exactly so and appear at least {_times(want)}, as in the "
                    f"English; {has}"]
        return [f"the identifier {value} must stay exactly as written and appear {_times(want)}, as in the English; "
                f"{has}"]
    # Values broken the same way share their counts: "`a`, `b` (once in the English; has it nowhere)".
    groups: dict[tuple[int, str], list[str]] = {}
    for value, want, has in found[:_LISTED]:
        groups.setdefault((want, has.removeprefix(subject + " ")), []).append(value)
    listed = [f"{', '.join(values)} ({_times(want)} in the English; {has})" for (want, has), values in groups.items()]
    more = f" and {len(found) - _LISTED} more" if len(found) > _LISTED else ""
    if numbers:
        rule = "these numbers must stay written exactly so and appear at least as often as in the English"
    else:
        rule = "these identifiers must stay exactly as written and appear as often as in the English"
    return [f"{rule}: {', '.join(listed)}{more}"]


_LISTED = 8  # values named in one sentence; the rest are counted


def _length(detail: str, subject: str) -> str:
    if "is empty" in detail:
        return f"{subject} is empty"
    if re.search(r"one word for the \d+ of|\d+ characters for the \d+ word", detail):  # a tag lost a word
        return "shorter than the English: a word of it seems to be missing"
    if "stops mid-sentence" in detail:
        return "it stops in the middle of a sentence: the end seems to be missing"
    if "cut short" in detail:
        return "much shorter than the English: the end or a part may be missing"
    if "run-on or padded" in detail:
        return "much longer than the English: something may be added or repeated"
    if " list items, the source has" in detail or " list item, the source has" in detail:
        return "the list items do not match the English: an item may be missing, added or joined to another"
    if " paragraphs, the source has" in detail:
        return "the paragraphs do not match the English: keep the same paragraph breaks"
    return "much shorter or longer than the English: something may be missing or added"


_Q = r"(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"  # a quoted text as repr() writes it
_LEFT_OUT = re.compile(rf"condition: line (?P<line>\d+) {_Q} leaves out (?P<phrase>{_Q}) of English line")


def _adequacy(detail: str) -> str:
    added, omitted = "added:" in detail, "omitted:" in detail
    # a condition phrase the translated sentence reads without (curation/checks/scopes.py), named with its words
    left_out = [f"a condition seems left out: the English says {match['phrase']}, the translation (line "
                f"{match['line']}) seems to say nothing for it" for match in _LEFT_OUT.finditer(detail)]
    unaligned = [_unaligned(added, omitted)] if added or omitted or not left_out else []
    return "; ".join(dict.fromkeys(unaligned + left_out))


def _unaligned(added: bool, omitted: bool) -> str:
    if added and not omitted:
        return "a sentence or part of one seems to say something the English does not"
    if omitted and not added:
        return "a sentence of the English seems to be missing"
    return "a sentence seems to be missing, or something added, compared with the English"


_WORDS = rf"{_Q}(?:, {_Q})*"
_SAYS = re.compile(rf"^(?P<kind>\w+): line (?P<line>\d+) {_Q} says (?P<said>{_WORDS}) \([\w, ]+\) where English line "
                   rf"\d+ {_Q} says (?P<english>{_WORDS})")
_LOST = re.compile(rf"^negation: line (?P<line>\d+) {_Q} has no negation where English line \d+ {_Q} says "
                   rf"(?P<english>{_WORDS})")
_GAINED = re.compile(rf"^negation: line (?P<line>\d+) {_Q} says (?P<said>{_WORDS}) where English")
_DROPPED = re.compile(rf"^condition: line (?P<line>\d+) {_Q} has nothing for (?P<english>{_WORDS})")
_TERM = re.compile(rf"^term: the English says (?P<english>{_WORDS}) \((?P<term>[^)]*)\), the translation has none of "
                   rf"(?P<forms>.*?) but (?P<said>{_WORDS}) \((?P<other>[^)]*)\)")
_KIND = {"direction": "a direction seems reversed", "comparison": "a comparison or limit seems reversed",
         "unit": "a unit or scale seems changed"}


def _meaning(detail: str) -> str:
    """The meaning, terms and roles checks' problems, each in plain words with the words on both sides."""
    said = []
    for problem in re.split(r"; (?=(?:negation|direction|comparison|unit|condition|term|role): )", detail):
        if match := _SAYS.match(problem):
            said.append(f"{_KIND.get(match['kind'], 'the meaning seems changed')}: the translation says {match['said']} "
                        f"(line {match['line']}) where the English says {match['english']}")
        elif match := _LOST.match(problem):
            said.append(f"a negation seems lost: the English says {match['english']}, the translation (line "
                        f"{match['line']}) does not negate")
        elif match := _GAINED.match(problem):
            said.append(f"a negation seems added: the translation says {match['said']} (line {match['line']}) where "
                        "the English does not negate")
        elif match := _DROPPED.match(problem):
            said.append(f"a condition seems left out: the English says {match['english']}, the translation (line "
                        f"{match['line']}) has nothing for it")
        elif match := _TERM.match(problem):
            said.append(f"the term {match['english']} ({match['term']}) is written {match['said']}, the glossary's word "
                        f"for {match['other']} (the glossary has {match['forms']})")
        elif problem.startswith("term:"):
            said.append("a value or a negation goes with another term than in the English: " + problem[6:])
        elif problem.startswith("role:"):
            said.append("identifiers seem to have swapped roles or sentences compared with the English: " + problem[6:])
    return "; ".join(dict.fromkeys(said)) or ("what the translation says may differ from the English (a negation, a "
                                               "direction, a limit, a unit, a term or an identifier's role)")


def explain(name: str, detail: str, language: str, subject: str = "the translation") -> str:
    """One plain sentence for one failed check (its name and detail), about `subject` ("the translation" or
    "your version")."""
    target = parse_language(language).english if language else "the target language"
    if name == "placeholders":
        said = _counts(detail, subject, numbers=False)
        if "placeholder debris" in detail:
            said.append("stray ⟦ ⟧ marks are left in the text: remove them")
        return "; ".join(said) or ("an identifier (code, a column, file or metric name, a URL) was changed, lost or "
                                   "repeated: each must stay exactly as written, as many times as in the English")
    if name == "numbers":
        return "; ".join(_counts(detail, subject, numbers=True)) or (
            "a number was changed or lost: every number must stay exactly as written in the English (0.5, not 0,5)")
    if name == "language":
        rival = re.search(r"reads (?:more )?as (?P<rival>[A-Z][\w ]*?)(?: \(| than|$)|: (?P<cjk>Chinese|Japanese), not", detail)
        if detail.startswith("no text in the"):
            return f"there is no {target} text in it: it may be written in another alphabet or left in English"
        if rival:
            return (f"some of it reads like {rival['rival'] or rival['cjk']} rather than {target}: check that every "
                    f"sentence is natural {target}")
        return f"some of it may not read as {target}: check that every sentence is natural {target}"
    if name == "length":
        return _length(detail, subject)
    if name == "not_copy":
        return "some of it is still in English, copied rather than translated"
    if name == "script":
        if "traditional characters" in detail:
            return "it uses traditional Chinese characters: write simplified ones"
        found = re.search(r"are not (?P<script>\w+) \((?P<foreign>\w+)", detail)
        if found:
            return (f"too many letters are not {found['script']} (here {found['foreign']}): a word may be left "
                    "untranslated or transliterated")
        return f"too many letters are not in the {target} alphabet: a word may be left untranslated or transliterated"
    if name == "adequacy":
        return _adequacy(detail)
    if name in ("meaning", "terms", "roles"):
        return _meaning(detail)
    if name == "qe":
        if not detail:
            return "a second model reading the translation found a serious error"
        found = _FINDING.sub(lambda m: f"{_FOUND.get(m['category'], m['category'])} "
                                       f"({_SEVERITY.get(m['severity'], m['severity'])}), {m['span']}: ", detail)
        return "a second model reading the translation found " + found.replace(".; ", "; ")
    return f"the automatic check '{name}' did not pass"  # a check added later without a sentence here yet


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[0].upper() + text[1:] if text else text
    return text if text.endswith((".", "!", "?")) else text + "."


def check_cell(failed: list[CheckResult], language: str) -> str:
    """The "Check failed" cell of a row: one sentence per failed check, one per line; a protected identifier or
    number says that a YES cannot publish the text."""
    lines = []
    for check in failed:
        said = explain(check.name, check.detail, language)
        lines.append(_sentence(f"{said}; {NO_YES}" if check.name in PROTECTED_CHECKS else said))
    return "\n".join(lines)


def refusal(failed: list[CheckResult], language: str) -> str:
    """Why pull does not take an annotator's version: each failed check's sentence, about 'your version'."""
    return "; ".join(explain(check.name, check.detail, language, subject="your version") for check in failed)
