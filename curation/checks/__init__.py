"""Deterministic gates: description lint, data-card lint, translation checks."""
