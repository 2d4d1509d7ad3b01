"""Helpers of the summary, index and context tests: a project index from texts, a cursor
marked in a text, the related segments of a project on disk, definitions by qualname."""

from __future__ import annotations

from pathlib import Path

from app.config import Config, ContextConfig
from app.evaluation.corpus import build_index
from daemon.context import ContextRequest, Kind, assemble_context
from daemon.context.retrieve import RelatedDefinition, related_definitions
from daemon.index import ProjectIndex
from daemon.parse import summarize
from daemon.symbols import Definition, FileSummary

MARKER = "<|>"


def index_of(files: dict[str, str]) -> ProjectIndex:
    """An index of ``files`` (project-relative path -> text), parsed as the indexer parses."""
    index = ProjectIndex(Path("/project"))
    index.apply({p: summarize(p, t) for p, t in files.items()})
    return index


def related_in(
    files: dict[str, str], path: str, window: str, rest: str
) -> list[RelatedDefinition]:
    """The related definitions of ``window`` (its text, near the cursor too) in the file
    ``path``, whose whole text is ``window + rest``, among ``files``."""
    summary = summarize(path, window + rest)
    return related_definitions(index_of(files).snapshot(), summary, window, window)


def cursor(text: str, marker: str = MARKER) -> tuple[str, int, int]:
    """``text`` without ``marker``, and the 0-based line and column where it was."""
    before, after = text.split(marker)
    line = before.count("\n")
    column = len(before) - (before.rfind("\n") + 1)
    return before + after, line, column


def related_segments(
    tmp_path: Path, files: dict[str, str], current: str, layout: str = "cursor"
) -> list[str]:
    """The ``related`` segments (source line, then text) for the cursor (``MARKER``) in
    ``current``, the project written under ``tmp_path`` and indexed by the daemon's indexer."""
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text.replace(MARKER, ""))
    index, _ = build_index(tmp_path, Config())
    text, line, col = cursor(files[current])
    ctx = assemble_context(
        ContextRequest(path=current, text=text, line=line, column=col, budget_tokens=1024),
        index=index,
        config=ContextConfig(layout=layout),
    )
    return [f"{s.source}\n{s.text}" for s in ctx.segments if s.kind is Kind.RELATED]


def defs(summary: FileSummary) -> dict[str, list[Definition]]:
    """The definitions of ``summary`` by qualname (overloads: several)."""
    out: dict[str, list[Definition]] = {}
    for d in summary.definitions:
        out.setdefault(d.qualname, []).append(d)
    return out


def one(summary: FileSummary, qualname: str) -> Definition:
    """The one definition of ``summary`` named ``qualname``."""
    found = defs(summary)[qualname]
    assert len(found) == 1, found
    return found[0]
