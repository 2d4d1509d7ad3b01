"""Doc comments and docstrings: the first line of a definition's documentation."""

from __future__ import annotations

import re

import tree_sitter

from daemon.languages import LanguageSpec
from daemon.nodes import node_text as _text

_COMMENT_NODES = frozenset({"comment", "line_comment", "block_comment", "multiline_comment"})


def first_doc_line(raw: str) -> str:
    """The first non-empty line of a docstring or doc comment, quotes and comment marks off."""
    for line in raw.splitlines():
        line = line.strip().strip("*/#!").strip()
        for quote in ('"""', "'''", '"', "'"):
            line = line.removeprefix(quote).removesuffix(quote)
        for leader in ('r"""', "r'''"):
            line = line.removeprefix(leader)
        line = line.strip()
        if line:
            return line[:160]
    return ""


def definition_doc(
    spec: LanguageSpec, node: tree_sitter.Node, body: tree_sitter.Node | None, data: bytes
) -> str:
    if spec.doc_in_body:
        if body is None or body.named_child_count == 0:
            return ""
        first = body.named_children[0]
        if first.type == "expression_statement" and first.named_child_count:
            inner = first.named_children[0]
            if inner.type == "string":
                content = [c for c in inner.named_children if c.type == "string_content"]
                raw = _text(data, content[0]) if content else _text(data, inner)
                return first_doc_line(raw)
        return ""
    # doc comments: comment nodes directly above the definition
    target = node
    wrappers = ("export_statement", "type_declaration", *spec.wrapper_nodes)
    if node.parent is not None and node.parent.type in wrappers:
        target = node.parent
    elif node.parent is not None and node.parent.type in spec.typedef_nodes:
        target = node.parent  # ``/** doc */ struct s {…} v;``: s's doc
    prev = target.prev_named_sibling
    parent = target.parent
    if prev is None and spec.block_end and parent is not None:
        # Ruby: a body starts at its first statement, the comments above it are the block's
        # children before the body (``module Shop`` / ``# A user.`` / ``class User``)
        prev = parent.prev_named_sibling if parent.start_byte == target.start_byte else None
    lines: list[str] = []
    expected_row = target.start_point[0] - 1
    while prev is not None and prev.type in _COMMENT_NODES:
        end_row = prev.end_point[0] - (1 if prev.end_point[1] == 0 else 0)
        if end_row != expected_row:
            break
        before = prev.prev_sibling
        if before is not None and before.end_point[1] > 0 and (
            before.end_point[0] == prev.start_point[0]
        ):
            break  # ``int x; // count``: it ends the line of the code before
        lines.insert(0, _text(data, prev))
        expected_row = prev.start_point[0] - 1
        prev = prev.prev_named_sibling
    raw = "\n".join(lines)
    if "<summary>" in raw:  # an XML doc comment (C# ``/// <summary>…``): the summary's text
        return first_doc_line(_xml_text(raw.split("<summary>", 1)[1].split("</summary>", 1)[0]))
    if "<inheritdoc" in raw:  # the base's doc: none here
        return first_doc_line(_xml_text(raw))
    return first_doc_line(raw) if lines else ""


# ``<see cref="Order"/>``, ``<paramref name="id"/>``: the name; other tags (``<c>``) left out
_XML_REF = re.compile(r'<\w+\s+(?:cref|name|langword|href)="(?:\w:)?([^"]*)"\s*/>')
_XML_TAG = re.compile(r"</?\w[^>]*>")


def _xml_text(raw: str) -> str:
    """The text of an XML doc comment's part: comment leaders, tags and entities off."""
    text = "\n".join(line.strip().removeprefix("///") for line in raw.splitlines())
    text = _XML_TAG.sub("", _XML_REF.sub(r"\1", text))
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
