"""The llamacpp engine with the real embedded model (slow: loads the 0.5B model once)."""

from __future__ import annotations

import ast
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from engine.avoid import placeholder_starts
from engine.base import (
    EngineEvent,
    Finished,
    FinishReason,
    GenerationRequest,
    Priority,
    PromptParts,
    generate_sync,
)
from engine.blocks import decide_multiline
from engine.postprocess import postprocess

pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed: the llamacpp "
                    "engine's tests run where it is (installers/install.sh --native)")

pytestmark = pytest.mark.slow

PREFIX = (
    "import math\n\n\n"
    "def circle_area(radius: float) -> float:\n"
    '    """Return the area of a circle."""\n'
    "    return "
)
SUFFIX = "\n\n\ndef main() -> None:\n    print(circle_area(2.0))\n"


def parts(prefix: str = PREFIX, suffix: str = SUFFIX, path: str = "geo.py") -> PromptParts:
    return PromptParts(path=path, language="python", snippets=(), prefix=prefix, suffix=suffix)


def finished_sink() -> tuple[list[Finished], threading.Event, Callable[[EngineEvent], None]]:
    """A sink that keeps Finished events, and the event set at the first one."""
    fins: list[Finished] = []
    done = threading.Event()

    def sink(event: EngineEvent) -> None:
        if isinstance(event, Finished):
            fins.append(event)
            done.set()

    return fins, done, sink


def run(engine: Any, rid: str, **kw: Any) -> Finished:
    kw.setdefault("prompt", parts())
    kw.setdefault("max_new_tokens", 16)
    finished, _first = generate_sync(engine, GenerationRequest(request_id=rid, **kw), timeout_s=120)
    return finished


def test_completion_parses_in_place(llamacpp_engine: Any) -> None:
    multiline = decide_multiline(PREFIX, SUFFIX, "python")
    f = run(llamacpp_engine, "parse", single_line=not multiline, max_new_tokens=24)
    assert f.reason in (FinishReason.NEWLINE, FinishReason.STOP, FinishReason.LENGTH), f.error
    text = postprocess(f.text, PREFIX, SUFFIX, "python", multiline)
    assert text.strip()
    ast.parse(PREFIX + text + SUFFIX)


def test_prefix_reuse_same_greedy_text(llamacpp_engine: Any) -> None:
    first = run(llamacpp_engine, "reuse-1", single_line=True)
    second = run(llamacpp_engine, "reuse-2", single_line=True)
    assert second.stats.num_cached_tokens > 0
    # the same prompt: nothing evaluated, not even its last token (its logits were kept)
    assert second.stats.num_cached_tokens == second.stats.num_prompt_tokens
    assert second.stats.num_prefilled_tokens == 0
    assert second.text == first.text
    assert second.stats.prefill_ms < first.stats.prefill_ms or first.stats.num_cached_tokens


def test_saved_logits_serve_only_the_prompt_they_were_computed_for(llamacpp_engine: Any) -> None:
    short = "# saved logits\nimport math\n\n\ndef area(r):\n"
    longer = short + "    return math.pi * r"
    ids = [llamacpp_engine._prompt_tokens(GenerationRequest(request_id="x", prompt_text=t))[0]
           for t in (short, longer)]
    assert ids[1][: len(ids[0])] == ids[0]  # the longer prompt holds the short one's tokens

    def text_run(rid: str, text: str) -> Finished:
        return run(llamacpp_engine, rid, prompt=None, prompt_text=text, max_new_tokens=8)

    first = text_run("logits-1", short)
    again = text_run("logits-2", short)
    # the same prompt: nothing evaluated, not even its last token (its logits were kept)
    assert again.stats.num_cached_tokens == again.stats.num_prompt_tokens
    assert again.stats.num_prefilled_tokens == 0
    assert again.text == first.text
    text_run("logits-3", longer)
    # the cache holds all of the short prompt, but the saved logits are the longer one's:
    # the short prompt's last token is evaluated again, and the text is what it was
    session = llamacpp_engine._session
    assert session.to_evaluate(ids[0], key="") == 1
    back = text_run("logits-4", short)
    assert back.stats.num_cached_tokens == back.stats.num_prompt_tokens - 1
    assert back.text == first.text
    assert session.to_evaluate(ids[0], key="") == 0  # its logits are the saved ones now


