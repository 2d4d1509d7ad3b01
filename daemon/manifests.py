"""What a project manifest says its code is imported as (pure).

- ``go.mod``: ``module github.com/go-chi/chi/v5``: the folder is that import path, and each
  folder below it (down to the next ``go.mod``) is the path plus the folder's (Go's own rule;
  a project's own packages are imported by that path, whatever its folders are called).
- ``package.json`` with a ``name``: in a JS/TS monorepo (npm, yarn, pnpm workspaces) another
  package imports it by that name (``@acme/ui``, ``@acme/ui/button`` for its
  ``button.ts`` or ``src/button.ts``); its entry files are the ``types``, ``source``,
  ``module``, ``main`` and ``exports["."]`` it names; its other ``exports`` subpaths
  (``"./button": "./src/button.ts"``, ``"./utils/*": "./src/utils/*.ts"``) name theirs.
- ``tsconfig*.json`` / ``jsconfig.json`` (JSON with comments): ``compilerOptions.paths``
  aliases (``"@app/*": ["src/app/*"]``, ``"config": ["src/config.ts"]``), relative to
  ``baseUrl`` when it is set, and ``baseUrl`` itself (non-relative imports from that folder).
  ``extends`` is not followed: every tsconfig's aliases are the project's.
- ``Package.swift``: a SwiftPM target with a ``path:`` (``.target(name: "Core", path:
  "Modules/Core")``) is the Swift module ``Core`` made of that folder's files (``import Core``
  names it, and its files see each other's names); targets without one are in
  ``Sources/<name>`` or ``Tests/<name>``, which ``LanguageSpec.module_folders`` covers.

``daemon.index`` turns these into import keys; ``daemon.parse.summarize`` calls
:func:`read_module_roots` for files with these names. Anything malformed gives nothing: a
manifest that does not read (being typed) is no reason to lose its folder's files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

import json5

from daemon.symbols import ModuleRoot

_GO_MODULE = re.compile(r'^\s*module\s+"?([^\s"/][^\s"]*)"?\s*(?://.*)?$', re.MULTILINE)
# package.json fields naming the package's own entry, most source-like first (a monorepo's
# ``types`` or ``source`` often names src/index.ts where ``main`` names a build output)
_ENTRY_FIELDS = ("types", "typings", "source", "module", "main")
_MAX_ENTRIES = 8
_MAX_ALIASES = 64
_MAX_MANIFEST_CHARS = 1 << 20  # a manifest is small; a generated file so named is not read


def _go_mod(text: str) -> tuple[ModuleRoot, ...]:
    found = _GO_MODULE.search(text)
    return (ModuleRoot(found.group(1), under=""),) if found else ()


def _export_targets(value: Any, out: list[str]) -> None:
    """The file paths of one ``exports`` value: a string, a conditions object (``types``,
    ``import``, ``default``, … in the order written) or a list of fallbacks."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, list):
        for item in value:
            _export_targets(item, out)
    elif isinstance(value, dict):
        for key, item in value.items():
            if not key.startswith("."):  # a condition, not a subpath
                _export_targets(item, out)


def _relative(path: str) -> str | None:
    """``path`` as a clean relative path ("." for the folder itself), or None when it leaves
    the folder, is absolute or has a wildcard."""
    if not path or "*" in path or path.startswith("/"):
        return None
    clean = str(PurePosixPath(path))
    return None if clean == ".." or clean.startswith("../") else clean


def _package_json(text: str) -> tuple[ModuleRoot, ...]:
    try:
        data = json.loads(text)
    except ValueError:
        return ()
    if not isinstance(data, dict):
        return ()
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or any(c.isspace() for c in name):
        return ()
    entries: list[str] = [data[f] for f in _ENTRY_FIELDS if isinstance(data.get(f), str)]
    exports = data.get("exports")
    if isinstance(exports, dict) and any(k.startswith(".") for k in exports):
        _export_targets(exports.get("."), entries)
    else:  # ``"exports": "./index.js"`` or a conditions object for "." alone
        _export_targets(exports, entries)
    name = name.strip()
    subpaths = _export_subpaths(name, exports) if isinstance(exports, dict) else ()
    # ``@acme/ui/button``: what ``exports`` maps it to, else button.ts beside package.json,
    # else src/button.ts (the first root to name a file keeps its key)
    return (*subpaths, ModuleRoot(name, _entries(entries), under=""),
            ModuleRoot(name, under="src"))


def _entries(paths: list[str]) -> tuple[str, ...]:
    cleaned = (_relative(e) for e in paths)
    return tuple(dict.fromkeys(e for e in cleaned if e is not None))[:_MAX_ENTRIES]


# a subpath pattern's target: a folder, ``*``, and nothing or an extension after it
_PATTERN_TARGET = re.compile(r"(?P<folder>.*/)?\*(?:\.[\w-]+)*")


