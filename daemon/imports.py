"""Import statements read into ``Import`` records, one reader per ``LanguageSpec.import_syntax``
(pure: tree-sitter nodes and their text in, records out). ``daemon.parse.summarize`` calls
:func:`read_imports` for each import node the language's query captures."""

from __future__ import annotations

import re
from collections.abc import Callable

import tree_sitter

from daemon.languages import LanguageSpec
from daemon.nodes import IDENT, IDENTIFIER
from daemon.nodes import node_text as _text
from daemon.nodes import one_line as _one_line
from daemon.symbols import Import

_PY_FROM = re.compile(r"^\s*from\s+([.\w]+)\s+import\s+\(?([^)]*)\)?", re.S)
_PY_IMPORT = re.compile(r"^\s*import\s+(.+)$", re.S)
_JS_FROM = re.compile(r"""^\s*import\s+(?:type\s+)?(.*?)\s*from\s*['"]([^'"]+)['"]""", re.S)
_JS_BARE = re.compile(r"""^\s*import\s*['"]([^'"]+)['"]""")
# ``export … from "m"`` (a re-export: what a barrel file, ``index.ts``, is made of)
_JS_REEXPORT = re.compile(r"""^\s*export\s+(?:type\s+)?(.*?)\s*from\s*['"]([^'"]+)['"]""", re.S)
# ``export default { ...utils, ...platform }``: the module's default export holds what the
# modules bound to those names export (axios's platform/index.js)
_JS_DEFAULT_OBJECT = re.compile(r"^\s*export\s+default\s*\{")
_JS_SPREAD = re.compile(rf"\.\.\.\s*({IDENTIFIER})\s*[,}}]")
SPREAD_PREFIX = "..."  # an Import's module until ``resolve_spreads`` names it
# CommonJS: ``const m = require("m")``, ``const { a, b: c } = require("m")``
_JS_REQUIRE = re.compile(
    rf"""^\s*(?:const|let|var)\s+(\{{[^}}]*\}}|{IDENTIFIER})\s*=\s*"""
    r"""require\(\s*['"]([^'"]+)['"]\s*\)\s*;?\s*$""",
    re.S,
)
_GO_SPEC = re.compile(r"""(?:(\w+|\.)\s+)?"([^"]+)\"""")


# what an import reader finds in one import statement: (module, names, alias, text), one
# per module it imports; text "" is the statement's own, on one line
_Found = tuple[str, tuple[str, ...], str, str]


def read_imports(spec: LanguageSpec, node: tree_sitter.Node, data: bytes) -> list[Import]:
    """The imports one import statement ``node`` of ``spec``'s language makes (none for a
    language without an import reader)."""
    reader = _IMPORT_READERS.get(spec.import_syntax)
    if reader is None:
        return []
    text = _text(data, node)
    line = node.start_point[0]
    return [
        Import(module=module, names=names, alias=alias, line=line, text=shown or _one_line(text))
        for module, names, alias, shown in reader(node, data, text)
    ]


def _python_imports(node: tree_sitter.Node, data: bytes, text: str) -> list[_Found]:
    m = _PY_FROM.match(text)
    if m:
        names: list[str] = []
        for part in m.group(2).replace("\\\n", " ").split(","):
            bits = part.split()
            if bits:
                names.append(bits[-1] if len(bits) == 3 and bits[1] == "as" else bits[0])
        return [(m.group(1), tuple(names), "", "")]
    m = _PY_IMPORT.match(text)
    if not m:
        return []
    out: list[_Found] = []
    for part in m.group(1).split(","):
        bits = part.split()
        if bits:
            module = bits[0]
            alias = bits[2] if len(bits) == 3 and bits[1] == "as" else module.split(".")[0]
            out.append((module, (), alias, ""))
    return out