def test_kv_state_restore_after_switching_documents(llamacpp_engine: Any) -> None:
    doc_a = parts(prefix="# module a\n" + "x = 1\n" * 16 + PREFIX)
    doc_b = parts(prefix="# module b\n" + "y = 2\n" * 16 + "def f():\n    return ", path="b.py")
    a1 = run(llamacpp_engine, "a1", prompt=doc_a, cache_key="a.py", single_line=True)
    run(llamacpp_engine, "b1", prompt=doc_b, cache_key="b.py", single_line=True)
    a2 = run(llamacpp_engine, "a2", prompt=doc_a, cache_key="a.py", single_line=True)
    assert a2.stats.restored_state
    assert a2.stats.num_cached_tokens >= a2.stats.num_prompt_tokens - 1
    assert a2.text == a1.text
    assert llamacpp_engine.stats().extra["kv_states"] >= 1


def test_single_line_and_stop_strings(llamacpp_engine: Any) -> None:
    f = run(llamacpp_engine, "single", single_line=True, max_new_tokens=32)
    assert "\n" not in f.text.strip("\n")
    g = run(llamacpp_engine, "stop", stop=("pi",), max_new_tokens=32)
    assert "pi" not in g.text


def test_cancel_mid_generation_is_quick(llamacpp_engine: Any) -> None:
    done = threading.Event()
    got: list[Finished] = []
    chunks: list[str] = []

    def sink(event: EngineEvent) -> None:
        if isinstance(event, Finished):
            got.append(event)
            done.set()
        else:
            chunks.append(event.text)
            if len(chunks) == 3:
                llamacpp_engine.cancel("cancel-me")

    req = GenerationRequest(request_id="cancel-me", prompt=parts(), max_new_tokens=200)
    t0 = time.monotonic()
    llamacpp_engine.submit(req, sink)
    assert done.wait(60)
    assert got[0].reason == FinishReason.CANCELLED
    assert got[0].stats.num_generated_tokens < 20
    assert time.monotonic() - t0 < 30


def test_deadline(llamacpp_engine: Any) -> None:
    f = run(
        llamacpp_engine,
        "deadline",
        prompt=parts(prefix="# deadline\n" + PREFIX),
        deadline=time.monotonic() + 0.05,
        max_new_tokens=200,
    )
    assert f.reason == FinishReason.DEADLINE


def test_prefill_only_warmup_then_request_reuses_it(llamacpp_engine: Any) -> None:
    doc = parts(prefix="# warm\n" + "z = 3\n" * 12 + PREFIX, path="w.py")
    warm = run(llamacpp_engine, "warm", prompt=doc, prefill_only=True, priority=Priority.BACKGROUND)
    assert warm.reason == FinishReason.PREFILLED
    assert warm.text == ""
    f = run(llamacpp_engine, "after-warm", prompt=doc, single_line=True)
    assert f.stats.num_cached_tokens == f.stats.num_prompt_tokens  # all of it, logits too


def test_background_yields_to_interactive(llamacpp_engine: Any) -> None:
    order: list[str] = []
    done = threading.Event()

    def sink(event: EngineEvent) -> None:
        if isinstance(event, Finished):
            order.append(event.request_id)
            if len(order) == 2:
                done.set()

    long_doc = parts(prefix="# long\n" + "value = compute(1, 2, 3)\n" * 40 + PREFIX, path="l.py")
    llamacpp_engine.submit(
        GenerationRequest(
            request_id="bg", prompt=long_doc, prefill_only=True, priority=Priority.BACKGROUND
        ),
        sink,
    )
    time.sleep(0.3)
    llamacpp_engine.submit(
        GenerationRequest(request_id="fg", prompt=parts(), max_new_tokens=4), sink
    )
    assert done.wait(120)
    assert order == ["fg", "bg"]


