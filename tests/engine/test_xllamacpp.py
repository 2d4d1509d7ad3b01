"""The xllamacpp engine with the real embedded model (slow: loads the 0.5B model once)."""

from __future__ import annotations

import ast
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config, EngineConfig
from app.errors import InputError
from engine.avoid import placeholder_starts
from engine.base import (
    EngineEvent,
    Finished,
    FinishReason,
    GenerationRequest,
    Priority,
    PromptParts,
    TextChunk,
    generate_sync,
)
from engine.xllamacpp_server import Chunk, parse_chunk, raise_for

pytest.importorskip("xllamacpp")

PREFIX = (
    "import math\n\n\n"
    "def circle_area(radius: float) -> float:\n"
    '    """Return the area of a circle."""\n'
    "    return "
)
SUFFIX = "\n\n\ndef main() -> None:\n    print(circle_area(2.0))\n"


def parts(prefix: str = PREFIX, suffix: str = SUFFIX, path: str = "geo.py") -> PromptParts:
    return PromptParts(path=path, language="python", snippets=(), prefix=prefix, suffix=suffix)


def _long_doc(tag: str, lines: int = 60) -> PromptParts:
    body = "".join(f"{tag}_{i} = compute_{tag}({i}, {i * 7}, 'item {i}')\n" for i in range(lines))
    return parts(prefix=f"# {tag}\n" + body + PREFIX, path=f"{tag}.py")


@pytest.fixture(scope="module")
def engine(embedded_model: Path) -> Iterator[Any]:
    """Built by the factory from a config, as the daemon builds it; two slots."""
    from engine.factory import create_engine

    config = Config(engine=EngineConfig(kind="xllamacpp", model=str(embedded_model), n_ctx=2048,
                                        n_parallel=2, kv_state_slots=4, requantize=False))
    eng = create_engine(config)
    assert eng.name == "xllamacpp"
    eng.start()
    yield eng
    eng.close()


class Recorder:
    """A sink keeping every event with its arrival time."""

    def __init__(self) -> None:
        self.chunks: list[tuple[float, str]] = []
        self.finished: list[Finished] = []
        self.done = threading.Event()

    def __call__(self, event: EngineEvent) -> None:
        if isinstance(event, TextChunk):
            self.chunks.append((time.monotonic(), event.text))
        else:
            self.finished.append(event)
            self.done.set()

    @property
    def text(self) -> str:
        return "".join(t for _, t in self.chunks)


def run(engine: Any, rid: str, **kw: Any) -> Finished:
    kw.setdefault("prompt", parts())
    kw.setdefault("max_new_tokens", 16)
    finished, _first = generate_sync(engine, GenerationRequest(request_id=rid, **kw), timeout_s=120)
    return finished


# --- the server's chunks (no model) ----------------------------------------------------------


def test_chunks_are_read_by_kind() -> None:
    progress = parse_chunk({"prompt_progress": {"total": 9, "cache": 2, "processed": 5,
                                                "time_ms": 40}})
    assert (progress.kind, progress.prompt_processed, progress.prompt_cached) == ("progress", 5, 2)
    token = parse_chunk({"choices": [{"text": " if", "finish_reason": None,
                                      "logprobs": {"content": [{"id": 417}]}}]})
    assert (token.kind, token.text, token.token) == ("token", " if", 417)
    final = parse_chunk({"choices": [{"text": "", "finish_reason": "length"}], "usage": {},
                         "timings": {"cache_n": 3, "prompt_n": 6, "predicted_n": 4}})
    assert (final.kind, final.finish_reason, final.generated, final.prompt_processed) == (
        "final", "length", 4, 9)


def test_a_refused_request_is_an_input_error() -> None:
    chunk = parse_chunk({"error": {"code": 400, "message": "request (2100 tokens) exceeds the "
                                   "available context size", "type": "exceed_context_size_error"}})
    with pytest.raises(InputError, match="exceeds"):
        raise_for(chunk)
    raise_for(Chunk("token", text="x"))  # not an error: nothing raised


# --- the engine with the real model ----------------------------------------------------------


