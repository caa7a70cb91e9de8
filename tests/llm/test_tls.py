"""The providers' clients share one TLS context per process, and SSL_CERT_FILE still chooses its CA bundle."""

from __future__ import annotations

import certifi

from curation.config import ProviderSettings
from curation.llm.openai_chat import OpenAIChat
from curation.llm.tls import tls_context


def test_clients_share_one_context_built_once(monkeypatch):
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    assert tls_context() is tls_context()
    first = OpenAIChat(ProviderSettings(kind="openai"), "key", "https://one.example/v1")
    second = OpenAIChat(ProviderSettings(kind="openai"), "key", "https://two.example/v1")
    assert first.client._client is not second.client._client  # a connection pool each, as before


def test_ssl_cert_file_chooses_the_bundle(monkeypatch):
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    default = tls_context()
    monkeypatch.setenv("SSL_CERT_FILE", certifi.where())
    chosen = tls_context()
    assert chosen is not default
    assert chosen.cert_store_stats()["x509_ca"] > 0  # read from that file
    assert tls_context() is chosen
