"""How `curate status` looks: one screen by default, per-item tables on request, always the console's width.

The overview is a stage x language matrix of counts (done / flagged / open / failed), the spend so far and the
next command. `--detail`, `--lang` and `--comp` give per-item tables no wider than the terminal: every header is
shown whole (a column that leaves no room for the others is left out and named, a section too wide is continued
below), values are cut with an ellipsis, and the reason a competition failed or was flagged is a line of its own
under its row, whole (`--why` lists only those). Sentences wrap between words and paths between folders.
"""

from __future__ import annotations

import re

from rich.console import Console
from rich.table import Table
from rich.text import Text

from curation.excerpt import excerpt, plural
from curation import status as registry
from curation.status import AFTER_COMMANDS, KIND_OF_STATE, KINDS, StatusReport, failure_lines, next_command

KIND_STYLES = {"done": "green", "flagged": "yellow", "open": "", "failed": "red"}


def render_status(report: StatusReport, console: Console, *, detail: bool = False, competition: str | None = None,
                  verbose: bool = False, why: bool = False) -> None:
    """Print the report: the overview, or with `detail`/`competition` the per-item table and the sections, or with
    `why` the reasons of every failed or flagged competition."""
    if not report.total:
        console.print("No competitions yet. Run [bold]curate ingest[/bold] first.")
    elif why:
        _render_why(report, console, verbose)
    elif competition is not None:
        _render_competition(report, competition, console)
    elif detail:
        _render_items(report, console, verbose)
    else:
        _render_overview(report, console)
    _render_problems(report, console, whole=verbose or detail or why or competition is not None)
    if (detail or competition is not None) and not why and report.total:
        for section in report.sections:
            console.print()
            for table in _fitted(section.title, section.columns, [[str(c) for c in cells] for cells in section.rows],
                                 console.width, whole=verbose):
                console.print(table)
            if section.note:
                console.print(Text(section.note))  # a sentence: wrapped between words, never cut
    for line in excerpt([f"warning: {w}" for w in report.warnings], "`curate status -v`", verbose=verbose):
        console.print(Text(line, style="yellow"))
    if report.total:
        command = next_command(report)
        if not (why and command == "curate status --why"):  # the reasons are above: what to change follows
            console.print(Text("Next: ") + Text(f"`{command}`", style="bold") + Text(AFTER_COMMANDS.get(command, "")),
                          overflow="ellipsis")
        for line in failure_lines(report.tallies, report.repeats):
            for part in wrapped("  " + line, console.width):
                console.print(Text(part, style="yellow"), no_wrap=True, overflow="ignore")


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
    """One row per competition: a column per stage (a stage run in many languages gets one, with counts); under a
    row, the reason of each failed or flagged stage on a line of its own (with `whole`, of every open one too)."""
    stage_columns = _stage_columns(report.stages)
    extra = list(registry._columns)  # read now: the registry may have grown since import
    headers = ["competition", "nb", *stage_columns, *extra]
    rows, reasons = [], []
    for row in report.competitions:
        cells = [Text(row.competition), Text(str(row.notebooks))]
        cells += [_state_cell([row.stages[stage]["status"] for stage in shown if stage in row.stages])
                  for shown in stage_columns.values()]
        cells += [Text(str(row.columns.get(title, ""))) for title in extra]
        rows.append(cells)
        reasons.append(_reasons(report, row.stages, whole))
    states = range(1, 2 + len(stage_columns))  # nb and the states are short: shown whole, never cut
    kept, widths, left_out = _layout(headers, rows, console.width, whole=states,
                                     optional=range(2 + len(stage_columns), len(headers)), first_at_least=(
                                         max(len(row[0].plain) for row in rows) if whole and rows else None))
    console.print(Text(f"Competitions ({len(rows)})", style="italic"))
    console.print(_line([Text(headers[i], style="bold") for i in kept], widths), no_wrap=True, overflow="ignore")
    for cells, notes in zip(rows, reasons):
        console.print(_line([cells[i] for i in kept], widths), no_wrap=True, overflow="ignore")
        for note in notes:
            for part in wrapped(note, console.width, indent=" " * 4):
                console.print(Text(part), no_wrap=True, overflow="ignore")
    if left_out:
        console.print(Text(f"left out at this width: {', '.join(left_out)} (`curate status --json` has every "
                           "column)", style="dim"))


def _render_why(report: StatusReport, console: Console, whole: bool = False) -> None:
    """Every competition with a failed or flagged stage (with `whole`, an open one with a reason too), and why."""
    listed = [(row.competition, notes) for row in report.competitions if (notes := _reasons(report, row.stages, whole))]
    languages = [code for code in report.languages if code != report.source_language]
    scope = f" ({', '.join(languages)})" if 0 < len(languages) < 4 else ""
    if not listed:
        console.print(Text(f"Nothing failed or flagged{scope}."))
        return
    console.print(Text(f"{plural(len(listed), 'competition')} failed or flagged{scope}, and why "
                       "(every stage of one: `curate status --comp SLUG`):", style="bold"))
    for slug, notes in listed:
        console.print(Text(slug))
        for note in notes:
            for part in wrapped(note, console.width, indent=" " * 4):
                console.print(Text(part), no_wrap=True, overflow="ignore")


