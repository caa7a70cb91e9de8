"""The Google Sheets backend: real gspread against a fake Sheets v4 / Drive v3 API on its requests session."""

from __future__ import annotations

import gspread
import pytest

from curation.records import VERDICTS
from curation.review.layout import QUESTION
from curation.review.pull import pull
from curation.review.push import push
from curation.review.sheet import ReviewError
from curation.review.sheets_backend import SheetsBackend

from tests.fakes.sheets_api import FakeServiceAccount, FakeSheetsAPI
from tests.review.seeding import seed_translation, with_review

AIGERIM, DANA = "aigerim@example.org", "dana@example.org"


@pytest.fixture
def api() -> FakeSheetsAPI:
    fake = FakeSheetsAPI()
    fake.create_spreadsheet("sheet-kk", "ml2b review kk")
    return fake


@pytest.fixture
def sheets_settings(settings):
    return with_review(settings, backend="sheets", annotators={"kk": [AIGERIM, DANA]}, spreadsheets={"kk": "sheet-kk"},
                       max_retry_seconds=5)


def backend_on(api: FakeSheetsAPI, settings) -> SheetsBackend:
    credentials = FakeServiceAccount()
    client = gspread.Client(auth=credentials, session=api.session(credentials))
    return SheetsBackend(client, settings, service_account=credentials.service_account_email, first_wait=0.001)


def test_push_creates_tabs_writes_raw_sets_validation_protection_and_shares(seeded, sheets_settings, api):
    seed_translation(seeded, "titanic", "domain", "kk", "=IMPORTXML(\"http://x\")")
    report = push(seeded, sheets_settings, "kk", backend_on(api, sheets_settings))

    assert [(s.annotator, s.added) for s in report.sheets] == [(AIGERIM, 6), (DANA, 2)]
    sheet = api.spreadsheets["sheet-kk"]
    titles = [tab.title for tab in sheet.tabs]
    assert titles == ["Sheet1", "Instructions", f"description - {AIGERIM}", f"data_card - {AIGERIM}",
                      f"domain - {AIGERIM}", f"description - {DANA}", f"data_card - {DANA}", f"domain - {DANA}"]
    description = sheet.tab(f"description - {AIGERIM}")
    rows = description.rows()
    assert rows[0][:3] == ["Item id", "Translation", "English original"]
    assert [row[0] for row in rows[1:]] == ["spaceship-titanic/description/kk", "titanic/description/kk"]
    assert rows[1][3] == QUESTION and description.frozen_rows == 1
    # every value went in RAW: a formula-looking translation is stored as the text it is
    assert {option for tab in sheet.tabs for option in tab.input_options} == {"RAW"}
    domain = sheet.tab(f"domain - {AIGERIM}").rows()
    assert next(row for row in domain if row[0] == "titanic/domain/kk")[1] == "=IMPORTXML(\"http://x\")"
    # the dropdown: exactly the four answers, strict, on the answer column (E)
    [validation] = description.validations
    assert [v["userEnteredValue"] for v in validation["rule"]["condition"]["values"]] == list(VERDICTS)
    assert validation["rule"]["strict"] and validation["range"]["startColumnIndex"] == 4
    assert description.formats[0]["cell"]["userEnteredFormat"]["wrapStrategy"] == "WRAP"
    # the Instructions tab wraps in columns a screen wide (it ran four screens to the right)
    instructions = sheet.tab("Instructions")
    assert instructions.formats[0]["cell"]["userEnteredFormat"]["wrapStrategy"] == "WRAP"
    assert 0 < instructions.column_pixels[1] <= 600
    # the tab is protected except the answer, own version and comment columns
    [protected] = [p for p in sheet.protected if p["range"]["sheetId"] == description.sheet_id]
    assert [r["startColumnIndex"] for r in protected["unprotectedRanges"]] == [4, 5, 6]
    assert not protected["warningOnly"]
    assert {p["emailAddress"]: p["role"] for p in sheet.permissions} == {AIGERIM: "writer", DANA: "writer"}
    # batched: one values write per annotator, not one per row
    assert sum(1 for call in api.calls if call[1].endswith("values:batchUpdate")) == 2