def test_a_stopped_prefill_is_resumed_by_the_next_request(llamacpp_engine: Any) -> None:
    """What ``Capabilities.resumable_prefill`` promises the scheduler (a completion takes over
    its document's warm-up): the tokens a cancelled prefill evaluated stay in the KV cache and
    a request with the same prompt goes on from them."""
    assert llamacpp_engine.capabilities.resumable_prefill
    doc = parts(prefix="# resumed\n" + "total = add(total, 1)\n" * 40 + PREFIX, path="r.py")
    fins, done, sink = finished_sink()
    llamacpp_engine.submit(GenerationRequest(request_id="resume-warm", prompt=doc,
                                             prefill_only=True, priority=Priority.BACKGROUND),
                           sink)
    time.sleep(0.3)
    llamacpp_engine.cancel("resume-warm")
    assert done.wait(60)
    warm = fins[0].stats
    assert fins[0].reason is FinishReason.CANCELLED
    assert 0 < warm.num_prefilled_tokens < warm.num_prompt_tokens - warm.num_cached_tokens
    after = run(llamacpp_engine, "resume-after", prompt=doc, single_line=True)
    assert after.stats.num_cached_tokens >= warm.num_cached_tokens + warm.num_prefilled_tokens


def test_count_tokens_exact_and_cached(llamacpp_engine: Any) -> None:
    text = "def f(x):\n    return x * 2\n"
    n = llamacpp_engine.count_tokens(text)
    assert n == len(llamacpp_engine._tokenizer.tokenize_text(text))
    t0 = time.perf_counter()
    for _ in range(1000):
        llamacpp_engine.count_tokens(text)
    assert time.perf_counter() - t0 < 0.5


def test_dead_engine_thread_replies_with_error(embedded_model: Any) -> None:
    from app.config import EngineConfig
    from engine.llamacpp import LlamaCppEngine
    from engine.profiles import QWEN25_CODER

    engine = LlamaCppEngine(
        model_path=embedded_model, profile=QWEN25_CODER, config=EngineConfig(n_ctx=512)
    )
    engine.start()
    try:

        def boom(job: Any) -> None:
            raise RuntimeError("simulated crash")

        engine._run = boom  # type: ignore[method-assign]
        f = run(engine, "dies")
        assert f.reason == FinishReason.ERROR
        assert f.error_code == "engine_died"
        engine._thread.join(5)  # type: ignore[union-attr]
        assert not engine.is_alive()
        g = run(engine, "after-death")
        assert g.reason == FinishReason.ERROR and g.error_code == "engine_died"
    finally:
        engine.close()


def test_an_idle_engine_builds_the_healing_table_and_still_serves_at_once(
    embedded_model: Any,
) -> None:
    """The first completion inside a word built the table on its way: 0.9-1.2 s more in a
    daemon replay. Now the engine builds it in steps while nothing is queued."""
    from app.config import EngineConfig
    from engine.llamacpp import LlamaCppEngine
    from engine.profiles import QWEN25_CODER

    engine = LlamaCppEngine(
        model_path=embedded_model, profile=QWEN25_CODER, config=EngineConfig(n_ctx=512)
    )
    engine.start()
    try:
        tok = engine._tokenizer
        assert tok is not None
        f = run(engine, "during-the-build", prompt=parts("x = 1\ny = ", "\n"), max_new_tokens=4)
        assert f.reason in (FinishReason.STOP, FinishReason.LENGTH, FinishReason.NEWLINE)
        deadline = time.monotonic() + 30
        while not tok.has_piece_table and time.monotonic() < deadline:
            time.sleep(0.05)
        assert tok.has_piece_table  # built with no completion asking for it
    finally:
        engine.close()


def test_prompt_too_long_is_an_input_error(llamacpp_engine: Any) -> None:
    f = run(llamacpp_engine, "long", prompt=parts(prefix="x = 1\n" * 1200))
    assert f.reason == FinishReason.ERROR
    assert f.error_code == "bad_input"
    assert llamacpp_engine.is_alive()


def _long_doc(tag: str, lines: int = 60) -> PromptParts:
    body = "".join(f"{tag}_{i} = compute_{tag}({i}, {i * 7}, 'item {i}')\n" for i in range(lines))
    return parts(prefix=f"# {tag}\n" + body + PREFIX, path=f"{tag}.py")


