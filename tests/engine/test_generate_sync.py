"""``generate_sync``: run to the end, or stop once the streamed text is enough."""

from __future__ import annotations

from engine.base import FinishReason, GenerationRequest, PromptParts, generate_sync
from tests.daemon.fakes import FakeEngine

_PARTS = PromptParts(
    path="a.py", language="python", snippets=(), prefix="def f(a, b):\n    ", suffix=""
)


def test_runs_to_the_end_without_a_stop() -> None:
    engine = FakeEngine()
    engine.start()
    try:
        fin, first = generate_sync(engine, GenerationRequest("r1", prompt=_PARTS), timeout_s=10)
    finally:
        engine.close()
    assert fin.reason is not FinishReason.CANCELLED
    assert "print" in fin.text and first is not None


def test_stop_when_cancels_once_the_text_is_enough() -> None:
    engine = FakeEngine(token_delay_s=0.02)
    engine.start()
    seen: list[str] = []

    def one_line(text: str) -> bool:
        seen.append(text)
        return "\n" in text

    try:
        fin, _ = generate_sync(
            engine, GenerationRequest("r2", prompt=_PARTS), timeout_s=10, stop_when=one_line
        )
    finally:
        engine.close()
    assert fin.reason is FinishReason.CANCELLED
    assert "print" not in fin.text  # stopped after the first line, not run to the end
    assert seen[-1].endswith("\n") or "\n" in seen[-1]
