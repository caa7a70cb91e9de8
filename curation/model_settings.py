"""[models], [providers], [llm] and [prices]: which model each LLM role uses, with what parameters, where it is
reached, and what models cost.

Every key carries its description: scripts/config_reference.py writes docs/configuration.md from them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Price(Strict):
    """USD per million tokens, as the provider's pricing page states them (curate.toml says where and when)."""

    input: float = Field(ge=0, description="Input tokens.")
    output: float = Field(ge=0, description="Output tokens.")
    cached_input: float | None = Field(default=None, ge=0,
                                       description="Prompt-cache hits; the input price when unset.")
    cache_write_input: float | None = Field(default=None, ge=0,
                                            description="Anthropic cache writes; the input price when unset.")
    batch_input: float | None = Field(default=None, ge=0, description="The Batch APIs' input price; unset: no batch "
                                                                      "price known (batch answers count at `input`).")
    batch_output: float | None = Field(default=None, ge=0, description="The Batch APIs' output price; unset: "
                                                                       "`output`.")


# The defaults' prices, read on 2026-11-23 from the pages named next to each entry in curate.toml (which a
# project edits; these apply only when a curate.toml has no [prices]). A model whose price could not be
# established has no entry: --max-cost then asks for one.
DEFAULT_PRICES = {
    "openai:gpt-5.5-2026-04-23": dict(input=5.00, cached_input=0.50, output=30.00, batch_input=2.50, batch_output=15.00),
    "openai:gpt-5.4-mini-2026-03-17": dict(input=0.75, cached_input=0.075, output=4.50, batch_input=0.375,
                                           batch_output=2.25),
    "anthropic:claude-sonnet-5-5": dict(input=2.00, cached_input=0.20, cache_write_input=2.50, output=10.00,
                                        batch_input=1.00, batch_output=5.00),
}


def default_prices() -> dict[str, Price]:
    """The defaults' price table, fresh for each Settings."""
    return {model: Price(**price) for model, price in DEFAULT_PRICES.items()}


# Defaults per role, from the model lists of the installed SDKs (openai.types.ChatModel, anthropic.types.ModelParam;
# tests/test_default_models.py checks them): a dated OpenAI snapshot for the strong roles, another vendor for refine
# (as the method does; Anthropic IDs from the 4.6 generation on are pinned versions without a date), a small
# dated snapshot for tag.
DEFAULT_MODELS = {
    "describe": "openai:gpt-5.5-2026-04-23",
    "score": "openai:gpt-5.5-2026-04-23",
    "refine": "anthropic:claude-sonnet-5-5",
    "tag": "openai:gpt-5.4-mini-2026-03-17",
    "translate": "openai:gpt-5.5-2026-04-23",
    "synthesize": "openai:gpt-5.5-2026-04-23",
    "task_review": "anthropic:claude-sonnet-5-5",
    "outline": "openai:gpt-5.5-2026-04-23",
    "outline_judge": "anthropic:claude-sonnet-5-5",
}


def default_qe(translate: str) -> str:
    """The `qe = "auto"` model: a default of another vendor than the translator's, so the second opinion does
    not share the translator's blind spots (named from the SDK model lists like every default)."""
    vendor = translate.split(":", 1)[0]
    for model in (DEFAULT_MODELS["refine"], DEFAULT_MODELS["translate"]):
        if model.split(":", 1)[0] != vendor:
            return model
    return DEFAULT_MODELS["refine"]


ReasoningEffort = Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"]
ANTHROPIC_EFFORTS = ("low", "medium", "high", "xhigh", "max")  # output_config.effort in the anthropic SDK


class RoleParameters(Strict):
    """A role's own call parameters, from the table form of `[models]`; unset ones come from `[llm]`."""

    temperature: float | None = Field(default=None, ge=0, le=2, description="This role's temperature; unset: "
                                                                            "`[llm] temperature`.")
    reasoning_effort: ReasoningEffort | None = Field(
        default=None, description="OpenAI `reasoning_effort`; Anthropic `output_config.effort` (low, medium, high, "
                                  "xhigh, max only); unset: the model's own.")
    max_output_tokens: int | None = Field(default=None, ge=1, description="This role's output limit; unset: "
                                                                          "`[llm] max_output_tokens`.")


