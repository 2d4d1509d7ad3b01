"""The streaming stop filter every engine runs on its thread while tokens arrive: stop strings,
the single-line rule, the end of the cursor's block and degenerate repetition, holding back only
the text that could still become a stop string."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from engine.base import FinishReason
from engine.blocks import BlockScope, block_end, first_line
from engine.postprocess import cut_repetition


@dataclass(slots=True)
class StreamFilter:
    """Incremental stop handling for a stream of generated text.

    ``push(text)`` returns the text safe to emit now and, once the stream must end, the reason
    (STOP, NEWLINE or REPETITION); the text it returns never contains a stop string or anything
    past the first line when ``single_line``. ``flush()`` returns what was held back when the
    stream ends for another reason (length, deadline). Called on the engine thread per token.
    """

    stop: tuple[str, ...] = ()  # stop strings; not included in the output
    single_line: bool = False  # end at the end of the first non-empty line
    block: BlockScope | None = None  # multi-line: end where the text leaves this block
    text: str = ""  # everything accepted so far (emitted + held back)
    emitted: int = 0  # length of the prefix of ``text`` already returned
    _max_stop: int = field(default=0)
    _judged: int = field(default=0)  # length of ``text`` before the last push

    def __post_init__(self) -> None:
        self._max_stop = max((len(s) for s in self.stop), default=0)

    def push(self, piece: str) -> tuple[str, FinishReason | None]:
        start = max(0, len(self.text) - self._max_stop)
        self._judged = len(self.text)
        self.text += piece
        end, reason = self._find_end(start)
        if reason is not None:
            self.text = self.text[:end]
            return self._take(len(self.text)), reason
        hold = self._holdback()
        return self._take(len(self.text) - hold), None

    def flush(self) -> str:
        return self._take(len(self.text))

    def _find_end(self, start: int) -> tuple[int, FinishReason | None]:
        cut, reason = len(self.text), None
        for s in self.stop:
            i = self.text.find(s, start)
            if i != -1 and i < cut:  # a line break asked for is a line's end
                cut, reason = i, FinishReason.NEWLINE if s == "\n" else FinishReason.STOP
        if self.single_line:
            end = len(first_line(self.text[:cut]))
            if end < cut:
                cut, reason = end, FinishReason.NEWLINE
        elif self.block is not None and "\n" in self.text:
            end_at = block_end(self.text[:cut], self.block, min(self._judged, cut))
            if end_at is not None:
                cut, reason = max(end_at, self.emitted), FinishReason.STOP
        if reason is None and "\n" in self.text[start:]:
            repeated = cut_repetition(self.text)
            if len(repeated) < len(self.text):  # text already emitted stays
                return max(len(repeated), self.emitted), FinishReason.REPETITION
        return cut, reason

    def _holdback(self) -> int:
        """Length of the longest tail of ``text`` that is a proper prefix of a stop string."""
        best = 0
        for s in self.stop:
            for k in range(min(len(s) - 1, len(self.text)), best, -1):
                if self.text.endswith(s[:k]):
                    best = k
                    break
        return best

    def _take(self, upto: int) -> str:
        upto = max(upto, self.emitted)
        out = self.text[self.emitted : upto]
        self.emitted = upto
        return out


def filter_stream(
    pieces: Iterable[str],
    *,
    stop: tuple[str, ...] = (),
    single_line: bool = False,
    block: BlockScope | None = None,
) -> Iterator[str]:
    """Generator form of StreamFilter, for tests and text-only backends."""
    f = StreamFilter(stop=stop, single_line=single_line, block=block)
    for piece in pieces:
        out, reason = f.push(piece)
        if out:
            yield out
        if reason is not None:
            return
    rest = f.flush()
    if rest:
        yield rest
