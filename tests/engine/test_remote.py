"""The remote engine against a fake SSE server (fast) and real servers (slow): llama.cpp's own
server (xllamacpp runs it in-process on a local port, installed with nospin) and
llama-cpp-python's server (the `server` extra of a native set-up)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from app.config import EngineConfig
from engine.base import FinishReason, GenerationRequest, PromptParts, generate_sync
from engine.profiles import QWEN25_CODER
from engine.remote import RemoteEngine
from engine.remote_limits import (
    ServerLimits,
    from_llama_cpp_props,
    from_tabby_model,
    from_vllm_models,
    probe,
)

PARTS = PromptParts("a.py", "python", (), "def add(a, b):\n    return ", "\n")


class _Handler(BaseHTTPRequestHandler):
    script: ClassVar[list[str]] = []  # texts to stream, one event each
    delay = 0.0
    status = 200
    bodies: ClassVar[list[dict[str, Any]]] = []  # completion requests
    tokenize: ClassVar[dict[str, Any]] = {}  # path -> JSON answer of a tokenize endpoint
    tokenize_bodies: ClassVar[list[tuple[str, dict[str, Any]]]] = []
    pages: ClassVar[dict[str, Any]] = {}  # path -> JSON answer of a GET
    got: ClassVar[list[str]] = []  # GET paths asked
    streaming = 0  # completions being streamed now
    most_streaming = 0
    lock = threading.Lock()

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        _Handler.got.append(self.path)
        answer = self.pages.get(self.path)
        self.send_response(200 if answer is not None else 404)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps(answer or {"detail": "Not Found"}).encode())

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        body = json.loads(self.rfile.read(length))
        if not self.path.endswith("/completions"):
            _Handler.tokenize_bodies.append((self.path, body))
            answer = self.tokenize.get(self.path)
            self.send_response(200 if answer is not None else 404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(json.dumps(answer or {"detail": "Not Found"}).encode())
            return
        _Handler.bodies.append(body)
        if self.status != 200:
            self.send_response(self.status)
            self.end_headers()
            self.wfile.write(b'{"error": "nope"}')
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        with _Handler.lock:
            _Handler.streaming += 1
            _Handler.most_streaming = max(_Handler.most_streaming, _Handler.streaming)
        try:
            for text in self.script:
                time.sleep(self.delay)
                event = {"choices": [{"text": text, "finish_reason": None}]}
                self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                self.wfile.flush()
            self.wfile.write(b"data: [DONE]\n\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            with _Handler.lock:
                _Handler.streaming -= 1


@pytest.fixture()
def fake_server() -> Iterator[str]:
    _Handler.script, _Handler.delay, _Handler.status, _Handler.bodies = [], 0.0, 200, []
    _Handler.tokenize, _Handler.tokenize_bodies = {}, []
    _Handler.pages, _Handler.got, _Handler.streaming, _Handler.most_streaming = {}, [], 0, 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _engine(url: str, **kw: Any) -> RemoteEngine:
    engine = RemoteEngine(
        config=EngineConfig(kind="remote", remote_url=url, **kw), profile=QWEN25_CODER
    )
    engine.start()
    return engine


def test_streams_and_applies_single_line(fake_server: str) -> None:
    _Handler.script = [" a", " +", " b", "\n\nprint(add(5, 3))"]
    engine = _engine(fake_server)
    f, _ = generate_sync(
        engine, GenerationRequest("r1", prompt=PARTS, single_line=True), timeout_s=10
    )
    assert f.reason == FinishReason.NEWLINE
    assert f.text == "a + b"  # the prompt's trailing space was healed
    body = _Handler.bodies[0]
    assert (
        body["prompt"] == "<|fim_prefix|>def add(a, b):\n    return<|fim_suffix|>\n<|fim_middle|>"
    )
    assert body["stream"] is True and body["temperature"] == 0.0


def test_cancel_closes_connection(fake_server: str) -> None:
    _Handler.script = ["x"] * 200
    _Handler.delay = 0.02
    engine = _engine(fake_server)
    done = threading.Event()
    got: list[Any] = []

    def sink(event: Any) -> None:
        if hasattr(event, "reason"):
            got.append(event)
            done.set()

    engine.submit(GenerationRequest("c1", prompt=PARTS, max_new_tokens=500), sink)
    time.sleep(0.2)
    t0 = time.monotonic()
    engine.cancel("c1")
    assert done.wait(5)
    assert got[0].reason == FinishReason.CANCELLED
    assert time.monotonic() - t0 < 1.0


def test_http_error_and_unreachable(fake_server: str) -> None:
    _Handler.status = 500
    f, _ = generate_sync(_engine(fake_server), GenerationRequest("e1", prompt=PARTS), timeout_s=10)
    assert f.reason == FinishReason.ERROR and f.error_code == "remote"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    f, _ = generate_sync(
        _engine(f"http://127.0.0.1:{port}"), GenerationRequest("e2", prompt=PARTS), timeout_s=10
    )
    assert f.reason == FinishReason.ERROR and f.error_code == "remote"


def test_deadline_on_slow_server(fake_server: str) -> None:
    _Handler.script = ["x"] * 50
    _Handler.delay = 0.1
    engine = _engine(fake_server)
    req = GenerationRequest(
        "d1", prompt=PARTS, deadline=time.monotonic() + 0.35, max_new_tokens=100
    )
    f, _ = generate_sync(engine, req, timeout_s=10)
    assert f.reason == FinishReason.DEADLINE
    assert 0 < len(f.text) < 50


@pytest.mark.slow
# --------------------------------------------------------------------------- token counts


def test_counts_with_the_embedded_vocabulary_when_the_server_agrees(
    fake_server: str, gguf_vocab: Any
) -> None:
    from engine.remote_tokens import PROBE

    theirs = gguf_vocab.tokenize(PROBE, special=False)
    _Handler.tokenize = {"/tokenize": {"tokens": theirs}}  # llama.cpp server's answer
    engine = _engine(fake_server + "/v1", remote_model="qwen")
    assert engine.capabilities.exact_tokenizer
    text = "    for i, item in enumerate(items):\n"
    assert engine.count_tokens(text) == len(gguf_vocab.tokenize(text, special=False))
    assert engine.count_tokens(text) != round(len(text) / 3.3)
    path, body = _Handler.tokenize_bodies[0]
    assert path == "/tokenize" and body["content"] == PROBE and body["model"] == "qwen"
    assert engine.stats().extra["exact_tokenizer"] == 1.0


def test_a_server_that_counts_differently_means_the_estimate(
    fake_server: str, gguf_vocab: Any
) -> None:
    _Handler.tokenize = {"/v1/token/encode": {"tokens": [1, 2, 3], "length": 3}}  # TabbyAPI
    engine = _engine(fake_server)
    assert not engine.capabilities.exact_tokenizer
    assert [p for p, _ in _Handler.tokenize_bodies] == [
        "/tokenize", "/extras/tokenize", "/v1/token/encode"
    ]
    assert engine.count_tokens("x" * 33) == 10  # characters / 3.3


def test_no_tokenize_endpoint_keeps_the_local_vocabulary(fake_server: str, gguf_vocab: Any) -> None:
    assert _engine(fake_server).capabilities.exact_tokenizer


@pytest.mark.parametrize(("setting", "profile_name", "exact"), [
    ("estimate", "qwen2.5-coder", False),
    ("", "starcoder2", False),  # auto: no local copy of that family's vocabulary
    ("embedded", "starcoder2", None),  # asked for, but the markers do not fit: an error
])
def test_tokenizer_settings(
    fake_server: str, gguf_vocab: Any, setting: str, profile_name: str, exact: bool | None
) -> None:
    from app.errors import ModelError
    from engine.profiles import select_profile

    engine = RemoteEngine(
        config=EngineConfig(kind="remote", remote_url=fake_server, remote_tokenizer=setting),
        profile=select_profile(profile_name, ""),
    )
    if exact is None:
        with pytest.raises(ModelError):
            engine.start()
        return
    engine.start()
    assert engine.capabilities.exact_tokenizer is exact


def _hf_tokenizer(folder: Path) -> Any:
    """A small byte-level BPE tokenizer.json, as an HF model folder holds one."""
    tokenizers = pytest.importorskip("tokenizers")
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=400, initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator([Path(__file__).read_text()] * 4, trainer)
    folder.mkdir()
    tok.save(str(folder / "tokenizer.json"))
    return tok


def test_counts_with_an_hf_tokenizer_json(fake_server: str, tmp_path: Path) -> None:
    from engine.remote_tokens import PROBE

    tok = _hf_tokenizer(tmp_path / "model")
    _Handler.tokenize = {"/tokenize": {"count": len(tok.encode(PROBE).ids), "tokens": None}}
    for setting in (tmp_path / "model", tmp_path / "model" / "tokenizer.json"):
        engine = _engine(fake_server, remote_tokenizer=str(setting))
        assert engine.capabilities.exact_tokenizer
        text = "    return sum(values) / len(values)\n"
        assert engine.count_tokens(text) == len(tok.encode(text).ids) > 0


def test_a_tokenizer_path_that_is_not_a_gguf_file_is_a_config_error(tmp_path: Path) -> None:
    from app.errors import ConfigError

    engine = RemoteEngine(
        config=EngineConfig(kind="remote", remote_url="http://127.0.0.1:9",
                            remote_tokenizer=str(tmp_path / "tokenizer.json")),
        profile=QWEN25_CODER,
    )
    with pytest.raises(ConfigError, match="remote_tokenizer"):
        engine.start()


# /props of llama.cpp server as its README documents it (tools/server/README.md), abridged
LLAMA_CPP_PROPS = {
    "default_generation_settings": {"id": 0, "id_task": -1, "n_ctx": 1024,
                                    "speculative": False, "is_processing": False,
                                    "params": {"n_predict": -1, "top_k": 40}},
    "total_slots": 2,
    "model_path": "../models/qwen2.5-coder-1.5b-q4_k_m.gguf",
    "modalities": {"vision": False},
    "build_info": "b7000-abcdef0",
    "is_sleeping": False,
}


def test_server_limits_from_each_servers_answer() -> None:
    assert from_llama_cpp_props(LLAMA_CPP_PROPS) == ServerLimits(2, 1024)
    tabby = {"id": "Qwen2.5-Coder-7B-exl2", "object": "model",
             "parameters": {"max_seq_len": 8192, "max_batch_size": 4, "cache_mode": "Q8"}}
    assert from_tabby_model(tabby) == ServerLimits(4, 8192)
    vllm = {"object": "list", "data": [
        {"id": "Qwen/Qwen2.5-Coder-7B", "object": "model", "max_model_len": 32768},
        {"id": "Qwen/Qwen2.5-Coder-1.5B", "object": "model", "max_model_len": 16384}]}
    assert from_vllm_models(vllm, "Qwen/Qwen2.5-Coder-1.5B") == ServerLimits(None, 16384)
    assert not from_vllm_models(vllm).known  # two models, none named: which one is unknown
    # llama-cpp-python's /v1/models names the model only
    plain = {"object": "list", "data": [{"id": "m.gguf", "object": "model", "owned_by": "me"}]}
    assert not from_vllm_models(plain).known
    junks: list[Any] = [None, [], "x", {"total_slots": "4"}, {"total_slots": True},
                        {"total_slots": 0}, {"parameters": []}, {"data": {}}]
    for junk in junks:
        assert not from_llama_cpp_props(junk).known
        assert not from_tabby_model(junk).known
        assert not from_vllm_models(junk).known


def test_probe_asks_in_turn_and_names_the_endpoint_that_answered() -> None:
    asked: list[str] = []
    pages = {"/api/v1/model": {"parameters": {"max_batch_size": 4}},
             "/api/v1/models": {"data": [{"id": "m", "max_model_len": 4096}]}}

    def get(path: str, timeout: float) -> tuple[int, bytes]:
        asked.append(path)
        page = pages.get(path)
        return (200, json.dumps(page).encode()) if page else (404, b"<html>")

    assert probe(get, "/api", "m", 3.0) == ServerLimits(4, None, "/v1/model")
    assert asked == ["/api/props", "/api/v1/model"]

    def refused(path: str, timeout: float) -> tuple[int, bytes]:
        asked.append(path)
        raise ConnectionRefusedError(path)

    asked.clear()
    assert probe(refused, "", "", 3.0) == ServerLimits() and asked == ["/props"]


def test_fewer_server_slots_lower_max_batch(fake_server: str) -> None:
    """A llama.cpp server with 2 slots: the engine says 2 at once (the daemon's scheduler plans
    for that many), sends at most 2 at once, and one slot's context is its n_ctx."""
    _Handler.pages = {"/props": LLAMA_CPP_PROPS}
    _Handler.script, _Handler.delay = [" a", " +", " b"], 0.1
    engine = _engine(fake_server + "/v1", max_batch=16, n_ctx=2048, remote_tokenizer="estimate")
    assert _Handler.got == ["/props"]  # the root without /v1; the first answer is enough
    caps = engine.capabilities
    assert (caps.max_batch, caps.n_ctx) == (2, 1024)
    extra = engine.stats().extra
    assert (extra["server_slots"], extra["server_n_ctx"]) == (2.0, 1024.0)
    done: list[Any] = []
    finished = threading.Event()

    def sink(event: Any) -> None:
        if hasattr(event, "reason"):
            done.append(event)
            if len(done) == 5:
                finished.set()

    for i in range(5):
        engine.submit(GenerationRequest(f"r{i}", prompt=PARTS), sink)
    assert finished.wait(20)
    assert all(f.reason is not FinishReason.ERROR for f in done)
    assert _Handler.most_streaming == 2