def _javascript_imports(node: tree_sitter.Node, data: bytes, text: str) -> list[_Found]:
    """ES imports; re-exports (``export { a } from "./a"``: names a, ``export * from "./b"``:
    "*"; ``export * as ns from "./c"``: alias ns), which say where a barrel's names are
    defined; CommonJS ``require`` at the top level (``const { a } = require("./a")``)."""
    if node.type == "export_statement":
        m = _JS_REEXPORT.match(text)
        if m is None:
            if _JS_DEFAULT_OBJECT.match(text):  # ``export default {...utils, ...platform}``
                spreads = dict.fromkeys(_JS_SPREAD.findall(text))
                return [(SPREAD_PREFIX + name, ("*",), "", "") for name in spreads]
            return []
        clause, module = m.group(1).strip(), m.group(2)
        if clause == "*":
            return [(module, ("*",), "", "")]
        if clause.startswith("*"):
            return [(module, (), clause.split()[-1], "")]
        return [(module, _js_bound_names(clause, "as"), "", "")]
    if node.type != "import_statement":
        if node.parent is None or node.parent.type != "program" or "require" not in text:
            return []
        m = _JS_REQUIRE.match(text)
        if m is None:
            return []
        target, module = m.group(1), m.group(2)
        if target.startswith("{"):
            return [(module, _js_bound_names(target, ":"), "", "")]
        return [(module, (), target, "")]
    m = _JS_FROM.match(text)
    if m:
        clause, module = m.group(1), m.group(2)
        names = []
        alias = ""
        for word in re.split(r"[{},]", clause):
            bits = word.split()
            if not bits:
                continue
            if bits[0] == "*" and len(bits) == 3:
                alias = bits[2]
            elif len(bits) == 3 and bits[1] == "as":
                names.append(bits[2])
            elif bits[0] != "type":
                names.append(bits[-1])
        return [(module, tuple(names), alias, "")]
    m = _JS_BARE.match(text)
    return [(m.group(1), (), "", "")] if m else []


def js_default_binding(statement: str) -> str | None:
    """The name a JavaScript or TypeScript import binds to its module's default export:
    ``utils`` of ``import utils from './utils.js'`` and of ``import utils, {x} from …``; None
    for ``import {x} from …``, ``import * as ns from …`` and other statements."""
    m = _JS_FROM.match(statement)
    if m is None:
        return None
    first = m.group(1).split(",", 1)[0].strip()
    return first if first and IDENT.fullmatch(first) else None


def is_spread_reexport(imp: Import) -> bool:
    """Whether ``imp`` is an ``export default {...name}`` spread (``resolve_spreads``): the
    module's own body, no part of the file's head."""
    return imp.text.startswith("export default")


def resolve_spreads(imports: list[Import]) -> list[Import]:
    """``imports`` with each ``export default {...name}`` spread (its module ``...name``, from
    ``_javascript_imports``) read as a re-export of everything of the module its file binds
    ``name`` to (``import * as utils from './common/utils.js'`` or ``import platform from
    './node/index.js'``); a spread of a name no import binds is left out."""
    if not any(i.module.startswith(SPREAD_PREFIX) for i in imports):
        return imports
    bound: dict[str, str] = {}
    for i in imports:
        if i.module.startswith(SPREAD_PREFIX):
            continue
        for name in (*i.names, i.alias):
            if name and name != "*":
                bound.setdefault(name, i.module)
    out: list[Import] = []
    for i in imports:
        if not i.module.startswith(SPREAD_PREFIX):
            out.append(i)
        elif (module := bound.get(i.module[len(SPREAD_PREFIX):])) is not None:
            out.append(Import(module=module, names=("*",), alias="", line=i.line, text=i.text))
    return out


def _js_bound_names(clause: str, rename: str) -> tuple[str, ...]:
    """The names ``{ a, b as c }`` (``rename`` "as") or ``{ a, b: c }`` (":", a destructuring)
    binds: a, c; ``type`` markers and default values left out."""
    names: list[str] = []
    for part in clause.strip("{} \n").split(","):
        part = part.split("=", 1)[0].strip().removeprefix("type ").strip()
        bound = part.rsplit(rename, 1)[-1].strip() if rename in part else part
        if IDENT.fullmatch(bound):
            names.append(bound)
    return tuple(names)


def _go_imports(node: tree_sitter.Node, data: bytes, text: str) -> list[_Found]:
    """One per spec of a grouped ``import (…)``, each shown as an import of its own. The
    ``import`` keyword is off first: the pattern's optional alias would take it."""
    return [
        (
            module,
            (),
            alias or go_package_name(module),
            f'import {alias + " " if alias else ""}"{module}"',
        )
        for alias, module in _GO_SPEC.findall(text.removeprefix("import"))
    ]


_GO_MAJOR = re.compile(r"v[0-9]+")
_GO_NOT_IDENT = re.compile(r"[^0-9A-Za-z_]")


def go_package_name(import_path: str) -> str:
    """The name an unaliased Go import binds, as goimports assumes it: the last path element,
    less a major version element (``github.com/go-chi/chi/v5`` is ``chi``), a ``go-`` prefix
    and whatever follows the first non-identifier character (``gopkg.in/yaml.v3`` is
    ``yaml``)."""
    parts = import_path.split("/")
    base = parts[-2] if len(parts) > 1 and _GO_MAJOR.fullmatch(parts[-1]) else parts[-1]
    base = base.removeprefix("go-")
    return _GO_NOT_IDENT.split(base, 1)[0]


