"""The `curate` command line. Thin: parse options, call a stage, print its report.

One module per group of commands; importing them registers their commands on `app`.
"""

from curation.cli import ingest, content, review, release, run, llm, synthesize, check, batches, doctor  # noqa: F401  (importing registers the commands)
from curation.cli.base import app


def main() -> None:
    app()
