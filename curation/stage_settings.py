"""[ingest], [describe], [tag], [translate], [review], [publish], [synthesize], [outline], [results]: what the
stages read from curate.toml.

Every key carries its description: scripts/config_reference.py writes docs/configuration.md from them.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field, field_validator

from curation.languages import parse_language
from curation.model_settings import Strict


class MetaKaggleSettings(Strict):
    """Which competitions of a Meta Kaggle dump are worth a benchmark task."""

    host_segments: list[str] = Field(
        default_factory=lambda: ["Featured", "Research", "Playground", "Community", "Recruitment"],
        description="Kaggle host segments (`HostSegmentTitle`) a competition must have; empty: any.")
    exclude_classroom: bool = Field(default=True, description="Leave out InClass (classroom) competitions.")
    min_teams: int = Field(default=50, ge=0, description="Fewest teams a competition must have had; 0: no minimum.")
    enabled_after: date | None = Field(
        default=None, description="An ISO date such as 2015-01-01 (TOML date or string): competitions that opened "
                                  "before it are skipped; unset: no bound.")
    enabled_before: date | None = Field(
        default=None, description="An ISO date: competitions that opened on or after it are skipped; unset: no bound.")


class IngestSettings(Strict):
    """`curate ingest`: how many notebooks per competition are kept, and how much of each."""

    top_notebooks: int = Field(default=3, ge=1, description="Notebooks kept per competition (the best ranked "
                                                             "readable ones); `--top N` overrides it.")
    notebook_token_budget: int = Field(
        default=6000, ge=200, description="Text kept per notebook, in tokens (about four characters each); a longer "
                                          "one keeps its head and tail.")
    keep_markdown: bool = Field(default=False, description="Keep a notebook's markdown cells; only code is kept "
                                                           "otherwise.")
    max_notebook_bytes: int = Field(default=20_000_000, ge=1024,
                                    description="A notebook file larger than this is refused as too large.")
    meta_kaggle: MetaKaggleSettings = Field(default=MetaKaggleSettings(),
                                            description="Filters for a Meta Kaggle dump.")


class DescribeSettings(Strict):
    """`curate describe`: the generate, score and refine loop."""

    max_rounds: int = Field(default=3, ge=1, description="Graded versions per competition at most (the first and its "
                                                          "refinements); `--max-rounds` overrides it.")
    good_grades: list[Literal["A", "B", "C", "D"]] = Field(
        default_factory=lambda: ["C", "D"],
        description="Grades that end the loop: the letters rise with quality, and A and B need work.")


DEFAULT_DOMAINS = [
    "healthcare and medical", "finance", "insurance and finance", "urban planning", "eCommerce",
    "social media", "environmental science", "real estate", "human resource management", "synthetic",
    "maritime studies", "content moderation", "information retrieval", "marketing", "education", "sports",
    "crime prediction", "data science",
]


class TagSettings(Strict):
    """`curate tag`: the domains a competition may be tagged with."""

    vocabulary: list[str] = Field(default_factory=lambda: list(DEFAULT_DOMAINS), min_length=1,
                                  description="The domains: each competition gets exactly one of them.")
    allow_new_tags: bool = Field(default=False, description="Keep a domain outside the vocabulary, shown as \"(new)\" "
                                                            "and flagged for a person until it is added.")


LENGTH_RATIOS = {"default": (0.6, 1.9), "zh": (0.15, 0.8), "ja": (0.2, 1.0), "ar": (0.6, 1.6), "ko": (0.25, 1.0)}


class TranslateSettings(Strict):
    """`curate translate`: attempts and the bounds of the automatic checks."""

    max_attempts: int = Field(default=3, ge=1, description="Attempts per text; a text still failing a check after "
                                                            "the last is stored flagged for the annotators.")
    min_confidence: float = Field(
        default=0.5, ge=0, le=1, description="Language ID: the least share of confidence the target language must get "
                                             "against its closest rival, over the whole text.")
    adequacy: bool = Field(
        default=True, description="The adequacy check (sentence embeddings: nothing added, nothing left out); false "
                                  "turns it off.")
    meaning: bool = Field(
        default=True, description="The lexical meaning checks `meaning`, `terms` and `roles` (negations, directions, "
                                  "limits, units, conditions, glossary terms, identifiers' roles); false turns them off.")
    length_ratio: dict[str, tuple[float, float]] = Field(
        default_factory=lambda: dict(LENGTH_RATIOS),
        description="Allowed translation/source length ratio in characters, per target language; \"default\" for the "
                    "rest. The file's entries are added to these, so setting one language keeps the others' (Korean "
                    "is estimated, not measured: Hangul packs a syllable per character, as Japanese kana do).")

    @field_validator("length_ratio")
    @classmethod
    def _known_bounds(cls, bounds: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        for key, (low, high) in bounds.items():
            if key != "default":
                parse_language(key)
            if not 0 < low < high:
                raise ValueError(f"{key} = [{low}, {high}]: give [lowest, highest] ratio, 0 < lowest < highest")
        return {**LENGTH_RATIOS, **{key if key == "default" else parse_language(key).code: value
                                    for key, value in bounds.items()}}


class ReviewSettings(Strict):
    """Review sheets: where they go and who gets them."""

    backend: Literal["xlsx", "sheets"] = Field(default="xlsx", description="Workbooks (`xlsx`) or Google Sheets "
                                                                           "(`sheets`); `--backend` overrides it.")
    annotators: dict[str, list[str]] = Field(
        default_factory=dict, description="Language -> annotator names or e-mail addresses, e.g. "
                                          "`kk = [\"aigerim\", \"dana@example.org\"]`; the first judges every item.")
    second_annotator_share: float = Field(
        default=0.2, ge=0, le=1, description="Share of the items (rounded up) that also go to the other annotators, "
                                             "for the agreement figures.")
    rubric_annotators: int = Field(default=2, ge=1, description="Annotators who score each English description.")
    spreadsheets: dict[str, str] = Field(default_factory=dict,
                                         description="Language -> Google spreadsheet id (the `sheets` backend).")
    drive_folder: str | None = Field(
        default=None, description="A Shared Drive folder where the `sheets` backend finds or creates "
                                  "`<project> review <lang>` for a language with no spreadsheet named.")
    max_retry_seconds: float = Field(default=120.0, ge=0, description="How long Google Sheets' rate limits (429) and "
                                                                      "transient errors are retried.")


class PublishSettings(Strict):
    """`curate publish`: what a release's card says and what it requires."""

    license: str = Field(default="apache-2.0", description="The dataset's license, in the card's front matter.")
    min_rubric_score: int = Field(
        default=1, ge=0, le=2, description="Lowest final rubric score an English description may publish with; a "
                                           "lower one is sent back to describe.")
    citation: str = Field(default="", description="BibTeX for the card; empty: the ML²B entry.")
    task_categories: list[str] = Field(default_factory=lambda: ["text-generation"],
                                       description="The Hub's task categories, in the card's front matter.")


