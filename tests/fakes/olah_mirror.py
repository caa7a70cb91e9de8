"""A local read-only Hub: the `olah` mirror (PyPI) serving git repositories from disk, offline.

olah answers the Hub's read API (refs, revision info, tree, paths-info, resolve) from local git repositories
laid out as <mirrors>/datasets/<org>/<name>, so huggingface_hub and datasets can resolve tags such as v1.0.0
against it with HF_ENDPOINT pointing at it.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

_START = "import sys; from olah.server import cli; sys.argv[0] = 'olah-cli'; cli()"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class OlahMirror:
    """Serve the dataset repositories under `workdir/mirrors` with olah in offline mode; use as a context manager."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.mirrors = workdir / "mirrors"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def add_dataset(self, repo_id: str, repository: Path) -> None:
        """Serve a clone of a local git repository (tags included) as the dataset repo_id."""
        target = self.mirrors / "datasets" / repo_id
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "--quiet", str(repository), str(target)], check=True)

    def __enter__(self) -> "OlahMirror":
        self.mirrors.mkdir(parents=True, exist_ok=True)
        config = self.workdir / "olah.toml"
        config.write_text(
            "[basic]\n"
            f'host = "127.0.0.1"\nport = {self.port}\n'
            f'mirror-netloc = "127.0.0.1:{self.port}"\nmirror-lfs-netloc = "127.0.0.1:{self.port}"\n'
            f'mirrors-path = ["{self.mirrors}"]\nrepos-path = "{self.workdir / "cache"}"\n'
            "[accessibility]\noffline = true\n", encoding="utf-8")
        log = (self.workdir / "olah.log").open("w")
        self.process = subprocess.Popen([sys.executable, "-c", _START, "--config", str(config)], cwd=self.workdir,
                                        stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"olah exited: {(self.workdir / 'olah.log').read_text()[-2000:]}")
            try:
                urllib.request.urlopen(f"{self.url}/api/datasets/none/none/refs", timeout=2)
            except urllib.error.HTTPError:
                return self  # it answers (a 404 for an unknown repo): ready
            except OSError:
                time.sleep(0.2)
                continue
            return self
        self.__exit__()
        raise RuntimeError("olah did not start within 60 s")

    def __exit__(self, *exc: object) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
