"""Access labels of class members: C++ ``private:``, Ruby ``private`` and ``private def x``."""

from __future__ import annotations

import tree_sitter

from daemon.languages import LanguageSpec
from daemon.nodes import node_text as _text
from daemon.parse_names import definition_name, named_as_defined


def access_label(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> str:
    """The access label written before class member ``node`` (C++ ``private:``; comments,
    ``friend`` and other members that are no definitions may come between), "" when a
    definition or nothing comes first."""
    if not spec.access_nodes:
        return ""
    target = node
    if node.parent is not None and node.parent.type in spec.wrapper_nodes:
        target = node.parent  # ``template <…>`` above the member
    prev = target.prev_named_sibling
    while prev is not None:
        if prev.type in spec.access_nodes and (
            not spec.access_words or _text(data, prev) in spec.access_words
        ):
            return _text(data, prev)  # Ruby: ``private`` alone on its line
        if prev.type in spec.wrapper_nodes or _defines(spec, prev, data):
            return ""
        if spec.access_words and prev.type == "call" and _labels_a_definition(spec, prev, data):
            return ""  # ``private def x``: a definition with its own label comes first
        prev = prev.prev_named_sibling
    return ""


def _defines(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> bool:
    """Whether ``node`` is of a definition's type and, where names decide (Ruby constants),
    named so."""
    return node.type in spec.definitions and named_as_defined(
        spec, node.type, definition_name(spec, node, data))


def _access_word(spec: LanguageSpec, call: tree_sitter.Node, data: bytes) -> str:
    """The access word ``call`` calls (Ruby ``private def x``, ``private :x``), or ""."""
    word = call.child_by_field_name("method")
    text = _text(data, word) if word is not None else ""
    return text if text in spec.access_words else ""


def _labels_a_definition(spec: LanguageSpec, call: tree_sitter.Node, data: bytes) -> bool:
    """Whether ``call`` is Ruby's ``private def x`` (not ``private :x``)."""
    args = call.child_by_field_name("arguments")
    return bool(_access_word(spec, call, data)) and args is not None and any(
        c.type in spec.definitions for c in args.named_children)


def inline_access(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> str:
    """Ruby ``private def x``: the word that labels this one definition, or ""."""
    holder = node.parent
    if not spec.access_words or holder is None or holder.type != "argument_list":
        return ""
    call = holder.parent
    return _access_word(spec, call, data) if call is not None else ""
