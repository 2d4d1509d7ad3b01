"""The tree-sitter tree of a file, and what is read off the whole tree.

One parser per language and thread; ``parse_bytes`` applies the grammar work-arounds
(``daemon/grammar_fixes.py``). Also here: prose masking, top-level statement spans, multi-line
string and literal spans, and the trees of the code inside Rust item macros.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import tree_sitter

from daemon import grammar_fixes
from daemon.languages import LANGUAGES, LanguageSpec

_local = threading.local()


def parser_for(language: str) -> tree_sitter.Parser:
    """This thread's parser for ``language`` (made on first use)."""
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


def parse_bytes(language: str, data: bytes) -> tree_sitter.Tree:
    """The tree of ``data``, with the grammar work-arounds (daemon/grammar_fixes.py)."""
    return grammar_fixes.parse(parser_for(language), language, data)


def mask_prose(text: str, language: str) -> bytes:
    """UTF-8 bytes of ``text`` with string literals and comments blanked out (same length).

    Used to score identifiers of code only: words inside strings and comments are prose.
    """
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    if language not in LANGUAGES:
        return bytes(data)
    from daemon.languages import prose_query

    tree = parse_bytes(language, bytes(data))
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
    root = parse_bytes(language, text.encode("utf-8", "surrogatepass")).root_node
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


def multiline_spans(language: str, root: tree_sitter.Node) -> tuple[Spans, Spans]:
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


def macro_item_trees(
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
        parser = parser_for(spec.id)  # the thread's, shared: its range is put back at once
        parser.included_ranges = [inner]
        try:
            tree = parser.parse(data)
        finally:
            parser.included_ranges = []
        yield tree.root_node
