"""A run's spend against its cap (`--max-cost`): what it has paid, and the worst case of the calls under way."""

from __future__ import annotations

import asyncio

from curation.config import Price
from curation.llm.answer import Usage
from curation.llm.errors import BudgetExceeded, MissingPrice
from curation.llm.pricing import cost_usd


class Budget:
    """Paid so far, and the worst-case cost of the calls started but not finished; with no cap, only the former."""

    def __init__(self, max_cost: float | None) -> None:
        self.max_cost = max_cost
        self.spent_usd = 0.0  # paid this run (cache hits cost nothing)
        self._in_flight_usd = 0.0
        self._freed = asyncio.Event()  # set (and replaced) whenever a budgeted call finishes

    async def reserve(self, name: str, model: str, price: Price | None, input_tokens: int,
                      max_output_tokens: int) -> float:
        """Refuse to start a call that could pass max_cost; otherwise count its worst case as in flight and return it
        (0 with no cap). When only the worst cases of calls under way stand in the way, wait for them: they usually
        cost far less."""
        if self.max_cost is None:
            return 0.0
        if price is None:
            raise MissingPrice(f"{name}:{model}")
        worst_case = cost_usd(price, Usage(input_tokens, max_output_tokens))
        while self.spent_usd + self._in_flight_usd + worst_case > self.max_cost:
            if self.spent_usd + worst_case > self.max_cost:
                raise BudgetExceeded(self.max_cost, self.spent_usd, worst_case)
            await self._freed.wait()
        self._in_flight_usd += worst_case
        return worst_case

    def release(self, worst_case: float) -> None:
        """A call reserved with `reserve` finished (its real cost is in spent_usd by then): wake those waiting."""
        if worst_case:
            self._in_flight_usd -= worst_case
            self._freed.set()
            self._freed = asyncio.Event()
