"""A rough scanner of source text: where code is, outside string literals and comments, per
language (``engine.profiles``' string syntax and comment leaders), and what a text leaves open
(brackets, a string literal). Pure; used by post-processing, the block rules, the stream filter
and the daemon's parsers and context."""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine.profiles import StringSyntax, comment_leaders, string_syntax

OPENERS = {"(": ")", "[": "]", "{": "}"}
CLOSERS = {v: k for k, v in OPENERS.items()}
# ``/* … */`` comments (none crossing another's ``*/``) at the end of a line
_TRAILING_BLOCK_COMMENTS = re.compile(r"(?:\s*/\*(?:(?!\*/).)*\*/)+\s*$")


def open_brackets(text: str, language: str = "") -> list[str]:
    """Brackets left open at the end of ``text`` (strings and comments skipped roughly)."""
    return open_state(text, language)[0]


def open_state(text: str, language: str = "") -> tuple[list[str], str]:
    """What ``text`` leaves open at its end: the open brackets (outermost first) and the quote
    of a string literal still open ("" when none). ``language``'s strings and line comments
    (unknown: every common quote, ``#`` and ``//``) are skipped roughly."""
    stack: list[str] = []
    quote: list[str] = []
    for ch in code_chars(text, language, quote):
        if ch in OPENERS:
            stack.append(ch)
        elif ch in CLOSERS and stack and stack[-1] == CLOSERS[ch]:
            stack.pop()
    return stack, quote[0] if quote else ""


def code_chars(text: str, language: str, open_quote: list[str] | None = None) -> Iterator[str]:
    """Characters of ``language`` code outside string literals and comments; ``open_quote``
    gets the opening quote of a literal still open at the end."""
    return (ch for _, ch in code_positions(text, language, open_quote))


def code_positions(
    text: str, language: str, open_quote: list[str] | None = None
) -> Iterator[tuple[int, str]]:
    """(position, character) of ``language`` code outside string literals and comments: the
    scan ``open_state`` makes, for callers that need where a bracket or a blank is."""
    scan = _scan(text, comment_leaders(language), string_syntax(language), open_quote)
    return ((i, ch) for i, ch in scan if ch)


def without_comments(text: str, language: str) -> str:
    """``text`` with the comments of ``language`` blanked (line breaks kept; string literals
    kept: ``getattr(x, "name")`` names something, ``# returns the body`` does not)."""
    kept = [" " if ch != "\n" else ch for ch in text]
    scan = _scan(text, comment_leaders(language), string_syntax(language), strings_too=True)
    for i, ch in scan:
        if ch:
            kept[i] = ch
    return "".join(kept)


def line_comment_start(line: str, language: str) -> int | None:
    """Where a line comment of ``language`` starts in ``line``, outside string literals; None
    when there is none."""
    scan = _scan(line, comment_leaders(language), string_syntax(language))
    return next((i for i, ch in scan if not ch), None)


def strip_line_comment(line: str, language: str) -> str:
    """``line`` without its comment: a line comment, and where ``//`` is one, the ``/* … */``
    block comments ending the line (``int f(void) { /* entry */``: the ``{`` opens a block)."""
    leaders = comment_leaders(language)
    start = line_comment_start(line, language) if any(m in line for m in leaders) else None
    code = line if start is None else line[:start]
    if "//" in leaders and code.rstrip().endswith("*/"):
        code = _TRAILING_BLOCK_COMMENTS.sub("", code)
    return code


def _char_literal_end(text: str, i: int, quote: str) -> int:
    """The end of a one-character literal starting at ``i`` (``'x'``, ``'\\n'``, ``'\\u{1F600}'``),
    or -1 when the quote there is not one (a Rust lifetime, a Haskell prime)."""
    j = i + len(quote)
    if text.startswith("\\", j):
        k = text.find(quote, j + 2, j + 12)
        return -1 if k == -1 or "\n" in text[j:k] else k + len(quote)
    if j < len(text) and text[j] != "\n" and text.startswith(quote, j + 1):
        return j + 1 + len(quote)
    return -1


def _scan(
    text: str,
    comments: tuple[str, ...],
    strings: StringSyntax,
    open_quote: list[str] | None = None,
    strings_too: bool = False,
) -> Iterator[tuple[int, str]]:
    """(position, character) of each character outside string literals (``strings``), line
    comments (``comments``: their leaders) and, where ``//`` is a comment leader, ``/* */``
    block comments; (position, "") where a line comment starts. ``strings_too``: the
    characters inside string literals as well (not their quotes, escapes or heredoc bodies)."""
    firsts = {start[0] for start, _ in strings.delimiters}
    opening = closing = ""
    heredocs: list[tuple[str, str]] = []  # opened on this line: (opener, terminator)
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\n" and heredocs and not closing:
            yield i, ch
            i = _heredocs_end(text, i + 1, [end for _, end in heredocs])
            if i == -1:  # the text ends inside one
                if open_quote is not None:
                    open_quote.append(heredocs[0][0])
                return
            heredocs = []
            continue
        if ch == "<" and strings.heredoc is not None and not closing:
            found = strings.heredoc.match(text, i)
            if found is not None and not _in_arithmetic(text, i):
                heredocs.append((found.group(0), found.group("id")))
                i = found.end()
                continue
        if closing:
            if ch == "\\" and opening not in strings.raw:
                i += 2
            elif text.startswith(closing, i):
                i += len(closing)
                opening = closing = ""
            else:
                if ch == "\n" and opening not in strings.multiline:
                    opening = closing = ""
                elif strings_too:
                    yield i, ch
                i += 1
            continue
        pair = (
            next((p for p in strings.delimiters if text.startswith(p[0], i)), None)
            if ch in firsts
            else None
        )
        if pair is not None and pair[0] != strings.char_only:
            opening, closing = pair
            i += len(opening)
            continue
        if pair is not None:
            after = _char_literal_end(text, i, pair[0])
            if after != -1:
                i = after
                continue
            # not a literal: code (a Rust lifetime, a Haskell prime)
        elif text.startswith(comments, i) and not (
            ch == "#" and "//" in comments and text.startswith("#[", i)  # a PHP attribute
        ):
            yield i, ""
            j = text.find("\n", i)
            i = n if j == -1 else j
            continue
        elif ch == "/" and "//" in comments and text.startswith("/*", i):  # C-family block
            j = text.find("*/", i + 2)
            i = n if j == -1 else j + 2
            continue
        yield i, ch
        i += 1
    if closing and open_quote is not None:
        open_quote.append(opening)


def _in_arithmetic(text: str, i: int) -> bool:
    """Whether ``i`` is inside a ``((`` opened earlier on its line (shell arithmetic
    ``$((x << n))``: a shift there, no heredoc)."""
    line = text[text.rfind("\n", 0, i) + 1 : i]
    return line.count("((") > line.count("))")


def _heredocs_end(text: str, start: int, terminators: list[str]) -> int:
    """Where the code goes on after heredoc bodies starting at ``start``, one after another,
    each up to the line holding its terminator (indented, and followed by nothing or by ``;``,
    ``,``, ``)``, ``]`` or ``.``): right after the last terminator; -1 when the text ends
    inside a body."""
    pos = start
    for terminator in terminators:
        while True:
            end = text.find("\n", pos)
            line = text[pos:] if end == -1 else text[pos:end]
            body = line.lstrip(" \t")
            rest = body[len(terminator):].strip()
            if body.startswith(terminator) and (not rest or rest[0] in ";,)]."):
                pos += len(line) - len(body) + len(terminator)
                break
            if end == -1:
                return -1
            pos = end + 1
    return pos
