"""Parse one file into a FileSummary: definitions with signatures, imports.

``summarize`` is pure (text in, summary out) and never raises on bad syntax: tree-sitter's
partial tree is used and ``has_syntax_errors`` says so. Called by the indexer for files on disk
and by the context assembler for unsaved editor buffers.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import hashlib
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import tree_sitter

from daemon import grammar_fixes
from daemon.imports import is_commonjs_require, read_imports, resolve_spreads
from daemon.languages import (
    LANGUAGES,
    TEXT,
    LanguageSpec,
    comment_leader,
    definitions_query,
    detect_language,
)
from daemon.manifests import read_module_roots
from daemon.nodes import IDENT as IDENT
from daemon.nodes import IDENTIFIER as IDENTIFIER
from daemon.nodes import node_text as _text
from daemon.nodes import one_line as _one_line
from daemon.symbols import Definition, DefKind, FileSummary, Import
from engine.code_scan import code_positions, line_comment_start, open_state

_SELF_ATTR = re.compile(rb"\b(?:self|this)\.([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=\n]*)?=(?!=)")
_local = threading.local()


def _parser(language: str) -> tree_sitter.Parser:
    parsers: dict[str, tree_sitter.Parser] | None = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = {}
        _local.parsers = parsers
    parser = parsers.get(language)
    if parser is None:
        from daemon.languages import ts_language

        parser = tree_sitter.Parser(ts_language(language))
        parsers[language] = parser
    return parser


def _parse(language: str, data: bytes) -> tree_sitter.Tree:
    """The tree of ``data``, with the grammar work-arounds (daemon/grammar_fixes.py)."""
    return grammar_fixes.parse(_parser(language), language, data)


def digest_text(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def mask_prose(text: str, language: str) -> bytes:
    """UTF-8 bytes of ``text`` with string literals and comments blanked out (same length).

    Used to score identifiers of code only: words inside strings and comments are prose.
    """
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    if language not in LANGUAGES:
        return bytes(data)
    from daemon.languages import prose_query

    tree = _parse(language, bytes(data))
    nodes = tree_sitter.QueryCursor(prose_query(language)).captures(tree.root_node)
    for node in nodes.get("prose", []):
        for i in range(node.start_byte, node.end_byte):
            if data[i] not in (10, 13):
                data[i] = 32
    return bytes(data)


def top_level_spans(text: str, language: str) -> list[tuple[int, int, str]]:
    """The top-level statements of ``text`` as (first row, last row, node type), rows 0-based
    and inclusive, statements sharing a row merged; [] for a language without a grammar."""
    if language not in LANGUAGES:
        return []
    root = _parse(language, text.encode("utf-8", "surrogatepass")).root_node
    spans: list[tuple[int, int, str]] = []
    for child in root.children:
        first, last = child.start_point[0], child.end_point[0]
        if last > first and child.end_point[1] == 0:
            last -= 1  # a node that ends with its newline ends on the row before
        if spans and first <= spans[-1][1]:
            prev = spans.pop()
            spans.append((prev[0], max(prev[1], last), prev[2]))
        else:
            spans.append((first, last, child.type))
    return spans


Spans = tuple[tuple[int, int], ...]


def _multiline_spans(language: str, root: tree_sitter.Node) -> tuple[Spans, Spans]:
    """Rows of the string literals and comments that span more than one row (outermost only),
    and of the bracketed expressions that do (``LanguageSpec.literal_nodes``, nested ones too).

    A walk that descends only into nodes spanning rows (the prose query would build a node for
    every string of the file)."""
    spec = LANGUAGES[language]
    prose, literal = frozenset(spec.prose_nodes), frozenset(spec.literal_nodes)
    prose_spans: list[tuple[int, int]] = []
    literal_spans: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        for child in stack.pop().children:
            first, last = child.start_point[0], child.end_point[0]
            if last > first:
                if child.type in prose:
                    prose_spans.append((first, last))
                    continue
                if child.type in literal:
                    literal_spans.append((first, last))
                stack.append(child)
    return tuple(sorted(prose_spans)), tuple(sorted(set(literal_spans)))


def summarize(
    path: str, text: str, language: str | None = None, *, prose: bool = False
) -> FileSummary:
    """Summarise ``text`` as the content of ``path``; plain text files get their size and
    digest only; a manifest (go.mod, package.json, tsconfig.json, Package.swift) its module
    roots too.
    ``prose``: also find the multi-line strings and comments (``prose_spans``), which the
    context assembler needs and the index does not (``nospin bench context`` prints both costs:
    ``buffer_parse_ms`` with them, ``buffer_parse_no_prose_ms`` without)."""
    language = language or detect_language(path)
    num_lines = text.count("\n") + 1
    data = text.encode("utf-8", "surrogatepass")
    base = {
        "path": path,
        "num_lines": num_lines,
        "num_bytes": len(data),
        "digest": digest_text(text),
        # a manifest's, whatever its language (Package.swift is Swift code)
        "module_roots": read_module_roots(path, text),
    }
    spec = LANGUAGES.get(language)
    if spec is None:
        return FileSummary(
            language=TEXT if language not in LANGUAGES else language,
            **base,  # type: ignore[arg-type]
        )
    tree = _parse(language, data)  # same byte offsets as data, whatever a work-around changed
    root = tree.root_node
    nodes = tree_sitter.QueryCursor(definitions_query(language)).captures(root).get("node", [])
    for inner in _macro_item_trees(spec, root, data):
        nodes.extend(
            tree_sitter.QueryCursor(definitions_query(language)).captures(inner).get("node", [])
        )
    nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
    definitions: list[Definition] = []
    imports: list[Import] = []
    # stack of (end_byte, qualname, kind) for nesting
    stack: list[tuple[int, str, DefKind]] = []
    attrs = _SelfAttributes(data, _attribute_pattern(spec.attribute_pattern))
    absorbed: set[tuple[int, int]] = set()  # inner types whose body a typedef took
    scopes = _Scopes(spec, nodes, data) if spec.namespace_nodes else None
    inline_modules: set[str] = set()  # qualnames of Rust ``mod tests { … }``
    for node in nodes:
        while stack and node.start_byte >= stack[-1][0]:
            stack.pop()
        if node.type in spec.imports:
            found = read_imports(spec, node, data)
            depth = sum(1 for _, qualname, _ in stack if qualname in inline_modules)
            if depth:
                found = [_from_inline_module(i, depth) for i in found]
            imports.extend(found)
            continue
        if node.type in spec.namespace_nodes or (node.start_byte, node.end_byte) in absorbed:
            continue
        definition = _definition(spec, node, data, stack, attrs, absorbed, scopes)
        if definition is None:
            continue
        if definition.kind is DefKind.VARIABLE and node.has_error:
            # a buffer mid-edit (braces unbalanced) puts a method's statements at its class's
            # level, where error recovery reads ``return new TypeToken<>(…)`` as a field
            # ``new`` (gson: the skeleton listed ``return new`` among the fields)
            continue
        definitions.append(definition)
        if node.type in spec.inline_modules:
            inline_modules.add(definition.qualname)
        if definition.kind is DefKind.CLASS or node.type == "impl_item":
            stack.append((node.end_byte, definition.qualname, DefKind.CLASS))
        elif _named_inner_type(spec, node) is None:
            stack.append((node.end_byte, definition.qualname, definition.kind))
        # else ``struct s {…} v;``: s, next, is a definition where v is, not inside v
    definitions.extend(_variables(spec, root, data))
    # a type before the variable it is defined with (``struct s {…} v;``: same lines)
    definitions.sort(key=lambda d: (d.start_line, -d.end_line, d.kind is DefKind.VARIABLE))
    prose_spans, literal_spans = _multiline_spans(language, root) if prose else ((), ())
    return FileSummary(
        language=language,
        definitions=tuple(definitions),
        imports=tuple(resolve_spreads(imports)),
        has_syntax_errors=root.has_error,
        prose_spans=prose_spans,
        literal_spans=literal_spans,
        **base,  # type: ignore[arg-type]
    )


def _from_inline_module(imp: Import, depth: int) -> Import:
    """A Rust ``use`` written inside ``depth`` inline modules (``mod tests { use super::*; }``),
    as a path from the file's own module: each inline module takes one ``super`` (``super::*``
    is the file's ``self::*``, ``super::super::x`` in one inline module the file's
    ``super::x``); ``self::…`` names the inline module's items, in the file too."""
    parts = imp.module.split("::")
    supers = next((i for i, p in enumerate(parts) if p != "super"), len(parts))
    if parts[0] == "self":
        module = "self"
    elif supers == 0:
        return imp  # an extern crate (or a module the inline one declares: rare)
    elif supers <= depth:
        module = "::".join(["self", *parts[supers:]])
    else:
        module = "::".join(parts[depth:])
    return dataclasses.replace(imp, module=module)


