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
    # declarations end with ``;`` (a bodiless one is shown with it: a TypeScript interface's
    # method); off where lines end them (Kotlin, Swift: ``fun load(): List<Int>``)
    semicolons: bool = True
    # node types whose "name" field is not a plain child (Go type specs, Rust impls)
    name_fields: tuple[str, ...] = ("name",)
    variable_nodes: tuple[str, ...] = ()  # top-level assignments worth a skeleton line
    # string literal and comment node types (prose, not code: masked for identifier scoring)
    prose_nodes: tuple[str, ...] = ("string", "comment")
    # bracketed expressions (data literals, argument and parameter lists): a prompt part that
    # starts inside one spanning lines shows closers without their openers
    literal_nodes: tuple[str, ...] = ()
    # which reader of ``daemon.imports`` turns an import node into ``Import``s
    import_syntax: str = ""
    # how imports name a file of the project (``daemon.index``): "path" (the path without its
    # extension: JS/TS relative imports, Go and Rust paths), "dotted" (the dotted path and its
    # suffixes, rooted anywhere: Python modules, Java classes and packages), "file" (the path
    # with its extension and its suffixes, the importing file's folder first: C/C++ includes),
    # "folder" (as "path", and an import names a folder, all its files one package: Go),
    # "psr4" (as "dotted", and an import is also tried with its first part in lower case
    # and by its suffixes: PHP, PSR-4 maps ``App\`` to app/ and a namespace to the folders
    # below)
    # "namespace" (an import names a namespace or package the files declare wherever they are,
    # ``A.B.C`` the file declaring C in it: C#, Kotlin; ``daemon.index``)
    module_keys: str = "path"
    # an imported file's own imports are seen too (C/C++: a header's includes are the
    # includer's; ``IndexSnapshot.included_through``)
    transitive_imports: bool = False
    # fields that hold a function's return type
    return_fields: tuple[str, ...] = ("return_type", "result")
    # parent nodes that wrap a definition (Python decorators, C++ templates): the definition's
    # signature starts with them and its doc comment is above them
    wrapper_nodes: tuple[str, ...] = ()
    # C-style declarators: the name is at the end of a chain of this field (``int *f(void)``,
    # ``void (*g(int))(int)``, ``Shape::area() const``); a VARIABLE node whose name a function
    # declarator declares is a FUNCTION (a prototype). "" where names are plain fields
    declarator: str = ""
    # definitions whose ``type`` field may define a type with a body (C ``typedef struct {…}
    # name;``, ``struct s {…} v;``): that body is theirs, elided in the signature, and the
    # inner type is no definition of its own
    typedef_nodes: tuple[str, ...] = ()
    # node types that are definitions only when they have this field (C ``struct s {…}``
    # defines, ``struct s *p`` uses; ``#define GUARD_H`` without a value defines no constant)
    required_fields: dict[str, str] = field(default_factory=dict)
    # node types that declare members (C/C++ ``field_declaration``): a variable one outside a
    # class body is a member of a class that did not parse, no variable of the file
    member_nodes: tuple[str, ...] = ()
    # node types in a class body whose names are the class's attributes (enum constants)
    member_names: tuple[str, ...] = ()
    # node types in a class body that hold such members (Go: a struct's field list)
    member_lists: tuple[str, ...] = ()
    # ``self.x = …`` / ``this.x = …`` assignments name a class's attributes (Python, JS); off
    # where fields are declared and get skeleton lines of their own (Java, C++)
    self_attributes: bool = True
    # node types of access labels in a class body (C++ ``private:``): kept with the member
    # that follows them (``Definition.access``)
    access_nodes: tuple[str, ...] = ()
    # where an access label is a word, not a node of its own (Ruby ``private`` on its line, a
    # bare call, or ``private def x``): the words; shown as written, at the member's indent
    access_words: tuple[str, ...] = ()
    # node types that open or name a namespace (C++ ``namespace geom {``, ``namespace fs =
    # std::filesystem;``, ``using namespace geom;``): no definitions; a qualifier naming one
    # (``geom::Shape geom::make_shape()``) makes a function of that namespace, not a method
    namespace_nodes: tuple[str, ...] = ()
    # PHP, Ruby (a name table of their own, after the fields above):
    # declarations whose name is in a child of one of these types, not in a field of their own
    # (PHP ``private ?string $nick, $other;``: the first ``property_element``'s name, ``$`` off)
    element_nodes: tuple[str, ...] = ()
    # name nodes whose name is one of their fields, by node type: the field (Ruby ``class
    # Admin::User``, a scope_resolution: the last part, User, its "name"; Swift ``var name``
    # in a protocol, a pattern: its "bound_identifier")
    scoped_names: dict[str, str] = field(default_factory=dict)
    # the keyword that ends a block (Ruby ``end``): a signature stops before the comments that
    # follow its first line (above the first statement of the body), and a definition without
    # a body (``def reset; end``) is shown with the elided body, not ``;``
    block_end: str = ""
    # calls in a class body whose symbol arguments name the class's attributes (Ruby
    # ``attr_accessor :name, :email``)
    member_calls: tuple[str, ...] = ()
    # a pattern of the assignments that name a class's attributes in its methods, group 1 the
    # name ("": ``self.x =`` / ``this.x =``; Ruby ``@x =``)
    attribute_pattern: str = ""
    # folders whose files a bare import names by the path below them (Ruby's load path: ``lib``,
    # ``require "shop/cart"`` is lib/shop/cart.rb, also in a gem's gems/x/lib)
    load_paths: tuple[str, ...] = ()
    # a name not imported may be a class of the file named after it (Ruby on Rails, Zeitwerk:
    # ``UserMailer`` is defined in user_mailer.rb, anywhere in the project): such a definition
    # counts as imported; and a module holding nothing but classes is a namespace, not looked up
    # by its name (``Shop::Cart``: Shop is reopened in every file of the gem, Cart is the class)
    autoload: bool = False
    # what a variable's name starts with (PHP ``$user``, Ruby ``@name``): a name written so
    # is no definition's, and a parameter list's other words are its types
    variable_sigil: str = ""
    # what writes ``owner<op>member`` (C's ``p->len``, C++/PHP/Rust/Ruby ``A::b``); Python's and
    # Rust's ``->`` begins a return type instead
    member_access: tuple[str, ...] = (".",)
    # node types whose name is not a field of their own but in a child: the child types to go
    # down through, the last one's ``name`` field or the last one itself (C# ``int x, y;``:
    # variable_declaration, variable_declarator; Kotlin ``val x = 1``: variable_declaration,
    # identifier). A declaration of several names is named by the first
    name_paths: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # where a grammar has no field for a part of a definition (Kotlin): the node types of the
    # child that is its "body", "parameters" or "return_type", the first such after the name
    field_nodes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # node types that are definitions only directly inside these (Kotlin: a ``val`` in a class
    # body or a file; in a function, an ``init`` block or a lambda it is a local)
    definition_parents: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # node types that are definitions only when their name matches this pattern (Ruby: an
    # assignment in a class body defines a constant, ``TAX = 0.2``; ``@x = 1`` does not)
    definition_names: dict[str, str] = field(default_factory=dict)
    # parameters that are children of the definition itself, no list node around them (Swift):
    # ``params`` is their texts joined, in parentheses
    parameter_nodes: tuple[str, ...] = ()
    # folders whose subfolders are modules (SwiftPM ``Sources``, ``Tests``): a file's package
    # is the folder below the nearest one, its subfolders included (where there is none, the
    # file's own folder), and its files see each other's names without imports
    module_folders: tuple[str, ...] = ()
    # attributes left out of signatures, a pattern (Swift ``@available(macOS 10.15, *)``,
    # ``@inlinable``, the compiler's ``@_spi(X)``: long, and nothing a completion uses)
    noise_attributes: str = ""
    # another file's names are seen only through imports and paths (Rust: a sibling module's
    # items need a ``use`` or ``body::Sender``; a same-named item beside the file is no
    # guess worth a prompt), and ``a::b`` paths name what modules hold
    imports_only: bool = False
    # macro invocations at a file's top level that may hold items (Rust ``if_hyper! { pub use
    # self::a::Client; }``, ``cfg_if! { if #[cfg(unix)] { mod sys; } }``): their braces are
    # parsed as code too
    item_macros: tuple[str, ...] = ()
    # definitions that are module scopes inside a file (Rust ``mod tests { … }``): a ``use``
    # in one counts its ``super`` from there
    inline_modules: tuple[str, ...] = ()
    # a member written ``private`` is used from other files (C++: a .cc file's ``Status
    # DBImpl::Get`` uses the header's private fields; Ruby: a module's ``private def`` is its
    # includers'); elsewhere it is its own file's and no related definition of another file
    private_used_elsewhere: bool = False
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
            import_syntax="python",
            module_keys="dotted",
            wrapper_nodes=("decorated_definition",),
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
            # re-exports and top-level ``require`` calls too (imports._javascript_imports)
            imports=(
                "import_statement",
                "export_statement",
                "lexical_declaration",
                "variable_declaration",
            ),
            elided_body="{ … }",
            variable_nodes=("lexical_declaration", "variable_declaration"),
            import_syntax="javascript",
            # a class's fields (``count = 0;``, ``static defaults = {}``): named by ``property``
            name_fields=("name", "property"),
            member_names=("field_definition",),
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
            import_syntax="go",
            module_keys="folder",  # an import names a package: a folder, all of its files
            # a struct's fields, an interface's methods (``fields: ID, Total``)
            member_names=("field_declaration", "method_elem", "method_spec"),
            member_lists=("field_declaration_list",),
            prose_nodes=("interpreted_string_literal", "raw_string_literal", "comment"),
            literal_nodes=("literal_value", "argument_list", "parameter_list", "import_spec_list"),
        ),
        LanguageSpec(
            id="rust",
            extensions=(".rs",),
            member_access=(".", "::"),
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
                # an inline ``mod tests { … }``: its header encloses the cursor in it, its
                # functions are its own (``mod error;`` has no body: no definition)
                "mod_item": DefKind.CLASS,
            },
            required_fields={"mod_item": "body"},
            imports=("use_declaration",),
            elided_body="{ … }",
            import_syntax="rust",
            imports_only=True,
            item_macros=("macro_invocation",),
            inline_modules=("mod_item",),
            name_fields=("name", "type"),
            member_names=("field_declaration", "enum_variant"),  # fields, variants
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
                # ``type H3Connection = (\n    Connection,\n    SendRequest,\n);``, generics
                # and tuple structs over several lines
                "tuple_type",
                "type_arguments",
                "type_parameters",
                "tuple_pattern",
                "ordered_field_declaration_list",
            ),
        ),
        LanguageSpec(
            id="java",
            extensions=(".java",),
            grammar=("tree_sitter_java", "language"),
            definitions={
                "class_declaration": DefKind.CLASS,
                "interface_declaration": DefKind.CLASS,
                "enum_declaration": DefKind.CLASS,
                "record_declaration": DefKind.CLASS,
                "annotation_type_declaration": DefKind.CLASS,
                "method_declaration": DefKind.FUNCTION,
                "constructor_declaration": DefKind.FUNCTION,
                "compact_constructor_declaration": DefKind.FUNCTION,
                "field_declaration": DefKind.VARIABLE,
                "constant_declaration": DefKind.VARIABLE,
            },
            # the package declaration: the file's own package is visible without an import,
            # wherever its other folders are (src/test/java beside src/main/java)
            imports=("import_declaration", "package_declaration"),
            elided_body="{ … }",
            prose_nodes=("string_literal", "character_literal", "line_comment", "block_comment"),
            literal_nodes=(
                "array_initializer",
                "argument_list",
                "formal_parameters",
                "parenthesized_expression",
                "annotation_argument_list",
                "element_value_array_initializer",
            ),
            import_syntax="java",
            module_keys="dotted",
            return_fields=("type",),
            declarator="declarator",
            member_names=("enum_constant",),
            self_attributes=False,
        ),
        LanguageSpec(
            id="c",
            extensions=(".c",),
            member_access=(".", "->"),
            private_used_elsewhere=True,
            grammar=("tree_sitter_c", "language"),
            definitions={
                "function_definition": DefKind.FUNCTION,
                "declaration": DefKind.VARIABLE,  # a prototype: FUNCTION (``declarator``)
                "field_declaration": DefKind.VARIABLE,
                "struct_specifier": DefKind.CLASS,
                "union_specifier": DefKind.CLASS,
                "enum_specifier": DefKind.CLASS,
                "type_definition": DefKind.CLASS,
                "preproc_def": DefKind.VARIABLE,
                "preproc_function_def": DefKind.VARIABLE,
            },
            imports=("preproc_include",),
            elided_body="{ … }",
            prose_nodes=("string_literal", "char_literal", "comment"),
            literal_nodes=(
                "initializer_list",
                "argument_list",
                "parameter_list",
                "parenthesized_expression",
            ),
            import_syntax="c",
            module_keys="file",
            transitive_imports=True,
            return_fields=("type",),
            declarator="declarator",
            typedef_nodes=("type_definition", "declaration"),
            required_fields={
                "struct_specifier": "body",
                "union_specifier": "body",
                "enum_specifier": "body",
                "preproc_def": "value",
            },
            member_names=("enumerator",),
            member_nodes=("field_declaration",),
            self_attributes=False,
        ),
    )
}

