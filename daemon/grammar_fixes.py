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
"""

from __future__ import annotations

import re

import tree_sitter

_OPENS_SIGNATURE = re.compile(rb"[ \t]+<(?:[A-Za-z_$]|[ \t]*\r?$)")  # ``  <Key`` or ``  <``
_FINISHED = re.compile(rb"(?:[\w)\]}'\"`]|(?<!=)>)$")  # ends a member; not ``=>``, ``,``, ``(``
_FIXABLE = frozenset({"typescript", "tsx"})


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


def parse(parser: tree_sitter.Parser, language: str, data: bytes) -> tree_sitter.Tree:
    """``parser.parse(data)``, or the work-around's tree where it has fewer ERROR bytes."""
    tree = parser.parse(data)
    if language not in _FIXABLE or not tree.root_node.has_error:
        return tree
    fixed = semicolons_before_call_signatures(data)
    if fixed == data:
        return tree
    other = parser.parse(fixed)
    return other if error_bytes(other.root_node) < error_bytes(tree.root_node) else tree
