"""A class's attributes: fields, ``self.x =`` assignments, members declared in its body."""

from __future__ import annotations

import bisect
import functools
import re

import tree_sitter

from daemon.languages import LanguageSpec
from daemon.nodes import IDENTIFIER
from daemon.nodes import node_text as _text
from daemon.parse_names import declared_names
from daemon.symbols import DefKind

_SELF_ATTR = re.compile(rb"\b(?:self|this)\.([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=\n]*)?=(?!=)")


@functools.cache
def attribute_pattern(pattern: str) -> re.Pattern[bytes]:
    """``LanguageSpec.attribute_pattern`` compiled; ``self.x =`` / ``this.x =`` when ""."""
    return re.compile(pattern.encode()) if pattern else _SELF_ATTR


class SelfAttributes:
    """``self.x = ...`` / ``this.x = ...`` assignments of a file, found in one pass (lazily)."""

    def __init__(self, data: bytes, pattern: re.Pattern[bytes] = _SELF_ATTR) -> None:
        self._data = data
        self._pattern = pattern
        self._offsets: list[int] | None = None
        self.declared_names: list[str] = []

    def between(self, start: int, end: int) -> list[str]:
        if self._offsets is None:
            found = [(m.start(), m.group(1).decode()) for m in self._pattern.finditer(self._data)]
            self._offsets = [offset for offset, _ in found]
            self.declared_names = [name for _, name in found]
        lo = bisect.bisect_left(self._offsets, start)
        hi = bisect.bisect_left(self._offsets, end)
        return self.declared_names[lo:hi]


def _outside_nested_classes(
    spec: LanguageSpec, body: tree_sitter.Node, attrs: SelfAttributes, found: list[str]
) -> list[str]:
    """``found`` (the attributes assigned in ``body``) less those assigned in the classes
    defined directly in ``body``, once each."""
    nested: list[str] = []
    for child in body.named_children:
        if spec.definitions.get(child.type) is DefKind.CLASS:
            nested.extend(attrs.between(child.start_byte, child.end_byte))
    for name in nested:
        found.remove(name)
    return found


def _called_members(
    spec: LanguageSpec, children: list[tree_sitter.Node], data: bytes
) -> list[str]:
    """The attributes a class body's calls name (``LanguageSpec.member_calls``, Ruby
    ``attr_accessor :name, :email``: name, email)."""
    names: list[str] = []
    for child in children:
        method = child.child_by_field_name("method") if child.type == "call" else None
        if method is None or _text(data, method) not in spec.member_calls:
            continue
        arguments = child.child_by_field_name("arguments")
        for arg in arguments.named_children if arguments is not None else ():
            if arg.type == "simple_symbol":
                names.append(_text(data, arg).lstrip(":"))
    return names


_FIELD = re.compile(
    rf"^({IDENTIFIER})\s*(?::[^=\n]*)?=(?!=)|^({IDENTIFIER})\s*:"
)


def _class_fields(body_text: str) -> list[str]:
    """Names assigned or annotated at the top level of a Python class body."""
    lines = body_text.splitlines()
    if not lines:
        return []
    out: list[str] = []
    # the body node starts at its first statement: that line has no leading indent in the slice
    indent = None
    for line in lines:
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        width = len(line) - len(stripped)
        if indent is None:
            indent = width
        if width != indent:
            continue
        m = _FIELD.match(stripped)
        if m:
            out.append(m.group(1) or m.group(2))
    return out


def class_attributes(
    spec: LanguageSpec, body: tree_sitter.Node, data: bytes, attrs: SelfAttributes
) -> tuple[str, ...]:
    """The attributes of the class whose body is ``body``, each once, 32 at most, in this
    order: the names assigned or annotated at the top level of a Python body; the members its
    calls name (Ruby ``attr_reader :x``); the ``self.x =`` / ``this.x =`` / ``@x =``
    assignments in it (``attrs``: the file's), less those of classes nested in it where the
    language has its own pattern; the members it declares (``LanguageSpec.member_names``)."""
    body_text = _text(data, body)
    fields = _class_fields(" " * body.start_point[1] + body_text) if spec.doc_in_body else []
    found = attrs.between(body.start_byte, body.end_byte) if spec.self_attributes else []
    if spec.attribute_pattern:  # not those of a class nested in it (Ruby: in a module)
        found = _outside_nested_classes(spec, body, attrs, found)
    children = [
        m
        for c in body.named_children
        for m in (c.named_children if c.type in spec.member_lists else (c,))
    ]
    members = [
        name
        for c in children
        if c.type in spec.member_names
        for name in declared_names(spec, c, data)
    ]
    if spec.member_calls:  # ``attr_reader :name``: before the ``@x =`` assignments
        found = [*_called_members(spec, children, data), *found]
    return tuple(dict.fromkeys([*fields, *found, *filter(None, members)]))[:32]
