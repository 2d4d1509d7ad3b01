"""The names a definition node declares, and the qualifiers around them (pure).

Name fields, name paths and element children per ``LanguageSpec``; C-style declarator chains
(``char **split(...)``) followed to the declared name; whether a C++ scope is a namespace or a
class (``Scopes``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter

from daemon.languages import LanguageSpec
from daemon.nodes import IDENT
from daemon.nodes import node_text as _text
from daemon.symbols import DefKind


def declared_names(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> list[str]:
    """Every name ``node`` declares (Go: ``ID, Ref int64``), by the first name field it has."""
    for field_name in spec.name_fields:
        found = node.children_by_field_name(field_name)
        if found:
            return [_text(data, child) for child in found]
    named = path_name(spec, node)
    return [_text(data, named)] if named is not None else []


def definition_name(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> str:
    for field_name in spec.name_fields:
        child = node.child_by_field_name(field_name)
        if child is not None:
            part = spec.scoped_names.get(child.type)  # Ruby ``class Admin::User``: User
            if part:
                child = child.child_by_field_name(part) or child
            return _text(data, child)
    named = path_name(spec, node)
    if named is None:
        named = element_name(spec, node)
    return _text(data, named).lstrip("$") if named is not None else ""


def element_name(spec: LanguageSpec, node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The name node of a declaration whose names are in element children
    (``LanguageSpec.element_nodes``: PHP ``public $a = 1, $b;``, ``const A = 1;``): the first's."""
    if not spec.element_nodes:
        return None
    for child in node.named_children:
        if child.type in spec.element_nodes:
            named = child.child_by_field_name("name")
            if named is None:
                named = next((c for c in child.named_children if c.type == "name"), None)
            return named
    return None