def _render_competition(report: StatusReport, slug: str, console: Console) -> None:
    """One competition: every stage (each language its own row) with its state and why, the why whole."""
    row = next((row for row in report.competitions if row.competition == slug), None)
    if row is None:
        console.print(Text(f"{slug}: no such competition in the store; `curate status --detail` lists them"))
        return
    extras = ", ".join(f"{title} {value}" for title, value in row.columns.items() if value not in ("", None))
    console.print(Text(f"{row.competition} — {row.comp_name} · {plural(row.notebooks, 'notebook')}"
                       + (f" · {extras}" if extras else "")))
    rows = [[stage, _state_cell([state["status"]]), state["detail"]] for stage, state in row.stages.items()]
    for table in _fitted(None, ["stage", "state", "detail"], rows, console.width):
        console.print(table)


def _render_problems(report: StatusReport, console: Console, whole: bool) -> None:
    if not report.problems:
        return
    console.print(Text(f"Problems ({len(report.problems)}) — fix these and re-run the stage:", style="bold"))
    lines = [f"  [{problem.stage}] {problem.line()}" for problem in report.problems]
    for line in excerpt(lines, "`curate status --detail`", verbose=whole):
        # Wrapped, not cut: the end of a problem says what to do; a path breaks after a folder, never inside a name.
        for part in wrapped(line, console.width):
            console.print(Text(part), no_wrap=True, overflow="ignore")


def wrapped(text: str, width: int, indent: str = "    ") -> list[str]:
    """`text` in lines of at most `width`, broken between words, the lines after the first indented. A word longer
    than a line (a path) is broken after a '/', so no file or folder name is split."""
    lead = text[:len(text) - len(text.lstrip(" "))]
    lines, current = [], lead
    for word in text.split():
        room = max(1, width - len(indent))
        pieces = _path_pieces(word, room) if len(word) > room else [word]
        for number, piece in enumerate(pieces):
            glue = "" if number or not current.strip() else " "
            if current.strip() and len(current) + len(glue) + len(piece) > width:
                lines.append(current)
                current = indent + piece
            else:
                current += glue + piece
    lines.append(current)
    return lines


def _path_pieces(word: str, room: int) -> list[str]:
    """A long word cut after its slashes into pieces of at most `room` (a folder name longer than that is cut
    where it must)."""
    pieces: list[str] = []
    for part in re.findall(r"[^/]*/|[^/]+", word):
        if pieces and len(pieces[-1]) + len(part) <= room:
            pieces[-1] += part
        else:
            pieces += [part[start:start + room] for start in range(0, len(part), room)]
    return pieces


def _fitted(title: str | None, headers: list[str], rows: list[list[str | Text]], width: int,
            whole: bool = False) -> list[Table]:
    """The table as one or more tables no wider than `width`, every header whole: columns that do not fit beside
    the others continue in a table below, which repeats the first column. Cells stay on one line and are cut with
    an ellipsis (with `whole`, as -v asks, they wrap); the last column, where the sentences are, wraps between
    words.

    Widths are shared out here rather than by rich, which, when a table is too wide, narrows every column by the
    same amount and so drops the narrow state columns first."""
    cells = [[cell if isinstance(cell, Text) else Text(str(cell)) for cell in row] for row in rows]
    columns = list(zip(*cells)) if cells else [()] * len(headers)
    kept = [index for index, column in enumerate(columns) if index == 0 or any(cell.plain for cell in column)]
    headers, cells = [headers[i] for i in kept], [[row[i] for i in kept] for row in cells]
    natural = [max([len(headers[n])] + [row[n].cell_len for row in cells]) for n in range(len(headers))]
    least = [min(natural[0], 12)] + [len(header) for header in headers[1:]]
    parts: list[list[int]] = [[0]]
    for index in range(1, len(headers)):
        if len(parts[-1]) > 1 and sum(least[i] + 2 for i in parts[-1]) + least[index] > width:
            parts.append([0])
        parts[-1].append(index)
    tables = []
    for number, part in enumerate(parts):
        room = width - 2 * (len(part) - 1)
        widths = _shared_out([natural[i] for i in part], [least[i] for i in part], room)
        table = Table(title=title if number == 0 else None, title_justify="left", pad_edge=False, box=None,
                      header_style="bold")
        last = len(headers) - 1
        for index, column_width in zip(part, widths):
            wraps = whole or (index == last and index > 0)
            table.add_column(headers[index], no_wrap=not wraps, overflow="fold" if wraps else "ellipsis",
                             width=column_width)
        for row in cells:
            if last in part and last > 0 and not row[last].spans:  # wrapped here: rich would fold a path mid-name
                row = [*row[:last], Text("\n".join(wrapped(row[last].plain, widths[-1], indent="")))]
            table.add_row(*(row[i] for i in part))
        tables.append(table)
    return tables


