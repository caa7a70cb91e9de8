"""[models] and [prices]: which model each LLM role uses, with what parameters, and what models cost."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Price(Strict):
    """USD per million tokens, as the provider's pricing page states them (curate.toml says where and when)."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached_input: float | None = Field(default=None, ge=0)  # prompt-cache hits; the input price when unset
    cache_write_input: float | None = Field(default=None, ge=0)  # Anthropic cache writes; the input price when unset
    batch_input: float | None = Field(default=None, ge=0)  # the Batch APIs' prices; unset: no batch price known
    batch_output: float | None = Field(default=None, ge=0)


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
    """A role's own call parameters, from the table form of [models]; unset ones come from [llm]."""

    temperature: float | None = Field(default=None, ge=0, le=2)
    reasoning_effort: ReasoningEffort | None = None  # OpenAI reasoning_effort; Anthropic output_config.effort
    max_output_tokens: int | None = Field(default=None, ge=1)


class ModelSettings(Strict):
    """One `provider:model` per role, or a table with the model and its parameters:
    `translate = { model = "openai:...", temperature = 0, reasoning_effort = "low", max_output_tokens = 4096 }`.
    Roles stay plain strings for every reader; the tables' parameters are kept in `parameters`."""

    describe: str = DEFAULT_MODELS["describe"]
    score: str = DEFAULT_MODELS["score"]
    refine: str = DEFAULT_MODELS["refine"]
    tag: str = DEFAULT_MODELS["tag"]
    translate: str = DEFAULT_MODELS["translate"]
    synthesize: str = DEFAULT_MODELS["synthesize"]  # brainstorm and design of synthesized tasks
    task_review: str = DEFAULT_MODELS["task_review"]  # their soundness review, by the other vendor
    # Optional quality estimation of translations (MQM-style findings); off when unset, "auto" picks default_qe.
    qe: str | None = None
    parameters: dict[str, RoleParameters] = Field(default_factory=dict)  # role -> its table's parameters

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