class ModelSettings(Strict):
    """One `provider:model` per LLM role, or a table with the model and its own call parameters (below).

    `translate = { model = "openai:...", temperature = 0, reasoning_effort = "low", max_output_tokens = 4096 }`.
    Roles stay plain strings for every reader; the tables' parameters are kept in `parameters`."""

    describe: str = Field(default=DEFAULT_MODELS["describe"],
                          description="Writes a task description from the top notebooks' code.")
    score: str = Field(default=DEFAULT_MODELS["score"], description="Grades each description A, B, C or D.")
    refine: str = Field(default=DEFAULT_MODELS["refine"],
                        description="Rewrites a description graded A or B (by default the other vendor).")
    tag: str = Field(default=DEFAULT_MODELS["tag"], description="Picks one domain of `[tag] vocabulary`.")
    translate: str = Field(default=DEFAULT_MODELS["translate"],
                           description="Translates description, data card and domain.")
    synthesize: str = Field(default=DEFAULT_MODELS["synthesize"],
                            description="Brainstorm and design of synthesized tasks.")
    task_review: str = Field(default=DEFAULT_MODELS["task_review"],
                             description="Their soundness review, by the other vendor.")
    outline: str = Field(default=DEFAULT_MODELS["outline"],
                         description="Writes candidate solution outlines from the top notebooks' code.")
    outline_judge: str = Field(default=DEFAULT_MODELS["outline_judge"],
                               description="Scores the candidate outlines on a rubric and picks the best (by "
                                           "default the other vendor).")
    qe: str | None = Field(
        default=None, description="Optional quality estimation of translations (MQM-style findings) by a second model; "
                                  "off when unset; \"auto\": the default model of the other vendor than the "
                                  "translator's.")
    triage: str | None = Field(
        default=None, description="Optional: names the class of a failed run `curate results` reads that the rules "
                                  "leave as `other`; off when unset.")
    # The tables' parameters, role -> its table's; not a key of the file (a role's table sets them).
    parameters: dict[str, RoleParameters] = Field(default_factory=dict,
                                                  description="Role -> the call parameters of its table.")

    @model_validator(mode="before")
    @classmethod
    def _tables(cls, data: object) -> object:
        if not isinstance(data, dict):
            return data
        data, parameters = dict(data), dict(data.get("parameters") or {})
        for role, value in list(data.items()):
            if role != "parameters" and isinstance(value, dict):
                if "model" not in value:
                    raise ValueError(f"the table for {role} needs model = \"provider:model\"")
                table = dict(value)
                data[role] = table.pop("model")
                parameters[role] = table
        if parameters:
            data["parameters"] = parameters
        if data.get("qe") == "auto":
            data["qe"] = default_qe(data.get("translate", DEFAULT_MODELS["translate"]))
        return data

    @field_validator("*")
    @classmethod
    def _provider_model(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        provider, sep, model = value.partition(":")
        if not sep or not provider or not model:
            raise ValueError(f"{value!r} is not 'provider:model' (e.g. 'openai:gpt-5.5-2026-04-23')")
        return value

    @model_validator(mode="after")
    def _parameters_of_known_roles(self) -> "ModelSettings":
        for role in self.parameters:
            if not isinstance(getattr(self, role, None), str):
                raise ValueError(f"parameters for {role!r}, which is not a role")
        return self


class ProviderSettings(Strict):
    """One LLM endpoint. `kind` picks the SDK; an `openai` kind with a base_url reaches vLLM, Ollama, llama.cpp."""

    kind: Literal["openai", "anthropic"] = Field(description="The SDK: `openai` (chat completions) or `anthropic` "
                                                             "(messages).")
    base_url: str | None = Field(
        default=None, description="The endpoint, e.g. `http://localhost:8080/v1` for an OpenAI-compatible server; "
                                  "unset: the provider's own. `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL` override it for "
                                  "the `openai` / `anthropic` providers.")
    api_key_env: str | None = Field(
        default=None, description="Variable holding the key (its NAME, never the key); defaults to OPENAI_API_KEY / "
                                  "ANTHROPIC_API_KEY.")
    structured_output: Literal["auto", "json_schema", "json_mode"] = Field(
        default="auto", description="How structured answers are asked for: the server's JSON-schema output "
                                    "(`json_schema`), a JSON object with the schema in the system message "
                                    "(`json_mode`), or `json_schema` falling back to `json_mode` when the server "
                                    "refuses it (`auto`).")
    requests_per_minute: int = Field(default=500, ge=1, description="Requests are spaced evenly, so no minute ever "
                                                                     "holds more; shared by every role on the provider.")
    tokens_per_minute: int = Field(default=200_000, ge=1, description="Estimated before a call from its text, "
                                                                       "corrected with the reported usage after.")
    max_concurrent: int = Field(default=16, ge=1, description="Requests in flight at once.")
    timeout_seconds: float = Field(default=120.0, gt=0, description="A request without an answer after this long is "
                                                                    "a timeout, retried like a 5xx.")
    max_retry_seconds: float = Field(default=180.0, ge=0, description="How long one call retries 429s, 5xx and "
                                                                      "timeouts; a refused connection gives up sooner.")

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


def default_providers() -> dict[str, ProviderSettings]:
    """The `openai` and `anthropic` providers a project has without a [providers] section."""
    return {
        "openai": ProviderSettings(kind="openai"),
        "anthropic": ProviderSettings(kind="anthropic", requests_per_minute=50, tokens_per_minute=40_000, max_concurrent=8),
    }


class LLMSettings(Strict):
    """Call parameters every role shares (a role's table under `[models]` overrides them) and how calls are sent."""

    temperature: float | None = Field(
        default=None, ge=0, le=2, description="Unset sends no temperature (the model's default): reasoning models "
                                              "refuse any other value.")
    max_output_tokens: int = Field(default=4096, ge=1, description="Output limit of every call.")
    validation_retries: int = Field(
        default=2, ge=0, description="Retries of an answer that cannot be used (empty, a refusal, a structured answer "
                                     "that does not validate) before the item fails.")
    # batches: curation/llm/batching.py; claims on a request another command sends: curation/llm/claims.py
    mode: Literal["online", "batch"] = Field(
        default="online", description="\"batch\": each round's uncached requests go to the providers' batch APIs at "
                                      "the batch price; `--batch` on a command does the same for one run.")
    batch_poll_seconds: float = Field(default=30.0, gt=0, description="First wait between two looks at a submitted "
                                                                      "batch; it doubles up to 10 minutes.")
    batch_fallback: Literal["pending", "online"] = Field(
        default="pending", description="What happens to requests a batch did not answer (per-request error, expired, "
                                       "cancelled): \"pending\" leaves their items for the next run, \"online\" asks "
                                       "them at once through the ordinary API.")
    batch_resubmissions: int = Field(
        default=3, ge=0, description="How often, within one run, a request its batch did not answer because it expired "
                                     "or met a passing fault (429, 5xx, overloaded) goes into the next round's batch "
                                     "before batch_fallback applies; 0: never. Each resubmission may wait as long as a "
                                     "batch does.")
    claim_poll_seconds: float = Field(
        default=0.5, gt=0, description="How often a command looks again at a request another command over the same "
                                       "store is sending (it waits for that answer instead of paying for it twice).")
