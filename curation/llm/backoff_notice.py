"""A line on stderr when a provider is waited for long enough to look like a hang, once for the calls sharing a wait."""

from __future__ import annotations

import logging

from curation.llm import pacing
from curation.llm.reply import one_line

# A back-off at least this long gets a line on stderr, so that a run waiting on a provider does not look hung.
NOTICE_AFTER_SECONDS = 5.0

log = logging.getLogger("curation.llm.client")  # the client's logger, where a run's warnings have always come from


class BackoffNotices:
    """Per provider, the end of the last back-off announced: calls backing off together share one line, and only a
    wait ending well after it gets a new one."""

    def __init__(self) -> None:
        self._announced_until: dict[str, float] = {}

    def announce(self, provider: str, reason: str, wait: float) -> None:
        """Say (a logging warning) that `provider` is waited for `wait` seconds, when that is long and not said yet."""
        if wait < NOTICE_AFTER_SECONDS:
            return
        until = pacing.now() + wait
        if until < self._announced_until.get(provider, 0.0) + NOTICE_AFTER_SECONDS:
            return
        self._announced_until[provider] = until
        log.warning("%s: %s; waiting %gs before trying again", provider, one_line(reason, 120), round(wait, 1))