# C++ is C plus classes, namespaces (not definitions: their members are top-level ones, a
# namespace spanning a file would otherwise be one skeleton entry), templates (the template
# line is part of the signature) and raw strings. ``.h`` is C++: the C++ grammar parses C
# headers as well as the C grammar does (``restrict`` included; C code naming a variable
# ``new`` or ``class`` is what it gets wrong), the C grammar turns a C++ header's classes,
# templates and namespaces into errors, and a C++ project's headers are mostly ``.h``
LANGUAGES["cpp"] = dataclasses.replace(
    LANGUAGES["c"],
    id="cpp",
    member_access=(".", "->", "::"),
    extensions=(".cpp", ".cc", ".cxx", ".c++", ".h", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp",
                ".cu", ".cuh"),  # CUDA: the C++ grammar finds its functions (<<<...>>> is an error)
    grammar=("tree_sitter_cpp", "language"),
    definitions={
        **LANGUAGES["c"].definitions,
        "class_specifier": DefKind.CLASS,
        "alias_declaration": DefKind.CLASS,
    },
    prose_nodes=("string_literal", "char_literal", "raw_string_literal", "comment"),
    literal_nodes=(
        *LANGUAGES["c"].literal_nodes,
        "template_argument_list",
        "template_parameter_list",
    ),
    wrapper_nodes=("template_declaration",),
    access_nodes=("access_specifier",),
    namespace_nodes=("namespace_definition", "namespace_alias_definition", "using_declaration"),
    typedef_nodes=("type_definition", "declaration", "field_declaration"),
    required_fields={**LANGUAGES["c"].required_fields, "class_specifier": "body"},
)

