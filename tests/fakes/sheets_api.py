"""A fake of the Google Sheets v4 and Drive v3 APIs, as a requests transport adapter.

Mount it on the requests session gspread uses (`gspread.Client(auth=..., session=...)`) and the real gspread
code talks to it: spreadsheet metadata, batchUpdate (addSheet, setDataValidation, addProtectedRange,
repeatCell, updateDimensionProperties for column widths), values get/batchGet/update/batchUpdate/append, Drive files list/create and permissions create.
It keeps what it was sent (cells with the valueInputOption used, validations, protected ranges, shares),
checks the bearer token, and can answer 429 a given number of times before it serves a request.

For a `curate` process of its own (tests that kill one), `route_google_to` sends every Google host that process
reaches to the fake, the OAuth token endpoint included (a real service-account key file signs the grant, see
`write_service_account_key`), and `kill_at` makes the fake SIGKILL the process on its Nth request.
"""

from __future__ import annotations

import json
import os
import pickle
import re
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs, unquote, urlparse

import requests
from google.auth.credentials import Credentials
from google.auth.transport.requests import AuthorizedSession
from requests.adapters import BaseAdapter

TOKEN = "fake-service-account-token"


class FakeServiceAccount(Credentials):
    """Service-account credentials that hold a token and refresh without the network."""

    service_account_email = "curation-bot@example-project.iam.gserviceaccount.com"

    def __init__(self):
        super().__init__()
        self.token = TOKEN
        self.refreshed = 0

    def refresh(self, request) -> None:
        self.token = TOKEN
        self.refreshed += 1


@dataclass
class Tab:
    sheet_id: int
    title: str
    frozen_rows: int = 0
    cells: dict[tuple[int, int], str] = field(default_factory=dict)  # (row, col), 0-based -> text shown
    formulas: dict[tuple[int, int], str] = field(default_factory=dict)  # (row, col) -> formula typed there
    input_options: set[str] = field(default_factory=set)  # every valueInputOption used to write here
    validations: list[dict] = field(default_factory=list)
    formats: list[dict] = field(default_factory=list)
    column_pixels: dict[int, int] = field(default_factory=dict)  # set by updateDimensionProperties
    merges: list[dict] = field(default_factory=list)  # GridRanges of merged cells, as the API lists them

    def rows(self, render: str = "FORMATTED_VALUE") -> list[list[str]]:
        """Values as the API returns them (valueRenderOption FORMULA: formulas as typed): trailing empty rows and
        cells trimmed."""
        if not self.cells:
            return []
        shown = {**self.cells, **self.formulas} if render == "FORMULA" else self.cells
        height = max(r for r, _ in shown) + 1
        out = []
        for r in range(height):
            width = max((c + 1 for rr, c in shown if rr == r), default=0)
            out.append([shown.get((r, c), "") for c in range(width)])
        while out and not any(out[-1]):
            out.pop()
        return out


@dataclass
class Spreadsheet:
    id: str
    title: str
    tabs: list[Tab] = field(default_factory=list)
    protected: list[dict] = field(default_factory=list)
    permissions: list[dict] = field(default_factory=list)
    parents: list[str] = field(default_factory=list)

    def tab(self, title: str) -> Tab:
        for tab in self.tabs:
            if tab.title == title:
                return tab
        raise KeyError(title)


_A1 = re.compile(r"^(?:'((?:[^']|'')+)'|([^!']+))(?:!([A-Z]+)?(\d+)?(?::([A-Z]+)?(\d+)?)?)?$")


def _col(letters: str) -> int:
    value = 0
    for char in letters:
        value = value * 26 + ord(char) - 64
    return value - 1


