"""The exllamav2 engine: pure logic and the engine thread on the CPU, the real thing on a GPU.

CPU tests drive ``engine.exllama_logic`` with hand-built generator result dicts shaped like
exllamav2 0.3.2's ``ExLlamaV2DynamicGenerator.iterate()`` output, and the engine thread of
``ExLlamaV2Engine`` with a fake generator that follows the library's job semantics (a job ends at
``max_new_tokens - num_draft_tokens``; ``cancel`` drops a job; ``eos`` results carry the figures).
The ``gpu`` tests load a small random model made by ``bench/gpu_models.py`` and skip with a reason
where there is no CUDA or no exllamav2.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.config import EngineConfig
from app.errors import EngineUnavailable, InputError, ModelError
from engine.base import (
    ContextSnippet,
    EngineEvent,
    Finished,
    FinishReason,
    GenerationRequest,
    Priority,
    PromptParts,
    TextChunk,
    generate_sync,
)
from engine.blocks import BlockScope
from engine.exllama import ExLlamaV2Engine, _Runtime
from engine.exllama_backend import Vocabulary, check_model_dir
from engine.exllama_logic import (
    CACHE_ALIGN,
    PAGE_SIZE,
    RequestState,
    finish_events,
    handle_result,
    job_max_new_tokens,
    plan_generator,
    prompt_pieces,
    render_token_ids,
    stop_token_ids,
    strip_markers,
)
from engine.profiles import PLAIN, QWEN25_CODER, Piece

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- helpers


class Events:
    """An EventSink collecting events, with a wait for Finished."""

    def __init__(self) -> None:
        self.events: list[EngineEvent] = []
        self.cond = threading.Condition()

    def __call__(self, event: EngineEvent) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def finished(self, rid: str) -> list[Finished]:
        return [e for e in self.events if isinstance(e, Finished) and e.request_id == rid]

    def text(self, rid: str) -> str:
        return "".join(
            e.text for e in self.events if isinstance(e, TextChunk) and e.request_id == rid
        )

    def wait(self, *rids: str, timeout: float = 5.0) -> None:
        end = time.monotonic() + timeout
        with self.cond:
            while not all(self.finished(r) for r in rids):
                left = end - time.monotonic()
                assert left > 0, f"no Finished for {rids}: {self.events}"
                self.cond.wait(left)


def state_for(request: GenerationRequest, extra_stops: tuple[str, ...] = ()) -> RequestState:
    return RequestState.create(request, Events(), submitted_at=100.0, extra_stops=extra_stops)


def streaming(rid: str, text: str = "", **eos: Any) -> dict[str, Any]:
    ended = "eos_reason" in eos
    r: dict[str, Any] = {"stage": "streaming", "identifier": rid, "serial": 0, "eos": ended}
    if text:
        r["text"] = text
    r.update(eos)
    return r


EOS_LENGTH = dict(
    eos_reason="max_new_tokens",
    new_tokens=4,
    prompt_tokens=30,
    cached_tokens=12,
    time_enqueued=0.001,
    time_prefill=0.020,
    time_generate=0.040,
)


# --------------------------------------------------------------------------- import, start


def test_import_needs_neither_torch_nor_exllamav2() -> None:
    code = (
        "import sys, engine.exllama, app.commands.quantize\n"
        "print('torch' in sys.modules, 'exllamav2' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "False"]


def _cuda_ready() -> bool:
    if importlib.util.find_spec("torch") is None:
        return False
    import torch

    return bool(torch.cuda.is_available())


@pytest.mark.skipif(_cuda_ready(), reason="this machine has CUDA: start() would load a model")
def test_start_raises_engine_unavailable_here() -> None:
    engine = ExLlamaV2Engine(EngineConfig(kind="exllamav2", model="/nowhere"))
    with pytest.raises(EngineUnavailable) as info:
        engine.start()
    message = str(info.value)
    assert "exllamav2" in message
    assert "CUDA" in message or "pip install" in message
    assert not engine.is_alive()
    events = Events()
    engine.submit(GenerationRequest("r1", prompt_text="x"), events)
    (fin,) = events.finished("r1")
    assert fin.reason is FinishReason.ERROR and fin.error_code == "engine_died"
    engine.close()


def test_check_model_dir(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="empty"):
        check_model_dir("")
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    with pytest.raises(ModelError, match="GGUF"):
        check_model_dir(str(gguf))
    with pytest.raises(ModelError, match="does not exist"):
        check_model_dir(str(tmp_path / "nope"))
    folder = tmp_path / "model"
    folder.mkdir()
    with pytest.raises(ModelError, match=r"config\.json"):
        check_model_dir(str(folder))
    (folder / "config.json").write_text("{}")
    with pytest.raises(ModelError, match="safetensors"):
        check_model_dir(str(folder))
    (folder / "model.safetensors").write_bytes(b"")
    with pytest.raises(ModelError, match=r"tokenizer\.json"):
        check_model_dir(str(folder))
    (folder / "tokenizer.json").write_text("{}")
    assert check_model_dir(str(folder)) == folder


# --------------------------------------------------------------------------- plan, ids


@pytest.mark.parametrize(
    ("n_ctx", "model_max", "max_batch", "paged", "draft", "expect"),
    [
        # no flash-attn: unpaged, one job, cache = one sequence
        (4096, 32768, 16, False, 5, (False, 1, 4096, 4096, 8)),
        # paged: batch * n_ctx tokens, capped at 64k
        (4096, 32768, 16, True, 5, (True, 16, 4096, 65536, 8)),
        (2048, 32768, 8, True, 0, (True, 8, 2048, 16384, 8)),
        # n_ctx above the model's context, and not a page multiple
        (5000, 4096, 4, True, 0, (True, 4, 4096, 16384, 8)),
        (1000, 32768, 1, False, 0, (False, 1, 1024, 1024, 8)),
        # 12 draft tokens need max_q 13; batch limited by max_input_len // max_q
        (512, 32768, 64, True, 12, (True, 39, 512, 19968, 13)),
    ],
)
def test_plan_generator(
    n_ctx: int,
    model_max: int,
    max_batch: int,
    paged: bool,
    draft: int,
    expect: tuple[bool, int, int, int, int],
) -> None:
    plan = plan_generator(
        n_ctx=n_ctx,
        model_max_seq_len=model_max,
        max_batch=max_batch,
        paged_attention=paged,
        num_draft_tokens=draft,
    )
    got = (plan.paged, plan.max_batch_size, plan.max_seq_len, plan.cache_tokens, plan.max_q_size)
    assert got == expect
    assert plan.max_seq_len % PAGE_SIZE == 0 and plan.cache_tokens % CACHE_ALIGN == 0
    assert plan.max_q_size * plan.max_batch_size <= min(2048, plan.max_seq_len) or not paged
    assert ("one job at a time" in plan.note) == (not paged)


def test_job_asks_for_the_draft_length_on_top() -> None:
    # dynamic.py ends a job at new_tokens >= max_new_tokens - num_draft_tokens
    assert job_max_new_tokens(64, 5) == 69
    assert job_max_new_tokens(64, 0) == 64
    assert job_max_new_tokens(0, 4) == 5


def test_stop_token_ids_dedupes_and_skips_missing() -> None:
    assert stop_token_ids(2, [2, 7], [None, 9, 7, -1]) == [2, 7, 9]
    assert stop_token_ids(None, None, []) == []


SPECIALS = {"<|fim_prefix|>": 1001, "<|fim_suffix|>": 1002, "<|fim_middle|>": 1003}


def fake_encode(text: str) -> list[int]:
    return [ord(c) for c in text]


def test_render_token_ids_piece_by_piece() -> None:
    parts = PromptParts(
        path="a.py",
        language="python",
        snippets=(),
        prefix="x = '<|fim_prefix|>'\n",
        suffix="\n",
    )
    pieces = QWEN25_CODER.render(parts)
    ids = render_token_ids(pieces, encode_text=fake_encode, special_id=SPECIALS.get)
    assert ids[0] == 1001 and ids[-1] == 1003 and ids.count(1002) == 1
    # the marker inside the source was encoded as text, not as its special id
    assert ids.count(1001) == 1
    assert ids[1 : 1 + len(parts.prefix)] == fake_encode(parts.prefix)
    with_bos = render_token_ids(pieces, encode_text=fake_encode, special_id=SPECIALS.get, bos_id=7)
    assert with_bos == [7, *ids]


def test_the_prompts_trailing_blanks_are_cut_and_removed_from_the_output() -> None:
    """Prompt healing as in the other engines: ``return `` ends the prompt at ``return``; the
    model writes the space again and the output starts after it, across result chunks."""
    parts = PromptParts("a.py", "python", (), "def f(x):\n    return ", "\n")
    request = GenerationRequest("r", prompt=parts, single_line=True)
    pieces, heal = prompt_pieces(QWEN25_CODER, request)
    assert heal == " "
    assert "".join(p.text for p in pieces if not p.is_special) == "def f(x):\n    return\n"
    state = state_for(request)
    state.heal = heal
    assert _stream(state, [" ", "x + 1", "\n"])[2] == "x + 1"
    # an indent is cut as well: the model writes it again (postprocess.drop_extra_indent)
    block = GenerationRequest("b", prompt=replace(parts, prefix="def f(x):\n    "))
    assert prompt_pieces(QWEN25_CODER, block)[1] == "    "
    plain = GenerationRequest("p", prompt_text="x = ")
    assert prompt_pieces(QWEN25_CODER, plain) == ((Piece("x = "),), "")


def test_with_token_healing_the_partial_word_is_cut_too() -> None:
    parts = PromptParts("a.py", "python", (), "def f(x):\n    y = resu", "\n")
    request = GenerationRequest("r", prompt=parts, single_line=True)
    pieces, heal = prompt_pieces(QWEN25_CODER, request, healing=True)
    assert heal == " resu"
    assert "".join(p.text for p in pieces if not p.is_special) == "def f(x):\n    y =\n"
    assert prompt_pieces(QWEN25_CODER, request)[1] == ""  # healing off: blanks only
    state = state_for(request)
    state.heal = heal
    assert _stream(state, [" res", "ult", " + 1", "\n"])[2] == "lt + 1"


def test_render_token_ids_unknown_marker_is_a_model_error() -> None:
    with pytest.raises(ModelError, match="model_profile"):
        render_token_ids(
            (Piece("<fim_prefix>", True),), encode_text=fake_encode, special_id=SPECIALS.get
        )


class FakeTensor:
    def __init__(self, rows: list[list[int]]) -> None:
        self.rows = rows

    def __getitem__(self, i: int) -> FakeTensor:
        return FakeTensor([self.rows[i]])

    def tolist(self) -> list[int]:
        return self.rows[0]


class FakeHF:
    """The HF tokenizers object: turns special strings into ids unless encode_special_tokens."""

    def __init__(self) -> None:
        self.encode_special_tokens = False


class FakeTokenizer:
    """Enough of ExLlamaV2Tokenizer: encode goes through the HF object like exllamav2's does."""

    def __init__(self, *, hf: bool = True) -> None:
        self.extended_piece_to_id = dict(SPECIALS) | {"<|endoftext|>": 1000}
        self.tokenizer_model = SimpleNamespace(hf_tokenizer=FakeHF()) if hf else SimpleNamespace()
        self.tokenizer_config_dict: dict[str, Any] = {"add_bos_token": True}
        self.bos_token_id = 5
        self.eos_token_id = 1000

    def encode(self, text: str, encode_special_tokens: bool = False) -> FakeTensor:
        hf = getattr(self.tokenizer_model, "hf_tokenizer", None)
        split_specials = hf is not None and hf.encode_special_tokens
        ids: list[int] = []
        i = 0
        while i < len(text):
            for marker, tid in self.extended_piece_to_id.items():
                if not split_specials and text.startswith(marker, i):
                    ids.append(tid)
                    i += len(marker)
                    break
            else:
                ids.append(ord(text[i]))
                i += 1
        return FakeTensor([ids])

    def single_id(self, token: str) -> int | None:
        return self.extended_piece_to_id.get(token)

    def get_id_to_piece_list(self, include_special_tokens: bool = False) -> list[str]:
        """Token texts as exllamav2 decodes them: one character per id below 1000 (what
        ``encode`` makes), the special markers as text (blanked by Vocabulary), then words."""
        assert not include_special_tokens
        pieces = [chr(i) if 32 <= i < 127 or i == 10 else "" for i in range(1000)]
        pieces += ["<|endoftext|>", "<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>"]
        return pieces + list(WORDS)