# PHP: the grammar with the text around ``<?php … ?>`` (a template's HTML); namespaces are no
# definitions: ``namespace App\Http;`` is read as an import of the namespace (Java's package)
LANGUAGES["php"] = LanguageSpec(
    id="php",
    member_access=(".", "->", "::"),
    extensions=(".php", ".phtml"),
    grammar=("tree_sitter_php", "language_php"),
    definitions={
        "class_declaration": DefKind.CLASS,
        "interface_declaration": DefKind.CLASS,
        "trait_declaration": DefKind.CLASS,
        "enum_declaration": DefKind.CLASS,
        "function_definition": DefKind.FUNCTION,
        "method_declaration": DefKind.FUNCTION,
        "property_declaration": DefKind.VARIABLE,
        "const_declaration": DefKind.VARIABLE,
    },
    imports=(
        "namespace_use_declaration",
        "namespace_definition",
        "require_expression",
        "require_once_expression",
        "include_expression",
        "include_once_expression",
    ),
    elided_body="{ … }",
    prose_nodes=("string", "encapsed_string", "heredoc", "nowdoc", "comment"),
    literal_nodes=(
        "array_creation_expression",
        "arguments",
        "formal_parameters",
        "parenthesized_expression",
        "namespace_use_group",
    ),
    import_syntax="php",
    module_keys="psr4",
    member_names=("enum_case",),
    self_attributes=False,
    element_nodes=("property_element", "const_element"),
    variable_sigil="$",
)
LANGUAGES["ruby"] = LanguageSpec(
    id="ruby",
    member_access=(".", "::"),
    extensions=(".rb", ".rake", ".gemspec", ".ru"),
    private_used_elsewhere=True,
    grammar=("tree_sitter_ruby", "language"),
    definitions={
        "module": DefKind.CLASS,
        "class": DefKind.CLASS,
        "method": DefKind.FUNCTION,
        "singleton_method": DefKind.FUNCTION,  # ``def self.build``: a method of its class
        "assignment": DefKind.VARIABLE,  # a constant of a class or module (top level: below)
    },
    # ``require``, ``require_relative``, ``load``: calls (imports._ruby_requires keeps those)
    imports=("call",),
    elided_body="… end",
    variable_nodes=("assignment",),
    prose_nodes=(
        "string",
        "heredoc_body",
        "comment",
        "regex",
        "string_array",
        "symbol_array",
        "subshell",
    ),
    literal_nodes=(
        "array",
        "hash",
        "argument_list",
        "method_parameters",
        "parenthesized_statements",
        "block_parameters",
    ),
    import_syntax="ruby",
    scoped_names={"scope_resolution": "name"},
    name_fields=("name", "left"),
    # top-level assignments are ``variable_nodes``; in a method they are locals
    definition_parents={"assignment": ("body_statement",)},
    definition_names={"assignment": r"[A-Z][A-Za-z0-9_]*"},
    access_nodes=("identifier", "call"),
    access_words=("private", "protected", "public"),
    block_end="end",
    member_calls=("attr_accessor", "attr_reader", "attr_writer"),
    attribute_pattern=r"@([A-Za-z_][A-Za-z0-9_]*)\s*=(?![=~>])",
    load_paths=("lib",),
    autoload=True,
    variable_sigil="@",
)

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
    # an interface's properties and a class's declared fields (``cents: number;``)
    member_names=("property_signature", "public_field_definition"),
)
LANGUAGES["tsx"] = dataclasses.replace(
    LANGUAGES["typescript"],
    id="tsx",
    extensions=(".tsx",),
    grammar=("tree_sitter_typescript", "language_tsx"),
)