def parse_a1(text: str) -> tuple[str, int, int, int | None, int | None]:
    """(tab title, first row, first col, last row, last col), 0-based; None when open-ended."""
    match = _A1.match(text)
    if not match:
        raise ValueError(text)
    title = (match.group(1) or "").replace("''", "'") or match.group(2)
    c1, r1, c2, r2 = match.group(3), match.group(4), match.group(5), match.group(6)
    return (title, int(r1) - 1 if r1 else 0, _col(c1) if c1 else 0,
            int(r2) - 1 if r2 else (int(r1) - 1 if r1 and not match.group(5) and c1 else None),
            _col(c2) if c2 else (_col(c1) if c1 and not c2 and r1 and not r2 else None))


class FakeSheetsAPI(BaseAdapter):
    """The fake service. `.spreadsheets` holds the state; `.calls` lists (method, path) of every request served."""

    def __init__(self):
        super().__init__()
        self.spreadsheets: dict[str, Spreadsheet] = {}
        self.calls: list[tuple[str, str]] = []
        self.throttle = 0  # answer this many next requests with 429
        self.throttled = 0
        self.kill_at: int | None = None  # SIGKILL the process this fake serves on its Nth request (1-based)
        self._next_sheet_id = 100

    # -- test helpers -----------------------------------------------------------------------------

    def create_spreadsheet(self, spreadsheet_id: str, title: str = "review", parents: list[str] | None = None) -> Spreadsheet:
        """A spreadsheet the curator made and shared with the service account (it starts with one empty tab)."""
        sheet = Spreadsheet(spreadsheet_id, title, [Tab(0, "Sheet1")], parents=parents or [])
        self.spreadsheets[spreadsheet_id] = sheet
        return sheet

    def session(self, credentials: Credentials | None = None) -> AuthorizedSession:
        """An authorised session, as gspread gets one, with this fake mounted for every Google host."""
        session = AuthorizedSession(credentials or FakeServiceAccount())
        session.mount("https://", self)
        return session

    def type_into(self, spreadsheet_id: str, tab: str, row: int, column: int, text: str, shows: str | None = None) -> None:
        """What an annotator does in the browser: type into a cell (1-based row and column). Text starting with
        "=" is a formula: the sheet shows `shows` (its result, which the fake does not compute) in its place."""
        cells = self.spreadsheets[spreadsheet_id].tab(tab)
        cells.formulas.pop((row - 1, column - 1), None)
        if text.startswith("="):
            cells.formulas[(row - 1, column - 1)] = text
            text = shows or ""
        cells.cells[(row - 1, column - 1)] = text

    def delete_column(self, spreadsheet_id: str, tab: str, column: int) -> None:
        """Delete a column (1-based) as the browser does: the columns right of it move one to the left."""
        sheet_tab = self.spreadsheets[spreadsheet_id].tab(tab)
        for attribute in ("cells", "formulas"):
            old = getattr(sheet_tab, attribute)
            setattr(sheet_tab, attribute, {(r, c if c < column - 1 else c - 1): v for (r, c), v in old.items()
                                           if c != column - 1})

    def merge_cells(self, spreadsheet_id: str, tab: str, a1: str) -> None:
        """Merge a range (A1 notation, e.g. "E3:E5") as Format > Merge cells does: only the top-left value stays."""
        _, r1, c1, r2, c2 = parse_a1(f"'{tab}'!{a1}")
        sheet_tab = self.spreadsheets[spreadsheet_id].tab(tab)
        for cells in (sheet_tab.cells, sheet_tab.formulas):
            for r, c in [(r, c) for r, c in cells if r1 <= r <= r2 and c1 <= c <= c2 and (r, c) != (r1, c1)]:
                del cells[(r, c)]
        sheet_tab.merges.append({"sheetId": sheet_tab.sheet_id, "startRowIndex": r1, "endRowIndex": r2 + 1,
                                 "startColumnIndex": c1, "endColumnIndex": c2 + 1})

    def duplicate_tab(self, spreadsheet_id: str, tab: str) -> str:
        """Duplicate a tab as the browser does ("Copy of <tab>", cells and formulas with it); returns its title."""
        original = self.spreadsheets[spreadsheet_id].tab(tab)
        self._next_sheet_id += 1
        self.spreadsheets[spreadsheet_id].tabs.append(Tab(self._next_sheet_id, f"Copy of {tab}", original.frozen_rows,
                                                          dict(original.cells), dict(original.formulas)))
        return f"Copy of {tab}"

    def save(self, path) -> None:
        """Keep the spreadsheets in a file, for a `curate` process started by the test (see `load`)."""
        with open(path, "wb") as handle:
            pickle.dump(self.spreadsheets, handle)

    @classmethod
    def load(cls, path) -> "FakeSheetsAPI":
        """A fake holding the spreadsheets `save` kept."""
        fake = cls()
        with open(path, "rb") as handle:
            fake.spreadsheets = pickle.load(handle)
        return fake

    # -- the transport ------------------------------------------------------------------------------

    def send(self, request: requests.PreparedRequest, **kwargs) -> requests.Response:
        url = urlparse(request.url)
        path = unquote(url.path)
        query = parse_qs(url.query)
        if url.netloc == "iamcredentials.googleapis.com" and path.endswith("/allowedLocations"):
            # google-auth looks up a service account's regional access boundary from a background thread; it is
            # no request of ours, and counting it would make the Nth request depend on thread timing. Without a
            # boundary the client goes on as usual.
            return self._answer(request, 404, _error(404, "No regional access boundary for this account."))
        self.calls.append((request.method, path))
        if self.kill_at is not None and len(self.calls) >= self.kill_at:
            os.kill(os.getpid(), signal.SIGKILL)  # the client dies with this request unanswered
        if url.netloc == "oauth2.googleapis.com" and path == "/token":
            # The service account's signed grant, exchanged for the token the other endpoints check.
            return self._answer(request, 200, {"access_token": TOKEN, "expires_in": 3600, "token_type": "Bearer"})
        if request.headers.get("Authorization") != f"Bearer {TOKEN}":
            return self._answer(request, 401, _error(401, "Request is missing a valid bearer token."))
        if self.throttle:
            self.throttle -= 1
            self.throttled += 1
            return self._answer(request, 429, _error(429, "Quota exceeded for quota metric 'Write requests'."),
                                {"Retry-After": "0"})
        body = json.loads(request.body) if request.body else {}
        try:
            status, payload = self._route(request.method, url.netloc, path, query, body)
        except KeyError as missing:
            status, payload = 404, _error(404, f"Requested entity was not found: {missing}")
        except ValueError as bad:
            status, payload = 400, _error(400, f"Invalid request: {bad}")
        return self._answer(request, status, payload)

    def close(self) -> None:
        pass

    def _route(self, method: str, host: str, path: str, query: dict, body: dict) -> tuple[int, dict]:
        if host == "www.googleapis.com":
            return self._drive(method, path, query, body)
        match = re.match(r"^/v4/spreadsheets/([^/:]+)(.*)$", path)
        if host != "sheets.googleapis.com" or not match:
            raise ValueError(f"unsupported endpoint {method} {host}{path}")
        sheet = self.spreadsheets[match.group(1)]
        rest = match.group(2)
        if method == "GET" and rest == "":
            return 200, self._metadata(sheet, query.get("fields", [""])[0])
        if method == "POST" and rest == ":batchUpdate":
            return 200, {"spreadsheetId": sheet.id, "replies": [self._update(sheet, r) for r in body["requests"]]}
        if method == "GET" and rest == "/values:batchGet":
            render = query.get("valueRenderOption", ["FORMATTED_VALUE"])[0]
            return 200, {"spreadsheetId": sheet.id,
                         "valueRanges": [self._get(sheet, r, render) for r in query.get("ranges", [])]}
        if method == "POST" and rest == "/values:batchUpdate":
            for data in body["data"]:
                self._put(sheet, data["range"], data["values"], body["valueInputOption"])
            return 200, {"spreadsheetId": sheet.id, "totalUpdatedCells": sum(len(r) for d in body["data"] for r in d["values"])}
        values = re.match(r"^/values/(.+?)(:append)?$", rest)
        if values and method == "GET":
            return 200, self._get(sheet, values.group(1))
        if values and method == "PUT":
            self._put(sheet, values.group(1), body["values"], query["valueInputOption"][0])
            return 200, {"spreadsheetId": sheet.id}
        if values and method == "POST" and values.group(2):
            title = parse_a1(values.group(1))[0]
            start = len(sheet.tab(title).rows())
            self._put(sheet, f"{_quote(title)}!A{start + 1}:Z", body["values"], query["valueInputOption"][0])
            return 200, {"spreadsheetId": sheet.id}
        raise ValueError(f"unsupported endpoint {method} {path}")

    def _drive(self, method: str, path: str, query: dict, body: dict) -> tuple[int, dict]:
        if method == "GET" and path == "/drive/v3/files":
            q = query["q"][0]
            name = re.search(r'name = "([^"]*)"', q)
            parent = re.search(r'parents in "([^"]*)"', q)
            files = [{"id": s.id, "name": s.title} for s in self.spreadsheets.values()
                     if (not name or s.title == name.group(1)) and (not parent or parent.group(1) in s.parents)]
            return 200, {"kind": "drive#fileList", "files": files}
        if method == "POST" and path == "/drive/v3/files":
            new_id = f"created-{len(self.spreadsheets) + 1}"
            self.create_spreadsheet(new_id, body["name"], body.get("parents"))
            return 200, {"id": new_id, "name": body["name"]}
        match = re.match(r"^/drive/v3/files/([^/]+)/permissions$", path)
        if method == "POST" and match:
            sheet = self.spreadsheets[match.group(1)]
            permission = {**body, "id": f"perm-{len(sheet.permissions) + 1}",
                          "sendNotificationEmail": query.get("sendNotificationEmail", [""])[0]}
            sheet.permissions.append(permission)
            return 200, permission
        raise ValueError(f"unsupported endpoint {method} {path}")

    def _metadata(self, sheet: Spreadsheet, fields: str = "") -> dict:
        # Merges only when asked for (the API sends the fields asked for), zero indexes left out, as the API does.
        merges = (lambda t: {"merges": [{k: v for k, v in m.items() if v} for m in t.merges]}
                  if t.merges and (not fields or "merges" in fields) else {})
        return {"spreadsheetId": sheet.id, "properties": {"title": sheet.title},
                "sheets": [{"properties": {"sheetId": t.sheet_id, "title": t.title, "index": i,
                                           "gridProperties": {"rowCount": 1000, "columnCount": 26,
                                                              "frozenRowCount": t.frozen_rows}},
                            "protectedRanges": [p for p in sheet.protected if p["range"]["sheetId"] == t.sheet_id],
                            **merges(t)} for i, t in enumerate(sheet.tabs)]}

    def _update(self, sheet: Spreadsheet, request: dict) -> dict:
        [(kind, spec)] = request.items()
        if kind == "addSheet":
            properties = spec.get("properties", {})
            title = properties["title"]
            if any(t.title == title for t in sheet.tabs):
                raise ValueError(f'A sheet with the name "{title}" already exists.')
            # The caller may choose the id; one already in use is refused, as the API does.
            sheet_id = properties.get("sheetId", self._next_sheet_id)
            if any(t.sheet_id == sheet_id for t in sheet.tabs):
                raise ValueError(f"A sheet with the id {sheet_id} already exists.")
            tab = Tab(sheet_id, title, properties.get("gridProperties", {}).get("frozenRowCount", 0))
            self._next_sheet_id = max(self._next_sheet_id, sheet_id) + 1
            sheet.tabs.append(tab)
            return {"addSheet": {"properties": {"sheetId": tab.sheet_id, "title": title, "index": len(sheet.tabs) - 1}}}
        if kind == "setDataValidation":
            self._by_id(sheet, spec["range"]["sheetId"]).validations.append(spec)
            return {}
        if kind == "addProtectedRange":
            protected = {**spec["protectedRange"], "protectedRangeId": len(sheet.protected) + 1}
            self._by_id(sheet, protected["range"]["sheetId"])
            sheet.protected.append(protected)
            return {"addProtectedRange": {"protectedRange": protected}}
        if kind == "repeatCell":
            self._by_id(sheet, spec["range"]["sheetId"]).formats.append(spec)
            return {}
        if kind == "updateDimensionProperties":
            span, properties = spec["range"], spec["properties"]
            if span["dimension"] != "COLUMNS" or spec.get("fields") != "pixelSize":
                raise ValueError(f"the fake sets column widths only, not {span['dimension']} {spec.get('fields')}")
            tab = self._by_id(sheet, span["sheetId"])
            for column in range(span["startIndex"], span["endIndex"]):
                tab.column_pixels[column] = properties["pixelSize"]
            return {}
        raise ValueError(f"the fake does not implement batchUpdate request {kind}")

    @staticmethod
    def _by_id(sheet: Spreadsheet, sheet_id: int) -> Tab:
        for tab in sheet.tabs:
            if tab.sheet_id == sheet_id:
                return tab
        raise KeyError(f"sheetId {sheet_id}")

    @staticmethod
    def _get(sheet: Spreadsheet, a1: str, render: str = "FORMATTED_VALUE") -> dict:
        if render not in ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"):
            raise ValueError(f"valueRenderOption {render!r}")
        title, r1, c1, r2, c2 = parse_a1(a1)
        rows = sheet.tab(title).rows(render)[r1: None if r2 is None else r2 + 1]
        rows = [row[c1: None if c2 is None else c2 + 1] for row in rows]
        while rows and not any(rows[-1]):
            rows.pop()
        result = {"range": a1, "majorDimension": "ROWS"}
        if rows:
            result["values"] = [_trim(row) for row in rows]
        return result

    @staticmethod
    def _put(sheet: Spreadsheet, a1: str, values: list[list], option: str) -> None:
        if option not in ("RAW", "USER_ENTERED"):
            raise ValueError(f"valueInputOption {option!r}")
        title, r1, c1, _, c2 = parse_a1(a1)
        tab = sheet.tab(title)
        tab.input_options.add(option)
        for i, row in enumerate(values):
            if c2 is not None and len(row) > c2 - c1 + 1:
                raise ValueError(f"{a1}: {len(row)} values for {c2 - c1 + 1} columns")
            for j, value in enumerate(row):
                tab.cells[(r1 + i, c1 + j)] = "" if value is None else str(value)
                tab.formulas.pop((r1 + i, c1 + j), None)

    @staticmethod
    def _answer(request, status: int, payload: dict, headers: dict | None = None) -> requests.Response:
        response = requests.Response()
        response.status_code = status
        response._content = json.dumps(payload).encode()
        response.headers["Content-Type"] = "application/json; charset=UTF-8"
        response.headers.update(headers or {})
        response.url = request.url
        response.request = request
        response.encoding = "utf-8"
        return response


def route_google_to(fake: FakeSheetsAPI) -> Callable[[], None]:
    """Make every requests session in this process reach `fake` for Google hosts; returns the undo."""
    original = requests.Session.get_adapter

    def get_adapter(session, url: str):
        host = urlparse(url).netloc
        return fake if host.endswith(".googleapis.com") else original(session, url)

    requests.Session.get_adapter = get_adapter

    def undo() -> None:
        requests.Session.get_adapter = original

    return undo


def write_service_account_key(path) -> None:
    """A service-account key file as Google issues one (a fresh RSA key; the fake accepts any signed grant)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"type": "service_account", "project_id": "example-project", "private_key_id": "fake-key-1",
                   "private_key": pem, "client_email": FakeServiceAccount.service_account_email,
                   "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token",
                   "universe_domain": "googleapis.com"}, handle)


def _quote(title: str) -> str:
    return "'" + title.replace("'", "''") + "'"


def _trim(row: list[str]) -> list[str]:
    while row and row[-1] == "":
        row = row[:-1]
    return row


def _error(code: int, message: str) -> dict:
    return {"error": {"code": code, "message": message, "status": "ERROR"}}