WORDS = (" result", " res", "...")  # ids 1004, 1005, 1006


def test_vocabulary_keeps_markers_in_source_as_text() -> None:
    vocab = Vocabulary(FakeTokenizer())
    assert vocab.plain_text_safe
    assert vocab.encode_text("a<|fim_prefix|>b") == fake_encode("a<|fim_prefix|>b")
    assert vocab.special_id("<|fim_middle|>") == 1003
    assert vocab.bos_id(QWEN25_CODER) == 5  # the tokenizer config asks for BOS here


def test_vocabulary_strips_markers_without_the_hf_switch() -> None:
    vocab = Vocabulary(FakeTokenizer(hf=False))
    assert not vocab.plain_text_safe
    assert vocab.encode_text("a<|fim_prefix|>b") == fake_encode("ab")
    assert strip_markers("<|a|><|a|>x", ["<|a|>"]) == "x"


# --------------------------------------------------------------------------- stream cutting


def _stream(state: RequestState, chunks: list[str]) -> tuple[str, FinishReason, str]:
    """Feed ``chunks`` as generator results; (text shown, finish reason, Finished.text). A
    stream that does not stop ends at max_new_tokens (its held text is then released)."""
    shown = ""
    for chunk in chunks:
        step = handle_result(state, streaming("r", chunk), 100.5)
        shown += "".join(e.text for e in step.events if isinstance(e, TextChunk))
        fins = [e for e in step.events if isinstance(e, Finished)]
        if fins:
            assert step.finished and step.cancel_job  # the job is still in the generator
            return shown, fins[0].reason, fins[0].text
    events = finish_events(state, FinishReason.LENGTH, {}, 101.0)
    shown += "".join(e.text for e in events if isinstance(e, TextChunk))
    fin = events[-1]
    assert isinstance(fin, Finished)
    return shown, fin.reason, fin.text