# C#: types, members, properties and fields (``int x, y;``: one line, named x); ``///`` XML
# doc's <summary> as the doc line. A file's namespaces (file-scoped or blocks, not
# definitions: their types are top level) are read as imports of themselves, as Java's
# ``package``; ``using`` names a namespace, which may span files and folders (module_keys
# "namespace")
LANGUAGES["csharp"] = LanguageSpec(
    id="csharp",
    extensions=(".cs", ".csx"),
    grammar=("tree_sitter_c_sharp", "language"),
    definitions={
        "class_declaration": DefKind.CLASS,
        "struct_declaration": DefKind.CLASS,
        "interface_declaration": DefKind.CLASS,
        "enum_declaration": DefKind.CLASS,
        "record_declaration": DefKind.CLASS,
        "delegate_declaration": DefKind.CLASS,
        "method_declaration": DefKind.FUNCTION,
        "constructor_declaration": DefKind.FUNCTION,
        "property_declaration": DefKind.VARIABLE,
        "field_declaration": DefKind.VARIABLE,
        "event_field_declaration": DefKind.VARIABLE,
    },
    imports=("using_directive", "namespace_declaration", "file_scoped_namespace_declaration"),
    elided_body="{ … }",
    prose_nodes=(
        "string_literal",
        "verbatim_string_literal",
        "raw_string_literal",
        "interpolated_string_expression",
        "character_literal",
        "comment",
    ),
    literal_nodes=(
        "initializer_expression",
        "collection_expression",
        "anonymous_object_creation_expression",
        "argument_list",
        "parameter_list",
        "bracketed_argument_list",
        "parenthesized_expression",
        "attribute_argument_list",
    ),
    import_syntax="csharp",
    module_keys="namespace",
    return_fields=("returns",),
    field_nodes={"parameters": ("parameter_list",)},  # a record's: ``record Id(int Value);``
    member_names=("enum_member_declaration",),
    self_attributes=False,
    name_paths={
        "field_declaration": ("variable_declaration", "variable_declarator"),
        "event_field_declaration": ("variable_declaration", "variable_declarator"),
    },
)

