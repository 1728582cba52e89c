"""A loopback OpenAI-compatible chat server for command-line tests.

It answers `/v1/models` and `/v1/chat/completions` like a local model server
(Ollama, llama.cpp) would, with scripted speech: the reply names the call
number and echoes the budget it was given, and `max_tokens` is honoured by
cutting the reply and reporting `finish_reason: length`. Behaviour switches
let a test make the server ignore budgets or return empty speech, answer with a
scripted participant (`script`), or fail every request after the first N;
`pages` serves any GET path with a given status and body.
"""

from __future__ import annotations

import contextlib
import json
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from support.schemas import resolved

WORDS_PER_REPLY = 40


@dataclass
class StubBehaviour:
    ignore_budget: bool = False
    empty: bool = False
    # Answer structured-output requests with an instance of their JSON Schema
    # (a judge that always replies well formed); otherwise they get speech.
    fill_schemas: bool = False
    # Ollama's model list (GET /api/tags): model name -> digest. Empty: 404, as
    # an OpenAI-compatible server that is not Ollama answers.
    digests: dict[str, str] = field(default_factory=dict)
    # Answer every chat request with this text (a scripted judge reply).
    reply: str | None = None
    # Answer every chat request with a broken body: "json" (a 200 whose body is
    # not JSON) or "truncated" (a body cut short of its Content-Length).
    broken: str | None = None
    # Only requests for these models are broken (empty: all).
    broken_models: frozenset[str] = frozenset()
    # Serve a tokenizer endpoint ("llama-cpp-python" or "llama.cpp"; a word is a
    # token), answering with this status, and keep each count request.
    tokenizer: str = ""
    tokenizer_status: int = 200
    # Seconds the tokenizer takes to answer (a server busy generating).
    tokenizer_latency_s: float = 0.0
    count_requests: list[dict[str, Any]] = field(default_factory=list)
    # Which server software to look like ("llama-cpp-python", "llama.cpp" or
    # "ollama"), in the pages that tell them apart; llama-cpp-python's also
    # refuses the json_schema response format with a 500, as the real one does.
    server: str = ""
    # Answer the speech-rating prompt with <score>N</score>, N cycling 1-5.
    rate_speeches: bool = False
    # A model's time per request, and how many requests it serves at once
    # (0: no limit), like a server's parallel decoding slots.
    latency_s: float = 0.0
    slots: int = 0
    # Put "[by MODEL]" in every speech, the model the request named (so a
    # scripted judge can tell who argued which side).
    tag_speech: bool = False
    # A scripted reply: called with each chat request, returns the reply text,
    # or None to answer as the other switches say.
    script: Callable[[dict[str, Any]], str | None] | None = None
    # (arrival, reply) times of every chat request, perf_counter seconds.
    request_times: list[tuple[float, float]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    # The path of every GET request, in order (what a probe or an identity query asked).
    get_paths: list[str] = field(default_factory=list)
    # After this many chat requests, answer every later one with a 500, as a
    # server that crashed mid-run (None: never).
    fail_after: int | None = None
    # GET pages by exact path: path -> (status, JSON body), answered before any
    # other page (a model list with llama.cpp's metadata, Ollama's tags, an error).
    pages: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    # Keep connections open between requests (HTTP/1.1), as llama.cpp, Ollama and
    # vLLM do; off, every reply closes its connection (HTTP/1.0).
    keep_alive: bool = False


class _Handler(BaseHTTPRequestHandler):
    server: _StubHTTPServer
    # Headers and body go out in two writes; with Nagle's algorithm on, the body
    # waits for the client's delayed ACK (40 ms on Linux), which put every
    # client's floor at about 1.2x the ideal schedule.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass

    def handle(self) -> None:
        if self.server.behaviour.keep_alive:
            self.protocol_version = "HTTP/1.1"
        super().handle()

    def _send(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        with self.server.lock:
            self.server.behaviour.get_paths.append(self.path)
        if self.path in self.server.behaviour.pages:
            self._send(*self.server.behaviour.pages[self.path])
            return
        digests = self.server.behaviour.digests
        page = _SERVER_PAGES.get((self.server.behaviour.server, self.path.rstrip("/")))
        if page is not None:
            self._send(200, page)
        elif self.path.rstrip("/") == "/api/tags" and digests:
            models = [{"name": name, "model": name, "digest": d} for name, d in digests.items()]
            self._send(200, {"models": models})
        elif self.path.rstrip("/").endswith("/models"):
            self._send(200, {"object": "list", "data": [{"id": "stub", "object": "model"}]})
        else:
            self._send(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        request = json.loads(self.rfile.read(length) or b"{}")
        behaviour = self.server.behaviour
        if self.path in ("/extras/tokenize/count", "/tokenize"):
            self._count_tokens(request)
            return
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"detail": "Not Found"})
            return
        arrived = time.perf_counter()
        with self.server.lock:
            behaviour.requests.append(request)
            number = len(behaviour.requests)
        if behaviour.fail_after is not None and number > behaviour.fail_after:
            self._send(500, {"error": {"message": "the stub server has crashed"}})
            return
        format_type = (request.get("response_format") or {}).get("type")
        if behaviour.server == "llama-cpp-python" and format_type == "json_schema":
            self._send(500, _REFUSED_FORMAT)
            return
        with self.server.slots:
            time.sleep(behaviour.latency_s)
        body = _completion(request, number, behaviour)
        with self.server.lock:
            behaviour.request_times.append((arrived, time.perf_counter()))
        model = request.get("model")
        if behaviour.broken and (not behaviour.broken_models or model in behaviour.broken_models):
            self._send_broken(behaviour.broken)
        else:
            self._send(200, body)

    def _count_tokens(self, request: dict[str, Any]) -> None:
        """A tokenizer endpoint, with a word for a token: llama-cpp-python's
        /extras/tokenize/count or llama.cpp's /tokenize, as configured."""
        behaviour = self.server.behaviour
        served = {"llama-cpp-python": "/extras/tokenize/count", "llama.cpp": "/tokenize"}
        if served.get(behaviour.tokenizer) != self.path:
            self._send(404, {"detail": "Not Found"})
            return
        with self.server.lock:
            behaviour.count_requests.append(
                {**request, "authorization": self.headers.get("Authorization")}
            )
        time.sleep(behaviour.tokenizer_latency_s)
        if behaviour.tokenizer_status != 200:
            self._send(behaviour.tokenizer_status, {"detail": "the model is busy"})
            return
        words = str(request.get("input", request.get("content", ""))).split()
        if self.path == "/tokenize":
            self._send(200, {"tokens": list(range(len(words)))})
        else:
            self._send(200, {"count": len(words)})

    def _send_broken(self, kind: str) -> None:
        data = b'{"id": "chatcmpl-broken", "choices": [{"message": '
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        # "truncated" promises more bytes than it sends, then hangs up.
        extra = 100 if kind == "truncated" else 0
        self.send_header("Content-Length", str(len(data) + extra))
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True


# The pages by which servers.kind tells server software apart.
_SERVER_PAGES: dict[tuple[str, str], dict[str, Any]] = {
    ("llama-cpp-python", "/openapi.json"): {"info": {"title": "🦙 llama.cpp Python API"}},
    ("llama.cpp", "/props"): {"default_generation_settings": {"n_ctx": 4096}},
    ("ollama", "/api/version"): {"version": "0.12.0"},
}
# llama-cpp-python's answer to a json_schema response format (its words).
_REFUSED_FORMAT = {
    "error": {
        "message": "1 validation error: {'type': 'literal_error', 'loc': ('body', "
        "'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\"}",
        "type": "internal_server_error",
    }
}


def schema_instance(schema: dict[str, Any]) -> Any:
    """A value valid under a JSON Schema: mid-range numbers, false, short strings,
    lists of `minItems` items, and of `anyOf`/`oneOf` the last alternative, the
    simplest in this project's schemas (`null`, or a side's `no_claims` reason)."""
    kind = schema.get("type")
    if "enum" in schema:
        return schema["enum"][0]
    for alternatives in ("anyOf", "oneOf"):
        if alternatives in schema:
            return schema_instance(schema[alternatives][-1])
    if kind == "object":
        return {key: schema_instance(sub) for key, sub in schema.get("properties", {}).items()}
    if kind == "integer":
        return (schema.get("minimum", 0) + schema.get("maximum", 10)) // 2
    if kind == "number":
        return (schema.get("minimum", 0) + schema.get("maximum", 1)) / 2
    if kind == "boolean":
        return False
    if kind == "array":
        return [schema_instance(schema.get("items", {})) for _ in range(schema.get("minItems", 0))]
    return "A stub justification.".ljust(schema.get("minLength", 0), "!")


def _completion(request: dict[str, Any], number: int, behaviour: StubBehaviour) -> dict[str, Any]:
    response_format = request.get("response_format") or {}
    # json_schema carries its schema inside; llama.cpp's json_object beside the type.
    schema = response_format.get("json_schema", {}).get("schema") or response_format.get("schema")
    if behaviour.reply is not None:
        return _reply(request, number, behaviour.reply, "stop")
    scripted = behaviour.script(request) if behaviour.script else None
    if scripted is not None:
        return _reply(request, number, scripted, "stop")
    if behaviour.fill_schemas and schema:
        return _reply(request, number, json.dumps(schema_instance(resolved(schema))), "stop")
    prompt = str((request.get("messages") or [{}])[-1].get("content", ""))
    if behaviour.rate_speeches and "<speech>" in prompt:
        return _reply(request, number, f"<score>{number % 5 + 1}</score>", "stop")
    budget = request.get("max_tokens") or request.get("max_completion_tokens")
    words = [f"w{i}" for i in range(WORDS_PER_REPLY)]
    words[:4] = ["Speech", str(number), "budget", str(budget)]
    if "Cite your evidence" in prompt:  # a debater with prep evidence cites its first passage
        words[4] = "[P1]"
    if behaviour.tag_speech:
        words[5] = f"[by {request.get('model')}]"
    finish = "stop"
    if budget is not None and not behaviour.ignore_budget and budget < len(words):
        words, finish = words[:budget], "length"
    return _reply(request, number, "" if behaviour.empty else " ".join(words), finish)


def _reply(request: dict[str, Any], number: int, text: str, finish: str) -> dict[str, Any]:
    completion_tokens = len(text.split())
    prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in request.get("messages", []))
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": 0,
        "model": request.get("model", "stub"),
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


class _StubHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    # socketserver's default backlog of 5 refuses a burst of 100 clients.
    request_queue_size = 256

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that hung up (a run killed mid-request) is not the server's error.
        if isinstance(sys.exc_info()[1], BrokenPipeError | ConnectionResetError):
            return
        super().handle_error(request, client_address)

    def __init__(self, behaviour: StubBehaviour, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.behaviour = behaviour
        self.lock = threading.Lock()
        self.slots: threading.Semaphore | contextlib.nullcontext[None] = (
            threading.Semaphore(behaviour.slots) if behaviour.slots else contextlib.nullcontext()
        )


class StubServer:
    """Start with `with StubServer() as stub:`; `stub.base_url` ends in /v1."""

    def __init__(self, behaviour: StubBehaviour | None = None, port: int = 0) -> None:
        self.behaviour = behaviour or StubBehaviour()
        self._server = _StubHTTPServer(self.behaviour, port)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def __enter__(self) -> StubServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def closed_url() -> str:
    """The base URL of a loopback port that was listening a moment ago and is now
    closed: a server that is not running, without assuming any fixed port is free."""
    with StubServer() as stub:
        return stub.base_url