def path_name(spec: LanguageSpec, node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The name of a node whose name is in a child (``LanguageSpec.name_paths``), or None."""
    path = spec.name_paths.get(node.type)
    if not path:
        return None
    cur = node
    for node_type in path:
        child = next((c for c in cur.named_children if c.type == node_type), None)
        if child is None:
            return None
        cur = child
    return cur.child_by_field_name("name") or cur


def field_node(spec: LanguageSpec, node: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
    """``node``'s field ``name``; where the grammar has none, the first child after the name of
    a type ``LanguageSpec.field_nodes`` gives for it (Kotlin bodies, parameters, result)."""
    found = node.child_by_field_name(name)
    types = spec.field_nodes.get(name)
    if found is not None or not types:
        return found
    named = node.child_by_field_name("name")
    after = named.end_byte if named is not None else node.start_byte
    return next(
        (c for c in node.named_children if c.type in types and c.start_byte >= after), None
    )


# where a C-style declarator chain ends: the declared name
_NAME_NODES = frozenset(
    {
        "identifier",
        "field_identifier",
        "type_identifier",
        "qualified_identifier",
        "destructor_name",
        "operator_name",
        "template_function",
    }
)
_FUNCTION_DECLARATOR = "function_declarator"


@dataclass(frozen=True, slots=True)
class Declared:
    """What a C-style declarator chain declares (``LanguageSpec.declarator``)."""

    name: tree_sitter.Node
    scope: str  # C++ ``Shape::area``: "Shape" (template arguments off); "" when unqualified
    function: tree_sitter.Node | None  # the function declarator that declares the name
    outer: tree_sitter.Node  # the whole declarator


def follow_declarator(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> Declared | None:
    """Follow ``node``'s declarator chain to the name (``char **split(...)``: pointer, pointer,
    function declarator, name); None when there is no name (an abstract declarator)."""
    outer = node.child_by_field_name(spec.declarator)
    if outer is None:
        return None
    cur: tree_sitter.Node | None = outer
    parent: tree_sitter.Node | None = None
    while cur is not None and cur.type not in _NAME_NODES:
        nxt = cur.child_by_field_name(spec.declarator)
        if nxt is None:  # ``(*f)``, ``&g``: the inner declarator is no field
            nxt = next(
                (
                    c
                    for c in cur.named_children
                    if c.type in _NAME_NODES or c.type.endswith("declarator")
                ),
                None,
            )
        parent, cur = cur, nxt
    if cur is None:
        return None
    scope = ""
    while cur.type in ("qualified_identifier", "template_function"):  # a::B<T>::f, f<int>
        if cur.type == "qualified_identifier":
            outer_scope = cur.child_by_field_name("scope")
            if outer_scope is not None:
                scope = _text(data, outer_scope).split("<", 1)[0].rsplit("::", 1)[-1]
        inner = cur.child_by_field_name("name")
        if inner is None:
            break
        cur = inner
    function = parent if parent is not None and parent.type == _FUNCTION_DECLARATOR else None
    return Declared(cur, scope.strip(), function, outer)


_SCOPED_CALL = re.compile(rb"::\s*~?([A-Za-z_]\w*)\s*\(")
_MEMBER_QUALIFIERS = ("type_qualifier", "ref_qualifier")  # ``f() const``, ``f() &&``


class Scopes:
    """What a C++ file says the qualifiers of its definitions are (``LanguageSpec.
    namespace_nodes``): the namespaces it opens or names, the classes it defines and those whose
    constructors it defines. Gathered when first asked: most files define nothing qualified."""

    def __init__(self, spec: LanguageSpec, nodes: list[tree_sitter.Node], data: bytes) -> None:
        self._spec = spec
        self._nodes = nodes
        self._data = data
        self._namespaces: set[str] | None = None
        self._classes: set[str] = set()

    def is_namespace(self, scope: str, name: str, function: tree_sitter.Node | None) -> bool:
        """Whether ``scope`` of ``scope::name``, defined outside any class, is a namespace.

        A class the file defines, or whose constructor it defines, is none; a namespace the
        file opens, aliases or uses is one; the scope of a constructor, a destructor or a
        ``const`` or ref-qualified function is a class. Else the naming convention decides:
        namespaces lower case (``geom``, ``detail``), classes capitalised.
        """
        if self._namespaces is None:
            self._namespaces = self._gather()
        if scope in self._classes:
            return False
        if scope in self._namespaces:
            return True
        if name in (scope, f"~{scope}"):
            return False
        if function is not None and any(c.type in _MEMBER_QUALIFIERS for c in function.children):
            return False
        return scope[:1].islower()

    def _gather(self) -> set[str]:
        namespaces: set[str] = set()
        data = self._data
        for node in self._nodes:
            if node.type in self._spec.namespace_nodes:
                words = IDENT.findall(_text(data, node).split("{", 1)[0])
                if "namespace" in words:  # not ``using std::vector;``
                    namespaces.update(w for w in words if w not in ("namespace", "using", "inline"))
            elif self._spec.definitions.get(node.type) is DefKind.CLASS:
                name = node.child_by_field_name("name")
                if name is not None and node.child_by_field_name("body") is not None:
                    self._classes.add(_text(data, name).split("<", 1)[0].rsplit("::", 1)[-1])
        self._classes.update(_constructor_scopes(data))
        return namespaces


def _constructor_scopes(data: bytes) -> set[str]:
    """The classes whose constructors or destructors ``data`` defines or calls outside the
    class (``logger::logger(``, ``A::~A(``). A scan for ``::name(`` checking the scope before
    it: a pattern with the scope first tried every identifier of the file (30x slower)."""
    found: set[str] = set()
    for m in _SCOPED_CALL.finditer(data):
        name = m.group(1)
        head = data[max(0, m.start() - len(name) - 8) : m.start()].rstrip()
        if head.endswith(name):
            before = head[-len(name) - 1 : -len(name)]
            if not (before.isalnum() or before == b"_"):
                found.add(name.decode())
    return found


def named_as_defined(spec: LanguageSpec, node_type: str, name: str) -> bool:
    """Whether ``name`` is what a ``node_type`` definition is named (``definition_names``)."""
    pattern = spec.definition_names.get(node_type)
    return not pattern or re.fullmatch(pattern, name) is not None


def named_inner_type(spec: LanguageSpec, node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The body of the named type a C-style variable declaration defines (``struct s {…} v;``:
    s's, a definition of its own), or None (``struct s v;``, ``static struct {…} v;``, a
    typedef)."""
    if node.type not in spec.typedef_nodes or spec.definitions[node.type] is not DefKind.VARIABLE:
        return None
    inner = node.child_by_field_name("type")
    if inner is None or inner.child_by_field_name("name") is None:
        return None
    return inner.child_by_field_name("body")
