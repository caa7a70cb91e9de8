"""Settings: curate.toml loaded into typed, validated pydantic models, with secrets from the environment."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, SecretStr, ValidationError, field_validator, model_validator

from curation.language_settings import LanguageNames, check_names, with_project_names
from curation.languages import Language, parse_language
from curation.redaction import looks_like_key, shaped_like_key
# [models] and [prices] live in their own module; Settings and the names other modules import stay here.
from curation.model_settings import (ANTHROPIC_EFFORTS, DEFAULT_MODELS, DEFAULT_PRICES, ModelSettings,  # noqa: F401
                                     Price, RoleParameters, Strict, default_prices)

CONFIG_FILE = "curate.toml"

ROLES = ("describe", "score", "refine", "tag", "translate", "synthesize", "task_review")

# Environment variables that hold secrets; a key of the same name in curate.toml is refused.
SECRET_VARIABLES = {
    "openai_api_key": "OPENAI_API_KEY",
    "anthropic_api_key": "ANTHROPIC_API_KEY",
    "hf_token": "HF_TOKEN",
    "google_application_credentials": "GOOGLE_APPLICATION_CREDENTIALS",
}


class ConfigError(Exception):
    """A curate.toml problem a curator can fix; the message names the key and what to do."""


class ProjectSettings(Strict):
    name: str = "ml2b"
    pretty_name: str = "ML²B"
    source_language: str = "en"
    languages: list[str] = Field(default_factory=lambda: ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"])

    @field_validator("languages")
    @classmethod
    def _known_languages(cls, codes: list[str]) -> list[str]:
        return [parse_language(code).code for code in codes]

    @field_validator("source_language")
    @classmethod
    def _known_source(cls, code: str) -> str:
        return parse_language(code).code

    @property
    def targets(self) -> list[str]:
        """Languages that need a translation: every configured language but the source."""
        return [code for code in self.languages if code != self.source_language]


class PathSettings(Strict):
    competitions: Path = Path("data/competitions")
    store: Path = Path("data/curation.sqlite")
    prompts: Path = Path("prompts")
    cards: Path = Path("cards")
    annotations: Path = Path("annotations")
    reports: Path = Path("reports")
    review_sheets: Path = Path("review")


class MetaKaggleSettings(Strict):
    """Which competitions of a Meta Kaggle dump are worth a benchmark task."""

    host_segments: list[str] = Field(default_factory=lambda: ["Featured", "Research", "Playground", "Community", "Recruitment"])
    exclude_classroom: bool = True
    min_teams: int = Field(default=50, ge=0)
    enabled_after: date | None = None  # 2015-01-01 (TOML date or ISO string); competitions that opened before it are skipped
    enabled_before: date | None = None


class IngestSettings(Strict):
    top_notebooks: int = Field(default=3, ge=1)
    notebook_token_budget: int = Field(default=6000, ge=200)
    keep_markdown: bool = False
    max_notebook_bytes: int = Field(default=20_000_000, ge=1024)
    meta_kaggle: MetaKaggleSettings = MetaKaggleSettings()


class ProviderSettings(Strict):
    """One LLM endpoint. `kind` picks the SDK; an `openai` kind with a base_url reaches vLLM, Ollama, llama.cpp."""

    kind: Literal["openai", "anthropic"]
    base_url: str | None = None
    api_key_env: str | None = None  # variable holding the key; defaults to OPENAI_API_KEY / ANTHROPIC_API_KEY
    structured_output: Literal["auto", "json_schema", "json_mode"] = "auto"
    requests_per_minute: int = Field(default=500, ge=1)
    tokens_per_minute: int = Field(default=200_000, ge=1)
    max_concurrent: int = Field(default=16, ge=1)
    timeout_seconds: float = Field(default=120.0, gt=0)
    max_retry_seconds: float = Field(default=180.0, ge=0)  # 429/5xx/timeouts; a refused connection gives up sooner

    @field_validator("base_url")
    @classmethod
    def _an_address(cls, url: str | None) -> str | None:
        # the value is not repeated: a key pasted here would be printed with it
        if url is not None and not url.lower().startswith(("http://", "https://")):
            raise ValueError("not an http:// or https:// address; put the server's URL there (e.g. "
                             "http://localhost:8000/v1) and any key in the environment")
        return url

    @property
    def key_variable(self) -> str:
        return self.api_key_env or ("ANTHROPIC_API_KEY" if self.kind == "anthropic" else "OPENAI_API_KEY")


def _default_providers() -> dict[str, ProviderSettings]:
    return {
        "openai": ProviderSettings(kind="openai"),
        "anthropic": ProviderSettings(kind="anthropic", requests_per_minute=50, tokens_per_minute=40_000, max_concurrent=8),
    }


class LLMSettings(Strict):
    # None sends no temperature (the model's default): reasoning models refuse any other value.
    temperature: float | None = Field(default=None, ge=0, le=2)
    max_output_tokens: int = Field(default=4096, ge=1)
    validation_retries: int = Field(default=2, ge=0)
    # "batch": each round's uncached requests go to the providers' batch APIs at the batch price (see
    # curation/llm/batching.py); `--batch` on a command does the same for one run.
    mode: Literal["online", "batch"] = "online"
    # First wait between two looks at a submitted batch; it doubles up to 10 minutes.
    batch_poll_seconds: float = Field(default=30.0, gt=0)
    # What happens to requests a batch did not answer (per-request error, expired, cancelled): "pending" leaves
    # their items for the next run, "online" asks them at once through the ordinary API.
    batch_fallback: Literal["pending", "online"] = "pending"
    # How often, within one run, a request its batch did not answer because it expired or met a passing fault (429,
    # 5xx, overloaded) goes into the next round's batch before batch_fallback applies; 0: never. Each resubmission
    # may wait as long as a batch does.
    batch_resubmissions: int = Field(default=3, ge=0)
    # How often a command looks again at a request another command over the same store is sending (it waits for that
    # answer instead of paying for it twice; see curation/llm/claims.py).
    claim_poll_seconds: float = Field(default=0.5, gt=0)


class DescribeSettings(Strict):
    max_rounds: int = Field(default=3, ge=1)
    good_grades: list[Literal["A", "B", "C", "D"]] = Field(default_factory=lambda: ["C", "D"])


DEFAULT_DOMAINS = [
    "healthcare and medical", "finance", "insurance and finance", "urban planning", "eCommerce",
    "social media", "environmental science", "real estate", "human resource management", "synthetic",
    "maritime studies", "content moderation", "information retrieval", "marketing", "education", "sports",
    "crime prediction", "data science",
]


class TagSettings(Strict):
    vocabulary: list[str] = Field(default_factory=lambda: list(DEFAULT_DOMAINS), min_length=1)
    allow_new_tags: bool = False


LENGTH_RATIOS = {"default": (0.6, 1.9), "zh": (0.15, 0.8), "ja": (0.2, 1.0), "ar": (0.6, 1.6), "ko": (0.25, 1.0)}


class TranslateSettings(Strict):
    max_attempts: int = Field(default=3, ge=1)
    min_confidence: float = Field(default=0.5, ge=0, le=1)
    # The adequacy check (sentence embeddings: nothing added, nothing left out); false turns it off.
    adequacy: bool = True
    # Allowed translation/source length ratio in characters, per target language; "default" for the rest. The file's
    # entries are added to these, so setting one language keeps the others' (Korean is estimated, not measured: Hangul
    # packs a syllable per character, as Japanese kana do).
    length_ratio: dict[str, tuple[float, float]] = Field(default_factory=lambda: dict(LENGTH_RATIOS))

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
    backend: Literal["xlsx", "sheets"] = "xlsx"
    annotators: dict[str, list[str]] = Field(default_factory=dict)  # language -> annotator names or emails
    second_annotator_share: float = Field(default=0.2, ge=0, le=1)
    rubric_annotators: int = Field(default=2, ge=1)
    spreadsheets: dict[str, str] = Field(default_factory=dict)  # language -> Google spreadsheet id
    drive_folder: str | None = None
    max_retry_seconds: float = Field(default=120.0, ge=0)


class PublishSettings(Strict):
    license: str = "apache-2.0"
    min_rubric_score: int = Field(default=1, ge=0, le=2)
    citation: str = ""
    task_categories: list[str] = Field(default_factory=lambda: ["text-generation"])


class SynthesizeSettings(Strict):
    tasks: int = Field(default=3, ge=1)  # tasks proposed per dataset at most
    max_rows: int = Field(default=200_000, ge=100)  # rows kept in memory per table; larger tables are sampled
    baseline_seconds: float = Field(default=300.0, gt=0)
    baseline_memory_mb: int = Field(default=4096, ge=256)


class Secrets(BaseModel):
    """Secrets and endpoints, from the environment only."""

    openai_api_key: SecretStr | None = None
    anthropic_api_key: SecretStr | None = None
    openai_base_url: str | None = None
    anthropic_base_url: str | None = None
    hf_token: SecretStr | None = None
    google_application_credentials: str | None = None

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "Secrets":
        env = dict(os.environ) if env is None else env
        return cls(**{name: env.get(name.upper()) or None for name in cls.model_fields})


class Settings(Strict):
    project: ProjectSettings = ProjectSettings()
    paths: PathSettings = PathSettings()
    ingest: IngestSettings = IngestSettings()
    models: ModelSettings = ModelSettings()
    providers: dict[str, ProviderSettings] = Field(default_factory=_default_providers)
    prices: dict[str, Price] = Field(default_factory=default_prices)
    llm: LLMSettings = LLMSettings()
    describe: DescribeSettings = DescribeSettings()
    tag: TagSettings = TagSettings()
    translate: TranslateSettings = TranslateSettings()
    review: ReviewSettings = ReviewSettings()
    publish: PublishSettings = PublishSettings()
    synthesize: SynthesizeSettings = SynthesizeSettings()
    # [languages.<code>]: a project's own harness file name or native name for a language (see `language`).
    languages: dict[str, LanguageNames] = Field(default_factory=dict)
    # Where curate.toml lives; relative paths resolve against it. Not a key of the file.
    root: Path = Path(".")
    secrets: Secrets = Field(default_factory=Secrets)

    @model_validator(mode="after")
    def _named_languages_are_configured(self) -> "Settings":
        check_names([*dict.fromkeys([self.project.source_language, *self.project.languages])], self.languages)
        return self

    def language(self, code: str) -> Language:
        """The registry's entry for a language with this project's names for it (`[languages.<code>]`)."""
        return with_project_names(code, self.languages)

    @model_validator(mode="after")
    def _roles_have_providers(self) -> "Settings":
        for role in self.roles_in_use():
            provider = getattr(self.models, role).split(":", 1)[0]
            if provider not in self.providers:
                known = ", ".join(sorted(self.providers))
                raise ValueError(f"models.{role} uses provider {provider!r}, which is not under [providers] (known: {known})")
        for role, parameters in self.models.parameters.items():
            provider = self.providers.get(getattr(self.models, role).split(":", 1)[0])
            effort = parameters.reasoning_effort
            if provider is not None and provider.kind == "anthropic" and effort not in (None, *ANTHROPIC_EFFORTS):
                raise ValueError(f"models.{role}: reasoning_effort {effort!r} is not an Anthropic effort "
                                 f"({', '.join(ANTHROPIC_EFFORTS)})")
        return self

    def path(self, name: str) -> Path:
        """A configured path, resolved against the project root."""
        value = getattr(self.paths, name)
        return value if value.is_absolute() else self.root / value

    def roles_in_use(self, roles: Iterable[str] = ROLES) -> list[str]:
        """`roles` (by default every role) and `qe` when quality estimation is on: the roles whose models get
        called. qe reads what translate wrote, so it goes with any set of roles that translates."""
        return [*roles, *(("qe",) if self.models.qe else ())]

    def provider_for(self, role: str) -> tuple[str, ProviderSettings, str]:
        """(provider name, provider settings, model) for an LLM role."""
        provider, _, model = getattr(self.models, role).partition(":")
        return provider, self.providers[provider], model

    def role_parameters(self, role: str) -> RoleParameters:
        """A role's call parameters: its table's, else [llm]'s (temperature unset means the model's default)."""
        own = self.models.parameters.get(role) or RoleParameters()
        return RoleParameters(
            temperature=own.temperature if own.temperature is not None else self.llm.temperature,
            reasoning_effort=own.reasoning_effort,
            max_output_tokens=own.max_output_tokens or self.llm.max_output_tokens)

    def changed_parameters(self, role: str) -> dict[str, object]:
        """A role's call parameters that differ from curation's defaults: part of what makes a stored output stale.

        Only the changed ones, so a project that never set any keeps the staleness hashes it always had."""
        defaults = LLMSettings()
        default = RoleParameters(temperature=defaults.temperature, max_output_tokens=defaults.max_output_tokens)
        used = self.role_parameters(role).model_dump()
        return {name: value for name, value in used.items() if value != getattr(default, name)}

    def api_key(self, provider: ProviderSettings) -> str | None:
        """The key for a provider, from the environment; never from curate.toml."""
        return os.environ.get(provider.key_variable) or None

    def base_url(self, provider_name: str, provider: ProviderSettings) -> str | None:
        """The endpoint: OPENAI_BASE_URL / ANTHROPIC_BASE_URL override the default providers' base_url."""
        if provider_name == "openai" and self.secrets.openai_base_url:
            return self.secrets.openai_base_url
        if provider_name == "anthropic" and self.secrets.anthropic_base_url:
            return self.secrets.anthropic_base_url
        return provider.base_url


