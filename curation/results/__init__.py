"""`curate results`: where agents fail on a published benchmark, by language, domain and error class.

harness.py       the grading harness's run folders and code_results.json, as enaix/ml2b writes them
run_folders.py   finding and reading run folders; csv_runs.py: a plain CSV of results from elsewhere
read_run.py      a run as read, before it is classified
release_info.py  the release the runs are joined with: tasks, metrics and directions, baselines, languages
metrics.py       which way a metric points and what values it can take
taxonomy.py      the classes, and the rules that read a failure's class from errors and tracebacks
leakage.py       code that reads what the grader holds back
rules.py         one run's class by the rules; plausibility.py: scores no other run comes near
triage.py        the optional `triage` model for what the rules leave as `other`
scores.py        normalized scores; statistics.py: gaps to English, profiles, taxonomy tables
plots.py         the figures; report.py: reports/results.md and the per-run table
collect.py       the command's flow: read, classify, store, report
"""
