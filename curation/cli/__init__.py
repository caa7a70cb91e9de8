"""The `curate` command line. Thin: parse options, call a stage, print its report.

One module per group of commands; importing them registers their commands on `app`.
"""

from curation.cli import ingest, content, outline, review, release, run, llm, synthesize, check, batches, doctor, languages, results  # noqa: F401  (importing registers the commands)
import gc
import sys

from curation.cli.base import app


def main() -> None:
    """The `curate` console script: the command, then a quick exit."""
    try:
        app()
    finally:
        # What a command built lives until the process ends, and the interpreter's last collections would walk all
        # of it to free memory the system takes back anyway: half a second after `curate run` (measured). Frozen
        # objects are skipped by those collections (objects freed by reference counting are still finalized, those
        # in reference cycles are not: nothing here needs them at exit), and exit hooks still run. Not after
        # DuckDB was loaded (a Meta Kaggle ingest, synthesize): its bindings list every object left to the end as
        # a leak, on stderr.
        if "duckdb" not in sys.modules:
            gc.freeze()