def _shared_out(natural: list[int], least: list[int], room: int) -> list[int]:
    """Column widths that add up to at most `room` (when the `least` widths fit): the first column (what a row is
    about) may take two fifths, then narrow columns keep their width and wide ones share the rest, none below its
    least width (its header's)."""
    widths = list(natural)
    others = sum(least[1:])
    widths[0] = max(least[0], min(natural[0], max(room * 2 // 5, room - sum(natural[1:])), room - others))
    left, open_columns = room - widths[0], len(natural) - 1
    for index in sorted(range(1, len(natural)), key=natural.__getitem__):
        share = max(least[index], left // open_columns)
        widths[index] = min(natural[index], share)
        left -= widths[index]
        open_columns -= 1
    return widths


def _layout(headers: list[str], rows: list[list[Text]], width: int, whole: range, optional: range,
            first_at_least: int | None = None) -> tuple[list[int], list[int], list[str]]:
    """Which columns of the per-competition table to show and how wide: (their indexes, their widths, the headers of
    the optional columns left out). Every header is shown whole and the `whole` columns (states) are never cut;
    optional columns are left out from the right while the first column would get less than two fifths of the
    line (or `first_at_least`), and the others are cut with an ellipsis."""
    columns = list(zip(*rows)) if rows else [()] * len(headers)
    kept = [index for index, column in enumerate(columns) if index == 0 or any(cell.plain for cell in column)]
    natural = [max([len(headers[n])] + [cell.cell_len for cell in columns[n]]) for n in range(len(headers))]
    least = [natural[n] if n in whole else len(headers[n]) for n in range(len(headers))]
    wanted = min(natural[0], first_at_least or max(16, width * 2 // 5))
    left_out = []
    while width - sum(least[i] + 2 for i in kept[1:]) < wanted and any(i in optional for i in kept):
        dropped = max(i for i in kept if i in optional)
        kept.remove(dropped)
        left_out.insert(0, headers[dropped])
    room = width - 2 * (len(kept) - 1)
    widths = {i: least[i] for i in kept[1:]}
    spare = room - min(natural[0], wanted) - sum(widths.values())
    for index in sorted(widths, key=lambda i: natural[i]):  # narrow columns first: they need little to be whole
        more = min(natural[index] - widths[index], max(0, spare))
        widths[index] += more
        spare -= more
    first = max(1, min(natural[0], room - sum(widths.values())))
    return kept, [first, *(widths[i] for i in kept[1:])], left_out


def _line(cells: list[Text], widths: list[int]) -> Text:
    """One line of the per-competition table: each cell cut to its width with an ellipsis, two spaces between."""
    line = Text()
    for number, (cell, width) in enumerate(zip(cells, widths)):
        cell = cell.copy()
        cell.truncate(width, overflow="ellipsis", pad=number < len(cells) - 1)
        line.append_text(Text("  ") if number else Text())
        line.append_text(cell)
    return line


def _reasons(report: StatusReport, stages: dict[str, dict[str, str]], every: bool = False) -> list[str]:
    """The reason of each failed or flagged stage (with `every`, of each open one too), one line each: "failed
    translate:kk: ...". The same reason in several languages of a stage is one line: "flagged review:be,kk: ..."."""
    wanted = ("failed", "needs_human", "pending") if every else ("failed", "needs_human")
    noted: dict[tuple[str, str, str], list[str]] = {}
    for stage in report.stages:
        state = stages.get(stage)
        if state and state["detail"] and state["status"] in wanted:
            family, _, language = stage.partition(":")
            noted.setdefault((KIND_OF_STATE[state["status"]], family, state["detail"]), []).append(language)
    return [f"  {kind:<7} {family}{':' + ','.join(languages) if languages != [''] else ''}: {detail}"
            for (kind, family, detail), languages in noted.items()]


def _stage_columns(stages: list[str]) -> dict[str, list[str]]:
    """Column title -> the stages it shows. A stage run in several languages gets one column for all of them
    (`translate`, cells counting done/flagged/open/failed, or one state when they share it), so every language fits
    a terminal; `--lang kk` shows kk's states."""
    families: dict[str, list[str]] = {}
    for stage in stages:
        families.setdefault(stage.partition(":")[0], []).append(stage)
    return families


def _state_cell(states: list[str]) -> Text:
    """One kind (done, flagged, open, failed), or for several stages the count of each (none: not its stage)."""
    if not states:
        return Text("")
    if len(set(states)) == 1:
        kind = KIND_OF_STATE.get(states[0], "open")
        return Text(kind, style=KIND_STYLES[kind])
    tally = dict.fromkeys(KINDS, 0)
    for state in states:
        tally[KIND_OF_STATE.get(state, "open")] += 1
    return _counts_cell(tally)
