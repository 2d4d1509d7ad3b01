"""Pure text helpers of the language server: LSP positions to daemon positions, the document
mirror that turns ``didChange`` content changes into daemon edits, and the word before the cursor.

LSP columns count UTF-16 code units unless the client and server agreed on ``utf-8`` or
``utf-32`` at ``initialize``; the daemon counts Unicode code points (docs/protocol.md,
invariant 6). Everything here takes data and returns data; ``server.py`` does the I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Encoding = Literal["utf-8", "utf-16", "utf-32"]


def split_lines(text: str) -> list[str]:
    """Lines as the daemon counts them: split at ``\\n``; a ``\\r`` before it stays in the line."""
    return text.split("\n")


def _units(char: str, encoding: Encoding) -> int:
    if encoding == "utf-32":
        return 1
    code = ord(char)
    if encoding == "utf-16":
        return 2 if code > 0xFFFF else 1
    return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4


def to_code_points(line: str, col: int, encoding: Encoding) -> int:
    """The code-point column of ``col`` client units into ``line`` (clamped to the line end;
    a column inside a multi-unit character points at that character)."""
    if encoding == "utf-32":
        return min(col, len(line))
    units = 0
    for index, char in enumerate(line):
        if units >= col:
            return index
        units += _units(char, encoding)
        if units > col:
            return index
    return len(line)


def to_client_units(line: str, col: int, encoding: Encoding) -> int:
    """The client column (in ``encoding`` units) of code-point column ``col`` of ``line``."""
    return sum(_units(char, encoding) for char in line[:col])


@dataclass(frozen=True, slots=True)
class Edit:
    """One daemon edit: replace [start, end) (0-based lines, code-point columns) by ``text``."""

    start_line: int  # first replaced line
    start_col: int  # code-point column in start_line
    end_line: int  # line of the first character after the replaced span
    end_col: int  # code-point column in end_line
    text: str  # replacement ("" deletes)


def apply_change(text: str, start: tuple[int, int], end: tuple[int, int], new_text: str,
                 encoding: Encoding) -> tuple[str, Edit]:
    """Apply one ranged LSP content change to ``text``; return the new text and the same change
    as a daemon edit. ``start``/``end`` are (line, column in client units); positions past the
    end of the document are clamped to it, as the LSP specification asks."""
    lines = split_lines(text)
    (start_line, start_col), (end_line, end_col) = (
        _clamp(lines, pos, encoding) for pos in (start, end))
    if (end_line, end_col) < (start_line, start_col):
        (start_line, start_col), (end_line, end_col) = (end_line, end_col), (start_line, start_col)
    begin = _offset(lines, start_line, start_col)
    stop = _offset(lines, end_line, end_col)
    edit = Edit(start_line, start_col, end_line, end_col, new_text)
    return text[:begin] + new_text + text[stop:], edit


def _clamp(lines: list[str], pos: tuple[int, int], encoding: Encoding) -> tuple[int, int]:
    line, col = pos
    if line >= len(lines):
        return len(lines) - 1, len(lines[-1])
    return line, to_code_points(lines[line], col, encoding)


def _offset(lines: list[str], line: int, col: int) -> int:
    return sum(len(lines[i]) + 1 for i in range(line)) + col


def word_start(line: str, col: int) -> int:
    """Column where the identifier that ends at ``col`` starts (``col`` itself when none does).

    Completion clients filter items by the text between an edit's start and the cursor, so the
    classic completion item replaces that word with the word plus the completion."""
    start = col
    while start > 0 and (line[start - 1].isalnum() or line[start - 1] == "_"):
        start -= 1
    return start


def first_line(text: str, *, max_chars: int = 60) -> str:
    """A one-line label for a completion: its first non-empty line, shortened."""
    for raw in text.split("\n"):
        if raw.strip():
            label = raw.strip()
            return label if len(label) <= max_chars else label[: max_chars - 1] + "…"
    return text.strip() or "(empty)"


__all__ = [
    "Edit",
    "Encoding",
    "apply_change",
    "first_line",
    "split_lines",
    "to_client_units",
    "to_code_points",
    "word_start",
]
