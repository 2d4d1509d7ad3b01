"""Parse one file into a FileSummary: definitions with signatures, imports.

``summarize`` is pure (text in, summary out) and never raises on bad syntax: tree-sitter's
partial tree is used and ``has_syntax_errors`` says so. Called by the indexer for files on disk
and by the context assembler for unsaved editor buffers.

Each job has its module: ``parse_tree`` (the tree, prose masks, spans), ``parse_definitions``
(a node as a ``Definition``) with ``parse_names``, ``parse_access``, ``parse_signature``,
``parse_docs`` and ``parse_members``; imports are read by ``daemon.imports``. This module is
the entry the rest of nospin imports from.
"""

from __future__ import annotations

import dataclasses

import tree_sitter

from daemon.imports import read_imports, resolve_spreads
from daemon.languages import LANGUAGES, TEXT, definitions_query, detect_language
from daemon.manifests import read_module_roots
from daemon.nodes import IDENT, IDENTIFIER, digest_text
from daemon.parse_definitions import read_definition, top_level_variables
from daemon.parse_docs import first_doc_line
from daemon.parse_members import SelfAttributes, attribute_pattern
from daemon.parse_names import Scopes, named_inner_type
from daemon.parse_signature import close_open_line
from daemon.parse_tree import (
    macro_item_trees,
    mask_prose,
    multiline_spans,
    parse_bytes,
    top_level_spans,
)
from daemon.symbols import Definition, DefKind, FileSummary, Import

__all__ = [
    "IDENT",
    "IDENTIFIER",
    "close_open_line",
    "digest_text",
    "first_doc_line",
    "mask_prose",
    "summarize",
    "top_level_spans",
]


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
    # same byte offsets as data, whatever a work-around changed
    tree = parse_bytes(language, data)
    root = tree.root_node
    nodes = tree_sitter.QueryCursor(definitions_query(language)).captures(root).get("node", [])
    for inner in macro_item_trees(spec, root, data):
        nodes.extend(
            tree_sitter.QueryCursor(definitions_query(language)).captures(inner).get("node", [])
        )
    nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
    definitions: list[Definition] = []
    imports: list[Import] = []
    # stack of (end_byte, qualname, kind) for nesting
    stack: list[tuple[int, str, DefKind]] = []
    attrs = SelfAttributes(data, attribute_pattern(spec.attribute_pattern))
    absorbed: set[tuple[int, int]] = set()  # inner types whose body a typedef took
    scopes = Scopes(spec, nodes, data) if spec.namespace_nodes else None
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
        definition = read_definition(spec, node, data, stack, attrs, absorbed, scopes)
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
        elif named_inner_type(spec, node) is None:
            stack.append((node.end_byte, definition.qualname, definition.kind))
        # else ``struct s {…} v;``: s, next, is a definition where v is, not inside v
    definitions.extend(top_level_variables(spec, root, data))
    # a type before the variable it is defined with (``struct s {…} v;``: same lines)
    definitions.sort(key=lambda d: (d.start_line, -d.end_line, d.kind is DefKind.VARIABLE))
    prose_spans, literal_spans = multiline_spans(language, root) if prose else ((), ())
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
