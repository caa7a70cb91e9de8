"""The release's README.md: YAML front matter for the Hub plus a body rendered from cards/dataset_card.md.j2."""

from __future__ import annotations

from pathlib import Path

import jinja2
import yaml

from curation.config import Settings
from curation.excerpt import plural
from curation.release.outlines import CONFIG, outlines_path
from curation.release.rows import data_path

TEMPLATE = "dataset_card.md.j2"

DEFAULT_CITATION = """@misc{ml2b,
  title        = {{ML}$^2${B}: Multi-Lingual {ML} Benchmark for {AutoML}},
  author       = {{ML}$^2${B} authors},
  year         = {2025},
  note         = {Multilingual Kaggle-derived task descriptions for evaluating code-generating agents}
}"""


class CardError(Exception):
    """The card template is missing or broken; the message names the file and line."""


def front_matter(settings: Settings, languages: list[str], outlines: bool = False) -> dict:
    """The card's metadata: one config per language with its test split (and the `outlines` config when the release
    has outlines), plus license, languages and categories."""
    extra = [{"config_name": CONFIG, "data_files": [{"split": "test", "path": outlines_path()}]}] if outlines else []
    return {
        "pretty_name": settings.project.pretty_name,
        "license": settings.publish.license,
        "language": list(languages),
        "task_categories": list(settings.publish.task_categories),
        "configs": [{"config_name": language, "data_files": [{"split": "test", "path": data_path(language)}]}
                    for language in languages] + extra,
    }


def render_card(settings: Settings, languages: list[str], context: dict, outlines: bool = False) -> str:
    """README.md text: the front matter dumped by yaml (always valid) and the template's body."""
    folder = settings.path("cards")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    env.filters["plural"] = plural  # {{ count | plural("language") }}: "1 language", "12 languages"
    try:
        template = env.get_template(TEMPLATE)
        body = template.render(**context, citation=settings.publish.citation.strip() or DEFAULT_CITATION)
    except jinja2.TemplateNotFound:
        raise CardError(f"{folder / TEMPLATE}: no such template; copy cards/{TEMPLATE} from the curation "
                        "repository into the project") from None
    except jinja2.TemplateSyntaxError as error:
        raise CardError(f"{folder / TEMPLATE}: line {error.lineno}: {error.message}; fix the template") from None
    except jinja2.UndefinedError as error:
        raise CardError(f"{folder / TEMPLATE}: {error.message}; the template uses a value the release does not "
                        "provide") from None
    metadata = yaml.safe_dump(front_matter(settings, languages, outlines), allow_unicode=True, sort_keys=False)
    return f"---\n{metadata}---\n\n{body.lstrip()}"


def write_card(text: str, root: Path) -> None:
    (root / "README.md").write_text(text, encoding="utf-8")