@pytest.mark.parametrize(
    ("chunks", "stops", "single_line", "shown", "reason"),
    [
        (["ab", "c"], (), False, "abc", None),
        (["foo\nde", "f bar"], ("\ndef",), False, "foo", FinishReason.STOP),
        # a stop string split over chunks is held back, never shown
        (["x = 1\n", "\n", "y"], ("\n\n",), False, "x = 1", FinishReason.STOP),
        (["return a", " + b\n", "    pass"], (), True, "return a + b", FinishReason.NEWLINE),
        # leading blank lines are kept: the first non-empty line ends the completion
        (["\n    ", "return 1", "\nx"], (), True, "\n    return 1", FinishReason.NEWLINE),
        (["a<|fim", "_pad|>zzz"], ("<|fim_pad|>",), False, "a", FinishReason.STOP),
    ],
)
def test_the_streamed_text_stops_as_in_every_engine(
    chunks: list[str],
    stops: tuple[str, ...],
    single_line: bool,
    shown: str,
    reason: FinishReason | None,
) -> None:
    # exllamav2's requests go through the same StreamFilter as llama.cpp's and the remote's
    request = GenerationRequest("r", prompt_text="p", stop=stops, single_line=single_line)
    out, got, text = _stream(state_for(request), chunks)
    assert (out, got) == (shown, reason or FinishReason.LENGTH)
    assert text == out  # the chunks add up to Finished.text


def test_held_text_is_released_at_a_natural_end_and_dropped_on_cancel() -> None:
    request = GenerationRequest("r", prompt_text="p", stop=("\n\n",))
    assert _stream(state_for(request), ["x\n"]) == ("x\n", FinishReason.LENGTH, "x\n")
    state = state_for(request)
    step = handle_result(state, streaming("r", "x\n"), 100.5)
    assert [e.text for e in step.events if isinstance(e, TextChunk)] == ["x"]
    fin = finish_events(state, FinishReason.CANCELLED, {}, 101.0)
    assert len(fin) == 1 and isinstance(fin[0], Finished) and fin[0].text == "x"


@given(
    chunks=st.lists(st.text(alphabet="ab\n ", max_size=6), max_size=12),
    stop=st.text(alphabet="ab\n", min_size=1, max_size=3),
    single_line=st.booleans(),
)
def test_the_streamed_text_never_shows_a_stop(
    chunks: list[str], stop: str, single_line: bool
) -> None:
    request = GenerationRequest("r", prompt_text="p", stop=(stop,), single_line=single_line)
    shown, reason, _ = _stream(state_for(request), chunks)
    full = "".join(chunks)
    assert stop not in shown
    assert full.startswith(shown)
    if single_line:
        assert "\n" not in shown.lstrip(" \n")
    if reason is FinishReason.LENGTH:
        assert shown == full


