"""The ``remote`` engine: an OpenAI-compatible ``/v1/completions`` server (vLLM, TabbyAPI,
llama.cpp server) with streaming (server-sent events), timeouts and cancellation.

The prompt is sent as raw FIM text rendered by the model profile (marker strings removed from the
source first, since the server tokenizes with special-token parsing on). Each request runs on its
own worker thread (the server batches); ``cancel`` closes the request's connection. Stop strings,
the single-line rule and repetition are applied here as well, whatever the server supports.
Standard library only (``http.client``).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import socket
import threading
import time
import urllib.parse
from dataclasses import replace
from typing import Any

from app.config import EngineConfig
from app.errors import ConfigError, InputError, NospinError, RemoteError
from engine.base import (
    Capabilities,
    Engine,
    EngineStats,
    EventSink,
    Finished,
    FinishReason,
    GenerationRequest,
    GenerationStats,
    TextChunk,
)
from engine.blocks import request_block
from engine.healing import heal_start, split_trailing_blanks
from engine.profiles import ModelProfile
from engine.remote_limits import ServerLimits, probe
from engine.remote_tokens import (
    RemoteVocabulary,
    check_against_server,
    estimate,
    load_vocabulary,
)
from engine.stream_filter import StreamFilter

log = logging.getLogger(__name__)

_CHECK_TIMEOUT_S = 3.0  # the tokenizer check at start; a slow server is not waited for longer


class RemoteEngine(Engine):
    """Client of an OpenAI-compatible completions server; see the module docstring."""

    name = "remote"

    def __init__(self, *, config: EngineConfig, profile: ModelProfile) -> None:
        if not config.remote_url:
            raise ConfigError("engine.remote_url is required for engine.kind = 'remote'")
        url = urllib.parse.urlsplit(config.remote_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ConfigError(
                f"engine.remote_url must be an http(s) URL, not {config.remote_url!r}"
            )
        self._url = url
        self._config = config
        self._profile = profile
        self._lock = threading.Lock()
        self._socks: dict[str, socket.socket] = {}  # open connections, closed by cancel()
        self._cancelled: set[str] = set()
        self._active: set[str] = set()
        self._max_batch = max(1, config.max_batch)
        self._slots = threading.BoundedSemaphore(self._max_batch)
        self._limits = ServerLimits()
        self._closing = False
        self._stats = EngineStats(model=config.remote_model or config.remote_url)
        self._vocab: RemoteVocabulary | None = None

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            fim=self._profile.fim,
            speculation=False,  # whatever the server does is invisible here
            batching=True,
            max_batch=self._max_batch,
            exact_tokenizer=self._vocab is not None,
            kv_state_cache=False,
            n_ctx=min(self._config.n_ctx, self._limits.n_ctx or self._config.n_ctx),
        )

    def start(self) -> None:
        """Load the local vocabulary for token counts (engine/remote_tokens.py) and check it
        against the server's tokenizer; ask the server its slots and context per request
        (engine/remote_limits.py): fewer slots than ``engine.max_batch`` lower it. The server
        is otherwise contacted per request."""
        timeout = min(_CHECK_TIMEOUT_S, self._config.remote_timeout_s)
        vocab = load_vocabulary(self._config.remote_tokenizer, self._profile)
        if vocab is not None:
            vocab = check_against_server(
                vocab, self._post, self._root(), self._config.remote_model, timeout
            )
        self._vocab = vocab
        self._stats.extra["exact_tokenizer"] = float(vocab is not None)
        self._apply_limits(probe(self._get, self._root(), self._config.remote_model, timeout))

    def _apply_limits(self, limits: ServerLimits) -> None:
        self._limits = limits
        if limits.slots is not None and limits.slots < self._max_batch:
            log.info("remote server: %d slots (%s): %d requests at once, not engine.max_batch "
                     "%d", limits.slots, limits.source, limits.slots, self._max_batch)
            self._max_batch = limits.slots
            self._slots = threading.BoundedSemaphore(self._max_batch)
        if limits.slots is not None:
            self._stats.extra["server_slots"] = float(limits.slots)
        if limits.n_ctx is not None:
            self._stats.extra["server_n_ctx"] = float(limits.n_ctx)
            if limits.n_ctx < self._config.n_ctx:
                log.warning("remote server: %d tokens of context per request (%s), engine.n_ctx "
                            "is %d: longer prompts fail there; lower engine.n_ctx and "
                            "context.budget_tokens, or give the server's slots more context",
                            limits.n_ctx, limits.source, self._config.n_ctx)

    def count_tokens(self, text: str) -> int:
        """Exact with a local vocabulary (``capabilities.exact_tokenizer``), else an estimate."""
        vocab = self._vocab
        return vocab.count(text) if vocab is not None else estimate(text)

    def submit(self, request: GenerationRequest, sink: EventSink) -> None:
        with self._lock:
            self._active.add(request.request_id)
        worker = threading.Thread(
            target=self._serve,
            args=(request, sink, time.monotonic()),
            name=f"nospin-remote-{request.request_id}",
            daemon=True,
        )
        worker.start()

    def cancel(self, request_id: str) -> None:
        with self._lock:
            if request_id not in self._active:
                return
            self._cancelled.add(request_id)
            sock = self._socks.get(request_id)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def stats(self) -> EngineStats:
        return self._stats

    def close(self) -> None:
        with self._lock:
            self._closing = True
            ids = list(self._active)
        for request_id in ids:
            self.cancel(request_id)

    # --- worker ------------------------------------------------------------------------------

    def _serve(self, request: GenerationRequest, sink: EventSink, submitted: float) -> None:
        stats = GenerationStats()
        filt = StreamFilter(
            stop=tuple(dict.fromkeys(request.stop + self._profile.stop_strings)),
            single_line=request.single_line,
            block=request_block(request),
        )
        reason = FinishReason.ERROR
        error: NospinError | None = None
        with self._slots:
            stats.queue_ms = (time.monotonic() - submitted) * 1000
            try:
                reason = self._stream(request, sink, submitted, stats, filt)
            except NospinError as exc:
                error = exc
            except (OSError, http.client.HTTPException, ValueError) as exc:
                error = RemoteError("the remote server failed", detail=str(exc))
        with self._lock:
            cancelled = request.request_id in self._cancelled or self._closing
            self._cancelled.discard(request.request_id)
            self._active.discard(request.request_id)
            self._socks.pop(request.request_id, None)
        if cancelled:
            reason, error = FinishReason.CANCELLED, None
        elif error is None and reason not in (FinishReason.STOP, FinishReason.NEWLINE):
            rest = filt.flush()
            if rest:
                sink(TextChunk(request.request_id, rest))
        deadline = request.deadline
        if error is not None and deadline is not None and time.monotonic() >= deadline:
            reason, error = FinishReason.DEADLINE, None
        stats.total_ms = (time.monotonic() - submitted) * 1000
        self._stats.requests += 1
        if error is not None:
            sink(
                Finished(request.request_id, FinishReason.ERROR, "", stats, str(error), error.code)
            )
        else:
            sink(Finished(request.request_id, reason, filt.text, stats))

    def _body(self, request: GenerationRequest) -> tuple[dict[str, Any], str]:
        if request.prompt is not None:
            prefix, heal = split_trailing_blanks(request.prompt.prefix)
            prompt = self._profile.render_text(replace(request.prompt, prefix=prefix))
        elif request.prompt_text is not None:
            prompt, heal = request.prompt_text, ""
        else:
            raise InputError("a request needs prompt or prompt_text")
        body: dict[str, Any] = {
            "prompt": prompt,
            "max_tokens": 1 if request.prefill_only else request.max_new_tokens,
            "temperature": request.temperature,
            "stream": True,
            "stop": list(dict.fromkeys(request.stop + self._profile.stop_strings))[:16],
        }
        if request.temperature > 0:
            body["seed"] = request.seed
        if self._config.remote_model:
            body["model"] = self._config.remote_model
        return body, heal

    def _root(self) -> str:
        """The server's root path (the URL's path without a trailing /v1)."""
        path = self._url.path.rstrip("/")
        return path[:-3] if path.endswith("/v1") else path

    def _headers(self, accept: str) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": accept}
        if self._config.remote_api_key:
            headers["Authorization"] = f"Bearer {self._config.remote_api_key}"
        return headers

    def _post(self, path: str, body: bytes, timeout: float) -> tuple[int, bytes]:
        """One small JSON POST: (HTTP status, body). OSError when the server is unreachable."""
        return self._exchange("POST", path, body, timeout)

    def _get(self, path: str, timeout: float) -> tuple[int, bytes]:
        """One small GET: (HTTP status, body). OSError when the server is unreachable."""
        return self._exchange("GET", path, None, timeout)

    def _exchange(self, method: str, path: str, body: bytes | None, timeout: float
                  ) -> tuple[int, bytes]:
        conn = self._connect(timeout)
        try:
            conn.request(method, path, body, self._headers("application/json"))
            resp = conn.getresponse()
            return resp.status, resp.read(1 << 20)
        except http.client.HTTPException as exc:
            raise OSError(f"bad HTTP answer: {exc}") from exc
        finally:
            conn.close()

    def _connect(self, timeout: float) -> http.client.HTTPConnection:
        host = self._url.hostname or ""
        if self._url.scheme == "https":
            return http.client.HTTPSConnection(host, self._url.port, timeout=timeout)
        return http.client.HTTPConnection(host, self._url.port, timeout=timeout)

    def _stream(
        self,
        request: GenerationRequest,
        sink: EventSink,
        submitted: float,
        stats: GenerationStats,
        filt: StreamFilter,
    ) -> FinishReason:
        body, heal = self._body(request)
        timeout = self._config.remote_timeout_s
        if request.deadline is not None:
            timeout = max(0.05, min(timeout, request.deadline - time.monotonic()))
        conn = self._connect(timeout)
        conn.connect()  # keep the socket: http.client hands it to the response (sock = None)
        with self._lock:
            if request.request_id in self._cancelled or self._closing:
                conn.close()
                return FinishReason.CANCELLED
            sock = conn.sock
            if sock is not None:
                self._socks[request.request_id] = sock
        headers = self._headers("text/event-stream")
        path = self._url.path.rstrip("/")
        path = path + "/completions" if path.endswith("/v1") else path + "/v1/completions"
        t0 = time.monotonic()
        resp: http.client.HTTPResponse | None = None
        try:
            conn.request("POST", path, json.dumps(body).encode("utf-8"), headers)
            resp = conn.getresponse()
            if resp.status != 200:
                detail = resp.read(2000).decode("utf-8", "replace")
                raise RemoteError(f"the remote server answered HTTP {resp.status}", detail=detail)
            for data in _sse_data(resp):
                if data == "[DONE]":
                    break
                text, finish = _choice(data)
                if request.prefill_only:
                    continue
                if text:
                    if not stats.first_token_ms:
                        stats.first_token_ms = (time.monotonic() - submitted) * 1000
                        stats.prefill_ms = (time.monotonic() - t0) * 1000
                    stats.num_generated_tokens += 1  # one event per token on common servers
                    if heal:
                        text, heal = heal_start(text, heal)
                    out, reason = filt.push(text)
                    if out:
                        sink(TextChunk(request.request_id, out))
                    if reason is not None:
                        return reason
                if request.deadline is not None and time.monotonic() >= request.deadline:
                    return FinishReason.DEADLINE
                if finish == "length":
                    return FinishReason.LENGTH
                if finish == "stop":
                    return FinishReason.STOP
        finally:
            stats.decode_ms = (time.monotonic() - t0) * 1000 - stats.prefill_ms
            if resp is not None:
                resp.close()
            conn.close()
            if sock is not None:
                sock.close()
        return FinishReason.PREFILLED if request.prefill_only else FinishReason.STOP


def _sse_data(resp: http.client.HTTPResponse) -> Any:
    """Yield the ``data:`` payloads of a server-sent event stream."""
    lines: list[str] = []
    while True:
        raw = resp.readline()
        if not raw:
            if lines:
                yield "\n".join(lines)
            return
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if lines:
                yield "\n".join(lines)
                lines = []
            continue
        if line.startswith("data:"):
            lines.append(line[5:].lstrip(" "))


def _choice(data: str) -> tuple[str, str | None]:
    """(text, finish_reason) of the first choice of one streamed completion chunk."""
    try:
        obj = json.loads(data)
    except ValueError as exc:
        raise RemoteError("malformed event from the remote server", detail=data[:200]) from exc
    if isinstance(obj, dict) and "error" in obj:
        raise RemoteError("the remote server reported an error", detail=data[:500])
    try:
        choice = obj["choices"][0]
        choice.get("text")
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise RemoteError("malformed event from the remote server", detail=data[:200]) from exc
    text = choice.get("text") or ""
    finish = choice.get("finish_reason")
    return str(text), (str(finish) if finish else None)