@pytest.mark.slow
def test_streams_a_completion_that_parses(engine: Any) -> None:
    rec = Recorder()
    engine.submit(GenerationRequest("stream", prompt=parts(), max_new_tokens=24,
                                    single_line=True), rec)
    assert rec.done.wait(120)
    f = rec.finished[0]
    assert f.reason in (FinishReason.NEWLINE, FinishReason.STOP, FinishReason.LENGTH), f.error
    assert len(rec.chunks) >= 2  # streamed, not one piece at the end
    assert rec.text == f.text
    assert f.text.strip()
    ast.parse(PREFIX + f.text + SUFFIX)
    assert f.stats.num_prompt_tokens > 20
    assert f.stats.num_generated_tokens >= 2
    assert f.stats.first_token_ms > 0


@pytest.mark.slow
def test_the_same_prompt_again_is_served_from_the_slot(engine: Any) -> None:
    first = run(engine, "again-1", single_line=True)
    second = run(engine, "again-2", single_line=True)
    assert second.text == first.text
    # the server evaluates the last prompt token again for its logits
    assert second.stats.num_cached_tokens >= second.stats.num_prompt_tokens - 1


@pytest.mark.slow
def test_cancel_stops_within_one_step(engine: Any) -> None:
    rec = Recorder()
    at_cancel: list[int] = []

    def sink(event: EngineEvent) -> None:
        rec(event)
        if isinstance(event, TextChunk) and len(rec.chunks) == 3:
            at_cancel.append(len(rec.chunks))
            engine.cancel("cancel-me")

    prompt = parts(prefix="# cancel\n" + PREFIX)
    engine.submit(GenerationRequest("cancel-me", prompt=prompt, max_new_tokens=200), sink)
    assert rec.done.wait(120)
    f = rec.finished[0]
    assert f.reason is FinishReason.CANCELLED
    assert at_cancel
    assert len(rec.chunks) == 3  # not one chunk after the cancel
    assert f.stats.num_generated_tokens <= 4
    assert run(engine, "after-cancel", single_line=True).reason is not FinishReason.ERROR


@pytest.mark.slow
def test_a_keystroke_while_the_last_request_runs_lands_on_the_documents_slot(
        engine: Any) -> None:
    """The superseded request still runs when the next comes: the next waits for the
    document's slot (its KV cache) instead of a cold prefill on the idle one."""
    doc = _long_doc("typing")
    assert run(engine, "type-0", prompt=doc, cache_key="typing.py").reason is not FinishReason.ERROR
    rec = Recorder()
    engine.submit(GenerationRequest("type-1", prompt=doc, max_new_tokens=200,
                                    cache_key="typing.py"), rec)
    while not rec.chunks and not rec.done.is_set():
        time.sleep(0.005)
    typed = parts(prefix=doc.prefix + "math.", path=doc.path)
    later = Recorder()
    engine.submit(GenerationRequest("type-2", prompt=typed, max_new_tokens=4,
                                    cache_key="typing.py"), later)
    engine.cancel("type-1")
    assert rec.done.wait(120) and later.done.wait(120)
    f = later.finished[0]
    assert f.reason is not FinishReason.ERROR
    assert f.stats.num_prompt_tokens > 300
    # the typed tokens and the suffix after them (a cold prompt: all of it)
    assert f.stats.num_prefilled_tokens <= 40, f.stats