def _rust_imports(node: tree_sitter.Node, data: bytes, text: str) -> list[_Found]:
    """A ``use`` tree, flattened: ``use crate::a::{B, c::{self, D as E}, f::*};`` imports B of
    module ``crate::a``, module ``crate::a::c`` as ``c`` (``self``: a module alias, as
    Python's ``import a.c as c``), D of ``crate::a::c`` bound as E, and all of
    ``crate::a::f``; one import per module, in the order written. ``use a::b;`` imports b of
    ``a`` (b may be a module: ``daemon.context.retrieve`` tries it as one)."""
    argument = node.child_by_field_name("argument")
    if argument is None:
        return []
    leaves: list[tuple[list[str], str, str]] = []  # (path, alias, "name" | "self" | "*")
    _rust_use_tree(argument, [], data, leaves)
    groups: dict[str, list[tuple[str, str]]] = {}  # module -> (name, alias) written from it
    found: list[_Found] = []
    for path, alias, kind in leaves:
        if kind == "self":  # ``a::b::{self}``: the module a::b, bound as b (or its alias)
            if path:
                found.append(("::".join(path), (), alias or path[-1], f"use {'::'.join(path)};"))
            continue
        if kind == "*":
            found.append(("::".join(path), ("*",), "", f"use {'::'.join(path)}::*;"))
            continue
        if len(path) < 2 or path[-1] in ("crate", "super", "self"):
            continue  # ``use serde;`` (a crate whole), ``use super;``
        groups.setdefault("::".join(path[:-1]), []).append((path[-1], alias))
    for module, names in groups.items():
        written = ", ".join(f"{n} as {a}" if a and a != n else n for n, a in names)
        shown = f"use {module}::{written};" if len(names) == 1 else f"use {module}::{{{written}}};"
        found.append((module, tuple(a or n for n, a in names), "", shown))
    return found


def _rust_use_tree(
    node: tree_sitter.Node, prefix: list[str], data: bytes, out: list[tuple[list[str], str, str]]
) -> None:
    """The leaves of one ``use`` tree node below ``prefix`` into ``out``."""
    kind = node.type
    if kind == "scoped_use_list":
        path = node.child_by_field_name("path")
        below = prefix + (_rust_path(_text(data, path)) if path is not None else [])
        listed = node.child_by_field_name("list")
        if listed is not None:
            _rust_use_tree(listed, below, data, out)
    elif kind == "use_list":
        for child in node.named_children:
            _rust_use_tree(child, prefix, data, out)
    elif kind == "use_as_clause":
        path, alias = node.child_by_field_name("path"), node.child_by_field_name("alias")
        if path is not None:
            parts = prefix + _rust_path(_text(data, path))
            name = _text(data, alias) if alias is not None else ""
            is_self = parts[-1:] == ["self"]
            out.append((parts[:-1], name, "self") if is_self else (parts, name, "name"))
    elif kind == "use_wildcard":
        parts = _rust_path(_text(data, node).removesuffix("*").rstrip(": \n"))
        out.append((prefix + parts, "", "*"))
    elif kind in ("identifier", "scoped_identifier", "self", "crate", "super"):
        parts = prefix + _rust_path(_text(data, node))
        if parts[-1:] == ["self"]:
            out.append((parts[:-1], "", "self"))
        else:
            out.append((parts, "", "name"))


def _rust_path(text: str) -> list[str]:
    """``a :: b::c`` -> [a, b, c]; a leading ``::`` (an extern crate) stays as "" first."""
    if not text.strip():
        return []
    parts = ["".join(p.split()) for p in text.split("::")]
    return parts[:1] + [p for p in parts[1:] if p]


def _java_imports(node: tree_sitter.Node, data: bytes, text: str) -> list[_Found]:
    """``import a.b.C;`` binds C of package a.b (module "a.b", names C), as Python's ``from a.b
    import C``; ``import a.b.*;`` all of a.b ("*"); ``import static a.b.C.m;`` member m of
    class a.b.C (module "a.b.C"); ``package a.b;`` all of a.b, as ``import a.b.*;`` (a class of
    the file's own package needs no import, and the package may have folders in other source
    roots: src/test/java beside src/main/java)."""
    if node.type == "package_declaration":
        package = next((c for c in node.named_children if c.type.endswith("identifier")), None)
        if package is None:
            return []
        return [("".join(_text(data, package).split()), ("*",), "", "")]
    body = text.strip().removeprefix("import").strip()
    if body.startswith("static") and body[6:7].isspace():
        body = body[6:]
    path = "".join(body.rstrip(";").split())
    if path.endswith(".*"):
        return [(path[:-2], ("*",), "", "")]
    if "." in path:
        module, _, name = path.rpartition(".")
        return [(module, (name,), "", "")]
    return [(path, (), "", "")]
