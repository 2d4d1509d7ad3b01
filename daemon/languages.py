"""Languages nospin parses with tree-sitter, and how their definitions look.

One table (``LANGUAGES``) holds every language-specific fact the indexer needs: file extensions,
grammar loader, definition node types and their kinds, import node types, how a body is elided
and how a comment is written. Generic code reads the table; it never tests language names.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import tree_sitter

from daemon.symbols import DefKind
from engine.profiles import line_comment


@dataclass(frozen=True, slots=True)
class LanguageSpec:
    id: str
    extensions: tuple[str, ...]
    grammar: tuple[str, str]  # (module, function) returning the grammar's language pointer
    definitions: dict[str, DefKind]  # node type -> kind (functions become methods inside classes)
    imports: tuple[str, ...]  # node types of import statements
    elided_body: str  # what replaces a body in a skeleton
    doc_in_body: bool = False  # docstring is the first statement of the body (Python)
    # node types whose "name" field is not a plain child (Go type specs, Rust impls)
    name_fields: tuple[str, ...] = ("name",)
    variable_nodes: tuple[str, ...] = ()  # top-level assignments worth a skeleton line
    # string literal and comment node types (prose, not code: masked for identifier scoring)
    prose_nodes: tuple[str, ...] = ("string", "comment")
    # bracketed expressions (data literals, argument and parameter lists): a prompt part that
    # starts inside one spanning lines shows closers without their openers
    literal_nodes: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


LANGUAGES: dict[str, LanguageSpec] = {
    spec.id: spec
    for spec in (
        LanguageSpec(
            id="python",
            extensions=(".py", ".pyi", ".pyw"),
            grammar=("tree_sitter_python", "language"),
            definitions={
                "function_definition": DefKind.FUNCTION,
                "class_definition": DefKind.CLASS,
            },
            imports=("import_statement", "import_from_statement", "future_import_statement"),
            elided_body="...",
            doc_in_body=True,
            variable_nodes=("expression_statement",),
            literal_nodes=(
                "dictionary",
                "list",
                "set",
                "tuple",
                "argument_list",
                "parameters",
                "parenthesized_expression",
                "list_comprehension",
                "set_comprehension",
                "dictionary_comprehension",
                "generator_expression",
                "import_from_statement",
            ),
        ),
        LanguageSpec(
            id="javascript",
            extensions=(".js", ".mjs", ".cjs", ".jsx"),
            grammar=("tree_sitter_javascript", "language"),
            definitions={
                "function_declaration": DefKind.FUNCTION,
                "generator_function_declaration": DefKind.FUNCTION,
                "class_declaration": DefKind.CLASS,
                "method_definition": DefKind.METHOD,
            },
            imports=("import_statement",),
            elided_body="{ … }",
            variable_nodes=("lexical_declaration", "variable_declaration"),
            prose_nodes=("string", "template_string", "comment"),
            literal_nodes=(
                "object",
                "array",
                "arguments",
                "formal_parameters",
                "parenthesized_expression",
                "object_pattern",
                "array_pattern",
                "named_imports",
            ),
        ),
        LanguageSpec(
            id="go",
            extensions=(".go",),
            grammar=("tree_sitter_go", "language"),
            definitions={
                "function_declaration": DefKind.FUNCTION,
                "method_declaration": DefKind.METHOD,
                "type_spec": DefKind.CLASS,
            },
            imports=("import_declaration",),
            elided_body="{ … }",
            variable_nodes=("const_declaration", "var_declaration"),
            prose_nodes=("interpreted_string_literal", "raw_string_literal", "comment"),
            literal_nodes=("literal_value", "argument_list", "parameter_list", "import_spec_list"),
        ),
        LanguageSpec(
            id="rust",
            extensions=(".rs",),
            grammar=("tree_sitter_rust", "language"),
            definitions={
                "function_item": DefKind.FUNCTION,
                "function_signature_item": DefKind.FUNCTION,
                "struct_item": DefKind.CLASS,
                "enum_item": DefKind.CLASS,
                "trait_item": DefKind.CLASS,
                "impl_item": DefKind.CLASS,
                "type_item": DefKind.CLASS,
                "union_item": DefKind.CLASS,
            },
            imports=("use_declaration",),
            elided_body="{ … }",
            name_fields=("name", "type"),
            variable_nodes=("const_item", "static_item"),
            prose_nodes=("string_literal", "raw_string_literal", "line_comment", "block_comment"),
            literal_nodes=(
                "array_expression",
                "tuple_expression",
                "arguments",
                "parameters",
                "field_initializer_list",
                "token_tree",
                "use_list",
            ),
        ),
    )
}

# TypeScript is JavaScript plus type-level definitions; TSX is TypeScript with JSX
LANGUAGES["typescript"] = dataclasses.replace(
    LANGUAGES["javascript"],
    id="typescript",
    extensions=(".ts", ".mts", ".cts"),
    grammar=("tree_sitter_typescript", "language_typescript"),
    definitions={
        **LANGUAGES["javascript"].definitions,
        "function_signature": DefKind.FUNCTION,
        "abstract_class_declaration": DefKind.CLASS,
        "interface_declaration": DefKind.CLASS,
        "enum_declaration": DefKind.CLASS,
        "type_alias_declaration": DefKind.CLASS,
        "method_signature": DefKind.METHOD,
        "abstract_method_signature": DefKind.METHOD,
    },
)
LANGUAGES["tsx"] = dataclasses.replace(
    LANGUAGES["typescript"],
    id="tsx",
    extensions=(".tsx",),
    grammar=("tree_sitter_typescript", "language_tsx"),
)

_BY_EXTENSION: dict[str, str] = {
    ext: spec.id for spec in LANGUAGES.values() for ext in spec.extensions
}

TEXT = "text"


def detect_language(path: str) -> str:
    """Language id for a path from its extension; "text" when nospin has no grammar for it."""
    return _BY_EXTENSION.get(PurePath(path).suffix.lower(), TEXT)


def comment_leader(language: str) -> str:
    """The line-comment marker of ``language``: the engine's table (one table for both)."""
    return line_comment(language)


@functools.cache
def ts_language(language: str) -> tree_sitter.Language:
    spec = LANGUAGES[language]
    module = importlib.import_module(spec.grammar[0])
    loader: Callable[[], object] = getattr(module, spec.grammar[1])
    return tree_sitter.Language(loader())


@functools.cache
def prose_query(language: str) -> tree_sitter.Query:
    """A query capturing string literals and comments of the language as @prose."""
    spec = LANGUAGES[language]
    pattern = "[" + " ".join(f"({t})" for t in spec.prose_nodes) + "] @prose"
    return tree_sitter.Query(ts_language(language), pattern)


@functools.cache
def definitions_query(language: str) -> tree_sitter.Query:
    """One query capturing every definition and import node of the language as @node."""
    spec = LANGUAGES[language]
    types = [*spec.definitions, *spec.imports]
    pattern = "[" + " ".join(f"({t})" for t in types) + "] @node"
    return tree_sitter.Query(ts_language(language), pattern)
