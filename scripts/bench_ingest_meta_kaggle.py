"""Benchmark: `curate ingest` on a synthetic Meta Kaggle dump with a million kernel versions.

Builds the dump with DuckDB (the real files' names and columns, plausible values and sizes), writes code files
into a Meta Kaggle Code layout only for the notebooks that can be selected, then runs `curate ingest` in a
child process twice (first run, then an unchanged re-run) and prints wall time and the child's peak memory.

    python scripts/bench_ingest_meta_kaggle.py [--versions 1000000] [--competitions 4000] [--dir PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from curation.sources.meta_kaggle import code_path  # noqa: E402

SEGMENTS = "['Featured', 'Featured', 'Research', 'Playground', 'Community', 'Community', 'InClass', 'InClass', 'InClass', 'Getting Started']"


def build_tables(root: Path, versions: int, kernels: int, competitions: int, submissions: int) -> None:
    """Write Competitions, Kernels, KernelVersions, KernelVersionCompetitionSources (and Submissions) CSVs."""
    db = duckdb.connect()
    db.execute(f"""
        CREATE MACRO unit(x) AS (hash(x) % 1000003) / 1000003.0;
        CREATE MACRO version_id(i) AS 1000000 + i * 150 + hash(i) % 100;
        CREATE MACRO competition_of(k) AS 1 + hash(k * 13 + 5) % {competitions};
        CREATE MACRO votes_of(k) AS CAST(floor(pow(unit(k * 3 + 1), 60) * 600) AS BIGINT);
    """)
    copy = "(HEADER, DELIMITER ',', QUOTE '\"')"
    db.execute(f"""COPY (
        SELECT i AS Id, 'synthetic-competition-' || i AS Slug,
               'Synthetic Competition ' || i || ': predict the target, "well"' AS Title,
               'A made-up challenge used to measure ingest speed' AS Subtitle,
               list_extract({SEGMENTS}, 1 + CAST(hash(i) % 10 AS INTEGER)) AS HostSegmentTitle,
               100000 + i AS ForumId, NULL AS OrganizationId,
               strftime(TIMESTAMP '2010-01-01' + to_days(CAST(hash(i * 7) % 5400 AS INTEGER)), '%m/%d/%Y %H:%M:%S') AS EnabledDate,
               strftime(TIMESTAMP '2010-03-01' + to_days(CAST(hash(i * 7) % 5400 AS INTEGER)), '%m/%d/%Y %H:%M:%S') AS DeadlineDate,
               'False' AS FinalLeaderboardHasBeenVerified, 'True' AS HasKernels, 'False' AS OnlyAllowKernelSubmissions,
               'True' AS HasLeaderboard, 30 AS LeaderboardPercentage,
               CASE WHEN i % 3 = 0 THEN 'AUC' WHEN i % 3 = 1 THEN 'RMSE' ELSE 'CategorizationAccuracy' END AS EvaluationAlgorithmAbbreviation,
               CASE WHEN i % 3 = 0 THEN 'Area Under Receiver Operating Characteristic Curve'
                    WHEN i % 3 = 1 THEN 'Root Mean Squared Error' ELSE 'Categorization Accuracy' END AS EvaluationAlgorithmName,
               'Submissions are scored on the metric,
computed over all rows of the hidden set.' AS EvaluationAlgorithmDescription,
               CASE WHEN i % 3 = 1 THEN 'False' ELSE 'True' END AS EvaluationAlgorithmIsMax,
               5 AS MaxDailySubmissions, 2 AS NumScoredSubmissions, 5 AS MaxTeamSize, 'USD' AS RewardType,
               CAST(hash(i) % 100000 AS BIGINT) AS RewardQuantity, 3 AS NumPrizes, 1.0 AS UserRankMultiplier, 'True' AS CanQualifyTiers,
               CAST(pow(unit(i), 2) * 6000 AS BIGINT) AS TotalTeams, CAST(pow(unit(i), 2) * 7000 AS BIGINT) AS TotalCompetitors,
               CAST(pow(unit(i), 2) * 90000 AS BIGINT) AS TotalSubmissions
        FROM range(1, {competitions} + 1) t(i)) TO '{root / "Competitions.csv"}' {copy}""")
    db.execute(f"""COPY (
        SELECT k AS Id, 1000 + hash(k) % 500000 AS AuthorUserId,
               version_id(k + {kernels} * (({versions} - 1 - k) // {kernels})) AS CurrentKernelVersionId,
               NULL AS ForkParentKernelVersionId, 200000 + k AS ForumTopicId, version_id(k) AS FirstKernelVersionId,
               '01/02/2020 10:11:12' AS CreationDate, '01/03/2020' AS EvaluationDate, '01/02/2020' AS MadePublicDate,
               'False' AS IsProjectLanguageTemplate, 'notebook-' || k || '-eda-and-gradient-boosting' AS CurrentUrlSlug,
               CASE WHEN votes_of(k) >= 50 THEN 1 WHEN votes_of(k) >= 20 THEN 2 WHEN votes_of(k) >= 5 THEN 3 END AS Medal,
               CASE WHEN votes_of(k) >= 5 THEN '02/01/2020' END AS MedalAwardDate,
               votes_of(k) * 40 + hash(k) % 300 AS TotalViews, hash(k) % 20 AS TotalComments, votes_of(k) AS TotalVotes
        FROM range(0, {kernels}) t(k)) TO '{root / "Kernels.csv"}' {copy}""")
    db.execute(f"""COPY (
        SELECT version_id(i) AS Id, i % {kernels} AS ScriptId, NULL AS ParentScriptVersionId, 2 + i % 2 AS ScriptLanguageId,
               1000 + hash(i % {kernels}) % 500000 AS AuthorUserId, '01/02/2020 10:11:12' AS CreationDate,
               1 + i // {kernels} AS VersionNumber, 'EDA and gradient boosting, version ' || (1 + i // {kernels}) AS Title,
               '01/02/2020' AS EvaluationDate, 'True' AS IsChange, 120 + hash(i) % 900 AS TotalLines,
               hash(i) % 40 AS LinesInsertedFromPrevious, hash(i) % 10 AS LinesChangedFromPrevious,
               100 + hash(i) % 800 AS LinesUnchangedFromPrevious, 0 AS LinesInsertedFromFork, 0 AS LinesDeletedFromFork,
               0 AS LinesChangedFromFork, 0 AS LinesUnchangedFromFork, 0 AS TotalVotes
        FROM range(0, {versions}) t(i)) TO '{root / "KernelVersions.csv"}' {copy}""")
    db.execute(f"""COPY (
        SELECT row_number() OVER () AS Id, KernelVersionId, SourceCompetitionId FROM (
            SELECT version_id(i) AS KernelVersionId, competition_of(i % {kernels}) AS SourceCompetitionId FROM range(0, {versions}) t(i)
            UNION ALL  -- one version in five also reads a second competition's data
            SELECT version_id(i), 1 + hash(i * 31) % {competitions} FROM range(0, {versions}) t(i) WHERE i % 5 = 0))
        TO '{root / "KernelVersionCompetitionSources.csv"}' {copy}""")
    if submissions:
        db.execute(f"""COPY (
            SELECT i AS Id, 1000 + hash(i) % 500000 AS SubmittedUserId, hash(i) % 900000 AS TeamId,
                   CASE WHEN i % 4 = 0 THEN version_id(hash(i) % {versions}) END AS SourceKernelVersionId,
                   '01/02/2020' AS SubmissionDate, '01/02/2020' AS ScoreDate, 'False' AS IsAfterDeadline,
                   round(unit(i), 5) AS PublicScoreLeaderboardDisplay, unit(i) AS PublicScoreFullPrecision,
                   round(unit(i * 3), 5) AS PrivateScoreLeaderboardDisplay, unit(i * 3) AS PrivateScoreFullPrecision
            FROM range(0, {submissions}) t(i)) TO '{root / "Submissions.csv"}' {copy}""")
    db.close()


def selectable_versions(root: Path, per_competition: int) -> list[int]:
    """Current versions of the best kernels per competition (medal, votes, score, id): the only code files ingest reads."""
    csv = lambda name: f"read_csv('{root / name}', header=true)"  # noqa: E731
    scores = (f"SELECT SourceKernelVersionId AS version, max(PublicScoreFullPrecision) AS high, min(PublicScoreFullPrecision) AS low "
              f"FROM {csv('Submissions.csv')} GROUP BY 1" if (root / "Submissions.csv").exists()
              else "SELECT NULL::BIGINT AS version, NULL::DOUBLE AS high, NULL::DOUBLE AS low WHERE false")
    rows = duckdb.sql(f"""
        WITH links AS (SELECT DISTINCT v.ScriptId AS kernel, s.SourceCompetitionId AS competition
                       FROM {csv('KernelVersionCompetitionSources.csv')} s JOIN {csv('KernelVersions.csv')} v ON v.Id = s.KernelVersionId),
             scores AS ({scores}),
             ranked AS (SELECT k.CurrentKernelVersionId AS version, row_number() OVER (
                            PARTITION BY l.competition ORDER BY coalesce(k.Medal, 99), k.TotalVotes DESC,
                            CASE WHEN c.EvaluationAlgorithmIsMax THEN -sc.high ELSE sc.low END NULLS LAST, k.Id) AS position
                        FROM links l JOIN {csv('Kernels.csv')} k ON k.Id = l.kernel
                        JOIN {csv('Competitions.csv')} c ON c.Id = l.competition
                        LEFT JOIN scores sc ON sc.version = k.CurrentKernelVersionId)
        SELECT DISTINCT version FROM ranked WHERE position <= {per_competition}""").fetchall()
    return [row[0] for row in rows]


def notebook_source(version: int, rng: random.Random) -> str:
    """Kaggle-style code of a few KB, different per notebook."""
    target = rng.choice(["target", "label", "SalePrice", "Survived", "is_fraud"])
    features = ", ".join(f"'f_{rng.randrange(300)}'" for _ in range(rng.randrange(5, 40)))
    blocks = [
        "import numpy as np\nimport pandas as pd\nimport lightgbm as lgb\nfrom sklearn.model_selection import StratifiedKFold",
        f"train = pd.read_csv('/kaggle/input/competition-{version % 977}/train.csv')\n"
        f"test = pd.read_csv('/kaggle/input/competition-{version % 977}/test.csv')\nfeatures = [{features}]",
    ]
    for step in range(rng.randrange(4, 30)):
        blocks.append(f"train['ratio_{step}'] = train[features[{step % 5}]] / (train[features[{(step + 1) % 5}]] + 1)\n"
                      f"test['ratio_{step}'] = test[features[{step % 5}]] / (test[features[{(step + 1) % 5}]] + 1)\n"
                      f"features.append('ratio_{step}')")
    blocks.append(f"params = dict(objective='binary', learning_rate={rng.choice([0.01, 0.02, 0.05])}, num_leaves={rng.randrange(8, 128)})\n"
                  f"oof = np.zeros(len(train))\nfor tr, va in StratifiedKFold(5, shuffle=True, random_state=0).split(train, train['{target}']):\n"
                  f"    model = lgb.train(params, lgb.Dataset(train.iloc[tr][features], train['{target}'].iloc[tr]), 2000)\n"
                  f"    oof[va] = model.predict(train.iloc[va][features])")
    return "\n\n".join(blocks)


def write_code(code_root: Path, versions: list[int]) -> int:
    rng = random.Random(7)
    total = 0
    for version in versions:
        folder = code_path(code_root, version)
        folder.mkdir(parents=True, exist_ok=True)
        source = notebook_source(version, rng)
        if version % 2:
            cells = [{"cell_type": "code", "execution_count": n, "metadata": {}, "outputs": [
                {"output_type": "stream", "name": "stdout", "text": ["fold done\n"] * 20}],
                "source": block.splitlines(True)} for n, block in enumerate(source.split("\n\n"))]
            text = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}, indent=1)
            path = folder / f"{version}.ipynb"
        else:
            text, path = source, folder / f"{version}.py"
        path.write_text(text, encoding="utf-8")
        total += len(text)
    return total


def run_ingest(project: Path, dump: Path, top: int) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB, and the last output line of one `curate ingest` in a child process."""
    command = [sys.executable, "-c", "from curation.cli import app; app()", "ingest", "--source", str(dump), "--top", str(top),
               "--config", str(project / "curate.toml")]
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(REPO)})
    _, status, usage = os.wait4(child.pid, 0)  # this child's own rusage, not the sum over all children
    elapsed = time.perf_counter() - started
    out, err = child.stdout.read(), child.stderr.read()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"curate ingest failed:\n{out}\n{err}")
    peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    problems = next((line for line in err.splitlines() if line.endswith(("problem:", "problems:"))), "0 problems")
    return elapsed, peak_mb, " ".join(out.split()) + f" [{problems.rstrip(':')}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", type=int, default=1_000_000)
    parser.add_argument("--kernels", type=int, default=None, help="default: versions * 0.35")
    parser.add_argument("--competitions", type=int, default=4000)
    parser.add_argument("--submissions", type=int, default=0, help="rows of Submissions.csv (0: no file)")
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None, help="where to build (default: a temporary folder)")
    args = parser.parse_args()
    kernels = args.kernels or int(args.versions * 0.35)
    work = args.dir or Path(tempfile.mkdtemp(prefix="bench-meta-kaggle-"))
    dump, code, project = work / "meta-kaggle", work / "meta-kaggle-code", work / "project"
    for folder in (dump, code, project):
        folder.mkdir(parents=True, exist_ok=True)
    (project / "curate.toml").write_text(f'[paths]\nstore = "curation.sqlite"\ncompetitions = "competitions"\n\n'
                                         f'[ingest]\ntop_notebooks = {args.top}\n', encoding="utf-8")

    started = time.perf_counter()
    build_tables(dump, args.versions, kernels, args.competitions, args.submissions)
    versions = selectable_versions(dump, args.top)
    code_bytes = write_code(code, versions)
    print(f"built in {time.perf_counter() - started:.1f}s: {work}")
    for file in sorted(dump.iterdir()):
        rows = duckdb.sql(f"SELECT count(*) FROM read_csv('{file}', header=true)").fetchall()[0][0]
        print(f"  {file.name:<40} {file.stat().st_size / 1e6:>8.1f} MB {rows:>10,} rows")
    print(f"  {'meta-kaggle-code/':<40} {code_bytes / 1e6:>8.1f} MB {len(versions):>10,} files")

    for label in ("first ingest", "unchanged re-run"):
        elapsed, peak, line = run_ingest(project, dump, args.top)
        print(f"{label:<17} wall {elapsed:6.1f} s   peak RSS {peak:7.0f} MB   {line}")
    print(f"(machine: {os.cpu_count()} CPUs; peak RSS of the ingest child from wait4; "
          f"parent peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB not counted)")


if __name__ == "__main__":
    main()
