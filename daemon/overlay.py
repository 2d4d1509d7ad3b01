"""Open buffers over the project index: what other files see of an unsaved buffer.

While a document is open its buffer is the truth for that file (docs/protocol.md, invariant 7),
also for the definitions other documents take from it: a function added to ``a.py`` and not
yet saved is offered to a completion in ``b.py`` that calls it, with the signature as typed.
Each buffer that differs from the file the index holds is summarised as the indexer summarises
a saved file (once per buffer text, at the first request in another document), and laid over
the index's snapshot. The overlaid snapshot is kept while neither the index nor a buffer
changes: typing in one document costs its own requests nothing here, and a buffer equal to its
saved file (a content digest, compared with the index's) costs one hash per buffer text.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from daemon.index import IndexSnapshot, overlaid
from daemon.languages import TEXT, detect_language
from daemon.parse import digest_text, summarize
from daemon.symbols import FileSummary

log = logging.getLogger(__name__)

#: Buffers laid over the index per request (those that differ from their saved files), the
#: most recently opened or edited first.
MAX_BUFFERS = 16


@dataclass(frozen=True, slots=True)
class Buffer:
    """An open document's text under its index key (the project-relative path)."""

    path: str
    text: str


def buffer_summary(saved: FileSummary | None, buffer: FileSummary) -> FileSummary:
    """What the index holds for a file while its buffer is open: the buffer's summary. While the
    buffer does not parse (a half-typed line), definitions the parser lost that the saved file
    has are kept from the saved file: an unclosed bracket must not hide the rest of the file."""
    if saved is None or not buffer.has_syntax_errors or saved.has_syntax_errors:
        return buffer
    have = {d.qualname for d in buffer.definitions}
    lost = tuple(d for d in saved.definitions if d.qualname not in have)
    if not lost:
        return buffer
    definitions = tuple(sorted(buffer.definitions + lost, key=lambda d: d.start_line))
    return replace(buffer, definitions=definitions)


@dataclass(slots=True)
class _Summarised:
    text: str  # the buffer text it was made from (compared by identity: texts are immutable)
    digest: str
    summary: FileSummary | None = None  # made when first needed
    failed: bool = False  # the parse raised: the saved file stands for this text


class BufferOverlay:
    """The index of one project with its open buffers laid over it. Thread-safe."""

    def __init__(self, *, max_buffers: int = MAX_BUFFERS) -> None:
        self._max = max_buffers
        self._lock = threading.Lock()
        self._texts: dict[str, _Summarised] = {}
        self._base: IndexSnapshot | None = None
        self._key: tuple[tuple[str, str, str], ...] = ()
        self._result: IndexSnapshot | None = None

    def snapshot(
        self,
        base: IndexSnapshot,
        buffers: Sequence[Buffer],
        *,
        exclude: str = "",
        on_disk: Callable[[str], bool],
    ) -> IndexSnapshot:
        """``base`` with ``buffers`` (the project's open buffers, most recent first; the first
        ``max_buffers`` that differ from their saved files) laid over it, except ``exclude``
        (the requesting document, whose own summary the assembler has: its buffer is kept
        summarised for the next request elsewhere). A buffer whose file the index does not
        hold counts only when the file is not on disk (a new file not saved yet:
        ``on_disk(path)`` is False) and has a grammar; one on disk was left out by the indexer
        (ignored, too large) and stays out."""
        with self._lock:
            updates: dict[str, FileSummary] = {}
            key: list[tuple[str, str, str]] = []
            used: set[str] = set()
            for buf in buffers:
                if len(updates) >= self._max:
                    break
                if buf.path in used or buf.path == exclude:
                    continue
                used.add(buf.path)
                entry = self._texts.get(buf.path)
                if entry is None or entry.text is not buf.text:
                    entry = _Summarised(buf.text, digest_text(buf.text))
                    self._texts[buf.path] = entry
                saved = base.files.get(buf.path)
                if saved is not None and saved.digest == entry.digest:
                    continue
                if saved is None and (detect_language(buf.path) == TEXT or on_disk(buf.path)):
                    continue
                if entry.failed:
                    continue
                if entry.summary is None:
                    try:
                        entry.summary = summarize(buf.path, buf.text)
                    except Exception:  # an aid: the completion goes on with the saved file
                        log.exception("summarising the buffer of %s failed", buf.path)
                        entry.failed = True
                        continue
                updates[buf.path] = buffer_summary(saved, entry.summary)
                key.append((buf.path, entry.digest, saved.digest if saved is not None else ""))
            known = {buf.path for buf in buffers}
            for path in [p for p in self._texts if p not in known]:
                del self._texts[path]
            if not updates:
                return base
            frozen = tuple(key)
            if self._result is not None and self._base is base and self._key == frozen:
                return self._result
            self._base, self._key = base, frozen
            self._result = overlaid(base, updates)
            return self._result
