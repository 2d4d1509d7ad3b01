"""What a project manifest says its folder is imported as (pure).

- ``go.mod``: ``module github.com/go-chi/chi/v5``: the folder is that import path, and each
  folder below it (down to the next ``go.mod``) is the path plus the folder's (Go's own rule;
  a project's own packages are imported by that path, whatever its folders are called).
- ``package.json`` with a ``name``: in a JS/TS monorepo (npm, yarn, pnpm workspaces) another
  package imports it by that name (``@acme/ui``, ``@acme/ui/button``); its entry files are the
  ``types``, ``source``, ``module``, ``main`` and ``exports["."]`` it names.

``daemon.index`` turns these into import keys; ``daemon.parse.summarize`` calls
:func:`read_module_root` for files with these names. Anything malformed gives None: a manifest
that does not read is no reason to lose its folder's files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from daemon.symbols import ModuleRoot

_GO_MODULE = re.compile(r'^\s*module\s+"?([^\s"/][^\s"]*)"?\s*(?://.*)?$', re.MULTILINE)
# package.json fields naming the package's own entry, most source-like first (a monorepo's
# ``types`` or ``source`` often names src/index.ts where ``main`` names a build output)
_ENTRY_FIELDS = ("types", "typings", "source", "module", "main")
_MAX_ENTRIES = 8


def _go_mod(text: str) -> ModuleRoot | None:
    found = _GO_MODULE.search(text)
    return ModuleRoot(found.group(1)) if found else None


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


def _package_json(text: str) -> ModuleRoot | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or any(c.isspace() for c in name):
        return None
    entries: list[str] = [data[f] for f in _ENTRY_FIELDS if isinstance(data.get(f), str)]
    exports = data.get("exports")
    if isinstance(exports, dict) and any(k.startswith(".") for k in exports):
        _export_targets(exports.get("."), entries)
    else:  # ``"exports": "./index.js"`` or a conditions object for "." alone
        _export_targets(exports, entries)
    cleaned = [str(PurePosixPath(e)) for e in entries if e and "*" not in e]
    unique = tuple(dict.fromkeys(e for e in cleaned if not e.startswith("..")))
    return ModuleRoot(name.strip(), unique[:_MAX_ENTRIES])


_READERS: dict[str, Callable[[str], ModuleRoot | None]] = {
    "go.mod": _go_mod,
    "package.json": _package_json,
}

MANIFEST_NAMES = frozenset(_READERS)


def read_module_root(path: str, text: str) -> ModuleRoot | None:
    """The module root the manifest at ``path`` declares, or None (not a manifest, or one
    that names nothing)."""
    reader = _READERS.get(PurePosixPath(path).name)
    return reader(text) if reader is not None else None