def test_cancel_during_long_prefill_is_quick(embedded_model: Any) -> None:
    """Prefill runs in small steps: a cancel lands within one step, and what the cancelled
    request prefilled stays in the KV cache for the next one.

    Own engine with one thread: with two threads on a loaded 2-core machine a single step can
    stall for seconds on llama.cpp's thread barrier (docs/latency.md), which is not what this
    test is about.
    """
    from app.config import EngineConfig
    from engine.llamacpp import LlamaCppEngine
    from engine.profiles import QWEN25_CODER

    engine = LlamaCppEngine(
        model_path=embedded_model,
        profile=QWEN25_CODER,
        config=EngineConfig(n_ctx=2048, n_threads=1, speculation=False),
        prefill_chunk=8,
    )
    engine.start()
    try:
        got, done, sink = finished_sink()
        doc = _long_doc("cancelprefill")
        engine.submit(GenerationRequest("long-prefill", prompt=doc, max_new_tokens=4), sink)
        time.sleep(1.0)  # well into a prefill of ~1,000 tokens
        t0 = time.monotonic()
        engine.cancel("long-prefill")
        assert done.wait(30)
        elapsed = time.monotonic() - t0
        f = got[0]
        assert f.reason == FinishReason.CANCELLED
        assert f.stats.num_generated_tokens == 0  # it was still prefilling
        # what it evaluated, for the prefill rate (the whole prompt's count would halve it)
        assert 0 < f.stats.num_prefilled_tokens < f.stats.num_prompt_tokens
        assert f.stats.num_prefilled_tokens == engine.stats().extra["kv_tokens"]
        assert elapsed < 0.5, f"cancel took {elapsed:.2f} s"
        assert engine.stats().extra["kv_tokens"] > 0  # the prefilled part was kept
    finally:
        engine.close()