def _refuse_secrets(data: dict, where: str = "") -> None:
    """Refuse a secret written into curate.toml, in a line that names the key and never shows the value."""
    kind = data.get("kind") or where.removeprefix("providers.").rstrip(".")
    default = "ANTHROPIC_API_KEY" if kind == "anthropic" else "OPENAI_API_KEY"
    named = data.get("api_key_env")
    if isinstance(named, str) and looks_like_key(named):
        raise ConfigError(f"{CONFIG_FILE}: {where}api_key_env holds what looks like a key, not the name of an "
                          f"environment variable; put the variable's NAME there (e.g. {default}) and the key in the "
                          "environment under that name")
    for key, value in data.items():
        if key.lower() in SECRET_VARIABLES or key.lower().endswith(("api_key", "_token", "password")):
            variable = SECRET_VARIABLES.get(key.lower(), key.upper())
            if key.lower() == "api_key" and where.startswith("providers."):
                # a provider's key lives in its own variable: api_key_env, or the one its SDK kind reads
                variable = named or default
            raise ConfigError(f"{CONFIG_FILE}: {where}{key} looks like a secret; remove it and set the environment variable {variable} instead")
        # a key pasted into any other setting (base_url, a model, a list) would be echoed with it: refuse it unshown
        if any(isinstance(item, str) and shaped_like_key(item) for item in (value if isinstance(value, list) else [value])):
            raise ConfigError(f"{CONFIG_FILE}: {where}{key} holds what looks like a key; keys never go in {CONFIG_FILE}: "
                              "remove it and put the key in the environment (a provider's api_key_env names the "
                              "variable)")
        if isinstance(value, dict):
            _refuse_secrets(value, f"{where}{key}.")


