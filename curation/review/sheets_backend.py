"""The Google Sheets backend, through gspread: one spreadsheet per language, a tab per field and annotator.

The curator creates the spreadsheet (or names a Shared Drive folder) and shares it with the service account
in GOOGLE_APPLICATION_CREDENTIALS. The tool adds tabs, writes values RAW (text is never parsed as a formula)
in batched requests, sets the dropdown validation and protected ranges, and shares the sheet with annotators
given as e-mail addresses. Rate limits (429) and transient 5xx answers are retried within
settings.review.max_retry_seconds: gspread's own back-off client retries forever, so it is not used.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import gspread
import requests
from gspread.exceptions import APIError

from curation.config import Settings
from curation.languages import parse_language
from curation.records import FIELDS
from curation.review.layout import (
    ANSWER_COLUMNS,
    INSTRUCTIONS_TAB,
    INSTRUCTIONS_WIDTHS,
    RUBRIC_CHOICES,
    RUBRIC_TAB,
    VERDICT_CHOICES,
    column_letter,
    columns_for,
    instructions,
)
from curation.review.headers import read_tab
from curation.review.sheet import ReviewError, RowWrite, SheetContent, Target, parse_meta

SCOPES = ("https://www.googleapis.com/auth/spreadsheets", "https://www.googleapis.com/auth/drive")
RETRY_STATUSES = (429, 500, 502, 503, 504)
SPARE_ROWS = 50
RANGES_PER_REQUEST = 500  # values:batchUpdate ranges per request, well under the API's payload limit


def quoted(title: str) -> str:
    """A tab title as A1 notation needs it: in single quotes, inner quotes doubled."""
    return "'" + title.replace("'", "''") + "'"


class SheetsBackend:
    """Spreadsheets per language from settings.review.spreadsheets, or found/created in settings.review.drive_folder."""

    def __init__(self, client: gspread.Client, settings: Settings, service_account: str = "",
                 first_wait: float = 1.0, sleep: Callable[[float], None] = time.sleep):
        self.client = client
        self.http = client.http_client
        self.settings = settings
        self.service_account = service_account
        self.first_wait = first_wait
        self.sleep = sleep
        self._found: dict[str, str] = {}
        # Tab title -> sheet id per spreadsheet, as last read or written: push reads a spreadsheet right before
        # writing to it, so the write need not ask for the tabs again.
        self._known_tabs: dict[str, dict[str, int]] = {}
        self._merges: dict[str, dict[str, list[tuple[int, int, int, int]]]] = {}  # per spreadsheet, as last read

    @classmethod
    def from_settings(cls, settings: Settings) -> "SheetsBackend":
        """A backend authorised as the service account whose key file GOOGLE_APPLICATION_CREDENTIALS names."""
        from google.auth.exceptions import GoogleAuthError
        from google.auth.transport.requests import AuthorizedSession
        from google.oauth2.service_account import Credentials

        path = settings.secrets.google_application_credentials
        if not path:
            raise ReviewError("the sheets backend needs a Google service account: set GOOGLE_APPLICATION_CREDENTIALS to "
                              "its JSON key file, and share each review spreadsheet with the account's e-mail")
        try:
            credentials = Credentials.from_service_account_file(path, scopes=SCOPES)
        except (OSError, ValueError, GoogleAuthError) as error:
            raise ReviewError(f"GOOGLE_APPLICATION_CREDENTIALS={path}: not a readable service account key ({error})") from None
        client = gspread.Client(auth=credentials, session=AuthorizedSession(credentials))
        return cls(client, settings, service_account=credentials.service_account_email)

    # -- the backend protocol -------------------------------------------------------------------

    def locate(self, target: Target) -> str:
        language = target.language
        if language in self.settings.review.spreadsheets:
            return self.settings.review.spreadsheets[language]
        folder = self.settings.review.drive_folder
        if not folder:
            who = f" with {self.service_account}" if self.service_account else " with the service account"
            raise ReviewError(f"no spreadsheet for {language}: create one, share it{who} as editor, and set "
                              f'[review.spreadsheets] {language} = "<spreadsheet id>" in curate.toml '
                              "(or set review.drive_folder to a Shared Drive folder)")
        if language not in self._found:
            title = f"{self.settings.project.name} review {language}"
            files = self._call(f"look for {title!r} in the Drive folder", self.client.list_spreadsheet_files, title, folder)
            if files:
                self._found[language] = files[0]["id"]
            else:
                created = self._call(f"create {title!r}", self.client.create, title, folder)
                self._found[language] = created.id
        return self._found[language]

    def tab_name(self, target: Target, tab: str) -> str:
        return f"{tab} - {target.annotator}"

    def stamp(self, ref: str) -> str | None:
        """None: a spreadsheet's content has no fingerprint cheaper than reading it, so push always reads."""
        return None

    def read(self, ref: str) -> SheetContent | None:
        self._known_tabs[ref] = self._tabs(ref)
        titles = list(self._known_tabs[ref])
        content = SheetContent(ref=ref)
        if not titles:
            return content
        # Whole tabs, not the pushed layout's width: a column dragged to the right must still be seen (and refused).
        ranges = [quoted(t) for t in titles]
        shown = self._call(f"read spreadsheet {ref}", self.http.values_batch_get, ref, ranges,
                           {"valueRenderOption": "FORMATTED_VALUE", "majorDimension": "ROWS"})
        # The same cells as typed: a formula's text, which is what the annotator wrote (=1+1, =HYPERLINK(...)).
        typed = self._call(f"read spreadsheet {ref}", self.http.values_batch_get, ref, ranges,
                           {"valueRenderOption": "FORMULA", "majorDimension": "ROWS"})
        for title, value_range, formula_range in zip(titles, shown.get("valueRanges", []),
                                                     typed.get("valueRanges", [])):
            rows = value_range.get("values", [])
            if title == INSTRUCTIONS_TAB:
                content.meta = parse_meta(rows)
                continue
            formulas = {(r, c): value for r, row in enumerate(formula_range.get("values", []))
                        for c, value in enumerate(row) if isinstance(value, str) and value.startswith("=")
                        and (r >= len(rows) or c >= len(rows[r]) or rows[r][c] != value)}
            tab = read_tab(title, rows, formulas, self._merges.get(ref, {}).get(title, []))
            content.tabs[title] = tab.rows
            if tab.problem:
                content.problems[title] = tab.problem
            if tab.merged:
                content.merged[title] = tab.merged
        return content

    def write(self, target: Target, ref: str, writes: list[RowWrite]) -> None:
        existing = self._known_tabs[ref] if ref in self._known_tabs else self._tabs(ref)
        self._known_tabs[ref] = existing
        wanted = [INSTRUCTIONS_TAB] + [self.tab_name(target, tab) for tab in ([RUBRIC_TAB] if target.rubric else FIELDS)]
        missing = [title for title in wanted if title not in existing]
        # New tabs get their ids from us (the API takes any id not in use), so adding them and setting their dropdowns,
        # wrapping and protection is one request; the values follow in a second.
        added = {title: number for number, title in enumerate(missing, start=max(existing.values(), default=0) + 1)}
        ids = {**existing, **added}
        requests_: list[dict[str, Any]] = [
            {"addSheet": {"properties": {"sheetId": added[title], "title": title, "gridProperties": {"frozenRowCount": 1}}}}
            for title in missing]
        touched = {write.tab for write in writes} | {t for t in missing if t != INSTRUCTIONS_TAB}
        for title in sorted(touched):
            last = max((write.row for write in writes if write.tab == title), default=1) + SPARE_ROWS
            requests_ += self._format_requests(ids[title], title, last, protect=title in missing)
        if INSTRUCTIONS_TAB in missing:
            requests_ += _instructions_format(ids[INSTRUCTIONS_TAB])
        if requests_:
            self._call(f"add tabs, validation and protection to spreadsheet {ref}", self.http.batch_update, ref,
                       {"requests": requests_})
        existing.update(added)

        data = []
        if INSTRUCTIONS_TAB in missing:
            language = parse_language(target.language).english
            rows = instructions(language, "(named in each tab's title)", target.language, target.rubric, "sheets")
            data.append({"range": f"{quoted(INSTRUCTIONS_TAB)}!A1:B{len(rows)}", "values": [list(row) for row in rows]})
        for title in sorted(touched):
            # Every tab written to gets its header row with the rows: a new tab, one pushed before a later column
            # existed, or one whose header a failed push never wrote.
            headers = [column.header for column in columns_for(title.partition(" - ")[0])]
            data.append({"range": f"{quoted(title)}!A1:{column_letter(len(headers) - 1)}1", "values": [headers]})
        for write in writes:
            data.extend(self._row_ranges(write))
        for start in range(0, len(data), RANGES_PER_REQUEST):
            self._call(f"write to spreadsheet {ref}", self.http.values_batch_update, ref,
                       {"valueInputOption": "RAW", "data": data[start:start + RANGES_PER_REQUEST]})
        if "@" in target.annotator and any(title != INSTRUCTIONS_TAB for title in missing):
            self._call(f"share spreadsheet {ref} with {target.annotator}", self.http.insert_permission, ref,
                       target.annotator, "user", "writer", True,
                       f"Review sheet for {parse_language(target.language).english}: your tabs end in '- {target.annotator}'.")

    # -- helpers ------------------------------------------------------------------------------------

    def _tabs(self, ref: str) -> dict[str, int]:
        """Tab title -> sheet id; the tabs' merged ranges are kept for `read` (the API leaves out zero indexes)."""
        answer = self._call(f"open spreadsheet {ref}", self.http.fetch_sheet_metadata, ref,
                            {"includeGridData": "false", "fields": "sheets(properties,merges)"})
        sheets = answer.get("sheets", [])
        self._merges[ref] = {sheet["properties"]["title"]: [
            (m.get("startRowIndex", 0), m["endRowIndex"] - 1, m.get("startColumnIndex", 0), m["endColumnIndex"] - 1)
            for m in sheet.get("merges", [])] for sheet in sheets}
        return {sheet["properties"]["title"]: sheet["properties"]["sheetId"] for sheet in sheets}

    @staticmethod
    def _row_ranges(write: RowWrite) -> list[dict]:
        """The row's values as contiguous column runs, so editable cells between them are never overwritten."""
        columns = columns_for(write.tab.partition(" - ")[0])
        runs: list[list[tuple[int, str]]] = []
        for index, column in enumerate(columns):
            if column.key in write.values:
                if runs and runs[-1][-1][0] == index - 1:
                    runs[-1].append((index, write.values[column.key]))
                else:
                    runs.append([(index, write.values[column.key])])
        return [{"range": f"{quoted(write.tab)}!{column_letter(run[0][0])}{write.row}:{column_letter(run[-1][0])}{write.row}",
                 "values": [[value for _, value in run]]} for run in runs]

    @staticmethod
    def _format_requests(sheet_id: int, title: str, last_row: int, protect: bool) -> list[dict[str, Any]]:
        kind = title.partition(" - ")[0]
        columns = columns_for(kind)
        choices = RUBRIC_CHOICES if kind == RUBRIC_TAB else VERDICT_CHOICES
        requests_: list[dict[str, Any]] = [
            {"setDataValidation": {
                "range": {"sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": last_row,
                          "startColumnIndex": answer, "endColumnIndex": answer + 1},
                "rule": {"condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": c} for c in choices]},
                         "strict": True, "showCustomUi": True}}}
            for answer in (i for i, column in enumerate(columns) if column.key in ANSWER_COLUMNS)]
        requests_ += [
            {"repeatCell": {
                "range": {"sheetId": sheet_id, "startRowIndex": 0, "endRowIndex": last_row},
                "cell": {"userEnteredFormat": {"wrapStrategy": "WRAP", "verticalAlignment": "TOP"}},
                "fields": "userEnteredFormat(wrapStrategy,verticalAlignment)"}},
        ]
        if protect:
            editable = [{"sheetId": sheet_id, "startRowIndex": 1, "startColumnIndex": i, "endColumnIndex": i + 1}
                        for i, column in enumerate(columns) if column.editable]
            requests_.append({"addProtectedRange": {"protectedRange": {
                "range": {"sheetId": sheet_id}, "unprotectedRanges": editable, "warningOnly": False,
                "description": "Item id, translation and original stay as pushed"}}})
        return requests_

    def _call(self, what: str, function: Callable[..., Any], *args: Any) -> Any:
        """Call the API, retrying rate limits and transient errors until settings.review.max_retry_seconds is spent."""
        started, wait = time.monotonic(), self.first_wait
        while True:
            try:
                return function(*args)
            except APIError as error:
                status = error.response.status_code
                if status not in RETRY_STATUSES:
                    raise ReviewError(self._refusal(what, status, error)) from None
                retry_after = error.response.headers.get("Retry-After", "")
                delay = max(wait, float(retry_after)) if retry_after.replace(".", "", 1).isdigit() else wait
                if time.monotonic() - started + delay > self.settings.review.max_retry_seconds:
                    raise ReviewError(f"Google Sheets still answers {status} after retrying for "
                                      f"{self.settings.review.max_retry_seconds:.0f} s (review.max_retry_seconds) while "
                                      f"trying to {what}; wait a few minutes and run the command again: rows already "
                                      "written stay, and a push adds only what is missing") from None
                self.sleep(delay)
                wait = min(wait * 2, 60.0)
            except requests.RequestException as error:
                raise ReviewError(f"cannot reach Google to {what}: {error.__class__.__name__}; check the network") from None

    def _refusal(self, what: str, status: int, error: APIError) -> str:
        message = error.error.get("message", "") if isinstance(error.error, dict) else str(error)
        if status in (403, 404):
            who = self.service_account or "the service account"
            return (f"Google Sheets refused to {what} ({status}: {message}); check the spreadsheet id in "
                    f"[review.spreadsheets] and that the spreadsheet is shared with {who} as editor")
        return f"Google Sheets refused to {what} ({status}: {message})"


def _instructions_format(sheet_id: int) -> list[dict[str, Any]]:
    """The Instructions tab's text wrapped in columns a screen wide, and the tab protected."""
    pixels_per_character = 7  # Sheets' default font, Arial 10
    widths = [{"updateDimensionProperties": {
        "range": {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": index, "endIndex": index + 1},
        "properties": {"pixelSize": width * pixels_per_character}, "fields": "pixelSize"}}
        for index, width in enumerate(INSTRUCTIONS_WIDTHS)]
    wrap = {"repeatCell": {
        "range": {"sheetId": sheet_id, "startColumnIndex": 0, "endColumnIndex": len(INSTRUCTIONS_WIDTHS)},
        "cell": {"userEnteredFormat": {"wrapStrategy": "WRAP", "verticalAlignment": "TOP"}},
        "fields": "userEnteredFormat(wrapStrategy,verticalAlignment)"}}
    protect = {"addProtectedRange": {"protectedRange": {
        "range": {"sheetId": sheet_id}, "description": "Instructions", "warningOnly": False}}}
    return widths + [wrap, protect]
