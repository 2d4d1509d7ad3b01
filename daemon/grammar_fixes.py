"""Work-arounds for grammar bugs that turn whole files into ERROR nodes.

tree-sitter-typescript 0.23.2 (the latest on PyPI) cannot parse generic call signatures that
follow another member without a semicolon (upstream issue tree-sitter-typescript#335, open):

    interface Get<E> {
      <Key extends keyof Map>(key: Key): Map[Key]
      <Key extends keyof E['Variables']>(key: Key): E['Variables'][Key]
    }

The ``<`` continues the previous member's type, and the error swallows the rest of the file:
hono's src/types.ts (2,778 lines, its Env, Handler, MiddlewareHandler, Input...) parsed as one
ERROR node, so nothing it defines reached a prompt. :func:`parse` parses such a file again with
a ``;`` in place of the blank before each such ``<`` (same length: every byte offset and row
stays, and the text shown is still taken from the original bytes) and keeps the tree with fewer
bytes in ERROR nodes.

C and C++ have no grammar bug but macros the grammar cannot know, in places a declaration has no
room for a name: export macros (``class LEVELDB_EXPORT DB {``, ``LEVELDB_EXPORT void
leveldb_close(leveldb_t* db);``) and thread-safety annotations (``int refs_
GUARDED_BY(mu_);``, ``void Compact() EXCLUSIVE_LOCKS_REQUIRED(mu_);``). tree-sitter-cpp took
leveldb's ``class LEVELDB_EXPORT DB`` for a function and lost every member of ``DB``; the
annotations made ERROR nodes of the fields and methods they follow. :func:`c_macro_edits`
blanks them out (same length again) and the same choice is made. So with annotations in
parameter lists (GLib's ``gchar *argv[] G_GNUC_UNUSED``, ``CFSocketRef __unused s``, libev's
``(EV_P_ ev_io *w, int revents)``) and a type written as ``va_arg``'s argument (``va_arg(ap,
char*)``, written as a name of the same length): hiredis's files with syntax errors 17 -> 13.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import tree_sitter

Edit = tuple[int, bytes]  # bytes written at an offset, as many as they replace

_OPENS_SIGNATURE = re.compile(rb"[ \t]+<(?:[A-Za-z_$]|[ \t]*\r?$)")  # ``  <Key`` or ``  <``
_FINISHED = re.compile(rb"(?:[\w)\]}'\"`]|(?<!=)>)$")  # ends a member; not ``=>``, ``,``, ``(``

# an ALL_CAPS name with an underscore: LEVELDB_EXPORT, GUARDED_BY, Q_DECL_EXPORT (not DWORD,
# FILE or HANDLE, which are types); after ``class`` any ALL_CAPS name will do (``class
# DLLEXPORT Foo {``: nothing else can stand there)
_MACRO = rb"[A-Z][A-Z0-9]*_[A-Z0-9_]*"
_ARGS = rb"\((?:[^()\n]|\([^()\n]*\))*\)"  # on one line, one level of nesting
_CLASS_MACRO = re.compile(
    rb"\b(?:class|struct|union)[ \t]+([A-Z][A-Z0-9_]+(?:[ \t]*" + _ARGS + rb")?)[ \t]+"
    rb"(?=[A-Za-z_]\w*[ \t]*(?:[:{]|final\b|\r?\n))"
)
# ``LEVELDB_EXPORT void f(`` / ``SQLITE_API const char* f(``: the macro, then a type, then the
# declared name and its ``(`` (three words: ``MY_TYPE f(int);`` is left alone)
_LEADING_MACRO = re.compile(
    rb"^[ \t]*(" + _MACRO + rb"(?:[ \t]*" + _ARGS + rb")?)[ \t]+"
    rb"(?=(?:(?:const|static|inline|extern|unsigned|signed|struct|enum|virtual|constexpr)[ \t]+)*"
    rb"[A-Za-z_][\w:]*(?:<[^;{}()\n]*>)?[ \t*&]+(?:operator\b|~?[A-Za-z_][\w:]*[ \t]*\())",
    re.MULTILINE,
)
# ``int refs_ GUARDED_BY(mu_);``, ``void F() EXCLUSIVE_LOCKS_REQUIRED(mu_) {``, ``~L()
# UNLOCK_FUNCTION() { … }``: after a declarator, before what ends or continues the declaration
_TRAILING_MACRO = re.compile(
    rb"\b" + _MACRO + rb"[ \t]*" + _ARGS
    + rb"(?=\s*(?:[;{,]|:(?!:)|=(?!=)|" + _MACRO + rb"|(?:override|final|const|noexcept)\b))"
)
# in a parameter list: a no-argument annotation after the declarator (``const ctx *ac
# G_GNUC_UNUSED,``, ``gchar *argv[] G_GNUC_UNUSED)``) or between type and name (``CFSocketRef
# __unused s``); a macro standing for a leading parameter before a whole one (libev's ``(EV_P_
# ev_io *watcher, int revents)``; ``(MY_TYPE value)`` is a type and its name, left alone)
_PARAM_NOTE = rb"(?:" + _MACRO + rb"|__[a-z]\w*)"
_AFTER_DECLARATOR = re.compile(
    rb"(?<=[\w\]])[ \t]+(" + _PARAM_NOTE + rb")(?=[ \t]*(?:,|\)[ \t]*(?:[{;]|\r?$)))",
    re.MULTILINE,
)
_BEFORE_NAME = re.compile(rb"(?<=[\w*])[ \t]+(__[a-z]\w*)(?=[ \t*]+[A-Za-z_]\w*[ \t]*[,)\[])")
_LEADING_PARAM = re.compile(
    rb"\([ \t]*(" + _MACRO + rb")[ \t]+(?=(?:const[ \t]+|struct[ \t]+)?[A-Za-z_]\w*[ \t*]+"
    rb"[A-Za-z_]\w*[ \t]*[,)])"
)
# ``va_arg(ap, char*)``, ``va_arg(ap,long long)``: a type as an argument; the type becomes a
# name of the same length (``va_arg(ap,_        )``)
_VA_ARG_TYPE = re.compile(rb"\bva_arg[ \t]*\([^,()\n]+,[ \t]*([^()\n]+?)[ \t]*\)")
_STATEMENT_WORDS = frozenset({b"return", b"else", b"do", b"case", b"goto", b"throw", b"co_return",
                              b"co_yield", b"sizeof", b"new", b"delete"})
_WORD_BEFORE = re.compile(rb"(\w+)$")
_NAME = re.compile(rb"[A-Za-z_]\w*")
# what a declarator ends with: a name, ``)`` of its parameters, ``]`` of an array
_DECLARATOR_ENDS = frozenset(bytes([c]) for c in
                             b")]_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


Regions = Sequence[tuple[int, int]]  # byte ranges (whole lines) a costly rule is run over


def call_signature_edits(data: bytes, regions: Regions | None = None) -> list[Edit]:
    """A ``;`` for the last blank before each generic call signature (an indented line opening
    with ``<``) whose previous code line (comments skipped) ends a member."""
    edits: list[Edit] = []
    last_code = b""
    offset = 0
    for line in data.split(b"\n"):
        stripped = line.strip()
        if _OPENS_SIGNATURE.match(line) and _FINISHED.search(last_code):
            edits.append((offset + line.index(b"<") - 1, b";"))
        if stripped and not stripped.startswith((b"//", b"/*", b"*")):
            code = stripped.split(b" //", 1)[0].rstrip()
            last_code = code
        offset += len(line) + 1
    return edits


def c_macro_edits(data: bytes, regions: Regions | None = None) -> list[Edit]:
    """The C/C++ work-around's edits of ``data``: blanks for its export, annotation and
    parameter macros (``_macro_spans``), each span in spaces (never a newline: arguments are
    matched on one line), and a name for each type written as a ``va_arg`` argument. The
    parameter and ``va_arg`` rules (about 40 us a KB) only in ``regions`` when given (the lines
    of the first parse's errors: ``parse``), everywhere else."""
    scan = [(0, len(data))] if regions is None else regions
    edits = [(start, b" " * (end - start)) for start, end in _macro_spans(data, scan)]
    for first, last in scan:
        for match in _VA_ARG_TYPE.finditer(data, first, last):
            start, end = match.span(1)
            edits.append((start, b"_" + b" " * (end - start - 1)))
    return sorted(edits)


def _macro_spans(data: bytes, params: Regions = ()) -> list[tuple[int, int]]:
    """Spans of the export macros and trailing annotation macros (with their arguments) of
    ``data``, and of the parameter annotations in the ranges ``params`` (their three patterns
    cost 130 us more on a 4 KB window: the request path's ``annotation_macros`` leaves them
    out)."""
    spans = [m.span(1) for m in _CLASS_MACRO.finditer(data)]
    spans += [m.span(1) for m in _LEADING_MACRO.finditer(data)]
    for match in _TRAILING_MACRO.finditer(data):
        before = data[max(0, match.start() - 80):match.start()]
        code = before.rstrip()
        if len(code) == len(before) or code[-1:] not in _DECLARATOR_ENDS:
            continue  # ``f(A_B(x))``, ``x = A_B(y)``: not after a declarator
        word = _WORD_BEFORE.search(code)
        if word is not None and word.group(1) in _STATEMENT_WORDS:
            continue  # ``return FOO_BAR(x);``: a statement's own macro call
        spans.append(match.span())
    for first, last in params:
        for rule in (_AFTER_DECLARATOR, _BEFORE_NAME, _LEADING_PARAM):
            spans += [m.span(1) for m in rule.finditer(data, first, last)]
    return sorted(spans)


def annotation_macros(text: str, language: str) -> set[str]:
    """The names of the macros the language's work-around blanks in ``text`` (C/C++: export
    and annotation macros, whose definitions, ``#define LEVELDB_EXPORT
    __declspec(dllexport)``, tell a completion nothing; not the parameter annotations, a
    ``#define EV_P_ struct ev_loop *loop,`` says something, nor ``va_arg``'s types); empty for
    other languages. On the request path: about 80 us for a 4 KB C++ window (a one-off timeit)."""
    if _FIXES.get(language) is not c_macro_edits:
        return set()
    data = text.encode("utf-8", "surrogatepass")
    names = set()
    for at, _ in _macro_spans(data):
        name = _NAME.match(data, at)
        if name is not None:
            names.add(name.group().decode())
    return names


def apply_edits(data: bytes, edits: Sequence[Edit]) -> bytes:
    """``data`` with each edit's bytes written at its offset (the same length)."""
    out = bytearray(data)
    for at, new in edits:
        out[at:at + len(new)] = new
    return bytes(out)


def error_lines(node: tree_sitter.Node, data: bytes) -> list[tuple[int, int]]:
    """The byte ranges of the whole lines ERROR and missing nodes under ``node`` cover (an
    ERROR node's line before it too: a missing ``)`` is noticed after the annotation), merged,
    in order."""
    found: list[tuple[int, int]] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            start = data.rfind(b"\n", 0, max(0, data.rfind(b"\n", 0, n.start_byte))) + 1
            end = data.find(b"\n", n.end_byte)
            found.append((start, len(data) if end < 0 else end + 1))
        elif n.has_error:
            stack.extend(n.children)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def error_bytes(node: tree_sitter.Node) -> int:
    """Bytes of ``node`` inside ERROR nodes (missing nodes count one)."""
    if node.type == "ERROR":
        return max(1, node.end_byte - node.start_byte)
    if node.is_missing:
        return 1
    if not node.has_error:
        return 0
    return sum(error_bytes(child) for child in node.children)


_FIXES: dict[str, Callable[[bytes, Regions | None], list[Edit]]] = {
    "typescript": call_signature_edits,
    "tsx": call_signature_edits,
    "c": c_macro_edits,
    "cpp": c_macro_edits,
}


def work_around_edits(
    fix: Callable[[bytes, Regions | None], list[Edit]], data: bytes, tree: tree_sitter.Tree
) -> list[Edit]:
    """The edits ``fix`` makes to ``data`` that change it, its costly rules run only on the
    lines of ``tree``'s errors."""
    edits = fix(data, error_lines(tree.root_node, data))
    return [(at, new) for at, new in edits if data[at:at + len(new)] != new]


def parse(parser: tree_sitter.Parser, language: str, data: bytes) -> tree_sitter.Tree:
    """``parser.parse(data)``, or the work-around's tree where it has fewer ERROR bytes. The
    work-around's tree is parsed incrementally from the first (the edits told to a copy of
    it): a tenth of a whole parse where they are few (hiredis's test.c: 1-2 ms against 12)."""
    tree = parser.parse(data)
    fix = _FIXES.get(language)
    if fix is None or not tree.root_node.has_error:
        return tree
    edits = work_around_edits(fix, data, tree)
    if not edits:
        return tree
    old = tree.copy()
    row, row_start, scanned = 0, 0, 0
    for at, new in edits:  # in offset order; no edit changes a newline, so rows stay
        row += data.count(b"\n", scanned, at)
        if row:
            row_start = data.rfind(b"\n", 0, at) + 1
        scanned = at
        end = at + len(new)
        start_point, end_point = (row, at - row_start), (row, end - row_start)
        old.edit(start_byte=at, old_end_byte=end, new_end_byte=end, start_point=start_point,
                 old_end_point=end_point, new_end_point=end_point)
    other = parser.parse(apply_edits(data, edits), old)
    return other if error_bytes(other.root_node) < error_bytes(tree.root_node) else tree