def _describe_error(error: ValidationError) -> str:
    first = error.errors()[0]
    # a role's table keeps its parameters under models.parameters.<role>; name them as the file spells them
    where = ".".join(str(part) for part in first["loc"]).replace("models.parameters.", "models.") or "(top level)"
    if first["type"] == "extra_forbidden":
        return f"{CONFIG_FILE}: unknown key {where}; check its spelling against the documented keys in README.md"
    message = first["msg"].removeprefix("Value error, ")
    # a rule across sections has no one key: its message names the keys
    return f"{CONFIG_FILE}: {where}: {message}" if first["loc"] else f"{CONFIG_FILE}: {message}"


def _nearest_config() -> Path:
    """curate.toml in the working folder or the nearest folder above it, as git finds its repository, so a
    command run from a project's subfolder (data/, review/) uses that project; ./curate.toml when there is none."""
    here = Path.cwd()
    for folder in (here, *here.parents):
        if (folder / CONFIG_FILE).is_file():
            return folder / CONFIG_FILE
    return Path(CONFIG_FILE)


def load_settings(path: Path | str | None = None, env: dict[str, str] | None = None) -> Settings:
    """Read curate.toml (the nearest one up from the working folder, or defaults when there is none and no path
    was given) into Settings."""
    explicit = path is not None
    file = Path(path) if explicit else _nearest_config()
    if file.is_dir():
        file = file / CONFIG_FILE
    data: dict = {}
    if file.exists():
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{file}: not valid TOML ({error})") from None
        except UnicodeDecodeError as error:
            line = file.read_bytes()[:error.start].count(b"\n") + 1
            raise ConfigError(f"{file}: line {line} is not UTF-8 (byte 0x{error.object[error.start]:02x}); save the file "
                              "as UTF-8 in your editor") from None
        except OSError as error:
            raise ConfigError(f"{file}: cannot be read ({error.strerror or error}); check its permissions") from None
    elif explicit:
        raise ConfigError(f"{file}: no such file; run `curate init DIR` to create a project")
    for reserved in ("root", "secrets"):
        if reserved in data:
            raise ConfigError(f"{CONFIG_FILE}: unknown key {reserved}; check its spelling against the documented keys in README.md")
    _refuse_secrets(data)
    try:
        return Settings(**data, root=file.parent.resolve(), secrets=Secrets.from_env(env))
    except ValidationError as error:
        raise ConfigError(_describe_error(error)) from None

