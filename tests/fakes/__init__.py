"""Fakes of remote services (LLM APIs, Google Sheets, the Hub), shared by tests."""