def _macro_item_trees(
    spec: LanguageSpec, root: tree_sitter.Node, data: bytes
) -> Iterator[tree_sitter.Node]:
    """The code inside the braces of ``spec.item_macros`` invocations at the file's top level,
    parsed on its own (the parser's included range: the file's byte offsets and rows, so its
    nodes read from ``data`` as the file's own do; ``nospin bench parse --root``)."""
    for node in root.children if spec.item_macros else ():
        if node.type not in spec.item_macros:
            continue
        body = next((c for c in node.children if c.type == "token_tree"), None)
        if body is None or data[body.start_byte : body.start_byte + 1] != b"{":
            continue
        row, column = body.start_point
        inner = tree_sitter.Range(
            (row, column + 1), body.end_point, body.start_byte + 1, body.end_byte
        )
        parser = _parser(spec.id)  # the thread's, shared: its range is put back at once
        parser.included_ranges = [inner]
        try:
            tree = parser.parse(data)
        finally:
            parser.included_ranges = []
        yield tree.root_node


_MEMBER_END = re.compile(r"[\w)\]>'\"`?]$")  # a line that ends a member of an object type
_MEMBER_START = re.compile(r"^[\w'\"\[]")  # a line that starts the next one
_MEMBER_LANGUAGES = frozenset({"typescript", "tsx", "go"})  # members end with a line break
_MEMBER_SCAN_CHARS = 4000  # lines past this are cut from the signature (400 characters) anyway
_DIRECTIVE_LANGUAGES = frozenset({"c", "cpp", "csharp"})
_DIRECTIVE = re.compile(r"#\s*(if|ifdef|ifndef|elif|else|endif|region|endregion|pragma|nullable)\b")


