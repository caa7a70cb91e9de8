"""One call's running tally, shared by the online and the batch path of the LLM client."""

from __future__ import annotations

from dataclasses import dataclass, field

from curation.llm.answer import Usage
from curation.llm.parameters import CallParameters
from curation.llm.providers import Mode


@dataclass
class Progress:
    """One call's running tally across its HTTP attempts."""

    mode: Mode
    started: float  # time.monotonic() when the call began; its latency counts from here
    # When its first attempt left the rate limiter: the retry deadline (max_retry_seconds) counts from here, not from
    # `started`, so a request that queued behind others for minutes (`curate run`'s later languages) still retries.
    sent: float | None = None
    params: CallParameters = field(default_factory=lambda: CallParameters(max_output_tokens=4096))
    attempts: int = 0
    usage: Usage = field(default_factory=Usage)
    skipped: float = 0.0  # seconds of this call's back-offs a faster pacing clock did not wait out (pacing.back_off)

    def since_sent(self, now: float) -> float:
        """Seconds since the first attempt was sent (0 before it is), on the pacing clock."""
        return 0.0 if self.sent is None else now - self.sent + self.skipped
