"""Signatures as one skeleton line: a definition's head, a declaration's line, brackets and
strings left open closed behind an elision."""

from __future__ import annotations

import functools
import re

import tree_sitter

from daemon.languages import LanguageSpec, comment_leader
from daemon.nodes import node_text as _text
from daemon.nodes import one_line as _one_line
from daemon.parse_names import Declared, element_name, path_name
from engine.code_scan import code_positions, line_comment_start, open_state

_MEMBER_END = re.compile(r"[\w)\]>'\"`?]$")  # a line that ends a member of an object type
_MEMBER_START = re.compile(r"^[\w'\"\[]")  # a line that starts the next one
_MEMBER_LANGUAGES = frozenset({"typescript", "tsx", "go"})  # members end with a line break
_MEMBER_SCAN_CHARS = 4000  # lines past this are cut from the signature (400 characters) anyway
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
_DIRECTIVE_LANGUAGES = frozenset({"c", "cpp", "csharp"})
_DIRECTIVE = re.compile(r"#\s*(if|ifdef|ifndef|elif|else|endif|region|endregion|pragma|nullable)\b")


def without_inner_comments(text: str, language: str) -> str:
    """A signature written over several lines, ready to be put on one: without the line
    comments that end its lines but the last (``class Context< // eslint-disable…`` or
    ``def f(a,  # first`` would comment out the rest of it) and without the block comments
    on lines of their own (``/** Transport protocol type */`` inside a TypeScript type); in
    TypeScript and Go, members of an object type that end at a line break end with ``;`` (on
    one line ``{ ctx: Context error: string }`` is no type). Preprocessor lines inside it (C#
    ``class Logger : ILogger\n#if FEATURE_X\n    , IAsyncDisposable\n#endif``) are left
    out, and so are the lines of an ``#else``/``#elif`` branch: one line holds one variant."""
    lines = text.split("\n")
    block_comments = comment_leader(language) == "//"
    directives = language in _DIRECTIVE_LANGUAGES
    kept: list[str] = []
    in_comment = False
    other_branch: int | None = None  # depth of the #if whose #else/#elif branch is skipped
    depth = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        directive = _DIRECTIVE.match(stripped) if i and directives else None
        if directive is not None:
            word = directive.group(1)
            if word in ("if", "ifdef", "ifndef"):
                depth += 1
            elif word in ("elif", "else") and other_branch is None:
                other_branch = depth  # 0: an #if opened before the signature began
            elif word == "endif":
                if other_branch == depth:
                    other_branch = None
                depth = max(0, depth - 1)
            continue
        if other_branch is not None:
            continue
        if i and block_comments and (in_comment or stripped.startswith("/*")):
            in_comment = "*/" not in stripped
            rest = stripped.partition("*/")[2].strip()
            if not rest:
                continue
            line = rest
        if i < len(lines) - 1:
            cut = line_comment_start(line, language)
            if cut is not None:
                line = line[:cut]
        if i and not line.strip():
            continue  # a blank line inside: nothing to keep, and no member between
        kept.append(line)
    if language in _MEMBER_LANGUAGES and len(kept) > 1:
        joined = "\n".join(kept)[:_MEMBER_SCAN_CHARS]  # the signature is cut at 400 anyway
        row_at = {i: row for row, i in enumerate(m.start() for m in re.finditer("\n", joined))}
        stack: list[str] = []
        for i, ch in code_positions(joined, language):
            if ch in _CLOSERS:  # an opener (the map is opener -> closer)
                stack.append(ch)
            elif stack and ch == _CLOSERS[stack[-1]]:
                stack.pop()
            elif ch == "\n" and stack[-1:] == ["{"]:  # a line break inside an object type
                row = row_at[i]
                here, following = kept[row].rstrip(), kept[row + 1].lstrip()
                if _MEMBER_END.search(here) and _MEMBER_START.match(following):
                    kept[row] = here + ";"
    return "\n".join(kept)


def declared_return_type(
    node: tree_sitter.Node, type_node: tree_sitter.Node, declared: Declared, data: bytes
) -> str:
    """A C-style function's return type: its type with the qualifiers before it and the
    declarator around the function's own (``char **``, ``void (*)(int)``), or the trailing
    return type (``auto f() -> int``)."""
    function = declared.function
    assert function is not None
    for child in function.named_children:
        if child.type == "trailing_return_type":
            return _one_line(_text(data, child).removeprefix("->"))
    start = type_node.start_byte
    for child in node.named_children:  # ``const char *name(void)``
        if child.start_byte >= start:
            break
        if child.type == "type_qualifier":
            start = child.start_byte
    before = data[start : function.start_byte]
    after = data[function.end_byte : declared.outer.end_byte]
    return _one_line((before + after).decode("utf-8", "replace"))


