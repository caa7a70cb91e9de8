"""`curate status` for synthesize: a column counting only the tasks it made (done: verified, failed: rejected with
the reasons). A competition from Kaggle never went through it, so it is not open there."""

from __future__ import annotations

from curation.status import register_stage

# "synthesize" is curation.synthesis.profile.STAGE, not imported: that module loads DuckDB and pandas, which a
# status report must not wait for.
register_stage("synthesize", order=-10, every_competition=False)
