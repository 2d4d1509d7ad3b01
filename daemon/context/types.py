"""Data of the context assembler: its request, segments and result (pure, immutable)."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from daemon.languages import comment_leader
from engine.base import ContextSnippet, PromptParts


class Tier(enum.IntEnum):
    """Keep priority of a segment (design.md §2). Lower keeps first."""

    FIXED = -1  # instructions and format tokens: always charged, never dropped
    P0 = 0  # must keep: cursor window, enclosing signature, definitions used at the cursor
    P1 = 1  # try to keep: whole enclosing function, related classes, file head
    P2 = 2  # may drop: retrieval results, edit-history summary, middle summary


class Role(enum.Enum):
    """Where a segment goes in the rendered prompt."""

    SNIPPET = "snippet"  # cross-file context before the current file
    PREFIX = "prefix"  # part of the current file before the cursor (in document order)
    SUFFIX = "suffix"  # part of the current file after the cursor


class Kind(enum.Enum):
    INSTRUCTIONS = "instructions"
    RELATED = "related"  # definitions of symbols used at the cursor (other files)
    RETRIEVED = "retrieved"  # similar windows from recently edited / opened files
    HISTORY = "history"  # edit-history summary
    FILE_HEAD = "file_head"  # imports and top of the current file
    FILE_SUMMARY = "file_summary"  # middle of the current file, bodies elided
    ENCLOSING = "enclosing"  # enclosing function/class above the cursor window
    CURSOR_WINDOW = "cursor_window"  # lines just above the cursor, and the cursor line's start
    SUFFIX = "suffix"  # the rest of the cursor line and lines below
    FILE_TAIL = "file_tail"  # the end of a long file, summarised


@dataclass(frozen=True, slots=True)
class ContextRequest:
    """One completion point; the text may be an unsaved editor buffer."""

    path: str  # project-relative path (or absolute when outside any project)
    text: str
    line: int  # 0-based
    column: int  # 0-based, in characters of the line
    language: str | None = None  # None: detect from the path
    budget_tokens: int = 2048

    def __repr__(self) -> str:  # never print source text
        return (
            f"ContextRequest(path={self.path!r}, line={self.line}, column={self.column}, "
            f"budget={self.budget_tokens})"
        )


@dataclass(frozen=True, slots=True)
class Segment:
    kind: Kind
    tier: Tier
    role: Role
    source: str  # "path:start-end" (1-based lines) or a short label
    text: str
    num_tokens: int  # as charged against the budget, per-segment overhead included

    def __repr__(self) -> str:
        return f"Segment({self.kind.value}, {self.tier.name}, {self.source}, {self.num_tokens})"


@dataclass(frozen=True, slots=True)
class DroppedSegment:
    kind: Kind
    tier: Tier
    source: str
    num_tokens: int
    reason: str  # "over budget", "over share", "duplicate"


@dataclass(frozen=True, slots=True)
class AssembledContext:
    """The result: segments in prompt order (stable first), with budget accounting."""

    path: str
    language: str
    segments: tuple[Segment, ...]
    budget_tokens: int
    num_tokens: int  # sum of kept segments' num_tokens; never above budget_tokens
    num_tokens_before_trim: int  # all candidates before trimming
    dropped: tuple[DroppedSegment, ...]
    assemble_ms: float
    # the names the project module of a ``from M import`` on the cursor line has: post-processing
    # cuts a completion's import list before a name outside them (daemon.import_names); None:
    # no such line, or M is no project file or its names are open-ended
    import_names: frozenset[str] | None = None

    @property
    def num_tokens_saved(self) -> int:
        return self.num_tokens_before_trim - self.num_tokens

    def to_prompt_parts(self) -> PromptParts:
        """Group segments for the engine's model profile (snippets, prefix, suffix)."""
        snippets: list[ContextSnippet] = []
        for s in self.segments:
            if s.role is not Role.SNIPPET or s.kind is Kind.INSTRUCTIONS:
                continue
            path = _source_path(s.source)
            if snippets and snippets[-1].path == path and path:  # one file: one header
                last = snippets[-1]
                joined = last.text if last.text.endswith("\n") else last.text + "\n"
                snippets[-1] = ContextSnippet(path=path, text=joined + s.text)
            else:
                snippets.append(ContextSnippet(path=path, text=s.text))
        prefix = "".join(_without_repeated_heads(
            [s for s in self.segments if s.role is Role.PREFIX], comment_leader(self.language)))
        suffix = "".join(s.text for s in self.segments if s.role is Role.SUFFIX)
        return PromptParts(
            path=self.path, language=self.language, snippets=tuple(snippets), prefix=prefix,
            suffix=suffix,
        )


_INLINE_KINDS = (Kind.RELATED, Kind.RETRIEVED)


def _without_repeated_heads(segments: list[Segment], mark: str) -> Iterator[str]:
    """The texts of prefix ``segments``; a cross-file snippet inlined as comments
    (``candidates.commented``: ``{mark} {path}`` first) right after one of the same file loses
    its path line (``# lib/rack/constants.rb`` once above the constants it shows, not once per
    constant). Each was counted with its head: the prompt only gets shorter."""
    previous = ""
    for s in segments:
        head = f"{mark} {_source_path(s.source)}\n" if s.kind in _INLINE_KINDS else ""
        if not s.text.startswith(head):
            head = ""
        yield s.text[len(head):] if head and head == previous else s.text
        previous = head


def _source_path(source: str) -> str:
    path, sep, _ = source.rpartition(":")
    return path if sep else source
