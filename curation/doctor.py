"""`curate doctor`: before anything is spent, whether each key, endpoint and model the configuration uses works.

One finding per thing checked, each one line a curator can act on: the key variable of every provider a role
uses (its name only, never its value), that each provider's endpoint answers, that each configured model exists
there (the SDKs' models retrieve call: no completion is asked for, nothing is paid), and, when they are set up,
the Google service account key and the Hugging Face token; last, what the translation checks cover of each target
language (one line for those covered in full, a note for each language whose checks lack something).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from curation.config import Settings
from curation.llm.errors import EndpointUnreachable
from curation.redaction import redact_url

OK, FAIL, SKIP, NOTE = "ok", "FAIL", "skip", "note"


@dataclass(frozen=True)
class Finding:
    """One thing checked: its status (ok, FAIL or skip), what it is, and what was found or what to do."""

    status: str
    what: str
    detail: str

    def line(self) -> str:
        return f"{self.status:<4}  {self.what}: {self.detail}"

    def as_dict(self) -> dict[str, str]:
        return {"status": self.status, "what": self.what, "detail": self.detail}


def roles_by_provider(settings: Settings, roles: list[str]) -> dict[str, dict[str, list[str]]]:
    """provider name -> model -> the roles that use it, in the order the roles are given."""
    used: dict[str, dict[str, list[str]]] = {}
    for role in roles:
        name, _, model = settings.provider_for(role)
        used.setdefault(name, {}).setdefault(model, []).append(role)
    return used


def missing_key(settings: Settings, name: str, roles: list[str]) -> str | None:
    """What to set for a provider that has neither a key nor a base URL (None when it can be reached)."""
    provider = settings.providers[name]
    if settings.api_key(provider) or settings.base_url(name, provider):
        return None
    other = {"openai": " (or OPENAI_BASE_URL for an OpenAI-compatible server)",
             "anthropic": " (or ANTHROPIC_BASE_URL)"}.get(name, "")
    one = len(roles) == 1
    return (f"{provider.key_variable} is not set; models.{', '.join(roles)} ({name}) {'needs' if one else 'need'} it: "
            f"export it{other}, or point {'it' if one else 'them'} under [models] at a provider you have a key for")


async def _check_provider(settings: Settings, name: str, models: dict[str, list[str]]) -> list[Finding]:
    from curation.llm.model_lookup import look_up_model
    from curation.llm.providers import open_provider

    provider_settings = settings.providers[name]
    roles = [role for role in settings.roles_in_use() if any(role in used for used in models.values())]
    variable = provider_settings.key_variable
    base_url = settings.base_url(name, provider_settings)
    todo = missing_key(settings, name, roles)
    if todo is not None:
        return [Finding(FAIL, "key", todo)]
    findings = [Finding(OK, "key", f"{variable} is set" if settings.api_key(provider_settings)
                        else f"{variable} not set; none needed for the server at {redact_url(base_url)}")]
    provider = open_provider(name, provider_settings, settings)
    compatible = provider_settings.kind == "openai" and base_url is not None  # vLLM, Ollama, llama.cpp, ...
    try:
        for model, used in models.items():
            lookup = await look_up_model(provider, model, compatible=compatible)
            if lookup.unreachable:
                down = EndpointUnreachable(name, provider.endpoint, lookup.reason, 1, configured=base_url is not None)
                return findings + [Finding(FAIL, f"endpoint {provider.endpoint}",
                                           f"no answer ({lookup.reason}): {down.todo}")]
            if len(findings) == 1:
                findings.append(Finding(OK, f"endpoint {provider.endpoint}", f"answers ({name})"))
            if lookup.key_refused:
                findings[0] = Finding(FAIL, "key", f"{variable} was refused by {provider.endpoint} (HTTP "
                                      f"{lookup.status}: {lookup.reason}); check the key and its access to {model}")
                return findings
            what = f"model {name}:{model}"
            if lookup.found:
                findings.append(Finding(OK, what, f"exists ({', '.join(used)})"))
            elif lookup.status == 404:
                findings.append(Finding(FAIL, what, f"not found at {provider.endpoint} ({lookup.reason}); models."
                                        f"{', '.join(used)} use it: set them under [models] in curate.toml to a model "
                                        f"the provider lists"))
            else:
                findings.append(Finding(FAIL, what, f"{provider.endpoint} answered HTTP {lookup.status} "
                                        f"({lookup.reason}); try again later, or check the provider's status page"))
    finally:
        await provider.close()
    return findings


def _sheets(settings: Settings) -> Finding | None:
    """The Google service account key, when the sheets backend is configured or the variable is set."""
    path = settings.secrets.google_application_credentials
    wanted = settings.review.backend == "sheets" or bool(settings.review.spreadsheets)
    if not path:
        return Finding(FAIL, "GOOGLE_APPLICATION_CREDENTIALS", "not set, but [review] uses Google Sheets: set it to "
                       "the service account's JSON key file") if wanted else None
    from google.auth.exceptions import GoogleAuthError
    from google.oauth2.service_account import Credentials

    try:
        credentials = Credentials.from_service_account_file(path)
    except (OSError, ValueError, GoogleAuthError) as error:
        return Finding(FAIL, "GOOGLE_APPLICATION_CREDENTIALS", f"{path} is not a readable service account key "
                       f"({type(error).__name__}); download the account's JSON key again and point the variable at it")
    return Finding(OK, "GOOGLE_APPLICATION_CREDENTIALS", f"service account {credentials.service_account_email} "
                   "(share each review spreadsheet with it)")


def _hub(settings: Settings) -> Finding:
    """The Hugging Face token, asked of the Hub's whoami endpoint when it is set."""
    if settings.secrets.hf_token is None:
        return Finding(SKIP, "HF_TOKEN", "not set; needed only for `curate publish --to hf:ORG/NAME`")
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError

    try:
        who = HfApi().whoami(token=settings.secrets.hf_token.get_secret_value())
    except HfHubHTTPError as error:
        status = error.response.status_code if error.response is not None else "?"
        return Finding(FAIL, "HF_TOKEN", f"refused by the Hub (HTTP {status}); create a write token in your Hugging "
                       "Face settings and export HF_TOKEN")
    except OSError as error:  # the HTTP client's connection errors
        return Finding(FAIL, "HF_TOKEN", f"could not ask the Hub ({type(error).__name__}); check the network")
    role = ((who.get("auth") or {}).get("accessToken") or {}).get("role")
    return Finding(OK, "HF_TOKEN", f"accepted for {who.get('name', '?')}" + (f" ({role} token)" if role else ""))


def _languages(settings: Settings) -> list[Finding]:
    """The checks' coverage of the targets: one line for those covered in full, a note per language lacking something."""
    from curation.checks.coverage import coverage_of_targets

    found = coverage_of_targets(settings)
    complete = [item.language.code for item in found if item.complete]
    findings = [Finding(OK, "languages", f"{', '.join(complete)}: every check, with word lists and calibrated "
                        "bounds")] if complete else []
    return findings + [Finding(NOTE, f"language {item.language.code}", "what the checks lack: "
                               f"{', '.join(gap.what for gap in item.missing)} (`curate languages` says what that means)")
                       for item in found if not item.complete]


def examine(settings: Settings) -> list[Finding]:
    """Every finding, providers in the order their roles appear, then sheets, the Hub and the languages."""
    used = roles_by_provider(settings, settings.roles_in_use())

    async def providers() -> list[list[Finding]]:
        return await asyncio.gather(*(_check_provider(settings, name, models) for name, models in used.items()))

    findings = [finding for group in asyncio.run(providers()) for finding in group]
    sheets = _sheets(settings)
    return findings + ([sheets] if sheets else []) + [_hub(settings)] + _languages(settings)
