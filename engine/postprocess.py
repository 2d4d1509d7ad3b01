"""Post-processing of completions: pure functions over text, plus a streaming stop filter.

Called after generation (``postprocess``) by whoever turns a Finished event into a reply, and
before it (``decide_multiline``) to set ``GenerationRequest.single_line``. ``StreamFilter`` is used
by the backends while tokens arrive: it applies stop strings, the single-line rule and the
degenerate-repetition rule, holding back only the text that could still become a stop string.

Nothing here knows about a particular model: model-specific clean-up is in ``engine.profiles``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from engine.base import FinishReason, GenerationRequest
from engine.profiles import ELISION, StringSyntax, comment_leaders, string_syntax

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {v: k for k, v in _OPENERS.items()}
# why an engine stopped a completion before it ended: its last line may be cut mid-way
CUT_SHORT = frozenset({FinishReason.LENGTH, FinishReason.DEADLINE, FinishReason.REPETITION})
# Line endings after which a new block starts, per language family.
_COLON_BLOCK = {"python"}
# Languages whose blocks end with the keyword ``end`` (Ruby): a line opens one when it starts
# with a block keyword (``def total``, ``if ready?``, ``result = case kind``; not ``def x = 1``
# nor a one-line ``def reset; end``) or ends with ``do``, ``do |x|``, ``{ |x|``
_KEYWORD_BLOCK = {"ruby"}
_KEYWORD_OPENS = re.compile(
    r"^\s*(?:\w+\s*=\s*)?(?:def|class|module|if|unless|while|until|case|begin|for|else|elsif|"
    r"when|in|rescue|ensure)\b"
)
_ENDLESS_DEF = re.compile(r"^\s*def\s+[^=(\s]+(?:\s*\([^)]*\))?\s*=[^=~>]")
_DO_BLOCK = re.compile(r"(?:\bdo|\{)\s*(?:\|[^|]*\|)?$")
# a switch's case label (C family, Go, Swift, PHP): its statements come on the lines below
_NO_CASE_LABELS = frozenset({"kotlin", "rust", "lua", "haskell", "sql", "yaml", "toml"})
_CASE_LABEL = re.compile(r"^\s*(?:case\b.*|default\s*):$")
# a closure's parameters ending the line after its ``{`` (Swift ``{ acc, item in``, Kotlin
# ``{ item ->``): the body comes on the lines below, as after a ``{``
_CLOSURE_HEAD: dict[str, re.Pattern[str]] = {
    "swift": re.compile(r"\{[^{}\"]*\bin$"),
    "kotlin": re.compile(r"\{[^{}\"]*->$"),
}
_BRACE_BLOCK = re.compile(r"\{\s*(?:\|[^|]*\|)?$")
_ONE_LINE_END = re.compile(r"[;\s]end$")
# a line at the block's column that ends the block (``end``) or goes on with it (``else``)
_KEYWORD_CLOSER = re.compile(r"^(?:end|else|elsif|when|in|rescue|ensure)\b")
_MIN_REPEAT_LINE = 3  # identical non-blank lines in a row that count as degenerate repetition
_MIN_REPEAT_CHUNK = 6  # a short chunk repeated this often at the end is degenerate repetition
_MAX_REPEAT_CHUNK = 12  # longest such chunk
_MAX_PERIOD = 48  # longest chunk whose 3 copies at the end are degenerate repetition
_MIN_PERIODIC_COPIES = 3
# ``/* … */`` comments (none crossing another's ``*/``) at the end of a line
_TRAILING_BLOCK_COMMENTS = re.compile(r"(?:\s*/\*(?:(?!\*/).)*\*/)+\s*$")
_REPEATED_TAIL = re.compile(
    rf"(.{{1,{_MAX_REPEAT_CHUNK}}}?)\1{{{_MIN_REPEAT_CHUNK - 1},}}$", flags=re.DOTALL
)


# --- single-line or multi-line ---------------------------------------------------------------


def decide_multiline(prefix: str, suffix: str, language: str) -> bool:
    """Decide from the text at the cursor whether a multi-line completion is wanted.

    Mid-line (code after the cursor on its line, other than closing brackets or quotes): single
    line. At the end of a line that opens a block (``:`` in Python, ``{`` elsewhere), or on a
    blank line right below one, or at the start of a blank line: multi-line. Otherwise (typing
    a statement) single line. Called before a request is sent to the engine.
    """
    line_before = prefix.rsplit("\n", 1)[-1]
    if mid_line(suffix):
        return False
    if line_before.strip() == "":
        return True
    return opens_block(line_before, language)


def mid_line(suffix: str) -> bool:
    """Code after the cursor on its line, other than closing brackets, quotes, ``;`` and ``,``:
    a completion there ends with the line (a line break first adds nothing)."""
    return bool(suffix.split("\n", 1)[0].strip().strip(")]}'\"`;,"))


def opens_block(line: str, language: str) -> bool:
    """Whether ``line`` opens a block of ``language`` (``:`` in Python, ``{`` in the brace
    languages and a closure's parameters after it, Swift ``{ x in``, Kotlin ``{ x ->``, and
    a switch's ``case x:`` / ``default:``; ``def``/``if``/``do |x|`` in Ruby); its comment
    aside."""
    code = _strip_line_comment(line, language).rstrip()
    if not code:
        return False
    if language in _COLON_BLOCK:
        return code.endswith(":") or (code.endswith('"""') and code.count('"""') % 2 == 1)
    if language in _KEYWORD_BLOCK:
        if _DO_BLOCK.search(code):
            return True
        head = code.split(";", 1)[0]
        return (
            bool(_KEYWORD_OPENS.match(head))
            and not _ENDLESS_DEF.match(head)
            and not _ONE_LINE_END.search(code)
        )
    closure = _CLOSURE_HEAD.get(language)
    return (
        code.endswith("{")
        or (closure is not None and closure.search(code) is not None)
        or (language not in _NO_CASE_LABELS and _CASE_LABEL.match(code) is not None)
    )


def _strip_line_comment(line: str, language: str) -> str:
    """``line`` without its comment: a line comment, and where ``//`` is one, the ``/* … */``
    block comments ending the line (``int f(void) { /* entry */``: the ``{`` opens a block)."""
    leaders = comment_leaders(language)
    start = line_comment_start(line, language) if any(m in line for m in leaders) else None
    code = line if start is None else line[:start]
    if "//" in leaders and code.rstrip().endswith("*/"):
        code = _TRAILING_BLOCK_COMMENTS.sub("", code)
    return code


# --- the post-processing pipeline ------------------------------------------------------------


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


def indent_width(line: str) -> int:
    """Columns of a line's indentation (tabs to 8)."""
    return len(line[: len(line) - len(line.lstrip(" \t"))].expandtabs(8))


def first_line(text: str) -> str:
    """Text up to the end of the first non-empty line (leading newlines and indent kept)."""
    seen = False
    for i, ch in enumerate(text):
        if ch == "\n" and seen:
            return text[:i]
        if not ch.isspace():
            seen = True
    return text


@dataclass(frozen=True, slots=True)
class BlockScope:
    """The block a multi-line completion is written in, seen from the cursor line."""

    indent: int  # indentation (characters) of the cursor line
    opens: bool  # the cursor line opens a block (``def f():|``): its body is deeper
    language: str = ""  # for the comments a bracket scan skips ("": # and //)


def block_scope(prefix: str, language: str) -> BlockScope:
    """The cursor line's indentation and whether the text on it before the cursor opens a block."""
    line = prefix.rsplit("\n", 1)[-1]
    body = line.lstrip(" \t")
    opens = bool(body.strip()) and opens_block(line, language)
    return BlockScope(len(line) - len(body), opens, language)


def request_block(request: GenerationRequest) -> BlockScope | None:
    """The block a multi-line FIM request's completion should stay in; None otherwise."""
    if request.single_line or request.prompt is None:
        return None
    return block_scope(request.prompt.prefix, request.prompt.language)


def block_end(text: str, scope: BlockScope, resume: int = 0) -> int | None:
    """Where a multi-line completion leaves the cursor's block: the start of its first later line
    indented less than the cursor line (or no deeper than it when that line opens a block),
    outside brackets and strings the completion opened, and not starting with a closing bracket
    (which closes something opened above). None when no line does so (yet: a line counts once
    its first non-blank character has arrived). Good tools stop there: the rest of the file is
    what the user writes next, and in the stdlib eval 37 of 80 block completions that ran into
    the next definition did not compile once cut to the block's length.

    ``resume``: the lines starting before it were judged by an earlier call on a shorter text
    (a stream passes where its text ended then: the scan is linear over a stream, not
    quadratic); it must not be past the start of a line that has not ended."""
    pos = text.rfind("\n", 0, resume) if resume else -1
    if pos == -1:
        pos = text.find("\n")
    while pos != -1:
        start = pos + 1
        nxt = text.find("\n", start)
        line = text[start:] if nxt == -1 else text[start:nxt]
        body = line.lstrip(" \t")
        if body and body[0] not in _CLOSERS:
            indent = len(line) - len(body)
            if (
                scope.opens
                and indent == scope.indent
                and scope.language in _KEYWORD_BLOCK
                and _KEYWORD_CLOSER.match(body)
            ):
                pos = nxt  # Ruby: the ``end`` (or ``else``) of the block the cursor line opens
                continue
            if indent < scope.indent or (scope.opens and indent <= scope.indent):
                brackets, quote = open_state(text[:start], scope.language)
                if not brackets and not quote:
                    return start
        pos = nxt
    return None


def whole_lines(text: str, language: str) -> str:
    """A multi-line completion the engine stopped before it ended, cut at its last whole line.

    The last line is cut off when a line ended before it (the next token might have gone on
    with it: ``result.append(fo``), and so are the lines after the last line end that leaves
    nothing the completion opened unfinished: no bracket or string literal open, and not a
    line opening a block whose body did not come (``for item in items:``, ``if (ok) {``, a
    Ruby block without its ``end``). When no line end does that, the text up to the last line
    end; a text of one line is kept as it is (the user may take it word by word). One scan.
    """
    closed_at: set[int] = set()  # line breaks in code with no bracket open
    stack: list[str] = []
    for i, ch in code_positions(text, language):  # breaks inside a string are not listed
        if ch in _OPENERS:
            stack.append(ch)
        elif ch in _CLOSERS:
            if stack and stack[-1] == _CLOSERS[ch]:
                stack.pop()
        elif ch == "\n" and not stack:
            closed_at.add(i)
    whole = last_end = None
    seen = False  # a non-blank line so far
    last_code = ""  # the last line with code (a comment is no block's body)
    depth = 0  # Ruby blocks open
    pos = 0
    for line in text.split("\n")[:-1]:  # the lines that ended
        end = pos + len(line) + 1
        pos = end
        depth += _keyword_step(line, language)
        seen = seen or bool(line.strip())
        if _strip_line_comment(line, language).strip():
            last_code = line
        if not seen:
            continue  # nothing before this break yet
        last_end = end
        if end - 1 in closed_at and depth <= 0 and not opens_block(last_code, language):
            whole = end
    cut = whole if whole is not None else last_end
    return text if cut is None else text[:cut]


def _keyword_step(line: str, language: str) -> int:
    """Ruby: +1 for a line that opens a block (``def``, ``if``, ``do |x|``), -1 for its
    ``end``, 0 otherwise (``else`` and ``rescue`` go on with one); 0 for other languages
    (brackets close theirs)."""
    if language not in _KEYWORD_BLOCK:
        return 0
    body = _strip_line_comment(line, language).strip()
    if _KEYWORD_CLOSER.match(body):
        return -1 if body.startswith("end") else 0
    if _BRACE_BLOCK.search(body):
        return 0  # ``items.map { |x|``: its ``}`` closes it, a bracket
    return 1 if opens_block(line, language) else 0


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
            depth += _keyword_step(line, language)
            continue
        kept = "\n".join(lines[:i])
        if len(below) == 1 and below in _CLOSERS and _open_brackets(kept):
            continue
        if depth > 0 and _keyword_step(below, language) < 0:
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
            open_in_prefix = _open_brackets(prefix[prefix.index("\n", last) + 1 :], language)
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
    scan = _scan(lead + text, comment_leaders(language), string_syntax(language))
    for i, ch in scan:
        if ch in _OPENERS:
            stack.append(ch)
        elif ch in _CLOSERS:
            if stack and stack[-1] == _CLOSERS[ch]:
                stack.pop()
            else:  # closes a prefix bracket: the innermost one still open, of its kind
                outer += 1
                if outer > allowed or open_in_prefix[-outer] != _CLOSERS[ch]:
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


def _open_brackets(text: str, language: str = "") -> list[str]:
    """Brackets left open at the end of ``text`` (strings and comments skipped roughly)."""
    return open_state(text, language)[0]


def open_state(text: str, language: str = "") -> tuple[list[str], str]:
    """What ``text`` leaves open at its end: the open brackets (outermost first) and the quote
    of a string literal still open ("" when none). ``language``'s strings and line comments
    (unknown: every common quote, ``#`` and ``//``) are skipped roughly."""
    stack: list[str] = []
    quote: list[str] = []
    for ch in _code_chars(text, language, quote):
        if ch in _OPENERS:
            stack.append(ch)
        elif ch in _CLOSERS and stack and stack[-1] == _CLOSERS[ch]:
            stack.pop()
    return stack, quote[0] if quote else ""


def _code_chars(text: str, language: str, open_quote: list[str] | None = None) -> Iterator[str]:
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


def _closed_by(text: str, open_before: list[str], language: str = "") -> int:
    """How many of the brackets ``open_before`` (outermost first) ``text`` closes: each closer
    it has beyond its own openers closes the innermost still open bracket of its kind; a
    closer of a kind not open (the prompt starts inside a bracket) is not counted."""
    still_open = list(open_before)
    depth = 0
    closed = 0
    for ch in _code_chars(text, language):
        if ch in _OPENERS:
            depth += 1
        elif ch in _CLOSERS:
            if depth:
                depth -= 1
                continue
            opener = _CLOSERS[ch]
            for k in range(len(still_open) - 1, -1, -1):
                if still_open[k] == opener:
                    del still_open[k]
                    closed += 1
                    break
    return closed


def _leading_closers(line: str) -> str:
    out = []
    for ch in line.strip():
        if ch in _CLOSERS:
            out.append(ch)
        elif ch in " \t":
            continue
        else:
            break
    return "".join(out)


def _rstrip_lines(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.rstrip().split("\n"))


# --- prompt healing --------------------------------------------------------------------------


def split_trailing_blanks(prefix: str) -> tuple[str, str]:
    """Split spaces/tabs off the end of the prefix: (prefix without them, the blanks).

    Called by backends before rendering: BPE vocabularies fold a space into the next word's
    token, so a prompt ending in a lone space token leads models astray (Qwen2.5-Coder wrote a
    wrong line after ``return ``, the right one after ``return``). The model writes the blanks
    itself; ``heal_start`` removes them from its output.
    """
    cut = prefix.rstrip(" \t")
    return cut, prefix[len(cut) :]


def heal_start(text: str, heal: str) -> tuple[str, str]:
    """Drop from the start of ``text`` the blanks still expected in ``heal``.

    Returns (text to keep, blanks still expected); stops expecting at the first character that
    is not the expected blank. Called per streamed piece until it returns an empty ``heal``.
    """
    i = 0
    while i < len(text) and i < len(heal) and text[i] == heal[i]:
        i += 1
    if i == len(text):
        return "", heal[i:]
    return text[i:], ""


# --- streaming -------------------------------------------------------------------------------


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
