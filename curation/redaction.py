"""Secrets kept out of what curate prints and writes: a key pasted where a variable's name belongs, and the
credentials a base URL may carry (https://user:token@host/v1, ?api-key=...).

A base URL is a setting people echo back in messages (doctor, unreachable servers, the call log), and servers
echo it too (a 404 naming the path it was asked for); the URL is shown with its credentials replaced by ***, and
text that came from a server is cleaned of them before it is printed or stored.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, unquote_plus, urlsplit, urlunsplit

HIDDEN = "***"

_VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Prefixes of the keys people paste most (OpenAI, Anthropic sk-ant-, Hugging Face, GitHub, Groq, Google, Replicate).
_KEY_PREFIXES = ("sk-", "sk_", "hf_", "ghp_", "gho_", "github_pat_", "gsk_", "xai-", "AIza", "r8_")
_PASTED_KEY = re.compile(r"[A-Za-z0-9_-]{20,}")
# Parts of a URL shorter than this are not taken for secrets when cleaning text: "?v=1" would hide every 1.
_SHORTEST_SECRET = 6


def looks_like_key(value: str) -> bool:
    """Whether a value meant to be an environment variable's NAME is rather a key: not a variable name at all
    (sk-proj-..., with dashes), a known key prefix, or a long random-looking string (names are words)."""
    if not _VARIABLE_NAME.fullmatch(value) or value.startswith(_KEY_PREFIXES):
        return True
    if "_" in value:
        return False
    mixed = any(c.islower() for c in value) and any(c.isupper() for c in value) and any(c.isdigit() for c in value)
    return len(value) >= 32 or (mixed and len(value) >= 24)


def shaped_like_key(value: str) -> bool:
    """Whether any configured value is a key by its shape: a known key prefix, and 20 or more letters, digits,
    dashes or underscores. Names, URLs, model ids and sentences never are."""
    return value.startswith(_KEY_PREFIXES) and _PASTED_KEY.fullmatch(value) is not None


def redact_url(url: str) -> str:
    """`url` as it may be shown: user and password replaced by ***, every query value too; a value that is not
    a URL at all (a key pasted in its place) is not shown."""
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    if parts is None or not parts.scheme or not parts.netloc:
        return "(not a URL)"
    host = parts.netloc.rpartition("@")[2]
    netloc = f"{HIDDEN}@{host}" if "@" in parts.netloc else host
    # a parameter's name stays (api-version=***); a bare token (?abc123) is hidden whole
    query = "&".join(f"{name}={HIDDEN}" if sep else HIDDEN
                     for name, sep, _ in (item.partition("=") for item in parts.query.split("&") if item))
    return urlunsplit((parts.scheme, netloc, parts.path, query, HIDDEN if parts.fragment else ""))


def url_secrets(url: str | None) -> list[str]:
    """The credential parts of a URL (user, password, query values), as written and decoded, longest first."""
    if not url:
        return []
    try:
        parts = urlsplit(str(url))
    except ValueError:
        parts = None
    if parts is None or not parts.scheme or not parts.netloc:  # not a URL: perhaps a key pasted in its place
        return [str(url)] if len(str(url)) >= _SHORTEST_SECRET else []
    found: set[str] = set()
    if "@" in parts.netloc:
        user, _, password = parts.netloc.rpartition("@")[0].partition(":")
        found |= {user, password}
    for name, sep, value in (item.partition("=") for item in parts.query.split("&")):
        found.add(value if sep else name)
    if parts.fragment:
        found.add(parts.fragment)
    found |= {unquote_plus(value) for value in found} | {unquote(value) for value in found}
    found |= {value.rstrip("/") for value in found}  # the Anthropic SDK ends its base URL with "/", query or not
    return sorted((value for value in found if len(value) >= _SHORTEST_SECRET), key=len, reverse=True)


def hide_credentials(text: str, url: str | None) -> str:
    """`text` (a server's or an HTTP library's message) with the credential parts of `url` replaced by ***."""
    for secret in url_secrets(url):
        text = text.replace(secret, HIDDEN)
    return text