def _export_subpaths(name: str, exports: dict[str, Any]) -> tuple[ModuleRoot, ...]:
    """The roots of ``exports`` subpaths other than ".": ``"./button": "./src/button.ts"``
    names ``name/button``'s files (every target written, conditions included: the index
    keeps the first it has); ``"./utils/*": "./src/utils/*.ts"`` names the files below
    src/utils as ``name/utils/<path>``. Patterns with text after the ``*`` other than an
    extension, and ``null`` targets (a private subpath), name nothing."""
    roots: list[ModuleRoot] = []
    for key, value in list(exports.items())[:_MAX_ALIASES]:
        if not key.startswith("./") or value is None:
            continue
        targets: list[str] = []
        _export_targets(value, targets)
        sub = key[2:]
        if "*" not in sub:
            found = _entries(targets)
            if found and sub:
                roots.append(ModuleRoot(f"{name}/{sub}", found))
            continue
        if (sub != "*" and not sub.endswith("/*")) or sub.count("*") > 1:
            continue
        alias = f"{name}/{sub[:-2]}" if sub != "*" else name
        for target in targets:
            match = _PATTERN_TARGET.fullmatch(target)
            place = _relative(match.group("folder") or ".") if match else None
            if place is not None:
                roots.append(ModuleRoot(alias, under=place))
    return tuple(dict.fromkeys(roots))


def _tsconfig(text: str) -> tuple[ModuleRoot, ...]:
    try:
        data = json5.loads(text)
    except ValueError:
        return ()
    options = data.get("compilerOptions") if isinstance(data, dict) else None
    if not isinstance(options, dict):
        return ()
    base_url = options.get("baseUrl")
    base = _relative(base_url) if isinstance(base_url, str) else None
    roots: list[ModuleRoot] = []
    paths = options.get("paths")
    for alias, targets in list(paths.items())[:_MAX_ALIASES] if isinstance(paths, dict) else ():
        if not isinstance(alias, str) or not isinstance(targets, list):
            continue
        wildcard = alias.endswith("/*")
        if not wildcard and "*" in alias:
            continue  # "*" alone, or a wildcard inside: not a prefix of a path
        name = alias[:-2] if wildcard else alias
        for target in targets:
            if not isinstance(target, str) or wildcard != target.endswith("/*"):
                continue
            place = _relative(str(PurePosixPath(base or ".", target[:-2] if wildcard else target)))
            if place is None:
                continue
            roots.append(ModuleRoot(name, under=place) if wildcard else ModuleRoot(name, (place,)))
    if base is not None:  # ``import { x } from "utils/x"`` with baseUrl "src": src/utils/x
        roots.append(ModuleRoot("", under=base))
    return tuple(roots)


# the target kinds of a SwiftPM manifest whose sources are a folder of Swift files
_SWIFT_TARGET = re.compile(r"\.(?:target|executableTarget|testTarget|macro|plugin)\s*\(")
_SWIFT_NAME = re.compile(r'\A\s*name\s*:\s*"([^"\\]+)"')
_SWIFT_PATH = re.compile(r'(?:\A|,)\s*path\s*:\s*"([^"\\]*)"')


_SWIFT_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)  # \\ and \" are escapes


def _call_arguments(text: str, start: int) -> str | None:
    """The text between the parenthesis at ``start - 1`` and its match, with what nested
    brackets and string literals hold blanked (so labels found in it are the call's own);
    None when it does not close."""
    depth, out, i = 0, [], start
    while i < len(text):
        c = text[i]
        if c == '"':
            literal = _SWIFT_STRING.match(text, i)
            if literal is None:
                return None
            out.append(literal.group() if depth == 0 else " ")
            i = literal.end()
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            if depth == 0:
                return "".join(out)
            depth -= 1
        elif depth == 0:
            out.append(c)
        i += 1
    return None


def _package_swift(text: str) -> tuple[ModuleRoot, ...]:
    """The targets that set ``path:``: the module (the target's name) and its folder."""
    roots: list[ModuleRoot] = []
    for match in _SWIFT_TARGET.finditer(text):
        args = _call_arguments(text, match.end())
        if args is None:
            continue
        name, path = _SWIFT_NAME.search(args), _SWIFT_PATH.search(args)
        folder = _relative(path.group(1).rstrip("/")) if path is not None else None
        if name is not None and folder is not None:
            roots.append(ModuleRoot(name.group(1), under=folder))
        if len(roots) == _MAX_ALIASES:
            break
    return tuple(roots)


_READERS: dict[str, Callable[[str], tuple[ModuleRoot, ...]]] = {
    "go.mod": _go_mod,
    "Package.swift": _package_swift,
    "package.json": _package_json,
    "jsconfig.json": _tsconfig,
}
_TSCONFIG = re.compile(r"tsconfig(?:\.[\w.-]+)?\.json")


def manifest_kind(path: str) -> str:
    """Which manifest ``path`` is: "go.mod", "package.json", "Package.swift", "tsconfig" or
    ""."""
    name = PurePosixPath(path).name
    if name in _READERS:
        return "tsconfig" if name == "jsconfig.json" else name
    return "tsconfig" if _TSCONFIG.fullmatch(name) else ""


def read_module_roots(path: str, text: str) -> tuple[ModuleRoot, ...]:
    """The module roots the manifest at ``path`` declares (none for other files, and for a
    manifest that names nothing or does not read)."""
    kind = manifest_kind(path)
    if not kind or len(text) > _MAX_MANIFEST_CHARS:
        return ()
    reader = _tsconfig if kind == "tsconfig" else _READERS[kind]
    try:
        return reader(text)
    except RecursionError:  # a pathologically nested document
        return ()