def test_more_server_slots_keep_max_batch_and_vllm_gives_context(fake_server: str) -> None:
    _Handler.pages = {"/v1/models": {"object": "list", "data": [
        {"id": "coder", "object": "model", "max_model_len": 32768}]}}
    engine = _engine(fake_server, max_batch=8, n_ctx=4096, remote_tokenizer="estimate")
    assert _Handler.got == ["/props", "/v1/model", "/v1/models"]
    assert (engine.capabilities.max_batch, engine.capabilities.n_ctx) == (8, 4096)
    assert engine.stats().extra["server_n_ctx"] == 32768.0
    assert "server_slots" not in engine.stats().extra


def test_an_unreachable_server_does_not_stop_the_start(gguf_vocab: Any) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    engine = _engine(f"http://127.0.0.1:{port}")
    assert engine.capabilities.exact_tokenizer  # the local vocabulary, unchecked


@pytest.fixture(scope="module")
def llama_server(embedded_model: Path) -> Iterator[str]:
    """llama.cpp's own server (xllamacpp.Server: the C++ server, HTTP on a free local port)
    with the embedded model: 2 slots of 1,024 tokens. Yields its base URL."""
    xlc = pytest.importorskip("xllamacpp")
    params = xlc.CommonParams()
    params.model.path = str(embedded_model)
    params.n_parallel = 2
    params.n_ctx = 2048  # divided among the slots
    params.cpuparams.n_threads = 2
    params.cpuparams_batch.n_threads = 2
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # a free port: listening_address says which
    server = xlc.Server(params)
    yield str(server.listening_address).rstrip("/")
    del server


