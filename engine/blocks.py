"""Blocks of code as a completion sees them: whether the cursor wants one line or several
(``decide_multiline``), whether a line opens a block, the block a multi-line completion is
written in (``BlockScope``) and where the completion leaves it (``block_end``), and the last
whole line of a completion stopped before its end (``whole_lines``). Pure; used before
generation (the request's line mode), by the stream filter and by post-processing."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.base import GenerationRequest
from engine.code_scan import CLOSERS, OPENERS, code_positions, open_state, strip_line_comment

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
    code = strip_line_comment(line, language).rstrip()
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
        if body and body[0] not in CLOSERS:
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
        if ch in OPENERS:
            stack.append(ch)
        elif ch in CLOSERS:
            if stack and stack[-1] == CLOSERS[ch]:
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
        depth += keyword_step(line, language)
        seen = seen or bool(line.strip())
        if strip_line_comment(line, language).strip():
            last_code = line
        if not seen:
            continue  # nothing before this break yet
        last_end = end
        if end - 1 in closed_at and depth <= 0 and not opens_block(last_code, language):
            whole = end
    cut = whole if whole is not None else last_end
    return text if cut is None else text[:cut]


def keyword_step(line: str, language: str) -> int:
    """Ruby: +1 for a line that opens a block (``def``, ``if``, ``do |x|``), -1 for its
    ``end``, 0 otherwise (``else`` and ``rescue`` go on with one); 0 for other languages
    (brackets close theirs)."""
    if language not in _KEYWORD_BLOCK:
        return 0
    body = strip_line_comment(line, language).strip()
    if _KEYWORD_CLOSER.match(body):
        return -1 if body.startswith("end") else 0
    if _BRACE_BLOCK.search(body):
        return 0  # ``items.map { |x|``: its ``}`` closes it, a bracket
    return 1 if opens_block(line, language) else 0
