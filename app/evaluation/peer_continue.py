"""The ``continue`` eval mode: Continue's autocomplete prompt for a Qwen coder model (docs/
quality.md, "Peer modes", cites each rule's source), with ``maxPromptTokens`` = the budget.

- Prefix: the file before the cursor, whole lines dropped from the top to
  ``prefixPercentage`` (0.3) of the budget; suffix: the file after it, lines dropped from the
  bottom to ``min(budget - prefix, maxSuffixPercentage (0.2) * budget)``; an empty one is
  ``"\\n"``.
- Snippets fill what is left, each charged its tokens plus ``TOKEN_BUFFER`` (10), group by
  group in priority order: recently opened files (2), recently visited ranges (3), recently
  edited ranges (4), then the base group (99): root-path definitions (the types in the
  signatures of the functions and classes around the cursor) and import definitions (the
  definitions of imported names used in the 5 lines before and 3 after the cursor), shuffled,
  without those already in the prefix/suffix. A snippet that does not fit is skipped, the next
  tried; a code snippet of a file an earlier group used is skipped.
- Rendered with Continue's Qwen multi-file template: ``<|repo_name|>``, a ``<|file_sep|>path``
  block per snippet, ``<|file_sep|>`` and the current path, then the FIM prompt - the layout of
  nospin's Qwen profile for snippets with a path (the repository name is the profile's).

Continue asks the editor's language server for definitions; here nospin's tree-sitter index
resolves them (``peer_common.resolve_name``). Its shuffle of the base group is seeded by the point.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass

from app.evaluation.peer_common import (
    PeerInput,
    prune_lines_from_bottom,
    prune_lines_from_top,
    resolve_name,
)
from daemon.symbols import DefKind
from engine.base import ContextSnippet, PromptParts, TokenCounter

PREFIX_PERCENTAGE = 0.3  # DEFAULT_AUTOCOMPLETE_OPTS.prefixPercentage
MAX_SUFFIX_PERCENTAGE = 0.2  # maxSuffixPercentage
TOKEN_BUFFER = 10  # tokens charged per snippet besides its content (templating/filtering.ts)
IMPORT_LINES_BEFORE = 5  # lines of the prefix whose symbols look up imports
IMPORT_LINES_AFTER = 3  # lines of the suffix likewise
IMPORT_MAX_BYTES = 10_000  # imports are parsed from the file's first 10,000 bytes (its
# tree-sitter includedRanges; their end position, row 100, does not limit what is parsed)
VISITED_SURROUNDING = 20  # lines either side of a visited position
VISITED_MAX_FILES = 3  # files of recently visited ranges
VISITED_PER_FILE = 3  # snippets per file
OPENED_USED = 5  # recently opened files used (formatOpenedFilesContext)
OPENED_MIN_TOKENS = 125  # tokens a trimmed opened file keeps at least
# languages Continue has import queries for (extensions/vscode/tree-sitter/import-queries)
IMPORT_LANGUAGES = frozenset({"python", "typescript", "tsx", "java", "cpp"})
# getSymbolsForSnippet's separators (``_`` among them: snake_case names never match)
_SYMBOL_SPLIT = re.compile(r"[\s.,/#!$%^&*;:{}=\-_`~()\[\]]")
# Python's topLevelKeywords (AutocompleteLanguageInfo.ts)
_TOP_LEVEL = frozenset({"def", "class", '"""#'})
# the type names Continue's Python root-path queries leave out (#not-match?)
_PY_BUILTIN_TYPES = frozenset({
    "str", "int", "float", "bool", "list", "dict", "tuple", "set", "frozenset", "complex",
    "bytes", "bytearray", "memoryview", "range", "slice", "object", "type", "NoneType",
    "List", "Dict", "Tuple", "Set", "FrozenSet", "Union", "Optional", "Any", "Callable",
    "Iterable", "Iterator", "Generator", "Coroutine", "AsyncIterable", "AsyncIterator",
    "Awaitable", "ContextManager", "Pattern", "Match", "TypeVar", "Generic", "Sequence",
    "Mapping", "MutableMapping", "MutableSequence", "ByteString", "Reversible", "Sized",
    "Container", "Collection", "AbstractSet", "MutableSet", "KeysView", "ItemsView",
    "ValuesView", "Hashable", "SupportsInt", "SupportsFloat", "SupportsComplex",
    "SupportsBytes", "SupportsAbs", "SupportsRound", "ChainMap", "Counter", "OrderedDict",
    "defaultdict", "deque", "namedtuple", "TypedDict",
})
_ANNOTATION = re.compile(r":\s*([A-Za-z_]\w*)(?:\[\s*([A-Za-z_]\w*)\s*\])?")
_RETURN = re.compile(r"^\s*([A-Za-z_]\w*)(?:\[\s*([A-Za-z_]\w*)\s*\])?")