# --------------------------------------------------------------------------- result mapping


def test_results_to_events_until_length() -> None:
    s = state_for(GenerationRequest("r", prompt_text="p", max_new_tokens=4))
    assert (
        handle_result(s, {"stage": "started", "identifier": "r", "eos": False}, 100.01).events == []
    )
    assert s.started_at == 100.01
    prefill = {"stage": "prefill", "identifier": "r", "eos": False, "curr_progress": 10}
    assert handle_result(s, prefill, 100.02).events == []
    step = handle_result(s, streaming("r", "def"), 100.03)
    assert step.events == [TextChunk("r", "def")] and not step.finished
    step = handle_result(s, streaming("r", " f", **EOS_LENGTH), 100.1)
    assert step.finished and not step.cancel_job
    chunk, fin = step.events
    assert chunk == TextChunk("r", " f")
    assert isinstance(fin, Finished) and fin.reason is FinishReason.LENGTH and fin.text == "def f"
    st_ = fin.stats
    assert (st_.num_prompt_tokens, st_.num_cached_tokens, st_.num_generated_tokens) == (30, 12, 4)
    assert st_.prefill_ms == pytest.approx(20.0) and st_.decode_ms == pytest.approx(40.0)
    assert st_.queue_ms == pytest.approx(10.0) and st_.first_token_ms == pytest.approx(30.0)
    assert st_.total_ms == pytest.approx(100.0)
    # anything after the end is ignored
    assert handle_result(s, streaming("r", "more"), 100.2).events == []


@pytest.mark.parametrize(
    ("eos_reason", "expect"),
    [
        ("stop_token", FinishReason.STOP),
        ("max_new_tokens", FinishReason.LENGTH),
        ("stop_string", FinishReason.STOP),
        ("end_filter", FinishReason.STOP),
    ],
)
def test_eos_reason_table(eos_reason: str, expect: FinishReason) -> None:
    s = state_for(GenerationRequest("r", prompt_text="p"))
    step = handle_result(s, streaming("r", eos_reason=eos_reason, new_tokens=1), 100.1)
    assert isinstance(step.events[-1], Finished) and step.events[-1].reason is expect


def test_stop_string_found_by_us_cancels_the_job() -> None:
    s = state_for(GenerationRequest("r", prompt_text="p", stop=("\ndef",)))
    assert handle_result(s, streaming("r", "x = 1\nd"), 100.1).events == [TextChunk("r", "x = 1")]
    step = handle_result(
        s, streaming("r", "ef g", accepted_draft_tokens=3, rejected_draft_tokens=1), 100.2
    )
    assert step.finished and step.cancel_job
    (fin,) = step.events
    assert isinstance(fin, Finished) and fin.reason is FinishReason.STOP and fin.text == "x = 1"


def test_single_line_and_profile_markers() -> None:
    s = state_for(
        GenerationRequest("r", prompt_text="p", single_line=True),
        extra_stops=QWEN25_CODER.stop_strings,
    )
    step = handle_result(s, streaming("r", "a + b\n    c"), 100.1)
    assert step.finished and step.cancel_job
    assert step.events[0] == TextChunk("r", "a + b")
    assert isinstance(step.events[1], Finished) and step.events[1].reason is FinishReason.NEWLINE
    s2 = state_for(GenerationRequest("q", prompt_text="p"), extra_stops=QWEN25_CODER.stop_strings)
    step = handle_result(s2, streaming("q", "ok<|file_sep|>junk"), 100.1)
    assert isinstance(step.events[-1], Finished) and step.events[-1].text == "ok"


def test_prefill_only_finishes_prefilled_without_text() -> None:
    s = state_for(GenerationRequest("w", prompt_text="p", prefill_only=True))
    step = handle_result(s, streaming("w", "tok", **EOS_LENGTH), 100.1)
    (fin,) = step.events
    assert isinstance(fin, Finished) and fin.reason is FinishReason.PREFILLED and fin.text == ""


def test_cancel_drops_held_text_deadline_keeps_it() -> None:
    for reason, text in ((FinishReason.CANCELLED, "a"), (FinishReason.DEADLINE, "a\n")):
        s = state_for(GenerationRequest("r", prompt_text="p", stop=("\n\n",)))
        handle_result(s, streaming("r", "a\n"), 100.1)
        events = finish_events(s, reason, {"new_tokens": 2}, 100.2)
        fin = events[-1]
        assert isinstance(fin, Finished) and fin.reason is reason and fin.text == text
        shown = "a" + "".join(e.text for e in events if isinstance(e, TextChunk))
        assert shown == fin.text


def test_error_finish_carries_code() -> None:
    s = state_for(GenerationRequest("r", prompt_text="p"))
    (fin,) = finish_events(s, FinishReason.ERROR, {}, 100.1, error=InputError("empty prompt"))
    assert isinstance(fin, Finished)
    assert (fin.reason, fin.error_code, fin.error) == (
        FinishReason.ERROR,
        "bad_input",
        "empty prompt",
    )


# --------------------------------------------------------------------------- speculation


# --------------------------------------------------------------------------- engine thread


@dataclass
class FakeJob:
    """ExLlamaV2DynamicJob's constructor arguments and measurement attributes."""

    input_ids: Any
    max_new_tokens: int
    stop_conditions: list[int] = field(default_factory=list)
    gen_settings: Any = None
    identifier: Any = None
    decode_special_tokens: bool = False
    filters: list[Any] = field(default_factory=list)
    new_tokens: int = 0
    cached_pages: int = 0
    cached_tokens: int = 0
    accepted_draft_tokens: int = 0
    rejected_draft_tokens: int = 0
    time_first_prefill: float | None = None
    time_first_token: float | None = None


