"""The current file's parts around the cursor: anchored window, suffix, enclosing code, head.

Pure functions over the document's lines. Window boundaries are chosen so that they stay fixed
while the user types on the cursor line (design.md §7): the window starts at a line that snaps
to a multiple of ``anchor_lines`` and only moves in whole anchor steps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.errors import CursorError
from daemon.context.budget import count_within
from daemon.imports import is_spread_reexport
from daemon.symbols import Definition, DefKind, FileSummary
from engine.base import TokenCounter
from engine.blocks import indent_width


@dataclass(frozen=True, slots=True)
class CursorParts:
    lines: list[str]  # document lines with their "\n" (last one may lack it)
    line: int
    column: int
    line_prefix: str  # cursor line before the cursor
    line_suffix: str  # cursor line after the cursor, "\n" included when present


def split_at_cursor(text: str, line: int, column: int) -> CursorParts:
    """Split a document at the cursor; raise CursorError when the cursor is outside it."""
    # lines end at "\n" only, as in editors (LSP) and tree-sitter rows; "\r" stays in the line
    lines = [piece + "\n" for piece in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    if not 0 <= line < len(lines):
        raise CursorError(f"cursor line {line + 1} is outside the document ({len(lines)} lines)")
    content = lines[line].rstrip("\r\n")
    if not 0 <= column <= len(content):
        raise CursorError(
            f"cursor column {column + 1} is outside line {line + 1} ({len(content)} characters)"
        )
    return CursorParts(
        lines=lines,
        line=line,
        column=column,
        line_prefix=lines[line][:column],
        line_suffix=lines[line][column:],
    )


def window_start(
    parts: CursorParts,
    *,
    lines_before: int,
    anchor: int,
    allowance: int,
    counter: TokenCounter,
    reserve: int,
    spans_at: Callable[[int], list[tuple[int, int]]] | None = None,
    block_end: str = "",
) -> int:
    """First line of the cursor window: about ``lines_before`` up, snapped to ``anchor`` lines,
    moved down in anchor steps until the lines above the cursor fit ``allowance - reserve``.

    A start inside a multi-line string or comment, or inside a bracketed expression spanning
    lines (``spans_at`` of the line: those it continues, outermost first), would show their
    inside without the line that opens them: the model reads prose as code, closers without
    openers. The start moves up to the outermost one's first line when that fits, else down
    past the ones that end above the cursor; those that hold the cursor too are left to the
    window, which shows their first lines above its own (``CandidateBuilder.window``). A start
    on lines that only close brackets, or hold the language's ``block_end`` (Ruby's ``end``),
    moves down past them."""
    anchor = max(1, anchor)
    start = (max(0, parts.line - lines_before) // anchor) * anchor
    while start < parts.line:
        if _fits(parts, start, allowance - reserve, counter):
            break
        start = min(parts.line, start + anchor)
    if start == parts.line and anchor > 1:
        # not even the last anchor block fits (a small budget): as many whole lines as fit,
        # rather than none (they depend on the lines above only: stable while typing)
        while start > 0 and start > parts.line - anchor:
            if not _fits(parts, start - 1, allowance - reserve, counter):
                break
            start -= 1
    # a start on lines that only close what opened above it (``  }`` ending the method before,
    # Ruby's ``end``): closers without their openers, the model reads the nesting wrong
    while start < parts.line and _closes_only(parts.lines[start], block_end):
        start += 1
    spans = spans_at(start) if spans_at is not None and start < parts.line else []
    if spans and _fits(parts, spans[0][0], allowance - reserve, counter):
        return spans[0][0]
    return start


_CLOSERS = frozenset(")]};,")


def _closes_only(line: str, block_end: str) -> bool:
    """Whether ``line`` holds nothing but closing brackets (``});``) or ``block_end``."""
    text = line.strip()
    return bool(text) and (text == block_end or set(text) <= _CLOSERS)


def _fits(parts: CursorParts, start: int, limit: int, counter: TokenCounter) -> bool:
    return count_within(counter, "".join(parts.lines[start : parts.line]), limit) <= limit


def suffix_text(parts: CursorParts, max_lines: int) -> str:
    """The rest of the cursor line and up to ``max_lines`` following lines."""
    below = parts.lines[parts.line + 1 : parts.line + 1 + max(0, max_lines)]
    return parts.line_suffix + "".join(below)


def suffix_lines(parts: CursorParts, max_lines: int, cap: int, counter: TokenCounter) -> int:
    """How many lines after the cursor line the FIM suffix holds: up to ``max_lines`` while the
    suffix fits ``cap`` tokens (the rest of the cursor line is always in it). The choice depends
    on the suffix text only, so typing before it does not change it."""
    n = max(0, min(max_lines, len(parts.lines) - parts.line - 1))
    while n > 0 and count_within(counter, suffix_text(parts, n), cap) > cap:
        n -= 1
    return n


def suffix_cap(budget: int, share: float) -> int:
    """Tokens the FIM suffix may take of a ``budget``-token prompt."""
    return max(0, int(budget * share))


def enclosing_definitions(
    summary: FileSummary, line: int, lines: Sequence[str] = (), column: int | None = None
) -> list[Definition]:
    """Function/class definitions enclosing ``line``, outermost first (variables excluded).

    With the document's ``lines`` (and the cursor's ``column``), also the definitions the
    cursor continues by indentation: one that ends on the last non-blank line above ``line``
    and whose first line is indented less than the cursor. The stable parse leaves out the
    cursor line, so at the end of a Python body (the next statement of a function being
    written) the function ends above the cursor."""
    found = summary.definitions_at(line)
    if 0 <= line < len(lines):
        indent = indent_width(lines[line] if column is None else lines[line][:column])
        above = line - 1
        while above >= 0 and not lines[above].strip():
            above -= 1
        if indent > 0 and above >= 0:
            for d in summary.definitions_at(above):
                if d.end_line < line and indent_width(lines[d.start_line]) < indent:
                    found.append(d)
            found.sort(key=lambda d: (d.start_line, -d.end_line))
    return [d for d in found if d.kind is not DefKind.VARIABLE]


def head_end(summary: FileSummary, lines: list[str], *, max_lines: int = 40) -> int:
    """End (exclusive) of the file head: module doc, imports and the lines between them."""
    last = -1
    for imp in summary.imports:
        if imp.line < max_lines and not is_spread_reexport(imp):
            last = max(last, imp.line)
    end = last + 1
    # continuation lines of a multi-line import statement
    while (
        0 < end < len(lines)
        and end < max_lines
        and lines[end - 1].rstrip().endswith(("(", ",", "\\"))
    ):
        end += 1
    # finish the top-level statement the last import is in (try/except, if TYPE_CHECKING:)
    limit = min(len(lines), max_lines + 12)
    while 0 < end < limit and (
        lines[end][:1] in (" ", "\t", ")", "}", "]")
        or lines[end].startswith(("except", "else", "finally", "elif"))
    ):
        end += 1
    if end == 0:
        # no imports: keep a leading comment / docstring block
        for i, text in enumerate(lines[:max_lines]):
            if not text.strip():
                end = i
                break
            first_def = summary.definitions[0].start_line if summary.definitions else len(lines)
            if i >= first_def:
                end = i
                break
        else:
            end = min(len(lines), max_lines)
    span = summary.prose_span_at(end) if end < len(lines) else None
    if span is not None:  # never end inside the module docstring (a blank line in it)
        end = min(len(lines), span[1] + 1)
    return end
