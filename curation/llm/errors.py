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


class EndpointUnreachable(LLMConfigError):
    """No connection to the provider after a few quick attempts: the server is down or the address is wrong, so
    every other call would wait out the same failure. The run stops; what finished is kept."""

    def __init__(self, provider: str, endpoint: str, reason: str, attempts: int, configured: bool):
        self.provider, self.endpoint, self.reason, self.attempts = provider, endpoint, reason, attempts
        url_variable = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}.get(provider)
        if configured:  # a base URL someone chose: a local server not started, or a typo
            settings = f"{url_variable} / providers.{provider}.base_url" if url_variable else \
                f"providers.{provider}.base_url in curate.toml"
            todo = f"start the server or fix {settings}"
        else:  # the provider's public API: the network, a proxy or a firewall is in the way
            todo = "check the network connection" + (f", or set {url_variable} to use another server"
                                                     if url_variable else "")
        self.todo = todo
        tries = "1 attempt" if attempts == 1 else f"{attempts} attempts"
        super().__init__(f"cannot reach {endpoint} ({reason}; {tries}): {todo}")


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


class BatchPending(LLMCallFailed):
    """Batch mode: no batch of this run answered the request (refused, cancelled, or still expired or erroring after
    batch_resubmissions more batches). The item is left pending for the next run rather than failed;
    `--batch-fallback online` asks online instead."""

    def __init__(self, item: str, role: str, reason: str):
        super().__init__(item, role, reason)
        self.reason = f"{reason}; left pending: rerun, or add --batch-fallback online"


class BudgetExceeded(LLMError):
    """Starting this call could pass --max-cost; nothing was sent."""

    def __init__(self, max_cost: float, spent: float, estimate: float):
        self.max_cost, self.spent, self.estimate = max_cost, spent, estimate
        super().__init__(f"budget ${max_cost:g} reached: ${spent:.4f} spent, the next call could cost up to "
                         f"${estimate:.4f}")
