"""The batch endpoints of the fake LLM server: OpenAI files + batches, and Anthropic message batches.

Each request in a batch is answered by the server's ordinary responder (scripted responses first), so a test
scripts batch answers exactly as it scripts online ones; an error Response becomes that request's error line, and
`bare_envelope()` an answer body without the API's fields.

A batch is `in_progress` for `polls_to_finish` looks (GET), then ends, unless `hold` is set (a batch that stays
in progress, e.g. while the process that submitted it is killed). What a test can arrange, via `server.batches`:
  - `expire_next(answered=N)`: the next batch expires with only its first N requests answered;
  - `hold = True` / `hold = False`: keep every batch in progress / let them end;
  - `created`: the batches submitted so far, as (api, batch id, number of requests); `looks`: GETs of batches.
A cancelled batch ends with none of its unanswered requests processed.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import default as default_policy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.fakes.llm_server import FakeLLMServer


@dataclass
class _Batch:
    api: str  # openai | anthropic
    id: str
    requests: list[tuple[str, dict]]  # (custom_id, body)
    created: int = field(default_factory=lambda: int(time.time()))
    state: str = "in_progress"
    looks: int = 0
    expire_after: int | None = None  # answer this many, then expire
    cancelled: bool = False
    lines: list[dict] | None = None  # result lines once ended

    @property
    def ended(self) -> bool:
        return self.lines is not None


class FakeBatches:
    """Batches kept in memory; answers are computed when a batch ends."""

    def __init__(self, server: FakeLLMServer):
        self.server = server
        self.polls_to_finish = 1
        self.hold = False
        self.created: list[tuple[str, str, int]] = []
        self.looks = 0
        self.submitted = threading.Event()  # set at every batch creation, for a test waiting on one
        self._expire_next: int | None = None
        self._files: dict[str, bytes] = {}
        self._batches: dict[str, _Batch] = {}
        self._lock = threading.Lock()

    def expire_next(self, answered: int = 0) -> None:
        """The next batch created expires after answering its first `answered` requests."""
        self._expire_next = answered

    @staticmethod
    def handles(path: str) -> bool:
        path = path.split("?")[0].rstrip("/")
        return path.startswith(("/v1/files", "/v1/batches", "/v1/messages/batches"))

    # -- dispatch: (status, body bytes, content type) -----------------------------------------------

    def get(self, path: str) -> tuple[int, bytes, str]:
        path = path.split("?")[0].rstrip("/")
        parts = path.split("/")
        if path.startswith("/v1/files/") and path.endswith("/content"):
            content = self._files.get(parts[3])
            return (200, content, "application/octet-stream") if content is not None else _missing(path)
        if path.startswith("/v1/messages/batches/") and path.endswith("/results"):
            batch = self._batches.get(parts[4])
            if batch is None or not batch.ended:
                return _missing(path)
            return 200, "".join(json.dumps(line) + "\n" for line in batch.lines).encode(), "application/binary"
        if path in ("/v1/batches", "/v1/messages/batches"):
            api = "openai" if path == "/v1/batches" else "anthropic"
            data = [self._view(b) for b in self._batches.values() if b.api == api]
            return _json(200, {"data": data, "object": "list", "has_more": False,
                               "first_id": data[0]["id"] if data else None, "last_id": data[-1]["id"] if data else None})
        batch = self._batches.get(parts[-1])
        if batch is None:
            return _missing(path)
        self._look(batch)
        return _json(200, self._view(batch))

    def post(self, path: str, content_type: str, raw: bytes) -> tuple[int, bytes, str]:
        path = path.split("?")[0].rstrip("/")
        if path == "/v1/files":
            return self._upload(content_type, raw)
        if path.endswith("/cancel"):
            batch = self._batches.get(path.split("/")[-2])
            if batch is None:
                return _missing(path)
            if not batch.ended:
                batch.cancelled = True
                batch.state = "cancelling" if batch.api == "openai" else "canceling"
            return _json(200, self._view(batch))
        body = json.loads(raw or b"{}")
        if path == "/v1/batches":
            content = self._files.get(body.get("input_file_id", ""))
            if content is None:
                return _json(404, {"error": {"message": "no such file", "type": "invalid_request_error"}})
            lines = [json.loads(line) for line in content.decode().splitlines() if line.strip()]
            return self._create("openai", [(line["custom_id"], line["body"]) for line in lines])
        if path == "/v1/messages/batches":
            return self._create("anthropic", [(r["custom_id"], r["params"]) for r in body.get("requests", [])])
        return _missing(path)

    # -- behaviour ----------------------------------------------------------------------------------

    def _upload(self, content_type: str, raw: bytes) -> tuple[int, bytes, str]:
        message = BytesParser(policy=default_policy).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + raw)
        content = b""
        for part in message.iter_parts():
            if part.get_param("name", header="content-disposition") == "file":
                content = part.get_payload(decode=True)
        file_id = f"file-{uuid.uuid4().hex[:12]}"
        self._files[file_id] = content
        return _json(200, {"id": file_id, "object": "file", "bytes": len(content), "created_at": int(time.time()),
                           "filename": "requests.jsonl", "purpose": "batch", "status": "processed"})

    def _create(self, api: str, requests: list[tuple[str, dict]]) -> tuple[int, bytes, str]:
        prefix = "batch_" if api == "openai" else "msgbatch_"
        batch = _Batch(api=api, id=f"{prefix}{uuid.uuid4().hex[:12]}", requests=requests,
                       expire_after=self._expire_next)
        self._expire_next = None
        with self._lock:
            self._batches[batch.id] = batch
            self.created.append((api, batch.id, len(requests)))
        self.submitted.set()
        return _json(200, self._view(batch))

    def _look(self, batch: _Batch) -> None:
        with self._lock:
            self.looks += 1
            batch.looks += 1
            if batch.ended or (self.hold and not batch.cancelled):
                return
            if batch.cancelled or batch.expire_after is not None or batch.looks > self.polls_to_finish:
                self._finish(batch)

    def _finish(self, batch: _Batch) -> None:
        """Answer what the batch gets to answer through the server's responder; the rest expire or are cancelled."""
        from tests.fakes.llm_server import Request

        answered = 0 if batch.cancelled else len(batch.requests) if batch.expire_after is None else batch.expire_after
        batch.lines = []
        for number, (custom_id, body) in enumerate(batch.requests):
            if number >= answered:
                batch.lines.append(_unprocessed(batch.api, custom_id, "cancelled" if batch.cancelled else "expired"))
                continue
            path = "/v1/chat/completions" if batch.api == "openai" else "/v1/messages"
            request = Request(api=batch.api, path=path, body=body, headers={}, received_at=time.monotonic())
            response = self.server._record(request)
            self.server._done()
            batch.lines.append(_result_line(batch.api, custom_id, request, response))
            if response.kind != "status":
                self.server._count_answered()
        batch.state = {"openai": "cancelled" if batch.cancelled else "completed" if batch.expire_after is None
                       else "expired", "anthropic": "ended"}[batch.api]

    def _view(self, batch: _Batch) -> dict:
        """The batch object as the provider's API returns it."""
        lines = batch.lines or []
        if batch.api == "openai":
            ok = [line for line in lines if (line.get("response") or {}).get("status_code") == 200]
            bad = [line for line in lines if line not in ok]
            output = self._file_of(batch.id + "-out", ok) if batch.ended and ok else None
            errors = self._file_of(batch.id + "-err", bad) if batch.ended and bad else None
            return {"id": batch.id, "object": "batch", "endpoint": "/v1/chat/completions", "input_file_id": "file-in",
                    "completion_window": "24h", "status": batch.state, "created_at": batch.created,
                    "output_file_id": output, "error_file_id": errors, "errors": None, "metadata": None,
                    "request_counts": {"total": len(batch.requests), "completed": len(ok), "failed": len(bad)}}
        kinds = [line["result"]["type"] for line in lines]
        counts = {"processing": 0 if batch.ended else len(batch.requests), "succeeded": kinds.count("succeeded"),
                  "errored": kinds.count("errored"), "canceled": kinds.count("canceled"),
                  "expired": kinds.count("expired")}
        stamp = "2026-11-23T00:00:00Z"
        return {"id": batch.id, "type": "message_batch", "processing_status": batch.state, "request_counts": counts,
                "created_at": stamp, "expires_at": stamp, "ended_at": stamp if batch.ended else None,
                "archived_at": None, "cancel_initiated_at": stamp if batch.cancelled else None,
                "results_url": f"{self.server.url}/v1/messages/batches/{batch.id}/results" if batch.ended else None}

    def _file_of(self, file_id: str, lines: list[dict]) -> str:
        self._files[file_id] = "".join(json.dumps(line) + "\n" for line in lines).encode()
        return file_id