# Kotlin: classes, objects (a companion's members are its class's), interfaces, functions
# (extension functions named by the function: ``fun String.slug()`` is ``slug``), properties
# and type aliases as one line; KDoc. The grammar names few parts by field (field_nodes).
# ``package a.b`` and imports name packages the files declare (module_keys "namespace")
LANGUAGES["kotlin"] = LanguageSpec(
    id="kotlin",
    extensions=(".kt", ".kts"),
    grammar=("tree_sitter_kotlin", "language"),
    definitions={
        "class_declaration": DefKind.CLASS,
        "object_declaration": DefKind.CLASS,
        "companion_object": DefKind.CLASS,
        "function_declaration": DefKind.FUNCTION,
        "property_declaration": DefKind.VARIABLE,
        "type_alias": DefKind.VARIABLE,
    },
    imports=("import", "package_header"),
    elided_body="{ … }",
    prose_nodes=(
        "string_literal",
        "multiline_string_literal",
        "character_literal",
        "line_comment",
        "block_comment",
    ),
    literal_nodes=(
        "value_arguments",
        "function_value_parameters",
        "class_parameters",
        "collection_literal",
        "parenthesized_expression",
    ),
    import_syntax="kotlin",
    module_keys="namespace",
    return_fields=("return_type",),
    member_names=("enum_entry",),
    self_attributes=False,
    name_paths={
        "property_declaration": ("variable_declaration", "identifier"),
        "type_alias": ("identifier",),
        "enum_entry": ("identifier",),
    },
    field_nodes={
        "body": ("class_body", "enum_class_body", "function_body"),
        "parameters": ("function_value_parameters", "primary_constructor"),
        "return_type": ("user_type", "nullable_type", "function_type", "parenthesized_type"),
    },
    definition_parents={"property_declaration": ("class_body", "enum_class_body", "source_file")},
    semicolons=False,
)