class FakeGenerator:
    """Follows ExLlamaV2DynamicGenerator's job semantics; text comes from ``script``."""

    def __init__(
        self,
        *,
        seconds_per_token: tuple[float, float] = (0.0, 0.0),
        accept_per_step: tuple[int, int] = (1, 4),
        **kwargs: Any,
    ) -> None:
        self.kwargs = kwargs
        # time_generate per token reported at the end of a job: (plain, with the draft)
        self.seconds_per_token = seconds_per_token
        self.max_batch_size = kwargs["max_batch_size"]
        self.num_draft_tokens = (
            kwargs.get("num_draft_tokens", 0) if kwargs.get("draft_model") else 0
        )
        self.page_size = PAGE_SIZE
        self.pending: list[FakeJob] = []
        self.active: list[FakeJob] = []
        self.script: dict[str, list[str]] = {}
        self.accept_per_step = accept_per_step  # (accepted, rejected) draft tokens per step
        self.fail_next = False
        self.started_order: list[str] = []
        self.cancelled: list[str] = []
        self.delay_s = 0.0
        # the "model's" logits for jobs with filters: token id -> score (others 0)
        self.scores: dict[int, float] = {ord("x"): 9.0}

    def warmup(self) -> None:
        pass

    def _sample(self, job: FakeJob) -> str:
        """One greedy token as exllamav2's sampler takes it with filters that mask logits
        (sampler.py: ``begin`` at the first token, ``prepare_logit_mask`` then ``mask_logits``
        on the 1-D logits, ``feed`` with the token): the model's scores are ``scores``."""
        texts: list[str] = self.kwargs["tokenizer"].get_id_to_piece_list()
        logits = np.zeros(len(texts) + 8, dtype=np.float32)  # a head wider than the vocabulary
        for tid, score in self.scores.items():
            logits[tid] = score
        for f in job.filters:
            if job.new_tokens == 0:
                f.begin("")
            assert f.can_mask_logits() and f.prepare_logit_mask() is True
            logits = f.mask_logits(logits)
        token = int(np.argmax(logits))
        for f in job.filters:
            f.feed(np.array([[token]]))
        return texts[token]

    def enqueue(self, job: FakeJob) -> int:
        self.pending.append(job)
        return len(self.pending)

    def cancel(self, job: FakeJob) -> None:
        for q in (self.pending, self.active):
            if job in q:
                q.remove(job)
                self.cancelled.append(job.identifier)

    def clear_queue(self) -> None:
        self.pending.clear()
        self.active.clear()

    def num_remaining_jobs(self) -> int:
        return len(self.pending) + len(self.active)

    def iterate(self) -> list[dict[str, Any]]:
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("CUDA error: an illegal memory access was encountered")
        time.sleep(self.delay_s)
        results: list[dict[str, Any]] = []
        while self.pending and len(self.active) < self.max_batch_size:
            job = self.pending.pop(0)
            self.active.append(job)
            self.started_order.append(job.identifier)
            job.time_first_prefill = time.time()
            results.append(
                {"job": job, "stage": "started", "eos": False, "identifier": job.identifier}
            )
        for job in list(self.active):
            job.time_first_token = job.time_first_token or time.time()
            pieces = self.script.get(job.identifier, [])
            text = pieces[job.new_tokens] if job.new_tokens < len(pieces) else "x"
            if job.filters:
                text = self._sample(job)
            job.new_tokens += 1
            if self.num_draft_tokens:
                job.accepted_draft_tokens += self.accept_per_step[0]
                job.rejected_draft_tokens += self.accept_per_step[1]
            r: dict[str, Any] = {"job": job, "stage": "streaming", "eos": False, "text": text}
            r["identifier"] = job.identifier
            if job.new_tokens >= job.max_new_tokens - self.num_draft_tokens:
                self.active.remove(job)
                r.update(
                    eos=True,
                    eos_reason="max_new_tokens",
                    new_tokens=job.new_tokens,
                    prompt_tokens=len(job.input_ids[0]),
                    cached_tokens=0,
                    time_enqueued=0.0,
                    time_prefill=0.001,
                    time_generate=job.new_tokens
                    * self.seconds_per_token[1 if self.num_draft_tokens else 0],
                )
                if self.num_draft_tokens:
                    r["accepted_draft_tokens"] = job.accepted_draft_tokens
                    r["rejected_draft_tokens"] = job.rejected_draft_tokens
            results.append(r)
        return results


class FakeFilterBase:
    """exllamav2's ExLlamaV2Filter constructor (generator/filters/base.py)."""

    def __init__(self, model: Any, tokenizer: Any) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.sequence_str = ""
        self.background_result = None


class FakeEngine(ExLlamaV2Engine):
    """ExLlamaV2Engine whose _load builds a runtime around FakeGenerator (no torch)."""

    def __init__(self, config: EngineConfig, *, paged: bool = False, draft: bool = False) -> None:
        super().__init__(config, profile=PLAIN)
        self.paged = paged
        self.draft = draft
        self.unloaded: list[str] = []
        self.seconds_per_token = (0.002, 0.001)  # (plain, with the draft): the draft pays
        self.accept_per_step = (1, 4)  # of the generators built from now on

    def _load(self) -> _Runtime:
        plan = plan_generator(
            n_ctx=self._config.n_ctx,
            model_max_seq_len=32768,
            max_batch=self._config.max_batch,
            paged_attention=self.paged,
            num_draft_tokens=self._config.num_draft_tokens if self.draft else 0,
        )
        torch = SimpleNamespace(
            tensor=lambda data, dtype=None: data,
            from_numpy=lambda array: array,
            long="long",
            cuda=SimpleNamespace(empty_cache=lambda: None),
        )
        gen_module = SimpleNamespace(
            ExLlamaV2DynamicGenerator=lambda **kw: FakeGenerator(
                seconds_per_token=self.seconds_per_token, accept_per_step=self.accept_per_step, **kw
            ),
            ExLlamaV2DynamicJob=FakeJob,
            ExLlamaV2Sampler=SimpleNamespace(Settings=SimpleNamespace(greedy=lambda: "greedy")),
        )
        unloaded = self.unloaded
        model = SimpleNamespace(unload=lambda: unloaded.append("model"))
        draft = SimpleNamespace(unload=lambda: unloaded.append("draft")) if self.draft else None
        rt = _Runtime(
            torch=torch,
            exl=None,
            gen_module=gen_module,
            filter_base=FakeFilterBase,
            model=model,
            cache="cache",
            draft_model=draft,
            draft_cache="draft_cache" if self.draft else None,
            vocab=Vocabulary(FakeTokenizer()),
            plan=plan,
            generator=None,
            stop_ids=[1000],
            with_draft=self.draft,
        )
        self._start_generator(rt)
        return rt

    @property
    def gen(self) -> FakeGenerator:
        assert self._rt is not None
        generator: FakeGenerator = self._rt.generator
        return generator


