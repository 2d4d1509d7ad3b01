"""Post-processing of finished completions: pure functions over text, ``postprocess`` and its
steps. Called by whoever turns a Finished event into a reply. The line mode and block rules are
in ``engine.blocks``, the scanner in ``engine.code_scan``, the streaming stop filter in
``engine.stream_filter``.

Nothing here knows about a particular model: model-specific clean-up is in ``engine.profiles``.
"""

from __future__ import annotations

import re

from engine.base import FinishReason
from engine.blocks import (
    block_end,
    block_scope,
    first_line,
    indent_width,
    keyword_step,
    mid_line,
    opens_block,
    whole_lines,
)
from engine.code_scan import (
    CLOSERS,
    OPENERS,
    code_chars,
    code_positions,
    line_comment_start,
    open_brackets,
    open_state,
)
from engine.profiles import ELISION

# why an engine stopped a completion before it ended: its last line may be cut mid-way
CUT_SHORT = frozenset({FinishReason.LENGTH, FinishReason.DEADLINE, FinishReason.REPETITION})
_MIN_REPEAT_LINE = 3  # identical non-blank lines in a row that count as degenerate repetition
_MIN_REPEAT_CHUNK = 6  # a short chunk repeated this often at the end is degenerate repetition
_MAX_REPEAT_CHUNK = 12  # longest such chunk
_MAX_PERIOD = 48  # longest chunk whose 3 copies at the end are degenerate repetition
_MIN_PERIODIC_COPIES = 3
_REPEATED_TAIL = re.compile(
    rf"(.{{1,{_MAX_REPEAT_CHUNK}}}?)\1{{{_MIN_REPEAT_CHUNK - 1},}}$", flags=re.DOTALL
)


def postprocess(
    completion: str,
    prefix: str,
    suffix: str,
    language: str,
    multiline: bool,
    *,
    cut_short: bool = False,
) -> str:
    """Clean a finished completion for display at the cursor; returns the text to insert.

    Steps, in order: drop indentation added at a block body the editor indented
    (``drop_extra_indent``); keep the first non-empty line when single-line; cut degenerate
    repetition; cut at an elision marker copied from a skeleton (``cut_elision``);
    end a multi-line completion where it leaves the cursor's block (``block_end``), or, when
    it had not and the engine stopped it before it ended (``cut_short``: the token cap, a
    deadline, degenerate repetition: ``CUT_SHORT``), at its last whole line (``whole_lines``);
    cut where the completion starts repeating the line below the cursor; drop closing brackets
    the suffix already has; drop a tail that repeats the rest of the cursor line; trim trailing
    whitespace. Returns "" when nothing useful is left.
    """
    text = drop_extra_indent(completion.replace("\r\n", "\n"), prefix, language)
    if not multiline:
        if mid_line(suffix) and text.lstrip(" \t").startswith("\n"):
            return ""  # the model ended the cursor's line; the text after the cursor goes on
        text = first_line(text)
    text = cut_repetition(text)
    text = cut_elision(text, prefix, suffix)
    if multiline:
        end = block_end(text, block_scope(prefix, language))
        if end is not None:
            text = text[:end]
        elif cut_short:
            text = whole_lines(text, language)
        text = cut_line_below(text, suffix, language)
    text = drop_suffix_closers(text, prefix, suffix, language)
    text = cut_suffix_overlap(text, suffix)
    text = text.rstrip() if not multiline else _rstrip_lines(text)
    return text if text.strip() else ""


def drop_extra_indent(text: str, prefix: str, language: str) -> str:
    """``text`` without the indentation it adds where the cursor starts a block's body.

    With the cursor on an otherwise blank line, indented deeper than the line above that opens
    a block (after Enter on ``if x:`` an editor puts it there), the body's indentation is
    already written; the prompt's trailing blanks are cut (``split_trailing_blanks``) and the
    model writes them again, sometimes a level too deep (4 of 80 block points of the stdlib
    eval: all four did not compile). The extra blanks are removed from the first line and from
    every later line that starts with them, so the completion keeps its own structure."""
    line = prefix.rsplit("\n", 1)[-1]
    if not line or line.strip(" \t"):
        return text
    opener = next((above for above in reversed(prefix.split("\n")[:-1]) if above.strip()), "")
    if not opens_block(opener, language) or indent_width(opener) >= indent_width(line):
        return text
    first = text.split("\n", 1)[0]
    lead = first[: len(first) - len(first.lstrip(" \t"))]
    if not lead or lead == first:
        return text
    lines = text.split("\n")
    rest = [ln[len(lead) :] if ln.startswith(lead) else ln for ln in lines[1:]]
    return "\n".join([lines[0][len(lead) :], *rest])


