"""Prompt templates: one file per LLM role in prompts/, rendered with Jinja2; the file's hash joins every cache key.

A prompt file holds a line `[system]`, the system text, a line `[user]`, and the user template. Both parts are
Jinja2 templates (undefined variables are errors, so a renamed variable cannot silently render empty).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import jinja2

from curation.config import Settings
from curation.fingerprint import file_hash

# Stands in for a quoted variable while the prompt's own words are rendered: no template or text holds it.
_QUOTED = "\x00"
_ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=False, autoescape=False)


@lru_cache(maxsize=64)
def _template(source: str) -> jinja2.Template:
    # Compiling costs about 10 ms a template, on the event loop of a run that renders one prompt per request.
    return _ENV.from_string(source)


class PromptError(Exception):
    """A prompt file is missing or malformed; the message names the file."""


@dataclass(frozen=True)
class Prompt:
    name: str
    path: Path
    system: str
    user: str
    hash: str  # sha256 of the file's bytes

    def render(self, **variables: object) -> list[dict[str, str]]:
        """Chat messages for this prompt with the variables filled in."""
        try:
            system = _template(self.system).render(**variables).strip()
            user = _template(self.user).render(**variables).strip()
        except jinja2.TemplateError as error:
            raise PromptError(f"{self.path}: {error}") from None
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def own_words(self, quoted: Iterable[str], **variables: object) -> list[str]:
        """The prompt's own words, rendered with `variables`, without what the `quoted` variables bring in.

        A text to translate, a previous answer, a reviewer's request or a check's quotes are other people's words:
        an answer that keeps them is not repeating our instructions."""
        cut = {name: ([_QUOTED] if variables.get(name) else []) if isinstance(variables.get(name), list | tuple)
               else (_QUOTED if variables.get(name) else "") for name in quoted}
        pieces = [message["content"] for message in self.render(**{**variables, **cut})]
        return [part for piece in pieces for part in piece.split(_QUOTED) if part.strip()]


def load_prompt(settings: Settings, name: str) -> Prompt:
    """Read prompts/<name>.md."""
    path = settings.path("prompts") / f"{name}.md"
    if not path.exists():
        raise PromptError(f"{path}: prompt file missing; restore it from the repository or `curate init`")
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    try:
        system_at = lines.index("[system]")
        user_at = lines.index("[user]")
    except ValueError:
        raise PromptError(f"{path}: a prompt needs a line `[system]` and a line `[user]`") from None
    if user_at < system_at:
        raise PromptError(f"{path}: `[system]` must come before `[user]`")
    return Prompt(
        name=name,
        path=path,
        system="\n".join(lines[system_at + 1:user_at]),
        user="\n".join(lines[user_at + 1:]),
        hash=file_hash(path),
    )