def _counts_as_the_server_and_completes(engine: Any, tokenize_url: str, body: dict[str, Any],
                                        rid: str) -> None:
    """The engine counts PARTS.prefix as the server's tokenizer does, and completes it."""
    req = urllib.request.Request(tokenize_url, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    theirs = json.loads(urllib.request.urlopen(req, timeout=30).read())["tokens"]
    assert engine.count_tokens(PARTS.prefix) == len(theirs)
    f, first = generate_sync(
        engine, GenerationRequest(rid, prompt=PARTS, single_line=True), timeout_s=90
    )
    assert f.reason in (FinishReason.NEWLINE, FinishReason.STOP, FinishReason.LENGTH), f.error
    assert "a + b" in f.text
    assert first is not None


@pytest.mark.slow
def test_real_llama_cpp_server_from_xllamacpp(llama_server: str) -> None:
    """The remote engine against llama.cpp's server: its slots and per-slot context come from
    /props, token counts from the embedded vocabulary checked against its /tokenize."""
    engine = _engine(llama_server, remote_timeout_s=60.0, max_batch=16)
    caps = engine.capabilities
    assert (caps.max_batch, caps.n_ctx) == (2, 1024)
    assert engine.stats().extra["server_slots"] == 2.0
    assert caps.exact_tokenizer
    _counts_as_the_server_and_completes(engine, llama_server + "/tokenize",
                                        {"content": PARTS.prefix}, "x1")
    # two at once: the server's two slots serve both, each with the right text
    done: list[Any] = []
    both = threading.Event()

    def sink(event: Any) -> None:
        if hasattr(event, "reason"):
            done.append(event)
            if len(done) == 2:
                both.set()

    engine.submit(GenerationRequest("x2", prompt=PARTS, single_line=True), sink)
    engine.submit(GenerationRequest("x3", prompt=PARTS, single_line=True), sink)
    assert both.wait(90)
    assert all("a + b" in d.text for d in done), done
    # cancellation against the real server
    cancelled = threading.Event()
    got: list[Any] = []

    def on_cancel(event: Any) -> None:
        if hasattr(event, "reason"):
            got.append(event)
            cancelled.set()

    engine.submit(GenerationRequest("x4", prompt=PARTS, max_new_tokens=400), on_cancel)
    time.sleep(0.5)
    engine.cancel("x4")
    assert cancelled.wait(30)
    assert got[0].reason in (FinishReason.CANCELLED, FinishReason.STOP)
    engine.close()


def test_real_llama_cpp_python_server(embedded_model: Path) -> None:
    """llama-cpp-python's own server (not llama.cpp's): no endpoint gives its slots or context,
    and its tokenizer answers at /extras/tokenize."""
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed: its server is "
                        "checked where it is (installers/install.sh --dev --native)")
    pytest.importorskip("uvicorn", reason="llama-cpp-python's server is not installed (the "
                        "`server` extra: installers/install.sh --dev --native)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(embedded_model),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "1024",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(url + "/v1/models", timeout=1).read()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("llama_cpp.server did not start")
                time.sleep(0.5)
        engine = _engine(url, remote_timeout_s=60.0, max_batch=16)
        # no endpoint of this server gives its slots or context: the configuration stands
        assert engine.capabilities.max_batch == 16 and "server_slots" not in engine.stats().extra
        # token counts: the embedded vocabulary, checked against the server's /extras/tokenize
        assert engine.capabilities.exact_tokenizer
        _counts_as_the_server_and_completes(engine, url + "/extras/tokenize",
                                            {"input": PARTS.prefix}, "s1")
        # cancellation against the real server
        done = threading.Event()
        got: list[Any] = []

        def sink(event: Any) -> None:
            if hasattr(event, "reason"):
                got.append(event)
                done.set()

        engine.submit(GenerationRequest("s2", prompt=PARTS, max_new_tokens=400), sink)
        time.sleep(0.5)
        engine.cancel("s2")
        assert done.wait(30)
        assert got[0].reason in (FinishReason.CANCELLED, FinishReason.STOP)
    finally:
        proc.terminate()
        proc.wait(10)