def test_warmup_preempted_by_interactive_of_the_same_document(
    llamacpp_engine: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor's request pre-empts a running warm-up between prefill steps, reuses what the
    warm-up filled, and the stale warm-up is not resumed afterwards."""
    monkeypatch.setattr(llamacpp_engine, "_prefill_chunk", 16)
    warm_doc = _long_doc("preempt", lines=25)
    typed = replace(warm_doc, prefix=warm_doc.prefix + "ma")  # the user typed two characters
    order: list[Finished] = []
    done = threading.Event()

    def sink(event: EngineEvent) -> None:
        if isinstance(event, Finished):
            order.append(event)
            if len(order) == 2:
                done.set()

    warm = GenerationRequest(
        "preempt-warm",
        prompt=warm_doc,
        prefill_only=True,
        priority=Priority.BACKGROUND,
        cache_key="preempt.py",
    )
    llamacpp_engine.submit(warm, sink)
    time.sleep(1.0)
    llamacpp_engine.submit(
        GenerationRequest(
            "preempt-fg", prompt=typed, max_new_tokens=2, single_line=True, cache_key="preempt.py"
        ),
        sink,
    )
    assert done.wait(180)
    fg, bg = order
    assert (fg.request_id, bg.request_id) == ("preempt-fg", "preempt-warm")
    assert fg.reason in (FinishReason.NEWLINE, FinishReason.STOP, FinishReason.LENGTH)
    assert fg.stats.num_cached_tokens > 0  # the warm-up's partial prefill was reused
    assert bg.reason == FinishReason.PREFILLED  # superseded: not resumed
    assert bg.stats.num_prompt_tokens > bg.stats.num_cached_tokens  # it did prefill something


TRY_PREFIX = (
    "def load(path):\n"
    "    try:\n"
    "        with open(path) as fh:\n"
    "            return fh.read()\n"
    "    exc"
)
TRY_SUFFIX = "\n        return None\n"


def test_token_healing_completes_the_word_under_the_cursor(llamacpp_engine: Any) -> None:
    """``exc|`` is the start of ``except``: without healing the model read ``exc`` as a whole
    token and went on with `` finally:`` (docs/quality.md)."""
    f = run(llamacpp_engine, "heal-exc", prompt=parts(TRY_PREFIX, TRY_SUFFIX), single_line=True)
    assert f.text.startswith("ept"), f.text
    ast.parse(TRY_PREFIX + f.text + TRY_SUFFIX)
    prefix = "def total(values):\n    result = sum(values)\n    return resu"
    g = run(llamacpp_engine, "heal-resu", prompt=parts(prefix, "\n"), single_line=True)
    assert g.text.startswith("lt"), g.text


STUBS = "def a():\n    ...\ndef b():\n    ...\ndef c():\n    ...\ndef d(x):\n    "


def test_a_block_start_gets_code_instead_of_a_copied_placeholder(llamacpp_engine: Any) -> None:
    """After a run of stubs the model copies ``...`` into a new body (as it did from the stable
    layout's outline: docs/quality.md); with ``avoid_starts`` it writes code."""
    plain = run(llamacpp_engine, "stub-plain", prompt=parts(STUBS, "\n"), max_new_tokens=16)
    assert plain.text.startswith("..."), plain.text  # the failure the option exists for
    avoid = placeholder_starts(STUBS, "python")
    f = run(llamacpp_engine, "stub-avoid", prompt=parts(STUBS, "\n"), max_new_tokens=16,
            avoid_starts=avoid)
    first = f.text.strip().split("\n")[0]
    assert first and not first.startswith((".", "#")), f.text


def test_typing_inside_a_word_keeps_the_prompt_cached(llamacpp_engine: Any) -> None:
    """The partial word is cut from the prompt, so each keystroke in it sends the same tokens."""
    base = TRY_PREFIX[: -len("exc")]
    first = run(llamacpp_engine, "word-1", prompt=parts(base + "e", TRY_SUFFIX), single_line=True)
    second = run(llamacpp_engine, "word-2", prompt=parts(base + "ex", TRY_SUFFIX),
                 single_line=True)
    assert second.stats.num_prompt_tokens == first.stats.num_prompt_tokens
    assert second.stats.num_cached_tokens == second.stats.num_prompt_tokens
    assert ("ex" + second.text).startswith("except"), second.text


def test_thread_counts_are_measured_and_set_in_llama_cpp(llamacpp_engine: Any) -> None:
    import os

    import llama_cpp

    from engine.threads import thread_choices

    choices = thread_choices(os.cpu_count() or 1)
    decode, prefill = llamacpp_engine._threads, llamacpp_engine._prefill_threads
    assert decode is not None and decode.choices == choices  # engine.n_threads 0: measured
    assert prefill is not None and prefill.choices == choices
    for i in range(len(choices) + 1):
        # a new document each time: its whole prompt is prefilled (enough tokens to judge);
        # a warm-up first, as the daemon sends, measures the prefill counts (an interactive
        # request would leave that to background work)
        prompt = parts(prefix=f"# module {i}\n" + "total = 0\n" * 40 + PREFIX, path=f"t{i}.py")
        run(llamacpp_engine, f"warm-{i}", prompt=prompt, prefill_only=True,
            priority=Priority.BACKGROUND)
        fin = run(llamacpp_engine, f"threads-{i}", prompt=parts(
            prefix=f"# module {i}\n" + "total = 1\n" * 40 + PREFIX, path=f"t{i}.py"),
            max_new_tokens=12)
        assert fin.stats.num_generated_tokens >= 4
        session = llamacpp_engine._session
        # what the prefill governor is told beforehand is what prefill then evaluated
        same = GenerationRequest(request_id=f"again-{i}", prompt=prompt, cache_key=f"t{i}.py")
        ids, _heal = llamacpp_engine._prompt_tokens(same)
        before = session.to_evaluate(ids, key=same.cache_key)
        again = run(llamacpp_engine, f"again-{i}", prompt=prompt, cache_key=f"t{i}.py",
                    max_new_tokens=1)
        assert before == again.stats.num_prompt_tokens - again.stats.num_cached_tokens
        # what the engine set is what llama.cpp runs with
        assert llama_cpp.llama_n_threads(session.ctx.ctx) == session.decode_threads
        assert llama_cpp.llama_n_threads_batch(session.ctx.ctx) == session.batch_threads
    assert set(decode.ms_per_token) == set(choices) == set(prefill.ms_per_token)
    extra = llamacpp_engine.stats().extra
    assert extra["decode_threads"] in choices and extra["prefill_threads"] in choices
    assert decode.note.startswith("decoding on ") and prefill.note.startswith("prefilling on ")


def _due_probe(engine: Any, gov: Any) -> Iterator[tuple[Any, list[tuple[int, int]]]]:
    """``gov`` (one of the engine's thread governors) with a probe of its slower count due,
    and what the engine records into it (spied)."""
    if gov is None or len(gov.choices) < 2:
        pytest.skip("one CPU: a single thread count, nothing to probe")
    saved = (dict(gov.ms_per_token), gov._since_probe, gov._wait, gov.skip_first)
    slow, fast = gov.choices[0], gov.choices[-1]
    gov.ms_per_token.clear()
    gov.ms_per_token.update({slow: 1000.0, fast: 5.0})  # the verdict: fast; slow is stale
    gov.skip_first, gov._since_probe = 0, gov._wait
    records: list[tuple[int, int]] = []
    record = engine._record_threads

    def spy(governor: Any, threads: int, num_tokens: int, ms: float) -> None:
        if governor is gov:
            records.append((threads, num_tokens))
        record(governor, threads, num_tokens, ms)

    engine._record_threads = spy
    yield gov, records
    del engine._record_threads
    gov.ms_per_token.clear()
    gov.ms_per_token.update(saved[0])
    gov._since_probe, gov._wait, gov.skip_first = saved[1:]


@pytest.fixture
def due_prefill_probe(llamacpp_engine: Any) -> Iterator[tuple[Any, list[tuple[int, int]]]]:
    yield from _due_probe(llamacpp_engine, llamacpp_engine._prefill_threads)


@pytest.fixture
def due_decode_probe(llamacpp_engine: Any) -> Iterator[tuple[Any, list[tuple[int, int]]]]:
    """A due decode probe that runs its whole length (the stale figures make the count in use
    look 5 ms per token: every real step would otherwise stop it as far slower)."""
    gov = llamacpp_engine._threads
    saved = gov.slow_factor if gov is not None else 0.0
    try:
        if gov is not None:
            gov.slow_factor = 1e9
        yield from _due_probe(llamacpp_engine, gov)
    finally:
        if gov is not None:
            gov.slow_factor = saved


def test_a_prefill_probe_measures_one_chunk_then_goes_back(
    llamacpp_engine: Any, due_prefill_probe: tuple[Any, list[tuple[int, int]]]
) -> None:
    gov, records = due_prefill_probe
    slow, fast = gov.choices[0], gov.choices[-1]
    doc = parts(prefix="# probe\n" + "ratio = part / whole\n" * 30 + PREFIX, path="probe.py")
    warm = run(llamacpp_engine, "probe-warm", prompt=doc, prefill_only=True,
               priority=Priority.BACKGROUND)
    assert warm.reason == FinishReason.PREFILLED and warm.stats.num_prompt_tokens > 150
    chunk = llamacpp_engine._prefill_chunk
    # the slower count ran one chunk and was measured on it; the rest ran on the verdict's
    assert records == [(slow, chunk)], records
    assert gov.ms_per_token[slow] != 1000.0 and gov.current == fast
    assert llamacpp_engine._session.batch_threads == fast
    # the whole prompt is in the cache, its last logits too: the completion evaluates nothing
    f = run(llamacpp_engine, "probe-after", prompt=doc, single_line=True)
    assert f.stats.num_cached_tokens == f.stats.num_prompt_tokens
    assert warm.stats.num_cached_tokens < chunk  # counted before the probe's chunk


def test_an_editor_request_leaves_a_due_probe_to_background_work(
    llamacpp_engine: Any, due_prefill_probe: tuple[Any, list[tuple[int, int]]]
) -> None:
    gov, records = due_prefill_probe
    fast = gov.choices[-1]
    doc = parts(prefix="# editor\n" + "scale = size * 2\n" * 30 + PREFIX, path="editor.py")
    f = run(llamacpp_engine, "editor", prompt=doc, single_line=True)
    assert f.stats.num_prompt_tokens - f.stats.num_cached_tokens > 150
    assert records == [(fast, f.stats.num_prompt_tokens - f.stats.num_cached_tokens)]
    assert gov.ms_per_token[gov.choices[0]] == 1000.0  # not re-measured on the editor's time


def test_a_decode_probe_measures_a_few_steps_then_goes_back(
    llamacpp_engine: Any, due_decode_probe: tuple[Any, list[tuple[int, int]]]
) -> None:
    from engine.llamacpp import PROBE_DECODE_STEPS

    gov, records = due_decode_probe
    slow, fast = gov.choices[0], gov.choices[-1]
    gov._since_probe = gov._wait * gov.interactive_patience  # overdue: no warm-up took it
    f = run(llamacpp_engine, "decode-probe", prompt=parts(path="decode-probe.py"),
            max_new_tokens=16)
    assert f.stats.num_generated_tokens > PROBE_DECODE_STEPS + 1, f.text
    # the slower count ran the first steps and was measured on them; the rest on the verdict's
    assert records == [(slow, PROBE_DECODE_STEPS)], records
    assert gov.ms_per_token[slow] != 1000.0 and gov.current == fast
    assert llamacpp_engine._session.decode_threads == fast


def test_a_decode_probe_far_slower_than_the_count_in_use_stops_after_a_step(
    llamacpp_engine: Any, due_decode_probe: tuple[Any, list[tuple[int, int]]]
) -> None:
    """On cores other work keeps busy the larger count took 1-3 s per decode step: a probe
    there must not run six of them."""
    gov, records = due_decode_probe
    slow, fast = gov.choices[0], gov.choices[-1]
    gov.slow_factor = 2.0  # as shipped (the fixture turned it off)
    gov.ms_per_token[fast] = 0.01  # the count in use: far faster than any real step
    warm = run(llamacpp_engine, "abort-warm", prompt=parts(path="abort.py"), prefill_only=True,
               priority=Priority.BACKGROUND)
    assert warm.reason == FinishReason.PREFILLED
    assert records == [(slow, 1)], records  # one step, judged on it
    assert 1.0 < gov.ms_per_token[slow] < 1000.0 and gov.current == fast
    assert llamacpp_engine._session.decode_threads == fast


def test_a_count_that_became_far_slower_is_judged_on_a_short_request(
    llamacpp_engine: Any, due_decode_probe: tuple[Any, list[tuple[int, int]]]
) -> None:
    """A build started in another session made two threads take 1-3 s per decode step; the
    deadline then cut every completion to 1-2 steps, fewer than the governor judges, and no
    request ever left two threads (every completion of the rest of a replay at the deadline).
    Here the count in use claims 0.01 ms per token: a real step is far slower than that."""
    gov, records = due_decode_probe
    gov.slow_factor = 2.0  # as shipped (the fixture turned it off)
    fast = gov.choices[-1]
    gov.ms_per_token[fast] = 0.01
    f = run(llamacpp_engine, "short", prompt=parts(path="short.py"), max_new_tokens=2)
    assert f.stats.num_generated_tokens == 2
    assert records == [(fast, 1)], records  # one step: judged although under min_tokens
    assert gov.ms_per_token[fast] > 1.0


def test_a_keystroke_prefill_far_slower_than_its_count_is_judged(
    llamacpp_engine: Any, due_prefill_probe: tuple[Any, list[tuple[int, int]]]
) -> None:
    gov, records = due_prefill_probe
    fast = gov.choices[-1]
    doc = parts(path="keystroke.py")
    run(llamacpp_engine, "keystroke-1", prompt=doc, single_line=True)  # the prompt is cached
    records.clear()
    gov.ms_per_token[fast] = 0.001  # 32 tokens "take" 0.03 ms: any real graph is far slower
    # keystrokes that add tokens (inside a word the prompt stays the same: nothing to run)
    typed = replace(doc, prefix=doc.prefix + "math.pi *")
    f = run(llamacpp_engine, "keystroke-2", prompt=typed, single_line=True)
    new = f.stats.num_prompt_tokens - f.stats.num_cached_tokens
    assert 0 < new < gov.min_tokens
    assert records == [(fast, new)], records
    assert gov.ms_per_token[fast] > 0.1


def test_a_warm_up_takes_a_due_decode_probe_so_the_completion_does_not(
    llamacpp_engine: Any, due_decode_probe: tuple[Any, list[tuple[int, int]]]
) -> None:
    from engine.llamacpp import PROBE_DECODE_STEPS

    gov, records = due_decode_probe
    slow, fast = gov.choices[0], gov.choices[-1]
    doc = parts(path="warm-decode.py")
    counts = (gov.num_probes, gov.num_interactive_probes)  # the engine is shared: so far
    # an editor's completion with the probe due (not overdue) decodes on the verdict's count
    f = run(llamacpp_engine, "decode-editor", prompt=doc, max_new_tokens=8)
    assert records == [(fast, f.stats.num_generated_tokens - 1)], records
    assert gov.ms_per_token[slow] == 1000.0
    records.clear()
    warm = run(llamacpp_engine, "decode-warm", prompt=doc, prefill_only=True,
               priority=Priority.BACKGROUND)
    assert warm.reason == FinishReason.PREFILLED
    assert records == [(slow, PROBE_DECODE_STEPS)], records  # measured on the warm-up
    assert gov.ms_per_token[slow] != 1000.0 and gov.current == fast
    assert llamacpp_engine._session.decode_threads == fast
    assert (gov.num_probes, gov.num_interactive_probes) == (counts[0] + 1, counts[1])
    # the probe's steps continued the prompt: the next completion still reuses all of it
    records.clear()
    g = run(llamacpp_engine, "decode-after", prompt=doc, max_new_tokens=8)
    assert g.stats.num_cached_tokens == g.stats.num_prompt_tokens
    assert g.text == f.text  # greedy: the same completion as before the probe
    assert all(threads == fast for threads, _ in records), records


def test_beside_busy_work_the_engine_starts_on_its_smaller_thread_count(
    embedded_model: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Another process keeping a core busy during the load (measured, engine/cpu_load.py): the
    first request runs on the smaller count, not on two threads that wait for each other."""
    import subprocess
    import sys

    import engine.llamacpp as llamacpp
    from app.config import EngineConfig
    from engine.profiles import QWEN25_CODER
    from engine.threads import thread_choices

    if len(thread_choices(os.cpu_count() or 1)) < 2:
        pytest.skip("one CPU: a single thread count")
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)
        engine = llamacpp.LlamaCppEngine(model_path=embedded_model, profile=QWEN25_CODER,
                                         config=EngineConfig(n_ctx=1024, speculation=False))
        caplog.set_level(logging.INFO, logger="engine.llamacpp")
        engine.start()
    finally:
        busy.kill()
        busy.wait()
    try:
        assert engine.stats().extra["busy_cores_at_start"] >= 0.5
        prefill, decode = engine._prefill_threads, engine._threads
        assert prefill is not None and decode is not None
        smaller = prefill.choices[0]
        assert prefill.current == decode.current == smaller
        assert any("starting on" in r.getMessage() for r in caplog.records)
        f = run(engine, "beside-busy", single_line=True)
        assert f.text.strip()
        # the count in use was measured first; the larger is left to background probes
        assert set(prefill.ms_per_token) <= {smaller} and set(decode.ms_per_token) <= {smaller}
        assert engine._session is not None and engine._session.decode_threads == smaller
    finally:
        engine.close()


def test_when_the_other_work_stops_the_larger_count_is_measured_again(
    embedded_model: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A verdict for the smaller count kept through a long build waited up to 256 requests for
    its next re-measure; the end of the build is sampled now, and the next warm-up measures."""
    import subprocess
    import sys

    import engine.llamacpp as llamacpp
    from app.config import EngineConfig
    from engine.profiles import QWEN25_CODER
    from engine.threads import thread_choices

    if len(thread_choices(os.cpu_count() or 1)) < 2:
        pytest.skip("one CPU: a single thread count")
    monkeypatch.setattr(llamacpp, "BUSY_CHECK_S", 0.5)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)
        engine = llamacpp.LlamaCppEngine(model_path=embedded_model, profile=QWEN25_CODER,
                                         config=EngineConfig(n_ctx=1024, speculation=False))
        engine.start()
    finally:
        busy.kill()
        busy.wait()
    try:
        gov = engine._prefill_threads
        assert gov is not None and engine._was_busy
        smaller, larger = gov.choices[0], gov.choices[-1]
        gov.ms_per_token.update({smaller: 10.0, larger: 1000.0})  # the verdict of the build
        gov.skip_first, gov._wait, gov._since_probe = 0, gov.max_probe_wait, 0
        records: list[int] = []
        record = engine._record_threads

        def spy(governor: Any, threads: int, num_tokens: int, ms: float) -> None:
            if governor is gov:
                records.append(threads)
            record(governor, threads, num_tokens, ms)

        monkeypatch.setattr(engine, "_record_threads", spy)
        time.sleep(0.8)  # idle now, past the check interval
        doc = parts(prefix="# idle again\n" + "total = total + 1\n" * 30 + PREFIX, path="idle.py")
        warm = run(engine, "after-build", prompt=doc, prefill_only=True,
                   priority=Priority.BACKGROUND)
        assert warm.reason == FinishReason.PREFILLED
        assert not engine._was_busy
        assert records[:1] == [larger], records  # measured again at once, not in 256 requests
        assert gov.ms_per_token[larger] < 1000.0
    finally:
        engine.close()


def test_an_idle_machine_starts_on_all_cores(llamacpp_engine: Any) -> None:
    extra = llamacpp_engine.stats().extra
    if "busy_cores_at_start" not in extra:
        pytest.skip("one CPU, or no /proc/stat here")
    if extra["busy_cores_at_start"] >= 0.5:
        pytest.skip("other work was running when the shared engine started")
    assert llamacpp_engine._threads.start == 0 and llamacpp_engine._prefill_threads.start == 0