def _without_inner_comments(text: str, language: str) -> str:
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


def _names(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> list[str]:
    """Every name ``node`` declares (Go: ``ID, Ref int64``), by the first name field it has."""
    for field_name in spec.name_fields:
        found = node.children_by_field_name(field_name)
        if found:
            return [_text(data, child) for child in found]
    named = _path_name(spec, node)
    return [_text(data, named)] if named is not None else []


def _name(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> str:
    for field_name in spec.name_fields:
        child = node.child_by_field_name(field_name)
        if child is not None:
            part = spec.scoped_names.get(child.type)  # Ruby ``class Admin::User``: User
            if part:
                child = child.child_by_field_name(part) or child
            return _text(data, child)
    named = _path_name(spec, node)
    if named is None:
        named = _element_name(spec, node)
    return _text(data, named).lstrip("$") if named is not None else ""


def _element_name(spec: LanguageSpec, node: tree_sitter.Node) -> tree_sitter.Node | None:
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


def _path_name(spec: LanguageSpec, node: tree_sitter.Node) -> tree_sitter.Node | None:
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


def _field(spec: LanguageSpec, node: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
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
class _Declared:
    """What a C-style declarator chain declares (``LanguageSpec.declarator``)."""

    name: tree_sitter.Node
    scope: str  # C++ ``Shape::area``: "Shape" (template arguments off); "" when unqualified
    function: tree_sitter.Node | None  # the function declarator that declares the name
    outer: tree_sitter.Node  # the whole declarator


def _declared(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> _Declared | None:
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
    return _Declared(cur, scope.strip(), function, outer)


def _declared_return_type(
    node: tree_sitter.Node, type_node: tree_sitter.Node, declared: _Declared, data: bytes
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


@functools.cache
def _attribute_pattern(pattern: str) -> re.Pattern[bytes]:
    """``LanguageSpec.attribute_pattern`` compiled; ``self.x =`` / ``this.x =`` when ""."""
    return re.compile(pattern.encode()) if pattern else _SELF_ATTR


class _SelfAttributes:
    """``self.x = ...`` / ``this.x = ...`` assignments of a file, found in one pass (lazily)."""

    def __init__(self, data: bytes, pattern: re.Pattern[bytes] = _SELF_ATTR) -> None:
        self._data = data
        self._pattern = pattern
        self._offsets: list[int] | None = None
        self._names: list[str] = []

    def between(self, start: int, end: int) -> list[str]:
        if self._offsets is None:
            found = [(m.start(), m.group(1).decode()) for m in self._pattern.finditer(self._data)]
            self._offsets = [offset for offset, _ in found]
            self._names = [name for _, name in found]
        lo = bisect.bisect_left(self._offsets, start)
        hi = bisect.bisect_left(self._offsets, end)
        return self._names[lo:hi]


# after a scope: a name called or defined (``::f(``, ``::~A(``), where constructors are found
_SCOPED_CALL = re.compile(rb"::\s*~?([A-Za-z_]\w*)\s*\(")
_MEMBER_QUALIFIERS = ("type_qualifier", "ref_qualifier")  # ``f() const``, ``f() &&``


class _Scopes:
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


def _definition(
    spec: LanguageSpec,
    node: tree_sitter.Node,
    data: bytes,
    stack: list[tuple[int, str, DefKind]],
    attrs: _SelfAttributes,
    absorbed: set[tuple[int, int]],
    scopes: _Scopes | None,
) -> Definition | None:
    kind = spec.definitions[node.type]
    if kind is DefKind.VARIABLE and stack and stack[-1][2] is not DefKind.CLASS:
        return None  # a local variable (C declarations are the same node type)
    parents = spec.definition_parents.get(node.type)
    if parents and (node.parent is None or node.parent.type not in parents):
        return None  # Kotlin: a ``val`` of an ``init`` block or a lambda
    required = spec.required_fields.get(node.type)
    if required and node.child_by_field_name(required) is None:
        return None  # ``struct s *p``: a use of the type, not its definition
    name = _name(spec, node, data)
    declared = None
    if not name and spec.declarator:
        declared = _declared(spec, node, data)
        name = _text(data, declared.name) if declared is not None else ""
    if not name:
        return None
    if not _named_as_defined(spec, node.type, name):
        return None  # Ruby: ``@x = 1`` in a class body, no constant
    if kind is DefKind.VARIABLE and declared is not None and declared.function is not None:
        kind = DefKind.FUNCTION  # a prototype: ``int f(void);``
    in_class = bool(stack) and stack[-1][2] is DefKind.CLASS
    if kind is DefKind.VARIABLE and node.type in spec.member_nodes and not in_class:
        return None  # a field of a class that did not parse (its ``};`` being typed)
    parent = ""
    access = ""
    if in_class:
        parent = stack[-1][1]
        if kind is DefKind.FUNCTION:
            kind = DefKind.METHOD
        access = _access(spec, node, data)
    elif stack:
        parent = ""  # nested in a function: still indexed, qualified by the function
    elif (
        declared is not None
        and declared.scope
        and (scopes is None or not scopes.is_namespace(declared.scope, name, declared.function))
    ):  # C++ ``double Shape::area() const {``; ``Shape geom::make_shape() {`` is a function
        parent = declared.scope
        if kind is DefKind.FUNCTION:
            kind = DefKind.METHOD
    receiver = node.child_by_field_name("receiver")  # Go methods
    if receiver is not None:
        recv_type = IDENT.findall(_text(data, receiver))
        parent = recv_type[-1] if recv_type else ""
    qualname = f"{parent}.{name}" if parent else (f"{stack[-1][1]}.{name}" if stack else name)
    body = _field(spec, node, "body")
    whole = False
    if body is None and node.type == "type_spec":  # Go: a struct's or interface's body
        body = node.child_by_field_name("type")
        if body is not None and body.type not in ("struct_type", "interface_type"):
            body, whole = None, True  # ``type ID int64``, ``type H func(w io.Writer) error``
    if node.type == "type_alias_declaration":
        value = node.child_by_field_name("value")
        if value is not None and value.type == "object_type":
            body = value  # ``type Options = { a?: string }``: an interface written as a type
        else:
            whole = True  # ``type H = (c: Context) => Response``: shown as written
    # an expression for a body: Kotlin ``fun twice(x: Int) = x * 2``, C# ``int Twice(int x)
    # => x * 2;``: shown ``= …`` / ``=> …``; Kotlin ``class Empty``, ``data class P(val x:
    # Int)`` have no body to elide
    arrow = b""
    if body is not None and data[body.start_byte : body.start_byte + 1] == b"=":
        arrow = b"=>" if data[body.start_byte : body.start_byte + 2] == b"=>" else b"="
    if arrow or (spec.id == "kotlin" and body is None and kind is DefKind.CLASS):
        whole = True
    if body is not None and body.type == "ordered_field_declaration_list":
        body = None  # Rust ``struct P(i32, i32);``: shown as written
    typedef_body = False
    own_type = _named_inner_type(spec, node) if kind is DefKind.VARIABLE else None
    if body is None and node.type in spec.typedef_nodes and own_type is None:
        inner = node.child_by_field_name("type")  # typedef struct {…} name; static struct {…} v;
        body = inner.child_by_field_name("body") if inner is not None else None
        if inner is not None and body is not None:
            typedef_body = True
            absorbed.add((inner.start_byte, inner.end_byte))
    params_node = _field(spec, node, "parameters")
    own_params = [c for c in node.named_children if c.type in spec.parameter_nodes] if (
        spec.parameter_nodes and params_node is None) else []
    if declared is not None and declared.function is not None:
        params_node = declared.function.child_by_field_name("parameters")
    if node.type == "class_definition":
        params_node = node.child_by_field_name("superclasses")
    start, start_line = node.start_byte, node.start_point[0]
    wrapper = node.parent
    if wrapper is not None and wrapper.type in spec.wrapper_nodes:
        start, start_line = wrapper.start_byte, wrapper.start_point[0]  # decorators, templates
    if kind is DefKind.VARIABLE and not typedef_body:
        signature = _declaration_line(spec, node, start, data, declared, own_type)
        accessors = node.child_by_field_name("accessors")  # C# ``{ get { … } set { … } }``
        if accessors is not None and accessors.end_point[0] > accessors.start_point[0]:
            signature = _accessors_line(node, accessors, start, data)
    else:
        if spec.block_end:
            sig_text = _keyword_block_head(spec, node, body, start, data)
        elif body is not None and body.start_byte > node.start_byte:
            sig_text = data[start : body.start_byte].decode("utf-8", "replace")
        else:
            sig_text = data[start : node.end_byte].decode("utf-8", "replace")
        signature = _one_line(_without_inner_comments(sig_text, spec.id))
        if spec.block_end:
            pass  # ``def reset; end``: no declaration, a definition with an empty body
        elif body is None and kind is not DefKind.CLASS and not spec.doc_in_body:
            # a declaration without a body whose node leaves out the ";" (a TypeScript
            # interface's or abstract method): shown as written, not as ``f() { … }`` (where
            # lines end declarations, without a ";": Kotlin, Swift)
            if spec.semicolons:
                signature = signature if signature.endswith(";") else f"{signature};"
            else:
                whole = True
        if typedef_body and body is not None:  # the name follows the body
            trailer = _one_line(data[body.end_byte : node.end_byte].decode("utf-8", "replace"))
            signature = f"{signature} {spec.elided_body} {trailer}".rstrip()
    if arrow:
        signature = f"{signature} {arrow.decode()} …"
    if inline := _inline_access(spec, node, data):
        signature = f"{inline} {signature}"  # Ruby ``private def x``: x's alone
    if node.type == "type_spec" and body is not None:  # Go: "type Name struct"
        signature = f"type {name} {_text(data, body).split(None, 1)[0].split('{')[0]}"
    elif whole and node.type == "type_spec":  # Go: the ``type`` keyword is the parent's
        signature = f"type {signature}"
    if spec.noise_attributes:
        signature = _noise_pattern(spec.noise_attributes).sub("", signature)
    if len(signature) > 400:
        signature = signature[:400] + " …"
    end_line = node.end_point[0]
    if node.end_point[1] == 0 and end_line > start_line:
        end_line -= 1  # ``#define X 1\n`` ends with its newline
    if kind is DefKind.VARIABLE:  # a field, a global, a macro: its doc comment, no body
        return Definition(
            name=name,
            kind=kind,
            qualname=qualname,
            signature=signature,
            params="",
            return_type="",
            doc=_doc(spec, node, None, data) if own_type is None else "",  # else the type's
            start_line=start_line,
            end_line=end_line,
            body_start_line=start_line,
            parent=parent,
            access=access,
        )
    return_type = ""
    if kind is not DefKind.CLASS:
        ret_node = next(
            (c for f in spec.return_fields if (c := _field(spec, node, f)) is not None),
            None,
        )
        if ret_node is not None and declared is not None and declared.function is not None:
            return_type = _declared_return_type(node, ret_node, declared, data)
        elif ret_node is not None:
            return_type = _one_line(_text(data, ret_node))
    doc = _doc(spec, node, body, data)
    attributes: tuple[str, ...] = ()
    if kind is DefKind.CLASS and body is not None:
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
            name for c in children if c.type in spec.member_names for name in _names(spec, c, data)
        ]
        if spec.member_calls:  # ``attr_reader :name``: before the ``@x =`` assignments
            found = [*_called_members(spec, children, data), *found]
        attributes = tuple(dict.fromkeys([*fields, *found, *filter(None, members)]))[:32]
    body_start_line = body.start_point[0] if body is not None else node.start_point[0]
    if body is not None and body.type == "block":  # Python: body starts on the next line
        sig_lines = data.count(b"\n", start, body.start_byte)
        body_start_line = max(body_start_line, node.start_point[0] + (sig_lines or 1))
    return Definition(
        name=name,
        kind=kind,
        qualname=qualname,
        signature=signature,
        params=_one_line(_text(data, params_node)) if params_node is not None else (
            "(" + ", ".join(_one_line(_text(data, c)) for c in own_params) + ")"
            if own_params else ""),
        return_type=return_type,
        doc=doc,
        start_line=start_line,
        end_line=end_line,
        body_start_line=body_start_line,
        parent=parent,
        attributes=attributes,
        body_digest=digest_text(_text(data, node)),
        access=access,
        whole=whole,
    )


def _outside_nested_classes(
    spec: LanguageSpec, body: tree_sitter.Node, attrs: _SelfAttributes, found: list[str]
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


def _keyword_block_head(
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


def _accessors_line(
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


def _access(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> str:
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
    return node.type in spec.definitions and _named_as_defined(
        spec, node.type, _name(spec, node, data))


def _named_as_defined(spec: LanguageSpec, node_type: str, name: str) -> bool:
    """Whether ``name`` is what a ``node_type`` definition is named (``definition_names``)."""
    pattern = spec.definition_names.get(node_type)
    return not pattern or re.fullmatch(pattern, name) is not None


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


def _inline_access(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> str:
    """Ruby ``private def x``: the word that labels this one definition, or ""."""
    holder = node.parent
    if not spec.access_words or holder is None or holder.type != "argument_list":
        return ""
    call = holder.parent
    return _access_word(spec, call, data) if call is not None else ""


def _named_inner_type(spec: LanguageSpec, node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The body of the named type a C-style variable declaration defines (``struct s {…} v;``:
    s's, a definition of its own), or None (``struct s v;``, ``static struct {…} v;``, a
    typedef)."""
    if node.type not in spec.typedef_nodes or spec.definitions[node.type] is not DefKind.VARIABLE:
        return None
    inner = node.child_by_field_name("type")
    if inner is None or inner.child_by_field_name("name") is None:
        return None
    return inner.child_by_field_name("body")


def _declaration_line(
    spec: LanguageSpec,
    node: tree_sitter.Node,
    start: int,
    data: bytes,
    declared: _Declared | None,
    own_type: tree_sitter.Node | None = None,
) -> str:
    """A field, constant or macro as one skeleton line: the declaration up to the end of the
    line its name is on (annotations above it included), a longer one closed behind an
    elision (``int table[] = {1, 2, …}``, ``#define SWAP(a, b) …``). ``own_type``: the body
    of the type it defines, left out (``struct s {…} v;``: ``struct s v;``)."""
    named = declared.name if declared is not None else node.child_by_field_name("name")
    if named is None:
        named = _path_name(spec, node)
        if named is None:
            named = _element_name(spec, node)
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


_CLOSERS = {"(": ")", "[": "]", "{": "}"}


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
def _noise_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


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


def _doc(
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


def _variables(spec: LanguageSpec, root: tree_sitter.Node, data: bytes) -> list[Definition]:
    """Top-level constants and assignments: one skeleton line each (first line only)."""
    out: list[Definition] = []
    if not spec.variable_nodes:
        return out
    for child in root.named_children:
        if child.type == "export_statement":  # ``export const f = (x) => …`` (JS/TS)
            declaration = child.child_by_field_name("declaration")
            if declaration is None:
                continue
            child = declaration
        if child.type not in spec.variable_nodes:
            continue
        if spec.import_syntax == "javascript" and is_commonjs_require(_text(data, child)):
            continue  # an import (``const m = require("m")``), listed with the imports
        name = ""
        if spec.id == "python":
            inner = child.named_children[0] if child.named_child_count else None
            if inner is None or inner.type != "assignment":
                continue
            left = inner.child_by_field_name("left")
            if left is None or left.type != "identifier":
                continue
            name = _text(data, left)
        else:
            match = IDENT.findall(_text(data, child).split("=", 1)[0])
            keywords = {"const", "let", "var", "export", "static", "pub", "mut", "type"}
            names = [w for w in match if w not in keywords]
            if not names:
                continue
            name = names[0]
        first = _text(data, child).split("\n", 1)[0]
        if len(first) > 120:
            first = first[:117] + " …"
        if child.end_point[0] > child.start_point[0]:  # multi-line: the first line, closed
            closed = close_open_line(
                first.rstrip(),
                "..." if spec.id == "python" else "…",
                spec.id,
            )
            # a first line that closes nothing and goes on (``const f = (x: T): R =>``)
            first = closed if closed != first.rstrip() or spec.id == "python" else f"{closed} …"
        out.append(
            Definition(
                name=name,
                kind=DefKind.VARIABLE,
                qualname=name,
                signature=first.rstrip(),
                params="",
                return_type="",
                doc="" if spec.doc_in_body else _doc(spec, child, None, data),
                start_line=child.start_point[0],
                end_line=child.end_point[0],
                body_start_line=child.start_point[0],
                body_digest="",
            )
        )
    return out
