"""The two engine pipelines of ``nospin bench latency``: nospin's assembled context with warm-ups
and KV state cache, and the naive whole-file FIM prompt (docs/latency.md, "What it replays")."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

from app.config import ContextConfig
from app.evaluation.corpus import buffer_in_index
from bench.latency_points import Point
from daemon.context import ContextRequest, assemble_context, summarize_stable
from daemon.index import ProjectIndex
from daemon.languages import detect_language
from daemon.symbols import FileSummary
from engine.base import GenerationRequest, Priority, PromptParts, TokenCounter


class Pipeline:
    """Turns a point and a number of typed characters into an engine request."""

    name = "pipeline"

    def point(self, point: Point) -> AbstractContextManager[None]:
        """Context while the replay is at ``point`` (nospin: the buffer's parse in the index)."""
        return nullcontext()

    def warmup(self, point: Point, request_id: str) -> GenerationRequest | None:
        """The request an editor sends when the cursor arrives at ``point`` (None: none)."""
        return None

    def open_warmup(self, point: Point, request_id: str) -> GenerationRequest | None:
        """What the daemon does when the editor opens ``point``'s file (None: nothing)."""
        return None

    def request(self, point: Point, num_typed: int, request_id: str) -> GenerationRequest:
        raise NotImplementedError

    def parts_of(self, request: GenerationRequest) -> PromptParts:
        assert request.prompt is not None
        return request.prompt


class NospinPipeline(Pipeline):
    name = "nospin"

    def __init__(
        self,
        *,
        index: ProjectIndex,
        counter: TokenCounter,
        config: ContextConfig,
        budget: int,
        max_tokens: int,
        warm: bool,
    ) -> None:
        self.index, self.counter, self.config = index, counter, config
        self.budget, self.max_tokens, self.warm = budget, max_tokens, warm
        self._summary: FileSummary | None = None
        self.assemble_ms: list[float] = []

    def point(self, point: Point) -> AbstractContextManager[None]:
        text, _ = point.buffer(0)
        language = detect_language(point.path)
        # the daemon caches the stable parse per document version and cursor line: typing on
        # the line parses once
        self._summary = summarize_stable(point.path, text, point.line, language)
        return buffer_in_index(self.index, point.path, self._summary)

    def _parts(self, point: Point, num_typed: int) -> PromptParts:
        text, column = point.buffer(num_typed)
        parts, ms = self._assemble(point.path, text, point.line, column, self._summary)
        self.assemble_ms.append(ms)
        return parts

    def _assemble(
        self, path: str, text: str, line: int, column: int, summary: FileSummary | None
    ) -> tuple[PromptParts, float]:
        request = ContextRequest(
            path=path,
            text=text,
            line=line,
            column=column,
            language=detect_language(path),
            budget_tokens=self.budget,
        )
        ctx = assemble_context(
            request, index=self.index, counter=self.counter, config=self.config, summary=summary
        )
        return ctx.to_prompt_parts(), ctx.assemble_ms

    def warmup(self, point: Point, request_id: str) -> GenerationRequest | None:
        if not self.warm:
            return None
        return GenerationRequest(
            request_id,
            prompt=self._parts(point, 0),
            prefill_only=True,
            priority=Priority.BACKGROUND,
            cache_key=point.path,
        )

    def open_warmup(self, point: Point, request_id: str) -> GenerationRequest | None:
        """As the daemon on ``open``: prefill the prompt at the end of the document."""
        if not self.warm:
            return None
        text, _ = point.buffer(0)
        parts, _ms = self._assemble(point.path, text, text.count("\n"), 0, None)
        return GenerationRequest(
            request_id,
            prompt=parts,
            prefill_only=True,
            priority=Priority.BACKGROUND,
            cache_key=point.path,
        )

    def request(self, point: Point, num_typed: int, request_id: str) -> GenerationRequest:
        return GenerationRequest(
            request_id,
            prompt=self._parts(point, num_typed),
            max_new_tokens=self.max_tokens,
            single_line=True,
            speculation=False,
            cache_key=point.path,
        )


class NaivePipeline(Pipeline):
    name = "naive"

    def __init__(self, *, counter: TokenCounter, limit: int, max_tokens: int) -> None:
        self.counter, self.limit, self.max_tokens = counter, limit, max_tokens

    def request(self, point: Point, num_typed: int, request_id: str) -> GenerationRequest:
        text, column = point.buffer(num_typed)
        lines = text.split("\n")
        before = [*lines[: point.line], lines[point.line][:column]]
        after = [lines[point.line][column:], *lines[point.line + 1 :]]
        prefix, suffix = naive_cut(before, after, self.limit, self.counter)
        parts = PromptParts(point.path, detect_language(point.path), (), prefix, suffix)
        return GenerationRequest(
            request_id,
            prompt=parts,
            max_new_tokens=self.max_tokens,
            single_line=True,
            speculation=False,
        )


def naive_cut(
    before: list[str], after: list[str], limit: int, counter: TokenCounter
) -> tuple[str, str]:
    """Whole lines nearest the cursor, alternately above and below, within ``limit`` tokens.

    ``before`` ends with the cursor line up to the cursor, ``after`` starts with its rest.
    """
    used = counter.count(before[-1]) + counter.count(after[0]) + 1
    top, bottom = len(before) - 1, 1
    up_open, down_open = True, True
    while up_open or down_open:
        if up_open:
            if top > 0 and used + counter.count(before[top - 1] + "\n") <= limit:
                top -= 1
                used += counter.count(before[top] + "\n")
            else:
                up_open = False
        if down_open:
            if bottom < len(after) and used + counter.count(after[bottom] + "\n") <= limit:
                used += counter.count(after[bottom] + "\n")
                bottom += 1
            else:
                down_open = False
    return "\n".join(before[top:]), "\n".join(after[:bottom])