@pytest.mark.slow
def test_cancel_during_a_long_prefill_lands_within_a_step(embedded_model: Path) -> None:
    """The server prefills in steps of n_batch tokens and streams a chunk after each: a cancel
    lands within a step or two (the one running, and one the server may have begun), and what
    was prefilled stays in the slot for the next request of the same prompt.

    Own engine with one thread and 16-token steps: with two threads on a loaded 2-core machine
    one step can stall for seconds on llama.cpp's thread barrier (docs/latency.md)."""
    from engine.profiles import QWEN25_CODER
    from engine.xllamacpp import XLlamaCppEngine

    eng = XLlamaCppEngine(model_path=embedded_model, profile=QWEN25_CODER, n_batch=16,
                          config=EngineConfig(n_ctx=2048, n_threads=1, n_parallel=1))
    eng.start()
    try:
        rec = Recorder()
        doc = _long_doc("cancelprefill", lines=30)
        eng.submit(GenerationRequest("long-prefill", prompt=doc, max_new_tokens=4), rec)
        time.sleep(1.5)  # well into a prefill of ~900 tokens
        t0 = time.monotonic()
        eng.cancel("long-prefill")
        assert rec.done.wait(60)
        elapsed = time.monotonic() - t0
        f = rec.finished[0]
        assert f.reason is FinishReason.CANCELLED
        assert f.stats.num_generated_tokens == 0
        assert 0 < f.stats.num_prefilled_tokens < f.stats.num_prompt_tokens
        assert elapsed < 1.5, f"cancel took {elapsed:.2f} s"
        warm = run(eng, "after-prefill-cancel", prompt=doc, prefill_only=True)
        assert warm.stats.num_cached_tokens >= f.stats.num_prefilled_tokens
    finally:
        eng.close()


@pytest.mark.slow
def test_two_requests_at_once_both_finish_with_the_right_text(engine: Any) -> None:
    doc_a = parts()
    doc_b = parts(prefix="def greet(name: str) -> str:\n    return ", suffix="\n", path="g.py")
    alone_a = run(engine, "alone-a", prompt=doc_a, max_new_tokens=12)
    alone_b = run(engine, "alone-b", prompt=doc_b, max_new_tokens=12)
    ra, rb = Recorder(), Recorder()
    engine.submit(GenerationRequest("both-a", prompt=doc_a, max_new_tokens=12), ra)
    engine.submit(GenerationRequest("both-b", prompt=doc_b, max_new_tokens=12), rb)
    assert ra.done.wait(120) and rb.done.wait(120)
    fa, fb = ra.finished[0], rb.finished[0]
    assert (fa.text, fb.text) == (alone_a.text, alone_b.text)  # greedy: the same text
    assert fa.reason is not FinishReason.ERROR and fb.reason is not FinishReason.ERROR
    # served at once: each streamed before the other finished
    assert ra.chunks and rb.chunks
    assert ra.chunks[0][0] < rb.chunks[-1][0] and rb.chunks[0][0] < ra.chunks[-1][0]


@pytest.mark.slow
def test_single_line_and_stop_strings(engine: Any) -> None:
    f = run(engine, "single", single_line=True, max_new_tokens=32)
    assert "\n" not in f.text.strip("\n")
    assert f.reason in (FinishReason.NEWLINE, FinishReason.LENGTH, FinishReason.STOP)
    g = run(engine, "stop", stop=("pi",), max_new_tokens=32)
    assert "pi" not in g.text
    assert g.reason is FinishReason.STOP
    h = run(engine, "length", max_new_tokens=3, prompt=_long_doc("len", lines=3))
    assert h.reason is FinishReason.LENGTH
    assert h.stats.num_generated_tokens == 3


@pytest.mark.slow
def test_deadline(engine: Any) -> None:
    f = run(engine, "deadline", prompt=parts(prefix="# deadline\n" + PREFIX),
            deadline=time.monotonic() + 0.05, max_new_tokens=200)
    assert f.reason is FinishReason.DEADLINE


@pytest.mark.slow
def test_bad_input_is_a_clear_error_and_the_engine_keeps_serving(engine: Any) -> None:
    long = run(engine, "too-long", prompt=parts(prefix="x = 1\n" * 1200))
    assert long.reason is FinishReason.ERROR
    assert long.error_code == "bad_input"
    assert "exceeds the context of 2048" in long.error
    empty = run(engine, "no-prompt", prompt=None)
    assert (empty.reason, empty.error_code) == (FinishReason.ERROR, "bad_input")
    assert engine.is_alive()
    assert run(engine, "still-serving", single_line=True).text.strip()


