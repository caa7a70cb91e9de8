"""Raw tabular dataset -> competition folder: profile, brainstorm, design, refactor, verify (with a baseline run).

`curate synthesize` drives the steps; a task that passes every check is written where `curate ingest` reads
competitions, one that fails goes to `<out>/rejected/<slug>/` with its reasons.
"""
