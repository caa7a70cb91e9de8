"""Settings: curate.toml loaded into typed, validated pydantic models, with secrets from the environment."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, Field, SecretStr, ValidationError, field_validator, model_validator

from curation.language_settings import LanguageNames, check_names, with_project_names
from curation.languages import Language, parse_language
from curation.redaction import looks_like_key, shaped_like_key
# The sections live in their own modules; Settings and the names other modules import stay here.
from curation.model_settings import (ANTHROPIC_EFFORTS, DEFAULT_MODELS, DEFAULT_PRICES, LLMSettings,  # noqa: F401
                                     ModelSettings, Price, ProviderSettings, RoleParameters, Strict, default_prices,
                                     default_providers)
from curation.stage_settings import (DEFAULT_DOMAINS, LENGTH_RATIOS, DescribeSettings, IngestSettings,  # noqa: F401
                                     MetaKaggleSettings, OutlineSettings, PublishSettings, ResultsSettings,
                                     ReviewSettings, SynthesizeSettings, TagSettings, TranslateSettings)

CONFIG_FILE = "curate.toml"
# Where a misspelled key is sent to look; scripts/config_reference.py writes it from the models below.
REFERENCE = "docs/configuration.md"
# Settings fields that are not keys of the file: curate.toml may not set them.
NOT_KEYS = ("root", "secrets")

ROLES = ("describe", "score", "refine", "tag", "translate", "synthesize", "task_review", "outline", "outline_judge")
# Roles called only when their stage is on for the project ([outline] enabled); `curate outline` names them itself.
OUTLINE_ROLES = ("outline", "outline_judge")

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
    """The benchmark: its names and its languages."""

    name: str = Field(default="ml2b", description="The project's short name (Google Sheets name a language's "
                                                  "spreadsheet `<name> review <lang>`).")
    pretty_name: str = Field(default="ML²B", description="The name a release's card and the review report show.")
    source_language: str = Field(default="en", description="The language descriptions and data cards are written in.")
    languages: list[str] = Field(
        default_factory=lambda: ["ar", "be", "zh", "en", "ru", "fr", "it", "ja", "kk", "pl", "ro", "es", "tr"],
        description="ISO 639-1 codes: the 13 of ML²B by default; any of the 75 the language identifier reads "
                    "(`curate languages --all`).")

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
    """Where the project's files are; a relative path resolves against the folder of curate.toml."""

    competitions: Path = Field(default=Path("data/competitions"), description="Competition folders `curate ingest` "
                                                                              "reads and synthesize adds to.")
    store: Path = Field(default=Path("data/curation.sqlite"), description="The SQLite working store.")
    prompts: Path = Field(default=Path("prompts"), description="Prompt templates, one file per LLM role.")
    cards: Path = Field(default=Path("cards"), description="The release's dataset-card template.")
    annotations: Path = Field(default=Path("annotations"), description="What annotators returned, one CSV per pull: "
                                                                       "the source of truth, commit it.")
    reports: Path = Field(default=Path("reports"), description="`curate report`'s review.md and plots.")
    review_sheets: Path = Field(default=Path("review"), description="The review workbooks, one folder per language.")
    glossary: Path = Field(default=Path("glossary.csv"), description="The ML glossary: each term's renderings per "
                                                                     "language, given to the translator and checked "
                                                                     "(`terms`); no file, no glossary.")


class Secrets(BaseModel):
    """Secrets and endpoints, from the environment only."""

    openai_api_key: SecretStr | None = Field(default=None, description="The `openai` provider's key.")
    anthropic_api_key: SecretStr | None = Field(default=None, description="The `anthropic` provider's key.")
    openai_base_url: str | None = Field(default=None, description="Overrides the `openai` provider's endpoint "
                                                                  "(an OpenAI-compatible server).")
    anthropic_base_url: str | None = Field(default=None, description="Overrides the `anthropic` provider's endpoint.")
    hf_token: SecretStr | None = Field(default=None, description="Hugging Face token, for `curate publish --to "
                                                                 "hf:ORG/NAME`.")
    google_application_credentials: str | None = Field(
        default=None, description="The Google service account's key file, for the `sheets` review backend.")

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "Secrets":
        env = dict(os.environ) if env is None else env
        return cls(**{name: env.get(name.upper()) or None for name in cls.model_fields})


class Settings(Strict):
    project: ProjectSettings = ProjectSettings()
    paths: PathSettings = PathSettings()
    ingest: IngestSettings = IngestSettings()
    models: ModelSettings = ModelSettings()
    providers: dict[str, ProviderSettings] = Field(
        default_factory=default_providers,
        description="LLM endpoints by name, the provider part of a role's `provider:model`: `kind` picks the SDK; an "
                    "`openai` kind with a `base_url` reaches any OpenAI-compatible server (vLLM, Ollama, llama.cpp).")
    prices: dict[str, Price] = Field(
        default_factory=default_prices, description="USD per million tokens per `provider:model`; a comment above "
                                                    "each entry says where and when it was read.")
    llm: LLMSettings = LLMSettings()
    describe: DescribeSettings = DescribeSettings()
    tag: TagSettings = TagSettings()
    translate: TranslateSettings = TranslateSettings()
    review: ReviewSettings = ReviewSettings()
    publish: PublishSettings = PublishSettings()
    synthesize: SynthesizeSettings = SynthesizeSettings()
    outline: OutlineSettings = OutlineSettings()
    results: ResultsSettings = ResultsSettings()
    # [languages.<code>] (see `language`)
    languages: dict[str, LanguageNames] = Field(
        default_factory=dict, description="A project's own grading-harness file name or native name for a language, "
                                          "where the defaults do not suit; the language must be under `[project] "
                                          "languages`.")
    # Where curate.toml lives; relative paths resolve against it. Not a key of the file (NOT_KEYS), nor are secrets.
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
        for role in (*ROLES, *(("qe",) if self.models.qe else ())):
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

    def roles_in_use(self, roles: Iterable[str] | None = None) -> list[str]:
        """`roles` (by default every role: the outline roles when [outline] is enabled, `triage` when it is set) and
        `qe` when quality estimation is on: the roles whose models get called. qe reads what translate wrote, so it goes
        with any set of roles that translates; triage only reads runs (`curate results`), so it goes with no other."""
        if roles is None:
            roles = [role for role in ROLES if role not in OUTLINE_ROLES or self.outline.enabled]
            roles += ["triage"] if self.models.triage else []
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
        return f"{CONFIG_FILE}: unknown key {where}; check its spelling against the documented keys in {REFERENCE}"
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
    for reserved in NOT_KEYS:
        if reserved in data:
            raise ConfigError(f"{CONFIG_FILE}: unknown key {reserved}; check its spelling against the documented keys in {REFERENCE}")
    _refuse_secrets(data)
    try:
        return Settings(**data, root=file.parent.resolve(), secrets=Secrets.from_env(env))
    except ValidationError as error:
        raise ConfigError(_describe_error(error)) from None