def make_engine(**kw: Any) -> FakeEngine:
    paged = kw.pop("paged", False)
    draft = kw.pop("draft", False)
    seconds_per_token = kw.pop("seconds_per_token", None)
    accept_per_step = kw.pop("accept_per_step", None)
    engine = FakeEngine(EngineConfig(kind="exllamav2", model="/m", **kw), paged=paged, draft=draft)
    engine.seconds_per_token = seconds_per_token or engine.seconds_per_token
    engine.accept_per_step = accept_per_step or engine.accept_per_step
    engine.start()
    return engine


def test_vocabulary_texts_leave_special_tokens_out() -> None:
    vocab = Vocabulary(FakeTokenizer())
    pieces = vocab.pieces()
    assert pieces[ord("x")] == "x" and pieces[1004] == " result"
    assert pieces[1000] == pieces[1001] == pieces[1003] == ""  # markers are never steered to
    assert set(vocab.piece_table().consistent(" resu").tolist()) == {32, 1004, 1005}


def test_the_steering_filter_masks_logits_and_answers_the_allowed_set_protocol() -> None:
    from engine.exllama_backend import steer_filter
    from engine.steering import StartSteer

    vocab = Vocabulary(FakeTokenizer())

    def make(heal: str = "", avoid: tuple[str, ...] = ()) -> Any:
        return steer_filter(
            FakeFilterBase,
            "model",
            vocab.tokenizer,
            lambda: StartSteer(vocab.piece_table, heal, avoid),
            vocab.pieces(),
            lambda a: a,
        )

    heal = make(" resu")
    heal.begin("")
    assert heal.next() == ({32, 1004, 1005}, set())
    assert heal.prepare_logit_mask() is True
    logits = heal.mask_logits(np.arange(1020, dtype=np.float32))  # wider head than vocabulary
    assert set(np.flatnonzero(np.isfinite(logits)).tolist()) == {32, 1004, 1005}
    heal.feed(np.array([[1004]]))  # " result": spelled
    assert heal.next() == (None, set())
    assert heal.prepare_logit_mask() is True
    assert np.isfinite(heal.mask_logits(np.zeros(1020, dtype=np.float32))).all()
    heal.begin("")  # a new start (the job sampled again from its first token)
    assert heal.next()[0] == {32, 1004, 1005}
    avoid = make(avoid=(".",)).clone()
    avoid.begin("")
    allowed, _ = avoid.next()
    assert allowed is not None and ord(".") not in allowed and 1006 not in allowed
    assert ord("x") in allowed
    assert avoid.prepare_logit_mask() is True
    logits = avoid.mask_logits(np.zeros(1020, dtype=np.float32))
    assert np.isinf(logits[[ord("."), 1006]]).all() and np.isfinite(logits[ord("x")])


def test_a_healed_word_is_spelled_by_the_model_and_left_out_of_the_output() -> None:
    """The job gets the steering filter: the model's first token must spell `` resu`` (it
    prefers ``x``), `` result`` wins, and the output starts after the cut text."""
    engine = make_engine()
    try:
        engine.gen.scores = {ord("x"): 9.0, 1004: 5.0}
        prompt = PromptParts("a.py", "python", (), "y = resu", "\n")
        fin, _ = generate_sync(
            engine, GenerationRequest("h", prompt=prompt, max_new_tokens=3), timeout_s=5
        )
        assert fin.text == "ltxx" and fin.reason is FinishReason.LENGTH
        plain, _ = generate_sync(
            engine, GenerationRequest("p", prompt_text="y = resu", max_new_tokens=2), timeout_s=5
        )
        assert plain.text == "xx"  # nothing to steer: no filter
    finally:
        engine.close()
    engine = make_engine(token_healing=False)
    try:
        engine.gen.scores = {ord("x"): 9.0, 1004: 5.0}
        fin, _ = generate_sync(
            engine, GenerationRequest("n", prompt=prompt, max_new_tokens=3), timeout_s=5
        )
        assert fin.text == "xxx"  # the word stays in the prompt, the model goes on after it
    finally:
        engine.close()


def test_a_block_start_never_begins_with_a_placeholder() -> None:
    engine = make_engine()
    try:
        engine.gen.scores = {1006: 12.0, ord("."): 11.0, ord("x"): 9.0}
        prompt = PromptParts("a.py", "python", (), "if ok:\n    ", "\n")
        request = GenerationRequest("b", prompt=prompt, max_new_tokens=2, avoid_starts=(".",))
        fin, _ = generate_sync(engine, request, timeout_s=5)
        assert fin.text == "x..."  # "..." banned at the start only
    finally:
        engine.close()


