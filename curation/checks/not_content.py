"""Answers that are not content: what a model sends instead of a description or a translation.

A model sometimes answers with our own instructions or retry text echoed back, a JSON or schema fragment, a
refusal or an apology, "As an AI ...", or a template placeholder such as `<description>`. Such an answer passes
a schema (it is a string) and may pass the translation checks, so it is caught here and asked again like a
malformed answer; it is never stored as content. A marker that the English source itself contains does not
count (a data card may legitimately show a JSON example).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

# Our own retry and instruction sentences (curation/llm/client.py's correction, the prompts' retry blocks):
# echoed back, they are the model repeating us, not answering.
_ECHOES = (
    "could not be read as", "reply again with only", "matching the schema", "your previous translation failed",
    "translate the text again", "answer with the translation only", "reviewers rejected the previous description",
    "automatic checks failed",
)
_REFUSALS = re.compile(
    r"\bas an ai\b|\bas a (?:large )?language model\b|\bi(?:'m| am) sorry\b|\bi apologi[sz]e\b|\bsorry, but\b"
    r"|\bi (?:cannot|can't|can not|won't|will not) (?:help|assist|provide|comply|translate|write|do that)\b"
    r"|\bi(?:'m| am) (?:unable|not able) to\b", re.IGNORECASE)
_SCHEMA = re.compile(r'"(?:type|properties|required|\$schema|additionalProperties|title)"\s*:', re.IGNORECASE)
_PLACEHOLDERS = re.compile(
    r"<\s*(?:description|translation|text|task description|your [^<>]{1,40}|insert [^<>]{1,40})\s*>"
    r"|\[(?:insert|your|description|translation) ?[^\[\]]{0,40}\]|\{\{?\s*(?:description|text|translation)\s*\}\}?"
    r"|\blorem ipsum\b|^\s*(?:todo|tbd|n/a|\.\.\.|…)\s*$", re.IGNORECASE)
ECHO_WORDS = 8  # this many consecutive words of our instructions in an answer are an echo, not a coincidence


def not_content(text: str, source: str = "", instructions: Iterable[str] = ()) -> str | None:
    """Why `text` is not a description or translation but something else (None when it is content).

    `source` is the English text the answer is about (markers it contains do not count); `instructions` are the
    prompt's own texts, whose echo (ECHO_WORDS consecutive words) is caught too.
    """
    stripped = text.strip()
    lowered, source_lowered = stripped.lower(), source.lower()
    if not stripped:
        return "the answer is empty"
    for echo in _ECHOES:
        if echo in lowered and echo not in source_lowered:
            return f"it repeats our own instructions ({echo!r}) instead of answering"
    if stripped[0] in "{[" and not source.strip().startswith(stripped[0]):
        try:
            json.loads(stripped)
            return "it is a JSON value, not text"
        except ValueError:
            pass
    for pattern, what in ((_SCHEMA, "a JSON or schema fragment"), (_REFUSALS, "a refusal or an apology"),
                          (_PLACEHOLDERS, "a placeholder instead of text")):
        found = pattern.search(stripped)
        if found and found.group(0).strip().lower() not in source_lowered:
            return f"it is {what} ({found.group(0).strip()!r})"
    echoed = _echo(lowered, source_lowered, instructions)
    if echoed:
        return f"it repeats the prompt's instructions ({echoed!r})"
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _echo(answer: str, source: str, instructions: Iterable[str]) -> str | None:
    words = _words(answer)
    if len(words) < ECHO_WORDS:
        return None
    grams = {tuple(words[i:i + ECHO_WORDS]) for i in range(len(words) - ECHO_WORDS + 1)}
    source_words = _words(source)
    from_source = {tuple(source_words[i:i + ECHO_WORDS]) for i in range(len(source_words) - ECHO_WORDS + 1)}
    for text in instructions:
        ours = _words(text)
        for i in range(len(ours) - ECHO_WORDS + 1):
            gram = tuple(ours[i:i + ECHO_WORDS])
            if gram in grams and gram not in from_source:
                return " ".join(gram)
    return None
