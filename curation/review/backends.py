"""Picking a sheet backend: xlsx workbooks (default) or Google Sheets."""

from __future__ import annotations

from curation.config import Settings
from curation.review.sheet import ReviewError, SheetBackend
from curation.review.xlsx_backend import XlsxBackend


def backend_for(settings: Settings, name: str | None = None) -> SheetBackend:
    """The backend named (or settings.review.backend); Google Sheets needs GOOGLE_APPLICATION_CREDENTIALS.
    An unknown name is a ReviewError."""
    if name not in (None, "xlsx", "sheets"):
        raise ReviewError(f"unknown backend {name!r}; use xlsx or sheets")
    if (name or settings.review.backend) == "sheets":
        from curation.review.sheets_backend import SheetsBackend

        return SheetsBackend.from_settings(settings)
    return XlsxBackend(settings.path("review_sheets"), settings.root)