def cut_elision(text: str, prefix: str, suffix: str) -> str:
    """Cut a completion at an elision marker (``…``) copied from a skeleton in the prompt
    (clikt eval: ``source {`` came as ``source { … }``): on its first line at the marker,
    on a later line before that line (``fun f() = …`` is no code); unless the cursor's line
    has one itself (a string or a comment of the user's being typed). Only that line: the
    prompt's prefix has skeletons with the marker above the cursor window."""
    at = text.find(ELISION)
    cursor_line = prefix[prefix.rfind("\n") + 1 :] + suffix.split("\n", 1)[0]
    if at == -1 or ELISION in cursor_line:
        return text
    line_start = text.rfind("\n", 0, at)
    return text[:at].rstrip(" \t") if line_start == -1 else text[:line_start]


def cut_repetition(text: str) -> str:
    """Cut degenerate repetition: the 2nd.. copies of a line repeated 3+ times in a row, and a
    short chunk repeated 6+ times at the end (``)))))))``, ``a, a, a, a, a, a``)."""
    lines = text.split("\n")
    run = 1
    for i in range(1, len(lines)):
        if lines[i].strip() and lines[i] == lines[i - 1]:
            run += 1
            if run >= _MIN_REPEAT_LINE:
                return "\n".join(lines[: i - run + 2])
        else:
            run = 1
    # a repeated tail shows in the last 6 x 12 characters (a suffix of a periodic text is
    # periodic): look there first, the whole text (for where it starts) only on a hit
    tail = text[-_MAX_REPEAT_CHUNK * _MIN_REPEAT_CHUNK :]
    match = _REPEATED_TAIL.search(tail) and _REPEATED_TAIL.search(text)
    if match and match.group(1).strip():
        return _cut_end(text[: match.start() + len(match.group(1))])
    return _cut_periodic_tail(text)


def _cut_end(text: str) -> str:
    """Where repetition was cut: no separator left dangling (``import a, b, b, b, b`` ->
    ``import a, b``, not ``import a, b,``, a syntax error outside brackets)."""
    return text.rstrip().rstrip(",").rstrip()


def _cut_periodic_tail(text: str) -> str:
    """A longer chunk (13-48 characters) repeated 3+ times at the end, the last copy maybe
    cut short by the token limit (``) func(r chi.Route) func(r chi.Route) func(r chi.Ro``):
    the text up to the end of its first copy, ended at a word boundary; else ``text``."""
    n = len(text)
    for period in range(_MAX_REPEAT_CHUNK + 1, _MAX_PERIOD + 1):
        if n < _MIN_PERIODIC_COPIES * period:
            break
        if text[-1] != text[-1 - period]:  # cheap test first: most texts fail here
            continue
        tail = text[-_MIN_PERIODIC_COPIES * period :]
        if tail[period:] != tail[:-period] or not tail[:period].strip():
            continue
        start = n - _MIN_PERIODIC_COPIES * period
        while start > 0 and text[start - 1] == text[start - 1 + period]:
            start -= 1  # where the periodic run begins
        end = start + period
        if not text[end - 1].isspace():  # the first copy to the end of its last word
            while end < min(n, start + 2 * period) and not text[end].isspace():
                end += 1  # (``chi.Route)``, not ``chi.Ro``)
        return _cut_end(text[:end])
    return text


def cut_line_below(text: str, suffix: str, language: str = "") -> str:
    """Cut a multi-line completion at the first line that repeats the next non-blank suffix line.

    A lone closing bracket is only cut when the completion did not open a bracket that it
    closes, and a Ruby ``end`` only when the completion has no block of its own open.
    """
    below = _next_nonblank_line(suffix)
    if not below:
        return text
    lines = text.split("\n")
    depth = 0  # Ruby blocks the completion opened and has not ended
    for i, line in enumerate(lines):
        if i == 0 or line.strip() != below:
            depth += keyword_step(line, language)
            continue
        kept = "\n".join(lines[:i])
        if len(below) == 1 and below in CLOSERS and open_brackets(kept):
            continue
        if depth > 0 and keyword_step(below, language) < 0:
            depth -= 1  # its own block's end
            continue
        return kept
    return text


