"""The models endpoints of the fake LLM server: `GET /v1/models/{id}` as OpenAI and Anthropic answer it.

Both SDKs' `client.models.retrieve(id)` reach the same path (the OpenAI SDK's base URL ends in /v1, the Anthropic
SDK adds /v1 itself), so the API is told apart by the `anthropic-version` header the Anthropic SDK always sends.

Shapes, read 2026-11-23:
- OpenAI: a Model object {id, object: "model", created, owned_by} (https://developers.openai.com/api/reference/cli/
  resources/models/methods/retrieve, and openai 3.54's openai/types/model.py); an unknown model is a 404 with
  {"error": {"message": "The model `X` does not exist or you do not have access to it.", "type":
  "invalid_request_error", "param": null, "code": "model_not_found"}}, as quoted from the API in
  github.com/openai/openai-agents-python issue 458 and Aider-AI/aider issue 2030.
- Anthropic: a ModelInfo {type: "model", id, display_name, created_at, ...} (https://platform.claude.com/docs/en/
  api/models/retrieve, and anthropic 2.12's anthropic/types/model_info.py); a 404 is `not_found_error` in the
  API's error envelope {"type": "error", "error": {"type", "message"}, "request_id"}
  (https://platform.claude.com/docs/en/api/errors). The message wording is ours.

    llm_server.models.known = {"gpt-5.5-2026-04-23"}   # only these exist; None (the default): every id exists
    llm_server.models.keys = {"sk-good"}                # only these keys are accepted (None: any), else 401
    llm_server.models.retrieve = False                  # no GET /v1/models/{id} route (vLLM: list only)
    llm_server.models.asked                             # [(api, model id), ...] in order ("*" for the list)

`GET /v1/models` lists `known` as OpenAI's list object {"object": "list", "data": [Model, ...]}. Without the
retrieve route a model path is a 404 {"detail": "Not Found"}, FastAPI's default body (what vLLM's server sends).

A refused key is 401 in each API's envelope: OpenAI's code invalid_api_key, Anthropic's authentication_error
(https://platform.claude.com/docs/en/api/errors, read 2026-11-23); the messages are ours.
"""

from __future__ import annotations

import json
import re
import threading
from urllib.parse import unquote

_MODEL_PATH = re.compile(r"^/v1/models(?:/(?P<model>[^/?]+))?$")


class FakeModels:
    """Answers model lookups from `known` (None: every model exists) and records them in `asked`."""

    def __init__(self) -> None:
        self.known: set[str] | None = None
        self.keys: set[str] | None = None
        self.retrieve = True
        self.asked: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def handles(self, path: str) -> bool:
        return _MODEL_PATH.match(path.split("?", 1)[0]) is not None

    def get(self, path: str, headers: dict[str, str]) -> tuple[int, bytes, str]:
        """(status, body, content type) for a GET of /v1/models/{id} (or of the list, /v1/models)."""
        model = unquote(_MODEL_PATH.match(path.split("?", 1)[0])["model"] or "*")
        api = "anthropic" if any(name.lower() == "anthropic-version" for name in headers) else "openai"
        with self._lock:
            self.asked.append((api, model))
        lowered = {name.lower(): value for name, value in headers.items()}
        key = lowered.get("x-api-key") or lowered.get("authorization", "").removeprefix("Bearer ")
        if self.keys is not None and key not in self.keys:
            body = ({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"},
                     "request_id": "req_fake_models"} if api == "anthropic" else
                    {"error": {"message": "Incorrect API key provided.", "type": "invalid_request_error",
                               "param": None, "code": "invalid_api_key"}})
            return 401, json.dumps(body).encode(), "application/json"
        if model == "*":
            listed = [{"id": name, "object": "model", "created": 1767225600, "owned_by": "fake"}
                      for name in sorted(self.known or ())]
            return 200, json.dumps({"object": "list", "data": listed}).encode(), "application/json"
        if not self.retrieve:
            return 404, json.dumps({"detail": "Not Found"}).encode(), "application/json"
        exists = self.known is None or model in self.known
        if api == "anthropic":
            body = ({"type": "model", "id": model, "display_name": model, "created_at": "2026-01-01T00:00:00Z",
                     "lifecycle": "active", "capabilities": None, "max_input_tokens": None, "max_tokens": None}
                    if exists else
                    {"type": "error", "error": {"type": "not_found_error", "message": f"model: {model}"},
                     "request_id": "req_fake_models"})
        else:
            body = ({"id": model, "object": "model", "created": 1767225600, "owned_by": "fake"} if exists else
                    {"error": {"message": f"The model `{model}` does not exist or you do not have access to it.",
                               "type": "invalid_request_error", "param": None, "code": "model_not_found"}})
        return (200 if exists else 404), json.dumps(body).encode(), "application/json"