@dataclass(frozen=True, slots=True)
class Snippet:
    filepath: str
    content: str


def symbols_for_snippet(text: str) -> list[str]:
    """getSymbolsForSnippet: the text split at Continue's separators, empties dropped, each
    once in order of appearance (a JavaScript Set)."""
    return list(dict.fromkeys(s.strip() for s in _SYMBOL_SPLIT.split(text) if s.strip()))


def import_definitions(peer: PeerInput) -> list[Snippet]:
    """getSnippetsFromImportDefinitions: for each symbol near the cursor that the file imports
    (in its first 10,000 bytes), the imported definitions' text."""
    point = peer.point
    if point.language not in IMPORT_LANGUAGES:
        return []
    around = ("\n".join(point.before.split("\n")[-IMPORT_LINES_BEFORE:])
              + "\n".join(point.after.split("\n")[:IMPORT_LINES_AFTER]))
    head = point.buffer.encode("utf-8")[:IMPORT_MAX_BYTES].decode("utf-8", "ignore")
    head_lines = head.split("\n")
    imported = {n for imp in peer.summary.imports
                if imp.line < len(head_lines) - 1
                or (imp.line == len(head_lines) - 1 and imp.text in head_lines[-1])
                for n in imp.names}
    out: list[Snippet] = []
    for symbol in symbols_for_snippet(around):
        if symbol in imported and symbol not in _TOP_LEVEL:
            found = resolve_name(peer, symbol)
            if found is not None:
                out.append(Snippet(found.path, found.text))
    return out


def root_path_definitions(peer: PeerInput) -> list[Snippet]:
    """getRootPathSnippets (Python's queries): for the classes and functions enclosing the
    cursor, outermost first, the definitions of the types named in their parameters' and return
    annotations (a simple name or a generic's name and single parameter) and of their
    superclasses, builtin and typing names left out."""
    if peer.point.language != "python":
        return []
    out: list[Snippet] = []
    for d in peer.summary.definitions_at(peer.point.line):
        names: list[str] = []
        if d.kind is DefKind.CLASS:
            bases = re.search(r"\((.*)\)", d.signature, re.S)
            for part in (bases.group(1).split(",") if bases else ()):
                value = part.split("=", 1)[-1].strip()
                m = re.match(r"([A-Za-z_]\w*)", value)
                if m:
                    names.append(m.group(1))
        else:
            for m in _ANNOTATION.finditer(d.params):
                names += [g for g in m.groups() if g]
            m = _RETURN.match(d.return_type)
            if m:
                names += [g for g in m.groups() if g]
        for name in names:
            if name in _PY_BUILTIN_TYPES:
                continue
            found = resolve_name(peer, name)
            if found is not None:
                out.append(Snippet(found.path, found.text))
    return out


def session_snippets(peer: PeerInput) -> tuple[list[Snippet], list[Snippet], list[Snippet]]:
    """(recently opened files, recently visited ranges, recently edited ranges) from the
    session: opened files most recent first without the point's; a visited range is the
    ``VISITED_SURROUNDING`` lines either side of an edit, from the 3 most recently edited other
    files, 3 each; edited ranges are the edits' lines, most recent first."""
    session = peer.session
    if session is None:
        return [], [], []
    here = peer.point.path
    opened = [Snippet(p, t) for p, t in reversed(session.open_files) if p != here and t.strip()]
    texts = dict(session.open_files)
    visited: list[Snippet] = []
    files = [p for p in reversed(session.recent_files) if p != here][:VISITED_MAX_FILES]
    for path in files:
        text = texts.get(path) or peer.file_text(path) or ""
        lines = text.split("\n")
        edits = [e for e in reversed(session.recent_edits) if e.path == path][:VISITED_PER_FILE]
        for e in edits:
            lo = max(0, e.start_line - VISITED_SURROUNDING)
            visited.append(Snippet(path, "\n".join(lines[lo : e.start_line + VISITED_SURROUNDING])))
    edited = [Snippet(e.path, e.text) for e in reversed(session.recent_edits) if e.text.strip()]
    return opened, visited, edited