# Swift: classes, structs, enums, actors and extensions (one node type: class_declaration; an
# extension is named by the type it extends), protocols and their requirements, functions,
# initializers, properties and type aliases; ``///`` and ``/** */`` docs. ``import Kit``
# names a module: a SwiftPM target (Sources/Kit, its subfolders included) or a folder so
# named; a module's files see each other's names without imports (module_folders)
_SWIFT_TYPES = (
    "user_type", "optional_type", "array_type", "dictionary_type", "tuple_type",
    "function_type", "opaque_type", "existential_type", "metatype", "protocol_composition_type",
)
LANGUAGES["swift"] = LanguageSpec(
    id="swift",
    extensions=(".swift",),
    grammar=("tree_sitter_swift", "language"),
    definitions={
        "class_declaration": DefKind.CLASS,
        "protocol_declaration": DefKind.CLASS,
        "function_declaration": DefKind.FUNCTION,
        "init_declaration": DefKind.FUNCTION,
        "protocol_function_declaration": DefKind.FUNCTION,
        "property_declaration": DefKind.VARIABLE,
        "protocol_property_declaration": DefKind.VARIABLE,
        "typealias_declaration": DefKind.VARIABLE,
    },
    imports=("import_declaration",),
    elided_body="{ … }",
    prose_nodes=(
        "line_string_literal",
        "multi_line_string_literal",
        "raw_string_literal",
        "comment",
        "multiline_comment",
    ),
    literal_nodes=(
        "value_arguments",
        "array_literal",
        "dictionary_literal",
        "tuple_expression",
    ),
    import_syntax="swift",
    module_keys="folder",
    return_fields=("return_type",),
    field_nodes={"return_type": _SWIFT_TYPES},
    parameter_nodes=("parameter",),
    member_names=("enum_entry",),
    self_attributes=False,
    scoped_names={"pattern": "bound_identifier"},
    definition_parents={
        "property_declaration": ("class_body", "enum_class_body", "source_file"),
    },
    module_folders=("Sources", "Tests"),
    semicolons=False,
    noise_attributes=r"@(?:available|_\w+)(?:\((?:[^()]|\([^()]*\))*\))?\s*"
    r"|@(?:inlinable|usableFromInline)\b\s*",
)

_BY_EXTENSION: dict[str, str] = {
    ext: spec.id for spec in LANGUAGES.values() for ext in spec.extensions
}
# files known by their whole name, without an extension
_BY_NAME: dict[str, str] = {"Gemfile": "ruby", "Rakefile": "ruby", "Guardfile": "ruby"}

TEXT = "text"


def detect_language(path: str) -> str:
    """Language id for a path from its extension; "text" when nospin has no grammar for it."""
    pure = PurePath(path)
    return _BY_EXTENSION.get(pure.suffix.lower()) or _BY_NAME.get(pure.name, TEXT)


def editor_language(path: str, given: str | None) -> str:
    """The language of a document the editor calls ``given`` (an LSP language id): ``given``,
    unless nospin has no grammar for it and has one for the path's extension (Emacs' eglot
    names C++ "c++" after its mode, VS Code's JSX "javascriptreact"); the path's when none."""
    detected = detect_language(path)
    if not given or (given not in LANGUAGES and detected in LANGUAGES):
        return detected
    return given


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
    """One query capturing every definition, import and namespace node of the language as
    @node."""
    spec = LANGUAGES[language]
    types = [*spec.definitions, *spec.imports, *spec.namespace_nodes]
    pattern = "[" + " ".join(f"({t})" for t in types) + "] @node"
    return tree_sitter.Query(ts_language(language), pattern)