def _c_includes(node: tree_sitter.Node, data: bytes, text: str) -> list[_Found]:
    """``#include "util.h"`` (module "util.h": resolved from the including file's folder, then
    the project) binds every name of the header ("*"); ``#include <stdio.h>`` keeps its angle
    brackets (module "<stdio.h>"): a system header, resolved to a project file only when it
    names a folder a project file's path ends with (``<mylib/api.h>``: daemon/index.py)."""
    path = node.child_by_field_name("path")
    if path is None:
        return []
    module = _text(data, path)
    if path.type == "string_literal":
        module = module.strip('"')
    return [(module, ("*",), "", "")]


def _php_imports(node: tree_sitter.Node, data: bytes, text: str) -> list[_Found]:
    """Namespaces as dotted paths (``App\\Models`` -> ``App.Models``, PSR-4 resolves them by
    folder: daemon/index.py). ``use App\\Models\\User;`` binds User of App.Models (Java's
    ``import``), each class of a group ``use App\\{A, B as C};`` one import;
    ``use X\\Y as Z;`` the file of X.Y as Z; ``namespace App\\Http;`` all of App.Http (a
    class of the file's own namespace needs no ``use``); ``require``/``include`` of a path
    relative to the file (``__DIR__ . '/x.php'``, ``'x.php'``) every name of that file."""
    if node.type == "namespace_definition":
        name = node.child_by_field_name("name")
        return [(_php_dotted(_text(data, name)), ("*",), "", "")] if name is not None else []
    if node.type != "namespace_use_declaration":
        return _php_require(node, data)
    prefix = ""
    clauses: list[tree_sitter.Node] = []
    for child in node.named_children:
        if child.type == "namespace_name":
            prefix = _text(data, child)
        elif child.type == "namespace_use_group":
            clauses.extend(c for c in child.named_children if c.type == "namespace_use_clause")
        elif child.type == "namespace_use_clause":
            clauses.append(child)
    out: list[_Found] = []
    for clause in clauses:
        alias_node = clause.child_by_field_name("alias")
        path_node = next(
            (c for c in clause.named_children if c.type in ("qualified_name", "name")), None
        )
        if path_node is None:
            continue
        full = "\\".join(p for p in (prefix, _text(data, path_node).lstrip("\\")) if p)
        alias = _text(data, alias_node) if alias_node is not None else ""
        kind = node.child_by_field_name("type") or clause.child_by_field_name("type")
        use = f"use {_text(data, kind)}" if kind is not None else "use"  # function, const
        shown = f"{use} {full} as {alias};" if alias else f"{use} {full};"
        dotted = _php_dotted(full)
        if alias:
            out.append((dotted, (), alias, shown))
        else:
            module, _, last = dotted.rpartition(".")
            out.append((module or last, (last,) if module else (), "" if module else last, shown))
    return out


def _php_dotted(namespace: str) -> str:
    return ".".join(p for p in "".join(namespace.split()).split("\\") if p)


def _php_require(node: tree_sitter.Node, data: bytes) -> list[_Found]:
    """``require_once __DIR__ . '/../lib/x.php';`` -> "./../lib/x" (the file's folder);
    ``dirname(__DIR__) . '/x.php'`` -> "./../x"; a path built at run time names nothing."""
    expression = node.named_children[0] if node.named_child_count else None
    if expression is None:
        return []
    code = _text(data, expression)
    literals = re.findall(r"""['"]([^'"$]+)['"]""", code)
    if len(literals) != 1 or not literals[0].endswith((".php", ".inc")):
        return []
    path = literals[0].rsplit(".", 1)[0]
    if "dirname(__DIR__)" in code or "dirname(__FILE__)" in code:
        path = "../" + path.lstrip("/")
    elif path.startswith("/") and "__DIR__" not in code:
        return []  # an absolute path
    path = path.lstrip("/")
    return [(path if path.startswith("../") else "./" + path.removeprefix("./"), ("*",), "", "")]


_RUBY_REQUIRE = re.compile(r"""^(require_relative|require|load)[\s(]+['"]([^'"#]+)['"]""")