def _next_nonblank_line(suffix: str) -> str:
    rest = suffix.split("\n", 1)[1] if "\n" in suffix else ""
    for line in rest.split("\n"):
        if line.strip():
            return line.strip()
    return ""


def drop_suffix_closers(text: str, prefix: str, suffix: str, language: str = "") -> str:
    """Drop closing brackets that close a prefix bracket the suffix already closes.

    The completion may close brackets it opened itself, and prefix brackets the suffix leaves
    open, innermost first and each with its own kind (``f("u`` then ``serID"))``: the second
    ``)`` would close the function's ``{``); the first closer beyond that ends the completion.
    The suffix closes as many prefix brackets as it has closers its own openers do not match
    (``foo(a,`` then a line ``b)`` below: the completion must not close the call), see
    ``_closed_by``.
    """
    open_in_prefix, quote = open_state(prefix[-4000:], language)
    if quote:
        # inside a string at the cursor, or the scan began inside one (a prompt or the last
        # 4,000 characters starting in a docstring: its closing quotes read as an opening).
        # Brackets: those of the code after the last triple quote; closers: only the ones
        # the cursor line starts with (the suffix cannot be scanned from an unknown state)
        last = max(prefix.rfind('"""'), prefix.rfind("'''"))
        unsure = last != -1 and "\n" in prefix[last:]
        if unsure:
            open_in_prefix = open_brackets(prefix[prefix.index("\n", last) + 1 :], language)
        closed_by_suffix = len(_leading_closers(suffix.split("\n", 1)[0]))
        # the completion goes on inside the literal, unless that may be a misread docstring
        lead = "" if unsure and quote in ('"""', "'''") else quote
        if lead.startswith("<<"):
            lead += "\n"  # a heredoc's body starts on the line below its opener
    else:
        closed_by_suffix = _closed_by(suffix, open_in_prefix, language)
        line = prefix[prefix.rfind("\n") + 1 :]
        comment = line_comment_start(line, language)
        lead = "" if comment is None else line[comment:]  # the cursor is in a line comment
    allowed = max(0, len(open_in_prefix) - closed_by_suffix)
    stack: list[str] = []
    outer = 0
    for i, ch in code_positions(lead + text, language):
        if ch in OPENERS:
            stack.append(ch)
        elif ch in CLOSERS:
            if stack and stack[-1] == CLOSERS[ch]:
                stack.pop()
            else:  # closes a prefix bracket: the innermost one still open, of its kind
                outer += 1
                if outer > allowed or open_in_prefix[-outer] != CLOSERS[ch]:
                    return text[: i - len(lead)]
    return text


def cut_suffix_overlap(text: str, suffix: str) -> str:
    """Drop a tail of the completion's last line that repeats the rest of the cursor line (all
    of it when that is the whole completion: ``;`` before the ``;`` of ``int n = 0█;``)."""
    rest = suffix.split("\n", 1)[0].strip()
    if not rest:
        return text
    stripped = text.rstrip()
    if stripped.endswith(rest):
        return stripped[: -len(rest)]
    return text


def _closed_by(text: str, open_before: list[str], language: str = "") -> int:
    """How many of the brackets ``open_before`` (outermost first) ``text`` closes: each closer
    it has beyond its own openers closes the innermost still open bracket of its kind; a
    closer of a kind not open (the prompt starts inside a bracket) is not counted."""
    still_open = list(open_before)
    depth = 0
    closed = 0
    for ch in code_chars(text, language):
        if ch in OPENERS:
            depth += 1
        elif ch in CLOSERS:
            if depth:
                depth -= 1
                continue
            opener = CLOSERS[ch]
            for k in range(len(still_open) - 1, -1, -1):
                if still_open[k] == opener:
                    del still_open[k]
                    closed += 1
                    break
    return closed


def _leading_closers(line: str) -> str:
    out = []
    for ch in line.strip():
        if ch in CLOSERS:
            out.append(ch)
        elif ch in " \t":
            continue
        else:
            break
    return "".join(out)


def _rstrip_lines(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.rstrip().split("\n"))
