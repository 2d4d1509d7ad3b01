"""Which names in a point's hidden text come from another file of the corpus (pure but for a
per-file cache).

A point is cross-file when its ground truth uses a name the current file does not define and
another corpus file does (in 1 to ``MAX_DEFINING_FILES`` files: names defined everywhere, such as
``main`` or ``get``, do not count). For Python files that parse, "does not define" is decided
from the file's bindings (``ast``):

- a bare name counts when the file binds it only through ``from M import name`` or not at all
  (a star import): never when it is assigned, a parameter, a ``def``/``class``, a loop, ``with``
  or ``except`` target anywhere in the file (``end``, ``title``, ``item``: locals that happen to
  share a name with a definition elsewhere);
- ``base.name`` counts when ``base`` is a module or name the file imports (``random.randrange``,
  ``mock.Mock``), never for other attribute accesses (``s.startswith``, ``self._loop``), whose
  owner cannot be told without types.

Other languages, and Python files that do not parse, use the lexical rule: any name the file's
outline does not define, except ``self.x``/``this.x``/``cls.x``, and except a bare name the file
binds itself: a parameter of one of its functions, or a variable it declares or assigns
(``redisReply *reply = …``, PHP's ``$options`` where written so; since 2026-12-03: 68 of the
420 cross-file points of the stored draws were such names only, guzzle's ``$options`` 17 of
30). Identifiers
are taken from code only (strings and comments masked) and whole: a word the cursor splits
counts by its full name.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import re
from dataclasses import dataclass

from daemon.context.retrieve import bound_names
from daemon.index import IndexSnapshot
from daemon.languages import LANGUAGES
from daemon.parse import IDENT, mask_prose

MAX_DEFINING_FILES = 3  # a name defined in more files than this is too common for cross-file
_BUILTINS = frozenset(dir(builtins))
_WORD = re.compile(rb"(?<![0-9A-Za-z_])[A-Za-z_][A-Za-z0-9_]*")
_OWNERS = frozenset({b"self", b"this", b"cls"})
# not corpus.KEYWORDS: that one also drops names such as ``new`` and ``type`` (hashlib.new is a
# cross-file name); changing this set changes the sampled points
_KEYWORDS = frozenset(keyword.kwlist) | {"self", "cls", "this", "true", "false", "null", "nil"}


@dataclass(frozen=True, slots=True)
class Bindings:
    """Names a Python file binds, by how."""

    local: frozenset[str]  # assignments, parameters, def/class, for/with/except/match targets
    imported: frozenset[str]  # ``from M import name [as alias]``
    modules: frozenset[str]  # ``import M [as alias]`` (the first dotted part without alias)


def python_bindings(text: str) -> Bindings | None:
    """The names ``text`` binds; None when it does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    local: set[str] = set()
    imported: set[str] = set()
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(a.asname or a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.update(a.asname or a.name for a in node.names if a.name != "*")
        elif name := _bound_name(node):
            local.add(name)
    return Bindings(frozenset(local), frozenset(imported), frozenset(modules))


def _bound_name(node: ast.AST) -> str | None:
    """The name a node binds other than by import, if any."""
    if isinstance(node, ast.Name):
        return None if isinstance(node.ctx, ast.Load) else node.id
    if isinstance(node, ast.arg):
        return node.arg
    if isinstance(
        node,
        (
            ast.FunctionDef,
            ast.AsyncFunctionDef,
            ast.ClassDef,
            ast.ExceptHandler,
            ast.MatchAs,
            ast.MatchStar,
        ),
    ):
        return node.name
    return None


# languages whose parameters are written name first (``a: int``, Go's ``a int``); the others
# name last (``const Slice& key``, PHP's ``array $options``)
_NAME_FIRST = frozenset(
    {"python", "go", "kotlin", "swift", "typescript", "tsx", "javascript", "rust", "ruby"}
)
_PARAM_KEYWORDS = frozenset({"mut", "self", "ref", "out", "in", "inout", "var", "val", "final"})


def param_names(params: str, language: str) -> set[str]:
    """The names a parameter list as written binds (``Definition.params``): ``(redisContext
    *c, int flags)`` -> c, flags; ``(a, b int)`` (Go) -> a, b; ``(for key: String)`` (Swift,
    both labels) -> for, key."""
    inner = params.strip()
    if inner.startswith("(") and inner.endswith(")"):
        inner = inner[1:-1]
    names: set[str] = set()
    for chunk in _top_level_parts(inner):
        chunk = chunk.split("=", 1)[0]
        if language in _NAME_FIRST:
            head, colon, _ = chunk.partition(":")
            words = [w for w in IDENT.findall(head) if w not in _PARAM_KEYWORDS]
            names.update(words if colon and language != "go" else words[:1])
        else:
            words = IDENT.findall(chunk)
            names.update(words[-1:])
    return names


def _top_level_parts(text: str) -> list[str]:
    """``text`` split at its commas outside brackets."""
    parts: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and depth:
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


@dataclass(frozen=True, slots=True)
class Use:
    """One identifier of the hidden text, whole, with the name before its dot (``->``, ``::``)
    if any."""

    name: str
    base: str | None  # ``base.name`` (``base->name``, ``base::name``); None for a bare name
    variable: bool = False  # written after a ``$`` (PHP, Ruby's globals): a variable's name


def hidden_uses(
    masked: bytes, start: int, end: int, access: tuple[bytes, ...] = (b".",)
) -> list[Use]:
    """Identifiers of ``masked`` (code with prose blanked) overlapping bytes [start, end);
    ``access``: the language's member access operators (``LanguageSpec.member_access``)."""
    uses: list[Use] = []
    for m in _WORD.finditer(masked, max(0, start - 200), min(len(masked), end + 200)):
        if m.end() <= start or m.start() >= end:
            continue
        before = masked[max(0, m.start() - 200) : m.start()].rstrip()
        base: str | None = None
        op = next((op for op in access if before.endswith(op)), b"")
        if op:  # ``a.b``, C/C++/PHP ``a->b``, ``A::b``
            owner = before[: -len(op)].rstrip()
            words = _WORD.findall(owner[-80:])
            base = words[-1].decode() if words and owner.endswith(words[-1]) else ""
        uses.append(Use(m.group().decode(), base, masked[m.start() - 1 : m.start()] == b"$"))
    return uses


@dataclass(frozen=True, slots=True)
class _FileFacts:
    """What the resolver reads once per file."""

    masked: bytes  # the code, prose blanked
    bindings: Bindings | None  # Python's; None: the lexical rule
    # the lexical rule's bare names the file binds itself (parameters, variables)
    bound: frozenset[str]
    sigil: str  # what starts a variable's name (PHP ``$``): only such uses are the file's
    access: tuple[bytes, ...]  # member access operators (``LanguageSpec.member_access``)


class CrossFileResolver:
    """Cross-file names of points of one corpus snapshot (caches per file)."""

    def __init__(self, snap: IndexSnapshot) -> None:
        self.snap = snap
        self._files: dict[str, _FileFacts] = {}

    def _file(self, path: str, language: str, text: str) -> _FileFacts:
        if path not in self._files:
            bindings = python_bindings(text) if language == "python" else None
            spec = LANGUAGES.get(language)
            sigil = spec.variable_sigil if spec is not None else ""
            access = tuple(op.encode() for op in spec.member_access) if spec else (b".",)
            bound: set[str] = set()
            if bindings is None:
                bound = bound_names(text, sigil=sigil)
                own = self.snap.files.get(path)
                for d in own.definitions if own is not None else ():
                    bound |= param_names(d.params, language)
            self._files[path] = _FileFacts(
                mask_prose(text, language), bindings, frozenset(bound), sigil, access
            )
        return self._files[path]

    def _elsewhere(self, name: str, path: str) -> bool:
        files = {ref.path for ref in self.snap.lookup(name) if ref.path != path}
        return 0 < len(files) <= MAX_DEFINING_FILES

    def names(self, path: str, language: str, before: str, hidden: str, after: str) -> list[str]:
        """Names of ``hidden`` (between ``before`` and ``after`` in the file) defined in other
        corpus files and not in this one, sorted; ``base.name`` for module attributes."""
        facts = self._file(path, language, before + hidden + after)
        masked, bindings = facts.masked, facts.bindings
        start = len(before.encode("utf-8", "surrogatepass"))
        end = start + len(hidden.encode("utf-8", "surrogatepass"))
        own = self.snap.files.get(path)
        defined = {d.name for d in own.definitions} if own is not None else set()
        found: set[str] = set()
        for use in hidden_uses(masked, start, end, facts.access):
            name = use.name
            if name in _KEYWORDS or len(name) < 2 or name in defined:
                continue
            if bindings is None:  # lexical rule
                if use.base is not None and use.base.encode() in _OWNERS:
                    continue
                if use.base is None and name in facts.bound and (use.variable or not facts.sigil):
                    continue  # a parameter or variable of this file's (PHP: ``$name`` only)
                if name not in _BUILTINS and self._elsewhere(name, path):
                    found.add(name)
            elif use.base is not None:
                owner = use.base
                if (
                    (owner in bindings.modules or owner in bindings.imported)
                    and owner not in bindings.local
                    and self._elsewhere(name, path)
                ):
                    found.add(f"{owner}.{name}")
            elif (
                name not in bindings.local
                and name not in bindings.modules
                and name not in _BUILTINS
                and self._elsewhere(name, path)
            ):
                found.add(name)
        return sorted(found)
