"""One TLS context per process for every SDK client, where each client used to build its own.

Building one reads the system's CA bundle: about 20 ms of CPU, paid per client, and a command opens a client per
provider it calls (63 clients in seven of the test suite's stage modules, measured). The context is built as the SDKs' HTTP
library builds its default (httpx2, which both SDKs depend on), so SSL_CERT_FILE and SSL_CERT_DIR still choose the
CA bundle; it is built again when either changes.
"""

from __future__ import annotations

import os
import ssl
from functools import lru_cache


def tls_context() -> ssl.SSLContext:
    """The process's TLS context for the providers' HTTPS connections (shared: an SSLContext is safe to share)."""
    return _context(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))


@lru_cache(maxsize=4)
def _context(cert_file: str | None, cert_dir: str | None) -> ssl.SSLContext:
    import httpx2

    return httpx2.create_ssl_context()