def test_annotators_answers_are_pulled_back_and_bad_rows_named(seeded, sheets_settings, api):
    backend = backend_on(api, sheets_settings)
    push(seeded, sheets_settings, "kk", backend)
    tab = f"description - {AIGERIM}"
    api.type_into("sheet-kk", tab, 2, 5, "Yes and yes")
    api.type_into("sheet-kk", tab, 3, 5, "NO and YES")
    api.type_into("sheet-kk", tab, 3, 6, "Жолаушылардың қайсысы апаттан аман қалғанын `Survived` бағаны бойынша "
                                         "train.csv деректерінен болжаңыз.")
    api.type_into("sheet-kk", f"domain - {AIGERIM}", 2, 5, "perhaps")

    report = pull(seeded, sheets_settings, "kk", backend)

    assert report.verdicts == 2
    [problem] = report.problems
    assert problem.startswith(f"sheet-kk tab 'domain - {AIGERIM}' row 2") and "'perhaps'" in problem
    assert {(v.item_id, v.verdict, v.annotator) for v in seeded.verdicts("kk")} == {
        ("spaceship-titanic/description/kk", "YES and YES", AIGERIM), ("titanic/description/kk", "NO and YES", AIGERIM)}
    assert pull(seeded, sheets_settings, "kk", backend).verdicts == 0


def test_re_push_keeps_filled_rows_and_writes_nothing_when_nothing_changed(seeded, sheets_settings, api):
    backend = backend_on(api, sheets_settings)
    push(seeded, sheets_settings, "kk", backend)
    tab = f"description - {AIGERIM}"
    api.type_into("sheet-kk", tab, 3, 5, "YES and NO")
    writes = len(api.calls)
    push(seeded, sheets_settings, "kk", backend)
    assert [call for call in api.calls[writes:] if call[0] == "POST"] == []

    seed_translation(seeded, "titanic", "description", "kk", "Жаңа аударма", provenance="retranslated", round=2)
    push(seeded, sheets_settings, "kk", backend, annotator=AIGERIM)
    rows = api.spreadsheets["sheet-kk"].tab(tab).rows()
    assert rows[2][0] == "titanic/description/kk" and rows[2][4] == "YES and NO"
    assert rows[3][:2] == ["titanic/description/kk #2", "Жаңа аударма"]


def test_rate_limits_are_retried_then_succeed(seeded, sheets_settings, api):
    api.throttle = 3
    report = push(seeded, sheets_settings, "kk", backend_on(api, sheets_settings))
    assert api.throttled == 3
    assert sum(sheet.added for sheet in report.sheets) == 8
    assert len(api.spreadsheets["sheet-kk"].tab(f"data_card - {AIGERIM}").rows()) == 3


def test_rate_limits_beyond_the_bound_stop_with_one_line(seeded, sheets_settings, api):
    bounded = with_review(sheets_settings, max_retry_seconds=0.05)
    api.throttle = 10_000
    with pytest.raises(ReviewError, match=r"still answers 429 .* run the command again"):
        push(seeded, bounded, "kk", backend_on(api, bounded))


def test_a_spreadsheet_not_shared_with_the_service_account(seeded, sheets_settings, api):
    wrong = with_review(sheets_settings, spreadsheets={"kk": "not-shared"})
    with pytest.raises(ReviewError, match=r"shared with curation-bot@example-project"):
        push(seeded, wrong, "kk", backend_on(api, wrong))


def test_a_shared_drive_folder_gets_one_spreadsheet_per_language(seeded, sheets_settings, api):
    in_folder = with_review(sheets_settings, spreadsheets={}, drive_folder="folder-1")
    push(seeded, in_folder, "kk", backend_on(api, in_folder))
    [created] = [s for s in api.spreadsheets.values() if s.parents == ["folder-1"]]
    assert created.title == "ml2b review kk"
    push(seeded, in_folder, "kk", backend_on(api, in_folder))  # found again, not created twice
    assert len([s for s in api.spreadsheets.values() if s.parents == ["folder-1"]]) == 1


def test_no_spreadsheet_configured_says_what_to_set(seeded, sheets_settings, api):
    bare = with_review(sheets_settings, spreadsheets={})
    with pytest.raises(ReviewError, match=r'\[review.spreadsheets\] kk = "<spreadsheet id>"'):
        push(seeded, bare, "kk", backend_on(api, bare))


