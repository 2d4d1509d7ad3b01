"""What the peer modes (``peer_llamavim``, ``peer_continue``, ``peer_tabby``) share: their
input, the editor session they may draw on, text cuts by tokens and lines, and the resolution of
a name to its definition that stands in for the peers' language server.

Pure but for reading other corpus files (never the point's own file: that one is the buffer,
the ground truth removed) through a small cache.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from app.evaluation.sampling import EvalPoint
from daemon.index import ProjectIndex
from daemon.symbols import Definition, DefKind, FileSummary
from engine.base import TokenCounter


class EditedRangeLike(Protocol):
    """A change the session made (``app.evaluation.session.EditedRange``)."""

    @property
    def path(self) -> str: ...
    @property
    def start_line(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def text(self) -> str: ...


class SessionLike(Protocol):
    """The editor session at a point (``app.evaluation.session.SessionContext``)."""

    @property
    def open_files(self) -> Sequence[tuple[str, str]]: ...  # (path, text), in opening order
    @property
    def recent_files(self) -> Sequence[str]: ...  # edited files, least recent first
    @property
    def recent_edits(self) -> Sequence[EditedRangeLike]: ...  # oldest first


@dataclass(frozen=True, slots=True)
class PeerInput:
    """What a peer mode builds its prompt from; built once per point by ``modes``."""

    point: EvalPoint
    index: ProjectIndex  # the corpus index (the point's file: the parse of its buffer)
    summary: FileSummary  # the buffer's parse (ground truth removed)
    counter: TokenCounter  # the model's tokenizer (what the peers count with)
    budget: int  # the eval's budget (nospin's ``context.budget_tokens``)
    session: SessionLike | None = None  # points from history; None for points cut from files
    seed: str = field(default="")  # seeds the peers' own randomness (llama.vim, Continue)

    @property
    def lines(self) -> list[str]:
        """The buffer's lines without line ends."""
        return self.point.buffer.split("\n")

    def file_text(self, path: str) -> str | None:
        """Text of a corpus file: the buffer for the point's own file, else the file on disk."""
        if path == self.point.path:
            return self.point.buffer
        return read_text(self.index.root / path)


@lru_cache(maxsize=512)
def read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def cut_head(text: str, budget: int, counter: TokenCounter) -> str:
    """The longest head of ``text`` within ``budget`` tokens (may end mid-line; a token-level
    cut as llama.cpp's server makes it, taken at a character)."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if counter.count(text[:mid]) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


def prune_lines_from_top(text: str, max_tokens: float, counter: TokenCounter) -> str:
    """Continue's ``pruneLinesFromTop``: drop whole lines from the top until the lines' token
    counts plus one per joining newline are within ``max_tokens``."""
    lines = text.split("\n")
    counts = [counter.count(line) for line in lines]
    total = sum(counts) + max(0, len(lines) - 1)
    start = 0
    while total > max_tokens and start < len(lines):
        total -= counts[start]
        if len(lines) - start > 1:
            total -= 1
        start += 1
    return "\n".join(lines[start:])


def prune_lines_from_bottom(text: str, max_tokens: float, counter: TokenCounter) -> str:
    """Continue's ``pruneLinesFromBottom``: drop whole lines from the bottom likewise."""
    lines = text.split("\n")
    counts = [counter.count(line) for line in lines]
    total = sum(counts) + max(0, len(lines) - 1)
    end = len(lines)
    while total > max_tokens and end > 0:
        end -= 1
        total -= counts[end]
        if end > 0:
            total -= 1
    return "\n".join(lines[:end])


@dataclass(frozen=True, slots=True)
class Resolved:
    """A definition a name resolved to, with its source text."""

    path: str
    definition: Definition
    text: str  # the definition's lines as written (a language server's ``targetRange``)


def definition_text(source: str, d: Definition) -> str:
    return "\n".join(source.split("\n")[d.start_line : d.end_line + 1])


def resolve_name(peer: PeerInput, name: str, *, module_alias: str = "") -> Resolved | None:
    """The definition ``name`` refers to in the point's file, found with nospin's tree-sitter
    index where the peers ask a language server (go to definition):

    1. ``module_alias.name`` or a name the file imports by ``from M import name`` (any
       language's import with names): the top-level definition of that name in the module's
       file, when the index resolves the module;
    2. a top-level definition of the file itself;
    3. otherwise the one definition of that name in the index, when exactly one file has one.

    None when the name resolves to none of these (a local, a parameter, a library name)."""
    index, summary = peer.index.snapshot(), peer.summary
    if module_alias:
        for imp in summary.imports:
            if not imp.names and (imp.alias or imp.module.split(".")[0]) == module_alias:
                target = index.resolve_module(imp.module, summary.path)
                if target is not None:
                    return _top_level(peer, target, name)
        return None
    for imp in summary.imports:
        if name in imp.names:
            target = index.resolve_module(imp.module, summary.path)
            if target is None:
                return None
            return _top_level(peer, target, _original(imp.text, name))
    own = _top_level(peer, summary.path, name)
    if own is not None:
        return own
    refs = [r for r in index.lookup(name) if not r.definition.parent]
    if len({r.path for r in refs}) != 1 or refs[0].path == summary.path:
        return None
    source = peer.file_text(refs[0].path)
    if source is None:
        return None
    return Resolved(refs[0].path, refs[0].definition, definition_text(source, refs[0].definition))


def _top_level(peer: PeerInput, path: str, name: str) -> Resolved | None:
    summary = peer.summary if path == peer.summary.path else peer.index.get(path)
    if summary is None:
        return None
    for d in summary.definitions:
        if d.name == name and not d.parent:
            source = peer.file_text(path)
            if source is None:
                return None
            return Resolved(path, d, definition_text(source, d))
    return None


def _original(statement: str, bound: str) -> str:
    """The imported name bound as ``bound`` (``from m import a as b``: a)."""
    m = re.search(rf"\b([A-Za-z_]\w*)\s+as\s+{re.escape(bound)}\b", statement)
    return m.group(1) if m else bound


TYPE_KINDS = frozenset({DefKind.CLASS, DefKind.FUNCTION, DefKind.METHOD})