class SynthesizeSettings(Strict):
    """`curate synthesize`: raw datasets -> verified competitions."""

    tasks: int = Field(default=3, ge=1, description="Tasks proposed per dataset at most; `--tasks` overrides it.")
    max_rows: int = Field(default=200_000, ge=100, description="Rows kept in memory per table; a larger table is "
                                                               "profiled and split on a sample.")
    baseline_seconds: float = Field(default=300.0, gt=0, description="The baseline run is stopped after this long ...")
    baseline_memory_mb: int = Field(default=4096, ge=256,
                                    description="... or when it needs more memory than this (MB).")


class OutlineSettings(Strict):
    """`curate outline`: code-free solution outlines from the top notebooks, best of K by a judge."""

    enabled: bool = Field(default=False, description="Make outlines as a step of `curate run`; `curate outline` "
                                                     "makes them whatever this says.")
    candidates: int = Field(default=3, ge=1, le=9, description="Candidate outlines written per competition (K); the "
                                                               "`outline_judge` model picks the best.")
    token_budget: int = Field(default=12000, ge=500, description="Notebook code sent with one request, in tokens, "
                                                                  "shared by the competition's top notebooks (best "
                                                                  "first); each is cut to its share.")
    translate: bool = Field(default=False, description="Translate the outlines into the target languages through "
                                                       "the translate stage and its checks.")


class ResultsSettings(Strict):
    """`curate results`: how the graded runs of agents are judged and summed up."""

    bootstrap_resamples: int = Field(default=2000, ge=100, description="Resamples of the competitions behind each gap "
                                                                       "to English's 95% interval.")
    seed: int = Field(default=0, description="Seeds the bootstrap, so the same runs give the same intervals.")
    implausible_fence: float = Field(
        default=3.0, gt=0, description="A successful run whose score lies beyond its competition's other scores' "
                                       "upper quartile by this many interquartile ranges is a `hallucination`.")
    held_out_paths: list[str] = Field(
        default_factory=list, description="More regular expressions for what submission code may not read (the "
                                          "grader's folders are known already): a match is `leakage`.")

    @field_validator("held_out_paths")
    @classmethod
    def _expressions(cls, patterns: list[str]) -> list[str]:
        import re

        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as error:
                raise ValueError(f"{pattern!r} is not a regular expression ({error})") from None
        return patterns
