"""How `curate status` looks: one screen by default, per-item tables on request, always the console's width.

The overview is a stage x language matrix of counts (done / flagged / open / failed), the spend so far and the
next command. `--detail`, `--lang` and `--comp` give per-item tables whose cells are cut with an ellipsis, so a
table never wraps or grows wider than the terminal.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from curation.excerpt import excerpt, plural
from curation import status as registry
from curation.status import AFTER_COMMANDS, KIND_OF_STATE, KINDS, StatusReport, next_command

KIND_STYLES = {"done": "green", "flagged": "yellow", "open": "", "failed": "red"}


def render_status(report: StatusReport, console: Console, *, detail: bool = False, competition: str | None = None,
                  verbose: bool = False) -> None:
    """Print the report: the overview, or with `detail`/`competition` the per-item table and the sections."""
    if not report.total:
        console.print("No competitions yet. Run [bold]curate ingest[/bold] first.")
    elif competition is not None:
        _render_competition(report, competition, console)
    elif detail:
        _render_items(report, console, verbose)
    else:
        _render_overview(report, console)
    _render_problems(report, console, whole=verbose or detail or competition is not None)
    if (detail or competition is not None) and report.total:
        for section in report.sections:
            console.print()
            console.print(_fitted(section.title, section.columns, [[str(c) for c in cells] for cells in section.rows],
                                  console.width, whole=verbose))
            if section.note:
                console.print(Text(section.note), overflow="ellipsis", no_wrap=not verbose)
    for line in excerpt([f"warning: {w}" for w in report.warnings], "`curate status -v`", verbose=verbose):
        console.print(Text(line, style="yellow"))
    if report.total:
        command = next_command(report)
        console.print(Text("Next: ") + Text(f"`{command}`", style="bold") + Text(AFTER_COMMANDS.get(command, "")),
                      overflow="ellipsis")


def _render_overview(report: StatusReport, console: Console) -> None:
    matrix = report.matrix
    families = list(matrix)
    source = report.source_language
    rows: dict[str, dict[str, str]] = {}
    for family, by_language in matrix.items():
        for language, tally in by_language.items():
            rows.setdefault(language or source, {})[family] = _counts_cell(tally)
    order = [source] + [code for code in report.languages if code != source]
    order += sorted(code for code in rows if code not in order)
    languages = sum(1 for code in order if code in rows and code != source)
    console.print(Text(f"{plural(report.total, 'competition')}"
                       + (f" in {plural(languages, 'language')}" if languages else "")
                       + f" · spent ${report.spend_usd:.4f} on {plural(report.calls, 'LLM call')}"
                       + (f" · {report.cache_hits} answered from cache" if report.cache_hits else "")))
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("lang", no_wrap=True)
    for family in families:
        table.add_column(family, no_wrap=True, overflow="ellipsis", justify="right")
    for code in order:
        if code in rows:
            table.add_row(code, *(rows[code].get(family, "") for family in families))
    console.print(table)
    console.print(Text("cells: competitions done/flagged/open/failed (one number: all done)", style="dim"))
    console.print(Text("per competition: `curate status --detail`, `--lang kk` or `--comp SLUG`", style="dim"))


def _counts_cell(tally: dict[str, int]) -> Text:
    if tally["done"] == sum(tally.values()):
        return Text(str(tally["done"]), style="green")
    cell = Text()
    for number, kind in enumerate(KINDS):
        if number:
            cell.append("/", style="dim")
        cell.append(str(tally[kind]) if tally[kind] else "·", style=KIND_STYLES[kind] if tally[kind] else "dim")
    return cell


def _render_items(report: StatusReport, console: Console, whole: bool = False) -> None:
    """One row per competition: a column per stage (a stage run in many languages gets one, with counts)."""
    stage_columns = _stage_columns(report.stages)
    extra = list(registry._columns)  # read now: the registry may have grown since import
    headers = ["competition", "nb", *stage_columns, *extra, "why / notes"]
    rows = []
    for row in report.competitions:
        cells = [row.competition, str(row.notebooks)]
        cells += [_state_cell([row.stages[stage]["status"] for stage in shown]) for shown in stage_columns.values()]
        cells += [str(row.columns.get(title, "")) for title in extra]
        cells.append("; ".join(_notes(report, row.stages)))
        rows.append(cells)
    console.print(_fitted(f"Competitions ({len(rows)})", headers, rows, console.width, whole=whole))


def _render_competition(report: StatusReport, slug: str, console: Console) -> None:
    """One competition: every stage (each language its own row) with its state and why."""
    row = next((row for row in report.competitions if row.competition == slug), None)
    if row is None:
        console.print(Text(f"{slug}: no such competition in the store; `curate status --detail` lists them"))
        return
    extras = ", ".join(f"{title} {value}" for title, value in row.columns.items() if value not in ("", None))
    console.print(Text(f"{row.competition} — {row.comp_name} · {plural(row.notebooks, 'notebook')}"
                       + (f" · {extras}" if extras else "")), overflow="ellipsis", no_wrap=True)
    rows = [[stage, _state_cell([state["status"]]), state["detail"]] for stage, state in row.stages.items()]
    console.print(_fitted(None, ["stage", "state", "detail"], rows, console.width))


def _render_problems(report: StatusReport, console: Console, whole: bool) -> None:
    if not report.problems:
        return
    console.print(Text(f"Problems ({len(report.problems)}) — fix these and re-run the stage:", style="bold"))
    lines = [f"  [{problem.stage}] {problem.line()}" for problem in report.problems]
    for line in excerpt(lines, "`curate status --detail`", verbose=whole):
        console.print(Text(line))  # wrapped, not cut: the end of a problem says what to do


def _fitted(title: str | None, headers: list[str], rows: list[list[str | Text]], width: int,
            whole: bool = False) -> Table:
    """A table no wider than `width`: cells stay on one line and are cut with an ellipsis when they do not fit
    (with `whole`, as -v asks, they wrap instead).

    Widths are shared out here rather than by rich, which, when a table is too wide, narrows every column by the
    same amount and so drops the narrow state columns first."""
    cells = [[cell if isinstance(cell, Text) else Text(str(cell)) for cell in row] for row in rows]
    columns = list(zip(*cells)) if cells else [()] * len(headers)
    kept = [index for index, column in enumerate(columns) if index == 0 or any(cell.plain for cell in column)]
    headers, cells = [headers[i] for i in kept], [[row[i] for i in kept] for row in cells]
    natural = [max([len(headers[n])] + [row[n].cell_len for row in cells]) for n in range(len(headers))]
    widths = _shared_out(natural, width - 2 * (len(headers) - 1))
    table = Table(title=title, title_justify="left", pad_edge=False, box=None, header_style="bold")
    for header, column_width in zip(headers, widths):
        table.add_column(header, no_wrap=not whole, overflow="fold" if whole else "ellipsis", width=column_width)
    for row in cells:
        table.add_row(*row)
    return table


def _shared_out(natural: list[int], room: int) -> list[int]:
    """Column widths that add up to at most `room`: the first column (what a row is about) may take two fifths,
    then narrow columns keep their width and wide ones share the rest."""
    widths = list(natural)
    widths[0] = min(natural[0], max(room * 2 // 5, room - sum(natural[1:])))
    left, open_columns = room - widths[0], len(natural) - 1
    for index in sorted(range(1, len(natural)), key=natural.__getitem__):
        share = max(1, left // open_columns)
        widths[index] = min(natural[index], share)
        left -= widths[index]
        open_columns -= 1
    return widths


def _notes(report: StatusReport, stages: dict[str, dict[str, str]]) -> list[str]:
    """The same note in several languages of one stage is one note: "review:be,kk: waiting for ..."."""
    noted: dict[tuple[str, str], list[str]] = {}
    for stage in report.stages:
        state = stages[stage]
        if state["detail"] and state["status"] != "done":
            family, _, language = stage.partition(":")
            noted.setdefault((family, state["detail"]), []).append(language)
    return [f"{family}{':' + ','.join(langs) if langs != [''] else ''}: {detail}" if len(report.stages) > 1 else detail
            for (family, detail), langs in noted.items()]


def _stage_columns(stages: list[str]) -> dict[str, list[str]]:
    """Column title -> the stages it shows. A stage run in more than two languages gets one column for all of them
    (`translate`, cells counting done/flagged/open/failed), so thirteen languages fit a terminal."""
    families: dict[str, list[str]] = {}
    for stage in stages:
        families.setdefault(stage.partition(":")[0], []).append(stage)
    columns: dict[str, list[str]] = {}
    for stage in stages:
        family = stage.partition(":")[0]
        if len(families[family]) == 1 or len(families[family]) > 2:
            columns[family] = families[family]
        else:
            columns[stage] = [stage]
    return columns


def _state_cell(states: list[str]) -> Text:
    """One kind (done, flagged, open, failed), or for several stages the count of each."""
    if len(set(states)) == 1:
        kind = KIND_OF_STATE.get(states[0], "open")
        return Text(kind, style=KIND_STYLES[kind])
    tally = dict.fromkeys(KINDS, 0)
    for state in states:
        tally[KIND_OF_STATE.get(state, "open")] += 1
    return _counts_cell(tally)