def test_engine_streams_and_finishes_with_length() -> None:
    engine = make_engine()
    try:
        assert engine.capabilities.max_batch == 1 and not engine.capabilities.batching
        assert engine.count_tokens("ab<|fim_prefix|>") == len("ab<|fim_prefix|>")
        fin, ttft = generate_sync(
            engine, GenerationRequest("r", prompt_text="hello", max_new_tokens=3), timeout_s=5
        )
        assert fin.reason is FinishReason.LENGTH and fin.text == "xxx" and ttft is not None
        job_args = engine.gen.kwargs
        assert job_args["paged"] is False and job_args["max_batch_size"] == 1
        assert "draft_model" not in job_args
        assert fin.stats.num_prompt_tokens == 6 and not fin.stats.speculation_used  # BOS + 5
    finally:
        engine.close()
    assert engine.unloaded == ["model"] and not engine.is_alive()


def test_queue_time_ends_when_the_engine_takes_the_request_not_after_its_prefill() -> None:
    engine = make_engine()
    try:
        engine.gen.delay_s = 0.2  # each iterate(), the first one (prefill, "started") too
        fin, _ = generate_sync(
            engine, GenerationRequest("r", prompt_text="hello", max_new_tokens=1), timeout_s=5
        )
        assert fin.stats.first_token_ms >= 200
        assert fin.stats.queue_ms < 100, fin.stats
    finally:
        engine.close()


def test_engine_stop_cancels_the_job_in_the_generator() -> None:
    engine = make_engine()
    try:
        gen = engine.gen
        gen.script["r"] = ["a", "b", "\n", "\n", "z"]
        fin, _ = generate_sync(
            engine,
            GenerationRequest("r", prompt_text="p", max_new_tokens=50, stop=("\n\n",)),
            timeout_s=5,
        )
        assert fin.reason is FinishReason.STOP and fin.text == "ab"
        assert gen.cancelled == ["r"] and gen.num_remaining_jobs() == 0
    finally:
        engine.close()


def test_engine_cancel_deadline_and_priority() -> None:
    engine = make_engine()
    try:
        gen = engine.gen
        gen.delay_s = 0.01
        events = Events()
        engine.submit(GenerationRequest("long", prompt_text="p", max_new_tokens=3000), events)
        time.sleep(0.05)
        engine.submit(
            GenerationRequest(
                "bg", prompt_text="p", max_new_tokens=2, priority=Priority.BACKGROUND
            ),
            events,
        )
        engine.submit(GenerationRequest("fg", prompt_text="p", max_new_tokens=2), events)
        engine.submit(
            GenerationRequest(
                "late", prompt_text="p", max_new_tokens=2, deadline=time.monotonic() + 0.05
            ),
            events,
        )
        engine.cancel("no-such-request")
        time.sleep(0.1)
        engine.cancel("long")
        events.wait("long", "bg", "fg", "late")
        assert events.finished("long")[0].reason is FinishReason.CANCELLED
        assert events.finished("late")[0].reason is FinishReason.DEADLINE
        assert events.finished("fg")[0].reason is FinishReason.LENGTH
        # one job at a time, interactive before background
        assert gen.started_order == ["long", "fg", "bg"]
        for rid in ("long", "bg", "fg", "late"):
            assert len(events.finished(rid)) == 1
            assert events.text(rid) == events.finished(rid)[0].text
    finally:
        engine.close()


def test_engine_paged_runs_jobs_together() -> None:
    engine = make_engine(paged=True, max_batch=4)
    try:
        assert engine.capabilities.batching and engine.capabilities.max_batch == 4
        events = Events()
        for i in range(8):
            engine.submit(GenerationRequest(f"r{i}", prompt_text="p", max_new_tokens=3), events)
        events.wait(*[f"r{i}" for i in range(8)])
        assert all(events.finished(f"r{i}")[0].text == "xxx" for i in range(8))
        assert engine.gen.kwargs["paged"] is True
    finally:
        engine.close()


def _run(engine: FakeEngine, rid: str, n: int) -> Any:
    fin, _ = generate_sync(
        engine, GenerationRequest(rid, prompt_text="p", max_new_tokens=n), timeout_s=5
    )
    return fin


def test_engine_speculation_plain_baseline_switch_off_and_probe_again() -> None:
    engine = make_engine(draft=True, num_draft_tokens=4, speculation_min_acceptance=0.4)
    try:
        engine._governor.retry_after = 2
        # loaded with the draft, but the first requests decode plainly: the speed baseline
        assert engine.capabilities.speculation and "draft_model" not in engine.gen.kwargs
        fin = _run(engine, "base", 32)
        assert fin.reason is FinishReason.LENGTH and not fin.stats.speculation_used
        fin = _run(engine, "a", 64)
        # the job asked for 64 + 4 and ended after exactly 64 tokens
        assert fin.reason is FinishReason.LENGTH and fin.stats.num_generated_tokens == 64
        assert fin.stats.speculation_used and fin.stats.num_draft_accepted == 64
        assert fin.stats.num_draft_tokens == 320
        st_ = engine.stats()
        assert not st_.speculation_enabled and st_.speculation_note == (
            "off: acceptance 0.20 < 0.40 over the last 320 draft tokens; "
            "probing again after 2 requests"
        )
        fin = _run(engine, "b", 8)
        assert fin.reason is FinishReason.LENGTH and not fin.stats.speculation_used
        assert "acceptance" in fin.stats.speculation_note
        assert "draft_model" not in engine.gen.kwargs and not engine.capabilities.speculation
        assert engine.unloaded == []  # the draft stays loaded for the next probe
        _run(engine, "c", 8)  # the second plain request: a new probe
        assert engine.capabilities.speculation
        assert engine.stats().speculation_note.startswith("probing again (was off: acceptance")
        fin = _run(engine, "d", 8)
        assert fin.stats.speculation_used and engine.gen.kwargs["num_draft_tokens"] == 4
        assert engine.stats().draft_proposed == 360
    finally:
        engine.close()


