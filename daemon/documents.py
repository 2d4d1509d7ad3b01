"""Open documents (unsaved editor buffers) and how a request's text is found. Pure, no sockets.

While a document is open its buffer is the truth for context, overriding the file on disk;
``close`` makes the disk file count again. Edits use 0-based (line, column) positions with
columns in Unicode code points.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from app.errors import CursorError, InputError, SkippedFile
from daemon.discovery import read_source_bytes

ROOT_MARKERS = (".git", ".hg", "pyproject.toml", "setup.py", "package.json", "go.mod",
                "Cargo.toml", ".nospin")


@dataclass(frozen=True, slots=True)
class Edit:
    """One incremental edit: replace [start, end) by ``text``."""

    start_line: int
    start_col: int
    end_line: int
    end_col: int
    text: str


@dataclass(frozen=True, slots=True)
class Document:
    path: str  # absolute, normalised
    text: str
    language: str | None  # None: detect from the path
    version: int
    root: str  # project root the document belongs to


def normalise_path(path: str, *, root: str | None = None) -> str:
    """Absolute normalised path from a path or file:// URI; relative paths need ``root``."""
    if path.startswith("file://"):
        path = unquote(urlparse(path).path)
    if not path:
        raise InputError("empty document path")
    if "\0" in path:
        raise InputError(f"document path {path!r} contains a NUL character")
    if not os.path.isabs(path):
        if not root:
            raise InputError(f"document path {path!r} must be absolute (or give a root)")
        path = os.path.join(root, path)
    return os.path.normpath(path)


def find_root(path: str) -> str:
    """Nearest folder above ``path`` with a project marker (.git, pyproject.toml, ...);
    the file's own folder when there is none."""
    start = Path(path).parent
    for folder in (start, *start.parents):
        if any((folder / marker).exists() for marker in ROOT_MARKERS):
            return str(folder)
    return str(start)


def offset_of(text: str, line: int, col: int) -> int:
    """Character offset of (line, col); raise CursorError when outside the text."""
    pos = 0
    for _ in range(line):
        nl = text.find("\n", pos)
        if nl == -1:
            raise CursorError(
                f"cursor line {line} (0-based) is outside the document ({text.count(chr(10)) + 1}"
                " lines)")
        pos = nl + 1
    end = text.find("\n", pos)
    line_len = (end if end != -1 else len(text)) - pos
    if col > line_len:
        raise CursorError(
            f"cursor column {col} (0-based) is outside line {line} ({line_len} characters)")
    return pos + col


def crop_around(text: str, line: int, col: int, max_chars: int) -> tuple[str, int, int]:
    """``(text, line, col)`` of at most ``max_chars`` characters of ``text`` around the cursor
    (the whole text when it fits): a window on a grid of ``max_chars // 4`` characters, so
    the window stays put while the user types, cut at line starts where the cursor's line
    allows; the cursor's position is given in the cropped text."""
    if len(text) <= max_chars:
        return text, line, col
    off = offset_of(text, line, col)
    step = max(1, max_chars // 4)
    start = max(0, (off // step) * step - 2 * step)
    end = min(len(text), start + max_chars)
    if start > 0:  # at the next line start before the cursor, else inside its line
        snapped = text.find("\n", start, off)
        start = snapped + 1 if snapped != -1 else start
    last_nl = text.rfind("\n", off, end)
    if end < len(text) and last_nl != -1:
        end = last_nl + 1
    cropped = text[start:end]
    at = off - start
    new_line = cropped.count("\n", 0, at)
    return cropped, new_line, at - (cropped.rfind("\n", 0, at) + 1)


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply edits in order (each against the result of the previous one)."""
    for edit in edits:
        start = offset_of(text, edit.start_line, edit.start_col)
        end = offset_of(text, edit.end_line, edit.end_col)
        if end < start:
            raise CursorError("edit range ends before it starts")
        text = text[:start] + edit.text + text[end:]
    return text


class DocumentStore:
    """Open buffers by path."""

    def __init__(self, *, max_documents: int = 500) -> None:
        self._docs: dict[str, Document] = {}
        self._max = max_documents
        self._owner: dict[str, str] = {}  # path -> key of the client that opened it last
        self._used: dict[str, float] = {}  # path -> monotonic time of its last open/change/use

    def __len__(self) -> int:
        return len(self._docs)

    def get(self, path: str) -> Document | None:
        return self._docs.get(path)

    def touch(self, path: str, now: float) -> None:
        """A request used the document: it is not idle."""
        if path in self._docs:
            self._used[path] = now

    def open(self, doc: Document, *, owner: str = "", now: float = 0.0) -> Document | None:
        """Open (or reopen) a buffer for the client ``owner``; return the previous one."""
        old = self._docs.pop(doc.path, None)
        if old is None and len(self._docs) >= self._max:
            raise InputError(f"too many open documents (limit {self._max}); close some")
        self._docs[doc.path] = doc
        self._owner[doc.path] = owner
        self._used[doc.path] = now
        return old

    def owned_by(self, owner: str) -> list[str]:
        """The documents ``owner`` opened, least recently used first."""
        return sorted((pth for pth, o in self._owner.items() if o == owner),
                      key=lambda pth: self._used.get(pth, 0.0))

    def idle(self, now: float, idle_s: float) -> list[str]:
        """The documents not opened, changed or used for ``idle_s`` seconds."""
        return [pth for pth, t in self._used.items() if now - t >= idle_s]

    def change(self, path: str, *, text: str | None, edits: list[Edit] | None,
               version: int) -> tuple[Document, Document]:
        """Replace or edit an open buffer; return (old, new)."""
        old = self._docs.get(path)
        if old is None:
            raise InputError(f"document {path} is not open")
        if (text is None) == (edits is None):
            raise InputError("change needs exactly one of text or edits")
        new_text = text if text is not None else apply_edits(old.text, edits or [])
        new = Document(path=path, text=new_text, language=old.language, version=version,
                       root=old.root)
        self._docs[path] = new
        return old, new

    def close(self, path: str) -> Document | None:
        self._owner.pop(path, None)
        self._used.pop(path, None)
        return self._docs.pop(path, None)

    def paths(self) -> list[str]:
        return list(self._docs)


def read_disk_text(path: str, *, max_bytes: int) -> str:
    """The file's text from disk (invalid UTF-8 replaced); InputError when missing, too large,
    binary or not a regular file (a FIFO or a device is never opened for a blocking read)."""
    try:
        data = read_source_bytes(path, max_bytes=max_bytes)
    except SkippedFile as exc:  # the indexer's "vanished" is, for a request, a missing file
        reason = "no such file" if exc.reason == "vanished" else exc.reason
        raise InputError(f"cannot read {exc.path}: {reason}") from None
    return data.decode("utf-8-sig", errors="replace")
