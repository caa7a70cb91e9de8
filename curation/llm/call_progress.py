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
    started: float  # time.monotonic() when the call began; latency and the retry deadline count from here
    params: CallParameters = field(default_factory=lambda: CallParameters(max_output_tokens=4096))
    attempts: int = 0
    usage: Usage = field(default_factory=Usage)