def _ruby_requires(node: tree_sitter.Node, data: bytes, text: str) -> list[_Found]:
    """``require_relative "x"`` (module "./x": the file's folder), ``require "shop/cart"`` and
    ``load "x.rb"`` (module "shop/cart": the project root, then the load path, lib/:
    daemon/index.py); each binds every name of the file ("*"). Other calls are no imports."""
    if not text.startswith(("require", "load")):
        return []
    m = _RUBY_REQUIRE.match(text)
    if m is None:
        return []
    kind, path = m.group(1), m.group(2).removesuffix(".rb")
    if kind == "require_relative" and not path.startswith(("./", "../")):
        path = "./" + path
    return [(path, ("*",), "", "")]
def _csharp_usings(node: tree_sitter.Node, data: bytes, text: str) -> list[_Found]:
    """``using A.B;`` (``global using`` too) names namespace A.B, all of it ("*"), wherever its
    files are (``daemon.index``: namespaces by the files that declare them); ``using static
    A.B.C;`` the members of type C (module "A.B.C", "*"); ``using X = A.B.C;`` a namespace or
    a type as X (alias X, no names). ``namespace A.B`` (file-scoped or a block; a block nested
    in another is the outer's ``A.B.Inner``) is the file's own: its types need no ``using``,
    as Java's ``package``; shown as ``namespace A.B;``."""
    if node.type != "using_directive":
        parts: list[str] = []
        scope: tree_sitter.Node | None = node
        while scope is not None:
            if scope.type in ("namespace_declaration", "file_scoped_namespace_declaration"):
                name = scope.child_by_field_name("name")
                if name is not None:
                    parts.insert(0, "".join(_text(data, name).split()))
            scope = scope.parent
        if not parts:
            return []
        module = ".".join(parts)
        return [(module, ("*",), "", f"namespace {module};")]
    body = text.strip().removeprefix("global").strip().removeprefix("using").strip()
    body = body.rstrip(";").strip()
    if body.startswith("static") and body[6:7].isspace():
        body = body[6:]
    alias = ""
    if "=" in body:
        alias, _, body = body.partition("=")
    module = "".join(body.split()).removeprefix("global::")
    if not module:
        return []
    return [(module, (), alias.strip(), "")] if alias.strip() else [(module, ("*",), "", "")]


def _kotlin_imports(node: tree_sitter.Node, data: bytes, text: str) -> list[_Found]:
    """``import a.b.C`` binds C (module "a.b.C": the file declaring C in package a.b, a class
    or a top-level function, wherever it is); ``import a.b.C as D`` binds it as D (alias D);
    ``import a.b.*`` all of package a.b ("*"); ``package a.b`` the file's own package, as
    ``import a.b.*`` (its files need no import)."""
    named = [c for c in node.named_children if c.type in ("qualified_identifier", "identifier")]
    if not named:
        return []
    module = "".join(_text(data, named[0]).split())
    if node.type != "import" or any(c.type == "*" for c in node.children):
        return [(module, ("*",), "", "")]
    if len(named) > 1:  # ``as D``
        return [(module, (), _text(data, named[-1]), "")]
    return [(module, (module.rpartition(".")[2],), "", "")]


def _swift_imports(node: tree_sitter.Node, data: bytes, text: str) -> list[_Found]:
    """``import Kit`` (also ``@testable``, ``@_exported``) binds every public name of module
    Kit ("*"); ``import struct Kit.Cart`` binds Cart of module Kit; ``import Kit.Sub`` a
    submodule, whole."""
    path = next((c for c in node.named_children if c.type == "identifier"), None)
    if path is None:
        return []
    parts = [_text(data, c) for c in path.named_children if c.type == "simple_identifier"]
    if not parts:
        return []
    kind = any(c.type in _SWIFT_IMPORT_KINDS for c in node.children)
    if kind and len(parts) > 1:  # ``import struct Kit.Cart``
        return [(".".join(parts[:-1]), (parts[-1],), "", "")]
    return [(".".join(parts), ("*",), "", "")]


_SWIFT_IMPORT_KINDS = frozenset(
    {"typealias", "struct", "class", "enum", "protocol", "let", "var", "func"}
)


_IMPORT_READERS: dict[str, Callable[[tree_sitter.Node, bytes, str], list[_Found]]] = {
    "python": _python_imports,
    "javascript": _javascript_imports,
    "go": _go_imports,
    "rust": _rust_imports,
    "java": _java_imports,
    "c": _c_includes,
    "php": _php_imports,
    "ruby": _ruby_requires,
    "csharp": _csharp_usings,
    "kotlin": _kotlin_imports,
    "swift": _swift_imports,
}


def is_commonjs_require(statement: str) -> bool:
    """Whether ``statement`` is a top-level CommonJS import (``const m = require("m")``,
    ``const { a, b: c } = require("m")``): an import, not a constant."""
    return _JS_REQUIRE.match(statement) is not None