def _result_line(api: str, custom_id: str, request: Any, response: Any) -> dict:
    from tests.fakes.llm_server import _answer_body, _error_body, answer

    while response.kind == "slow":
        response = response.then or answer()
    if response.kind == "status":
        if api == "openai":
            return {"id": f"batch_req_{custom_id[:8]}", "custom_id": custom_id, "error": None,
                    "response": {"status_code": response.status, "request_id": "req_fake",
                                 "body": _error_body(api, response.status, response.message)}}
        return {"custom_id": custom_id, "result": {"type": "errored",
                                                   "error": _error_body(api, response.status, response.message)}}
    body = {"id": "chatcmpl-1", "object": "error"} if response.kind == "bare" else _answer_body(request, response)
    if api == "openai":
        return {"id": f"batch_req_{custom_id[:8]}", "custom_id": custom_id, "error": None,
                "response": {"status_code": 200, "request_id": "req_fake", "body": body}}
    return {"custom_id": custom_id, "result": {"type": "succeeded", "message": body}}


def _unprocessed(api: str, custom_id: str, why: str) -> dict:
    if api == "openai":
        return {"id": f"batch_req_{custom_id[:8]}", "custom_id": custom_id, "response": None,
                "error": {"code": f"batch_{why}", "message": f"This request was {why} before it was processed."}}
    return {"custom_id": custom_id, "result": {"type": "canceled" if why == "cancelled" else why}}


def _json(status: int, body: dict) -> tuple[int, bytes, str]:
    return status, json.dumps(body).encode(), "application/json"


def _missing(path: str) -> tuple[int, bytes, str]:
    return _json(404, {"error": {"message": f"unknown path {path}", "type": "not_found_error"}})