@pytest.mark.slow
def test_token_healing_completes_the_word_under_the_cursor(engine: Any) -> None:
    prefix = (
        "def load(path):\n    try:\n        with open(path) as fh:\n"
        "            return fh.read()\n    exc"
    )
    f = run(engine, "heal-exc", prompt=parts(prefix, "\n        return None\n"),
            single_line=True)
    assert f.text.startswith("ept"), f.text
    g = run(engine, "heal-resu", single_line=True,
            prompt=parts("def total(values):\n    result = sum(values)\n    return resu", "\n"))
    assert g.text.startswith("lt"), g.text


@pytest.mark.slow
def test_a_block_start_gets_code_instead_of_a_copied_placeholder(engine: Any) -> None:
    stubs = "def a():\n    ...\ndef b():\n    ...\ndef c():\n    ...\ndef d(x):\n    "
    plain = run(engine, "stub-plain", prompt=parts(stubs, "\n"), max_new_tokens=16)
    assert plain.text.startswith("..."), plain.text  # the failure the option exists for
    f = run(engine, "stub-avoid", prompt=parts(stubs, "\n"), max_new_tokens=16,
            avoid_starts=placeholder_starts(stubs, "python"))
    first = f.text.strip().split("\n")[0]
    assert first and not first.startswith((".", "#")), f.text


@pytest.mark.slow
def test_a_warm_up_fills_the_slot_and_yields_to_an_editor(engine: Any) -> None:
    doc = parts(prefix="# warm\n" + "z = 3\n" * 12 + PREFIX, path="w.py")
    warm = run(engine, "warm", prompt=doc, prefill_only=True, priority=Priority.BACKGROUND)
    assert (warm.reason, warm.text) == (FinishReason.PREFILLED, "")
    f = run(engine, "after-warm", prompt=doc, single_line=True)
    assert f.stats.num_cached_tokens >= f.stats.num_prompt_tokens - 1
    order: list[str] = []
    done = threading.Event()

    def sink(event: EngineEvent) -> None:
        if isinstance(event, Finished):
            order.append(event.request_id)
            if len(order) == 2:
                done.set()

    engine.submit(GenerationRequest("bg", prompt=_long_doc("bg"), prefill_only=True,
                                    priority=Priority.BACKGROUND), sink)
    time.sleep(0.3)
    engine.submit(GenerationRequest("fg", prompt=parts(), max_new_tokens=4), sink)
    assert done.wait(120)
    assert order == ["fg", "bg"]


@pytest.mark.slow
def test_count_tokens_is_the_model_tokenizer(engine: Any, qwen_vocab: Any) -> None:
    text = "def f(x):\n    return x * 2\n"
    assert engine.count_tokens(text) == len(qwen_vocab.tokenize(text.encode(), add_bos=False))
    caps = engine.capabilities
    assert (caps.batching, caps.max_batch, caps.exact_tokenizer) == (True, 2, True)


@pytest.mark.slow
def test_prompt_lookup_speculation_keeps_the_greedy_text(engine: Any, embedded_model: Path) -> None:
    """The server's n-gram lookup drafts from the slot's own tokens; greedy verification keeps
    the plain text, and the drafts are counted."""
    from engine.factory import create_engine

    config = Config(engine=EngineConfig(kind="xllamacpp", model=str(embedded_model), n_ctx=2048,
                                        n_parallel=1, requantize=False,
                                        draft_model="prompt-lookup", num_draft_tokens=3))
    spec = create_engine(config)
    spec.start()
    try:
        assert spec.capabilities.speculation
        rows = "".join(f"    ROW_{i} = ({i}, 'row {i}', compute({i}))\n" for i in range(12))
        doc = parts(prefix="class Table:\n" + rows + "    ROW_12 = (12, 'row 12', ",
                    suffix="\n", path="table.py")
        plain = run(engine, "plain-rows", prompt=doc, max_new_tokens=24)
        fast = run(spec, "spec-rows", prompt=doc, max_new_tokens=24)
        assert fast.text == plain.text
        assert fast.stats.speculation_used
        assert fast.stats.num_draft_tokens > 0
        assert 0 < fast.stats.num_draft_accepted <= fast.stats.num_draft_tokens
        assert spec.stats().speculation_enabled
    finally:
        spec.close()
