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
annotations made ERROR nodes of the fields and methods they follow. :func:`blank_c_macros`
blanks them out (same length again) and the same choice is made.
"""

from __future__ import annotations

import re

import tree_sitter

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
    rb"(?<=[\w)\]])(\s+)(" + _MACRO + rb"[ \t]*" + _ARGS + rb")"
    rb"(?=\s*(?:[;{,]|:(?!:)|=(?!=)|" + _MACRO + rb"|(?:override|final|const|noexcept)\b))"
)
_STATEMENT_WORDS = frozenset({b"return", b"else", b"do", b"case", b"goto", b"throw", b"co_return",
                              b"co_yield", b"sizeof", b"new", b"delete"})
_WORD_BEFORE = re.compile(rb"(\w+)$")


def blank_c_macros(data: bytes) -> bytes:
    """``data`` with C/C++ export macros and trailing annotation macros (with their arguments)
    replaced by blanks; the same length (newlines inside arguments cannot occur: they are
    matched on one line)."""
    out = bytearray(data)

    def blank(start: int, end: int) -> None:
        out[start:end] = b" " * (end - start)

    for match in _CLASS_MACRO.finditer(data):
        blank(*match.span(1))
    for match in _LEADING_MACRO.finditer(data):
        blank(*match.span(1))
    for match in _TRAILING_MACRO.finditer(data):
        before = _WORD_BEFORE.search(data[max(0, match.start() - 16):match.start()])
        if before is not None and before.group(1) in _STATEMENT_WORDS:
            continue  # ``return FOO_BAR(x);``: a statement's own macro call
        blank(*match.span(2))
    return bytes(out)


def semicolons_before_call_signatures(data: bytes) -> bytes:
    """``data`` with ``;`` for the last blank before each generic call signature (an indented
    line opening with ``<``) whose previous code line (comments skipped) ends a member; the
    same length."""
    out = bytearray(data)
    last_code = b""
    offset = 0
    for line in data.split(b"\n"):
        stripped = line.strip()
        if _OPENS_SIGNATURE.match(line) and _FINISHED.search(last_code):
            at = offset + line.index(b"<") - 1
            out[at] = ord(";")
        if stripped and not stripped.startswith((b"//", b"/*", b"*")):
            code = stripped.split(b" //", 1)[0].rstrip()
            last_code = code
        offset += len(line) + 1
    return bytes(out)


def error_bytes(node: tree_sitter.Node) -> int:
    """Bytes of ``node`` inside ERROR nodes (missing nodes count one)."""
    if node.type == "ERROR":
        return max(1, node.end_byte - node.start_byte)
    if node.is_missing:
        return 1
    if not node.has_error:
        return 0
    return sum(error_bytes(child) for child in node.children)


_FIXES = {
    "typescript": semicolons_before_call_signatures,
    "tsx": semicolons_before_call_signatures,
    "c": blank_c_macros,
    "cpp": blank_c_macros,
}


def parse(parser: tree_sitter.Parser, language: str, data: bytes) -> tree_sitter.Tree:
    """``parser.parse(data)``, or the work-around's tree where it has fewer ERROR bytes."""
    tree = parser.parse(data)
    fix = _FIXES.get(language)
    if fix is None or not tree.root_node.has_error:
        return tree
    fixed = fix(data)
    if fixed == data:
        return tree
    other = parser.parse(fixed)
    return other if error_bytes(other.root_node) < error_bytes(tree.root_node) else tree