def test_the_fake_speaks_what_gspread_sends(api):
    """The fake itself, through gspread's high-level API: update, append and read back, RAW stays text."""
    credentials = FakeServiceAccount()
    client = gspread.Client(auth=credentials, session=api.session(credentials))
    worksheet = client.open_by_key("sheet-kk").sheet1
    worksheet.update([["id", "=1+1"]], "A1:B1", raw=True)
    worksheet.append_row(["second", "row"], value_input_option="RAW")
    assert worksheet.get("A1:B2") == [["id", "=1+1"], ["second", "row"]]
    assert worksheet.acell("B1").value == "=1+1"
    assert api.spreadsheets["sheet-kk"].tab("Sheet1").input_options == {"RAW"}


def test_requests_without_the_service_accounts_token_are_refused(api):
    import requests

    answer = requests.Session()
    answer.mount("https://", api)
    response = answer.get("https://sheets.googleapis.com/v4/spreadsheets/sheet-kk")
    assert response.status_code == 401


def test_google_sheets_prefill_your_version_and_a_one_word_edit_is_the_fix(seeded, sheets_settings, api):
    backend = backend_on(api, sheets_settings)
    push(seeded, sheets_settings, "kk", backend)
    sheet = api.spreadsheets["sheet-kk"]
    tab = f"description - {AIGERIM}"
    rows = sheet.tab(tab).rows()
    assert all(row[5] == row[1] and row[5] for row in rows[1:])  # "Your version" starts as the machine text
    instructions = {row[0]: row[1] for row in sheet.tab("Instructions").rows() if len(row) > 1}
    assert instructions["Sending it back"].startswith("Nothing to send")
    number = {row[0]: index for index, row in enumerate(rows, start=1)}
    fixed = rows[number["titanic/description/kk"] - 1][5].replace("болжаңыз", "анықтаңыз")
    api.type_into("sheet-kk", tab, number["titanic/description/kk"], 5, "NO and YES")
    api.type_into("sheet-kk", tab, number["titanic/description/kk"], 6, fixed)
    api.type_into("sheet-kk", tab, number["spaceship-titanic/description/kk"], 5, "NO and NO")  # version untouched

    report = pull(seeded, sheets_settings, "kk", backend)

    assert report.problems == []
    assert {(v.item_id, v.verdict, v.own_version) for v in seeded.verdicts("kk")} == {
        ("titanic/description/kk", "NO and YES", fixed), ("spaceship-titanic/description/kk", "NO and NO", "")}
    assert fixed != rows[number["titanic/description/kk"] - 1][1]


def test_google_sheets_rubric_tabs_show_the_data_card_and_link_and_older_tabs_get_the_columns(seeded, settings, api):
    from curation.records import Description

    api.create_spreadsheet("sheet-en", "ml2b review en")
    rubric_settings = with_review(settings, backend="sheets", annotators={"en": [AIGERIM]},
                                  spreadsheets={"en": "sheet-en"}, rubric_annotators=1, max_retry_seconds=5)
    backend = backend_on(api, rubric_settings)
    push(seeded, rubric_settings, "en", backend)
    tab = api.spreadsheets["sheet-en"].tab(f"rubric - {AIGERIM}")
    rows = tab.rows()
    assert rows[0][4:] == ["Data card", "Competition link", "Solution outline",
                           "Outline score: 0 unusable, 1 needs revision, 2 good", "Outline comment"]
    titanic = next(row for row in rows if row[0] == "titanic")
    assert titanic[4].startswith("train.csv holds") and titanic[5] == "https://www.kaggle.com/competitions/titanic"

    # a tab pushed before these columns existed: they come back, header included, with the next rows written
    for column in (9, 8, 7, 6, 5):
        api.delete_column("sheet-en", f"rubric - {AIGERIM}", column)
    seeded.save_description(Description(competition="titanic", text="Predict who survived.", provenance="machine",
                                        grade="C"))
    push(seeded, rubric_settings, "en", backend)
    rows = api.spreadsheets["sheet-en"].tab(f"rubric - {AIGERIM}").rows()
    assert rows[0][4:6] == ["Data card", "Competition link"]
    assert pull(seeded, rubric_settings, "en", backend).problems == []