def test_engine_speculation_switches_off_when_slower_than_plain() -> None:
    # every draft token accepted, but each generated token costs 3x what it costs plainly
    engine = make_engine(
        draft=True, num_draft_tokens=4, seconds_per_token=(0.010, 0.030), accept_per_step=(4, 0)
    )
    try:
        _run(engine, "base", 32)
        fin = _run(engine, "a", 64)
        assert fin.stats.speculation_used and fin.stats.num_draft_accepted == 256
        st_ = engine.stats()
        assert not st_.speculation_enabled
        assert st_.speculation_note.startswith(
            "off: slower than plain decoding (30.0 ms/token vs 10.0)"
        )
        assert not _run(engine, "b", 8).stats.speculation_used
    finally:
        engine.close()


def test_engine_survives_an_iterate_error_and_rejects_oversized_prompts() -> None:
    engine = make_engine(n_ctx=512)
    try:
        engine.gen.fail_next = True
        fin, _ = generate_sync(engine, GenerationRequest("r", prompt_text="p"), timeout_s=5)
        assert fin.reason is FinishReason.ERROR and fin.error_code == "engine"
        assert "illegal memory access" in fin.error
        fin, _ = generate_sync(
            engine, GenerationRequest("big", prompt_text="p" * 600, max_new_tokens=8), timeout_s=5
        )
        assert fin.reason is FinishReason.ERROR and fin.error_code == "bad_input"
        fin, _ = generate_sync(
            engine, GenerationRequest("ok", prompt_text="p", max_new_tokens=2), timeout_s=5
        )
        assert fin.reason is FinishReason.LENGTH and engine.is_alive()
    finally:
        engine.close()


def test_engine_close_cancels_what_is_left() -> None:
    engine = make_engine()
    gen = engine.gen
    gen.delay_s = 0.01
    events = Events()
    engine.submit(GenerationRequest("a", prompt_text="p", max_new_tokens=3000), events)
    engine.submit(GenerationRequest("b", prompt_text="p", max_new_tokens=3000), events)
    time.sleep(0.05)
    engine.close()
    assert [f.reason for f in events.finished("a") + events.finished("b")] == [
        FinishReason.CANCELLED,
        FinishReason.CANCELLED,
    ]
    engine.submit(GenerationRequest("c", prompt_text="p"), events)
    assert events.finished("c")[0].reason is FinishReason.CANCELLED


# --------------------------------------------------------------------------- GPU


def _gpu_skip_reason() -> str | None:
    if not _cuda_ready():
        return "needs torch with a CUDA device"
    if importlib.util.find_spec("exllamav2") is None:
        return "needs exllamav2 0.3.2 (pip install 'nospin[gpu]')"
    if (
        importlib.util.find_spec("tokenizers") is None
        or importlib.util.find_spec("safetensors") is None
    ):
        return "needs tokenizers and safetensors to make the test model"
    return None


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    reason = _gpu_skip_reason()
    if reason:
        pytest.skip(reason)
    from bench.gpu_models import MAIN, make_tokenizer, write_model

    work = tmp_path_factory.mktemp("exl2")
    eos = make_tokenizer(work / "tokenizer")
    return write_model(work / "main", MAIN, tokenizer_dir=work / "tokenizer", eos_id=eos, seed=1)


@pytest.mark.gpu
def test_gpu_engine_generates_with_a_random_model(tiny_model: Path) -> None:
    engine = ExLlamaV2Engine(
        EngineConfig(
            kind="exllamav2",
            model=str(tiny_model),
            draft_model=str(tiny_model),
            model_profile="qwen2.5-coder",
            n_ctx=2048,
            max_batch=4,
        )
    )
    engine.start()
    try:
        assert engine.count_tokens("<|fim_prefix|>") > 1
        parts = PromptParts(
            path="a.py",
            language="python",
            snippets=(ContextSnippet("b.py", "def g(): pass\n"),),
            prefix="def f(x):\n    ",
            suffix="\n",
        )
        runs = []
        for i in range(5):  # plain first (32 tokens: the speed baseline), then the draft
            fin, _ = generate_sync(
                engine, GenerationRequest(f"g{i}", prompt=parts, max_new_tokens=24), timeout_s=120
            )
            # a random model's text may repeat: the stream filter then ends it (REPETITION)
            assert fin.reason in (FinishReason.LENGTH, FinishReason.STOP, FinishReason.REPETITION)
            if fin.reason is FinishReason.LENGTH:
                assert fin.stats.num_generated_tokens == 24
            assert fin.stats.num_prompt_tokens > 0
            runs.append(fin.stats.speculation_used)
        assert not runs[0] and any(runs[1:]), runs
        assert engine.stats().draft_proposed > 0
        # token healing through the generator's filter, with the draft
        healed = replace(parts, prefix="def f(x):\n    resu")
        fin, _ = generate_sync(
            engine, GenerationRequest("heal", prompt=healed, max_new_tokens=24), timeout_s=120
        )
        assert fin.reason in (FinishReason.LENGTH, FinishReason.STOP, FinishReason.REPETITION)
    finally:
        engine.close()


def test_a_multiline_completion_stops_where_it_leaves_its_block() -> None:
    """The same rule as in every engine (engine.blocks.block_end): decoding ends early."""
    state = state_for(GenerationRequest("r", prompt_text="p"))
    state.stream.block = BlockScope(8, False)
    chunks = ["x = 1\n", "        return x\n\n", "    ", "def", " g(self):\n", "        pass"]
    shown, reason, text = _stream(state, chunks)
    assert reason is FinishReason.STOP
    assert shown.rstrip() == "x = 1\n        return x" and "def" not in text
