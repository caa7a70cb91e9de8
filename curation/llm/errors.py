"""What can go wrong when asking an LLM, in words a curator can act on."""

from __future__ import annotations


class LLMError(Exception):
    """Base of every error the LLM client raises."""


class LLMConfigError(LLMError):
    """A setup problem (missing key, missing price) that stops the whole run; the message says what to do."""


class MissingKey(LLMConfigError):
    """The provider's key variable is unset and no OpenAI-compatible base URL makes it unnecessary."""

    def __init__(self, variable: str, kind: str, provider: str = "openai"):
        self.variable = variable
        hint = ""
        if kind == "openai":
            where = "OPENAI_BASE_URL" if provider == "openai" else f"base_url under [providers.{provider}]"
            hint = f" (or {where} for an OpenAI-compatible server)"
        super().__init__(f"set {variable}{hint}")


class KeyRejected(LLMConfigError):
    """The server answered 401/403: every call would fail the same way, so the run stops."""

    def __init__(self, variable: str, provider: str, detail: str):
        self.variable = variable
        super().__init__(f"the {provider} server refused the key in {variable} ({detail}); check the key and its "
                         "access to the configured model")


class MissingPrice(LLMConfigError):
    """--max-cost was given but a model has no price, so spend cannot be bounded."""

    def __init__(self, model: str):
        self.model = model
        super().__init__(f'no price for {model} in curate.toml; add [prices."{model}"] input/output (USD per '
                         "million tokens) or run without --max-cost")


class LLMCallFailed(LLMError):
    """One call kept failing (retries or validation retries used up, or a refusal): that item's failure."""

    def __init__(self, item: str, role: str, reason: str):
        self.item, self.role, self.reason = item, role, reason
        super().__init__(f"{item}: {role} call failed: {reason}")


class BudgetExceeded(LLMError):
    """Starting this call could pass --max-cost; nothing was sent."""

    def __init__(self, max_cost: float, spent: float, estimate: float):
        self.max_cost, self.spent, self.estimate = max_cost, spent, estimate
        super().__init__(f"budget ${max_cost:g} reached: ${spent:.4f} spent, the next call could cost up to "
                         f"${estimate:.4f}")
