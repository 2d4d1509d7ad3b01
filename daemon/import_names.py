"""A Python ``from M import a, b`` completion stops before a name the project module ``M``
does not have: the model, not shown which names ``M`` holds, lists plausible ones
(``from tenacity import BaseRetrying, Retry, StopAfterMaxRetries, ...``), and each made-up name
is an ImportError the user must delete.

``module_names`` (called by the context assembler, which holds the index) gives the names a
cursor line's ``from M import`` may take from ``M``; ``cut_unknown_names`` (called by
post-processing) cuts a completion at the first name outside them. Pure functions; the index is
passed in.
"""

from __future__ import annotations

import posixpath
import re

from daemon.index import IndexSnapshot

# the cursor line's text before the cursor once it names its module: "from tenacity imp"
_FROM = re.compile(r"^\s*from\s+(\.+[\w.]*|[A-Za-z_][\w.]*)\s")
# the whole line: module, then the import list after "import" (an open parenthesis aside)
_FROM_IMPORT = re.compile(r"^\s*from\s+\S+\s+import\s+\(?")
_NAME = re.compile(r"[A-Za-z_]\w*")
_SEPARATOR = re.compile(r"(\s*as\s+[A-Za-z_]\w*)?\s*,\s*")  # group 1: an ``as`` alias
_LANGUAGES = frozenset({"python"})


def import_module_at(line_before: str, language: str) -> str | None:
    """The module of the ``from M import`` statement that ``line_before`` (the cursor line's
    text before the cursor) starts, once the module is written whole; None otherwise."""
    if language not in _LANGUAGES:
        return None
    found = _FROM.match(line_before)
    return found.group(1) if found else None


def module_names(index: IndexSnapshot, module: str, from_path: str) -> frozenset[str] | None:
    """The names ``from module import`` may take from the project file ``module`` resolves to
    from ``from_path``: its top-level definitions, the names its imports bind, and (a package's
    ``__init__.py``) the modules and packages beside it. None when it is no project file, or
    when its names are open-ended (a star import, a module ``__getattr__``). A file whose parse
    had errors keeps what it parsed (tenacity's ``__init__.py`` imports from ``tenacity.async``,
    a keyword since Python 3.7)."""
    path = index.resolve_module(module, from_path)
    summary = index.files.get(path) if path is not None else None
    if summary is None:
        return None
    names = {d.name for d in summary.definitions if not d.parent}
    if "__getattr__" in names:
        return None
    for imp in summary.imports:
        if "*" in imp.names:
            return None
        names.update(imp.names)
        if imp.alias:
            names.add(imp.alias)
    if path is not None and posixpath.basename(path) == "__init__.py":
        names.update(_package_modules(index, posixpath.dirname(path)))
    return frozenset(names)


def _package_modules(index: IndexSnapshot, folder: str) -> set[str]:
    """The modules (``wait`` of ``wait.py``) and packages (``sub`` of ``sub/__init__.py``) in
    package ``folder``. One prefix test a path: 10,000 files in about a millisecond."""
    prefix = f"{folder}/" if folder else ""
    found: set[str] = set()
    for other in index.files:
        if not other.startswith(prefix):
            continue
        rest = other[len(prefix) :]
        if rest.endswith(".py") and "/" not in rest and rest != "__init__.py":
            found.add(rest[:-3])
        elif rest.endswith("/__init__.py") and rest.count("/") == 1:
            found.add(rest[: -len("/__init__.py")])
    return found


def cut_unknown_names(line_before: str, completion: str, known: frozenset[str] | None) -> str:
    """``completion`` (inserted after ``line_before``, the cursor line's text before the cursor)
    cut after the last name of its ``from M import`` list that ``known`` holds, where the list
    goes on to a name ``known`` lacks. Unchanged when ``known`` is None, when the line is no such
    import, or when the first name it completes is already unknown (nothing is left to show)."""
    if known is None:
        return completion
    first, _, _ = completion.partition("\n")
    line = line_before + first
    head = _FROM_IMPORT.match(line)
    if head is None:
        return completion
    pos = head.end()
    last_end = None  # where the last known name (and its alias) ends
    while True:
        name = _NAME.match(line, pos)
        if name is None:
            return completion
        if name.group() not in known:
            break
        sep = _SEPARATOR.match(line, name.end())
        if sep is None:
            return completion
        last_end = name.end() + len(sep.group(1) or "")
        pos = sep.end()
    if name.end() <= len(line_before):
        return completion  # the user typed it: not the completion's to judge
    cut = (last_end or 0) - len(line_before)
    return completion[:cut] if cut > 0 else completion


def line_before_cursor(prefix: str) -> str:
    """The cursor line's text before the cursor: a prompt prefix's last line."""
    return prefix[prefix.rfind("\n") + 1 :]
