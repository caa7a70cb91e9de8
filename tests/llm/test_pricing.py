"""Cost arithmetic and the pre-call token estimate."""

from __future__ import annotations

import pytest

from curation.config import Price
from curation.llm import Usage
from curation.llm.pricing import cost_usd, estimate_input_tokens


def test_cached_input_without_its_own_price_costs_the_input_price():
    price = Price(input=2.0, output=8.0)
    assert cost_usd(price, Usage(tokens_in=1000, tokens_out=100, tokens_cached=500)) == pytest.approx((1000 * 2.0 + 100 * 8.0) / 1e6)


def test_a_model_without_a_price_costs_nothing():
    assert cost_usd(None, Usage(10_000, 10_000, 0)) == 0


def test_the_estimate_counts_cjk_text_as_more_tokens_than_english_of_the_same_length():
    english = estimate_input_tokens([{"role": "user", "content": "a" * 900}], None)
    japanese = estimate_input_tokens([{"role": "user", "content": "語" * 900}], None)
    assert 200 <= english <= 260 and japanese >= 3 * english - 20


def test_the_estimate_includes_the_schema():
    messages = [{"role": "user", "content": "hello"}]
    assert estimate_input_tokens(messages, {"properties": {"x" * 400: {}}}) > estimate_input_tokens(messages, None) + 90
