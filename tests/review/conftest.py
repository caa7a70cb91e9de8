"""Review fixtures: the seeded store and annotator settings live in tests/review/seeding.py."""

from tests.review.seeding import review_settings, seeded  # noqa: F401  (fixtures)