def format_opened_files(
    opened: list[Snippet], remaining: int, added: list[Snippet], counter: TokenCounter
) -> list[Snippet]:
    """formatOpenedFilesContext: the most recent files whole while they fit; when fewer than
    5 fit, the first 5 each trimmed from the bottom to a share of the room (2 / (N + 1) of what
    is left above 125 tokens each). Continue ranks those 5 by recency and size; here by
    recency."""
    files = [s for s in opened if s.filepath not in {a.filepath for a in added}]
    if not files:
        return []
    used = min(OPENED_USED, len(files))
    fit, total = 0, 0
    for s in files:
        n = counter.count(s.content)
        if total + n < remaining - TOKEN_BUFFER:
            total += n
            fit += 1
        else:
            break
    if fit >= used:
        return files[:fit]
    top = files[:used]
    while top and remaining - TOKEN_BUFFER < len(top) * OPENED_MIN_TOKENS:
        top.pop()
    out: list[Snippet] = []
    while top:
        n = len(top)
        limit = math.floor(OPENED_MIN_TOKENS + 2 / (n + 1) * (
            remaining - TOKEN_BUFFER - n * OPENED_MIN_TOKENS))
        trimmed = prune_lines_from_bottom(top[0].content, limit, counter)
        out.append(Snippet(top[0].filepath, trimmed))
        remaining -= counter.count(trimmed)
        top.pop(0)
    return out


def select_snippets(peer: PeerInput, caret_window: str, remaining: int) -> list[Snippet]:
    """getSnippets: the groups in priority order within ``remaining`` tokens."""
    counter = peer.counter
    opened, visited, edited = session_snippets(peer)
    base = [s for s in root_path_definitions(peer) + import_definitions(peer)
            if s.content.strip() and s.content.strip() not in caret_window]
    random.Random(f"continue:{peer.seed}:{peer.point.id}").shuffle(base)
    final: list[Snippet] = []
    added: set[str] = set()
    for key, group in (("opened", opened), ("visited", visited), ("edited", edited),
                       ("base", base)):
        if key == "opened":
            group = format_opened_files(opened, remaining, final, counter)
        else:
            group = [s for s in group if s.filepath not in added]
        for s in group:
            if not s.content.strip():
                continue
            size = counter.count(s.content) + TOKEN_BUFFER
            if remaining >= size:
                final.append(s)
                added.add(s.filepath)
                remaining -= size
        if remaining <= 0:
            break
    return final


def build_continue(peer: PeerInput) -> tuple[PromptParts, int]:
    """The continue prompt of ``peer.point`` and its tokens as Continue counts them
    (prefix, suffix, snippets and their buffers)."""
    counter, budget, point = peer.counter, peer.budget, peer.point
    prefix = prune_lines_from_top(point.before, budget * PREFIX_PERCENTAGE, counter)
    n_prefix = counter.count(prefix)
    suffix = prune_lines_from_bottom(
        point.after, min(budget - n_prefix, MAX_SUFFIX_PERCENTAGE * budget), counter)
    if suffix == "":
        suffix = "\n"
    caret = prefix + suffix
    remaining = budget - counter.count(caret)
    snippets = select_snippets(peer, caret, remaining)
    parts = PromptParts(
        path=point.path, language=point.language,
        snippets=tuple(ContextSnippet(path=s.filepath, text=s.content) for s in snippets),
        prefix=prefix, suffix=suffix,
    )
    used = sum(counter.count(s.content) + TOKEN_BUFFER for s in snippets)
    return parts, counter.count(caret) + used