def keyword_block_head(
    spec: LanguageSpec, node: tree_sitter.Node, body: tree_sitter.Node | None, start: int,
    data: bytes,
) -> str:
    """The head of a block ended by a keyword (``LanguageSpec.block_end``, Ruby ``def f(x)``,
    ``class A < B``): up to the last child before the body that is no comment (the comments
    above the body's first statement are its doc) and no ``;`` or ``end``."""
    end = start
    for child in node.children:
        if body is not None and child.start_byte >= body.start_byte:
            break
        if child.type in ("comment", ";", "=", spec.block_end):  # ``def total = items.sum``
            continue
        end = child.end_byte
    return data[start:end].decode("utf-8", "replace")


def accessors_line(
    node: tree_sitter.Node, accessors: tree_sitter.Node, start: int, data: bytes
) -> str:
    """A C# property whose accessors span lines as one line, the accessors' bodies left out:
    ``public string Name { get; private set; }`` (what can be read and set is in it)."""
    parts: list[str] = []
    for accessor in accessors.named_children:
        if accessor.type != "accessor_declaration":
            continue
        body = accessor.child_by_field_name("body")
        end = body.start_byte if body is not None else accessor.end_byte
        parts.append(_one_line(data[accessor.start_byte : end].decode("utf-8", "replace")))
    head = _one_line(data[start : accessors.start_byte].decode("utf-8", "replace"))
    inner = " ".join(p if p.endswith(";") else f"{p};" for p in parts)
    return f"{head} {{ {inner} }}"


def declaration_line(
    spec: LanguageSpec,
    node: tree_sitter.Node,
    start: int,
    data: bytes,
    declared: Declared | None,
    own_type: tree_sitter.Node | None = None,
) -> str:
    """A field, constant or macro as one skeleton line: the declaration up to the end of the
    line its name is on (annotations above it included), a longer one closed behind an
    elision (``int table[] = {1, 2, …}``, ``#define SWAP(a, b) …``). ``own_type``: the body
    of the type it defines, left out (``struct s {…} v;``: ``struct s v;``)."""
    named = declared.name if declared is not None else node.child_by_field_name("name")
    if named is None:
        named = path_name(spec, node)
        if named is None:
            named = element_name(spec, node)
    name_end = named.end_byte if named is not None else node.end_byte
    end = data.find(b"\n", name_end, node.end_byte)
    if end == -1:
        end = node.end_byte
    inside = node.descendant_for_byte_range(end, end) if end < node.end_byte else None
    while inside is not None and inside != node:
        if inside.type in spec.prose_nodes:  # a string running on (``R"x(…)x"``): elided
            end = inside.start_byte
            break
        inside = inside.parent
    text = data[start:end]
    if own_type is not None:
        before, after = data[start : own_type.start_byte], data[own_type.end_byte : end]
        text = before.rstrip() + b" " + after.lstrip()
    line = _one_line(text.decode("utf-8", "replace"))
    cut = len(line) > 120
    if cut:
        line = line[:117] + " …"
    if data[end : node.end_byte].strip() and not cut:
        line = line.removesuffix("\\").rstrip()  # a macro continued on the next line
        closed = close_open_line(line, "…", spec.id)
        line = closed if closed != line else f"{line} …"
    elif cut:
        line = close_open_line(line, "…", spec.id)
    return line



def close_open_line(line: str, elision: str = "...", language: str = "python") -> str:
    """The first line of a longer statement made whole: an open string and open brackets are
    closed behind ``elision`` (``x = f(a,`` -> ``x = f(a, ...)``, a triple-quoted string
    opened on the line gets ``...`` and its closing quotes), so a skeleton never shows code that
    leaves a bracket or a string open. A trailing comment of ``language`` on a line left open is
    dropped first: closers behind it would be commented out."""
    opened, quote = open_state(line, language)
    if opened and not quote:
        cut = line_comment_start(line, language)
        if cut is not None:
            line = line[:cut].rstrip()
            opened, quote = open_state(line, language)
    stack = [_CLOSERS[b] for b in opened]
    if not quote and not stack:
        return line
    tail = f"{elision}{quote}" if quote else ""
    if stack:
        tail += ("" if quote else (" " if line[-1:] not in "([{ " else "") + elision)
        tail += "".join(reversed(stack))
    return line + tail


@functools.cache
def noise_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)
